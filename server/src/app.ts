import path from "node:path";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import {
  createServer,
  refreshSearchOnListen,
  registerMonitorMetricsOf,
  repairAtStart,
  resolveSharedKeys,
  stripHiddenProperties,
} from "./app-setup.js";
import type { Config } from "./config.js";
import type { Db } from "./db/database.js";
import { API_PREFIX, registerNotFoundHandler } from "./http/error-handler.js";
import { registerHealth } from "./http/health.js";
import { MethodIndex } from "./http/method-index.js";
import { registerMetrics } from "./http/metrics.js";
import { DOCS_PATH, OPENAPI_PATH, registerOpenApi } from "./http/openapi.js";
import { registerSpa, spaFallback } from "./http/spa.js";
import { SystemMediaTools, SystemVideoRenderTools } from "./media/index.js";
import { buildAccessControl } from "./modules/access/access.compose.js";
import { accessRoutes } from "./modules/access/access.routes.js";
import { currentUserRoutes } from "./modules/access/current-user.routes.js";
import { propertyAccessRoutes } from "./modules/access/property-access.routes.js";
import { buildPropertyAccess } from "./modules/access/property-access.service.js";
import { RolesRepository } from "./modules/access/roles.repository.js";
import { buildActions, buildActionTriggers } from "./modules/actions/actions.compose.js";
import { ApiTokensRepository } from "./modules/api-tokens/api-tokens.repository.js";
import { apiTokensRoutes } from "./modules/api-tokens/api-tokens.routes.js";
import { ApiTokensService } from "./modules/api-tokens/api-tokens.service.js";
import { buildAudit } from "./modules/audit/audit.compose.js";
import { auditExportTable } from "./modules/audit/audit.export.js";
import { auditRoutes } from "./modules/audit/audit.routes.js";
import { recordUnrecorded } from "./modules/audit/audit-coverage.js";
import { recordRefusals } from "./modules/audit/audit-refusals.js";
import { permits, registerApiAuth } from "./modules/auth/auth.plugin.js";
import type { ShareVisitResolver } from "./modules/auth/auth.types.js";
import type { BearerVerifier } from "./modules/auth/bearer.js";
import type { BlobStore } from "./modules/blobs/blob-store.js";
import { buildBlobs } from "./modules/blobs/blobs.compose.js";
import { buildBlobStore } from "./modules/blobs/build-blob-store.js";
import { buildCatalogue } from "./modules/catalogue/catalogue.compose.js";
import { catalogueRoutes } from "./modules/catalogue/catalogue.routes.js";
import type { CatalogueUsage } from "./modules/catalogue/shared/catalogue-usage.js";
import { buildChannels } from "./modules/channels/channels.compose.js";
import { channelsRoutes } from "./modules/channels/channels.routes.js";
import { buildDav, DAV_PREFIXES } from "./modules/dav/dav.compose.js";
import { buildDisk } from "./modules/disk/disk.compose.js";
import { embedRoutes } from "./modules/embed/embed.routes.js";
import { ExportRegistry, exportsRoutes } from "./modules/exports/exports.routes.js";
import { buildFavourites } from "./modules/favourites/favourites.compose.js";
import { favouritesRoutes } from "./modules/favourites/favourites.routes.js";
import { buildFolders } from "./modules/folders/folders.compose.js";
import { foldersRoutes } from "./modules/folders/folders.routes.js";
import { buildIngest } from "./modules/ingest/ingest.compose.js";
import { buildJobs } from "./modules/jobs/jobs.compose.js";
import { registerJobMetrics } from "./modules/jobs/jobs.metrics.js";
import { buildLibraries, buildLibrarySettings } from "./modules/libraries/libraries.compose.js";
import { librariesRoutes } from "./modules/libraries/libraries.routes.js";
import { librarySettingsRoutes } from "./modules/libraries/library-settings.routes.js";
import { registerMaintenance } from "./modules/maintenance/maintenance.job.js";
import { MaintenanceRuns } from "./modules/maintenance/maintenance-runs.js";
import { mediaUploadsModule } from "./modules/media-uploads/media-uploads.compose.js";
import { MediaUrlSigner } from "./modules/media-urls/media-url-signer.js";
import { mediaUrlsRoutes } from "./modules/media-urls/media-urls.routes.js";
import { MenusRepository } from "./modules/menus/menus.repository.js";
import { menusRoutes } from "./modules/menus/menus.routes.js";
import { MenusService } from "./modules/menus/menus.service.js";
import { buildMetadataTemplates } from "./modules/metadata-templates/metadata-templates.compose.js";
import { buildMonitor, buildUsageCounter } from "./modules/monitor/monitor.compose.js";
import { searchMissesExportTable, usageExportTable } from "./modules/monitor/usage.export.js";
import { usageRetentionStart } from "./modules/monitor/usage-counter.js";
import { AuthThrottle } from "./modules/oidc/auth-throttle.js";
import { buildOidc } from "./modules/oidc/oidc.js";
import { oidcKeysSecret, parseOidcKeys } from "./modules/oidc/oidc-keys.js";
import { OutgoingCopies } from "./modules/outgoing/outgoing-copies.js";
import { buildPresets } from "./modules/presets/presets.compose.js";
import { registerMediaProcessing } from "./modules/processing/processing.compose.js";
import { buildPublishing } from "./modules/publishing/publishing.compose.js";
import { publishingRoutes } from "./modules/publishing/publishing.routes.js";
import { buildRelations } from "./modules/relations/relations.compose.js";
import { relationsRoutes } from "./modules/relations/relations.routes.js";
import { buildSearch } from "./modules/search/search.compose.js";
import { SharedSecrets } from "./modules/secrets/shared-secrets.js";
import { shareDropDoor } from "./modules/shares/share-drops.routes.js";
import { shareVisitsRoutes } from "./modules/shares/share-visits.routes.js";
import { buildShares } from "./modules/shares/shares.compose.js";
import { sharesRoutes } from "./modules/shares/shares.routes.js";
import { buildStorage } from "./modules/storage/storage.compose.js";
import { storageRoutes } from "./modules/storage/storage.routes.js";
import { buildStories } from "./modules/stories/stories.compose.js";
import { storiesRoutes } from "./modules/stories/stories.routes.js";
import { StoryUsage } from "./modules/stories/story-usage.js";
import { workflowRoutes } from "./modules/stories/workflow.routes.js";
import { buildStoryBatch } from "./modules/story-batch/story-batch.compose.js";
import { systemRoutes } from "./modules/system/system.routes.js";
import { buildUploads, removeAbandonedUploads } from "./modules/uploads/uploads.js";
import { buildUrlIngest } from "./modules/url-ingest/url-ingest.compose.js";
import { buildUserSettings } from "./modules/user-settings/user-settings.compose.js";
import { userSettingsRoutes } from "./modules/user-settings/user-settings.routes.js";
import { UsersRepository } from "./modules/users/users.repository.js";
import { UsersService } from "./modules/users/users.service.js";
import { buildVideoEdit } from "./modules/video-edit/video-edit.compose.js";
import { version } from "./version.js";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * Keys every node shares (docs/operations.md, "Keys every node shares"): `channelCredentials` is the
     * AES-256 key (32 bytes) that encrypts publishing channels' credentials at rest.
     */
    sharedKeys: { mediaUrl: Buffer; channelCredentials: Buffer };
  }
}

export interface AppDependencies {
  config: Config;
  db: Db;
  logger?: FastifyServerOptions["logger"];
  /** Where originals and renditions live; by default the one the configuration names. */
  blobStore?: BlobStore;
  /** How many stories use a catalogue entry; by default counted in the stories table. */
  catalogueUsage?: CatalogueUsage;
}

/** The composition root: builds every service once and mounts the routes. Listening is server.ts's job. */
export async function buildApp({ config, db, logger, ...seams }: AppDependencies): Promise<FastifyInstance> {
  const app = createServer(config, logger);
  const methods = new MethodIndex();
  methods.attach(app);

  // The operation log first: every service that changes state records itself in it.
  const audit = buildAudit(db);
  recordRefusals(app, audit.log, API_PREFIX);
  recordUnrecorded(app, audit.log, API_PREFIX);
  // The back-area tables POST /export/table_0 can write (docs/exports.md): each module registers its own.
  const exportTables = new ExportRegistry();
  exportTables.register(auditExportTable(audit.service));
  // Before any route: every route under API_PREFIX must declare its access (checked at start-up).
  // The users module is the only way into `users`; access (roles, grants, user administration) builds on it.
  const users = new UsersService(new UsersRepository(db));
  const menus = new MenusService(new MenusRepository(db));
  const access = buildAccessControl(db, { users, menus });
  const apiTokens = new ApiTokensService(new ApiTokensRepository(db));
  // Keys every node must share: configured, or kept in the database; never made per process.
  const secrets = new SharedSecrets(db, app.log);
  const sharedKeys = await resolveSharedKeys(secrets, config);
  app.decorate("sharedKeys", sharedKeys);
  // Sign-in: the embedded provider under /uuas, or an external issuer (config.oidc.external).
  const oidc = await buildOidc({
    config: config.oidc,
    trustProxy: config.trustProxy,
    db,
    users,
    audit: audit.log,
    keys: async () => parseOidcKeys(await secrets.resolve(await oidcKeysSecret(config.oidc))),
  });
  const verifiers: BearerVerifier[] = [apiTokens.verifier, oidc.verifier];
  // Share links' visitors: the `share` kind of access, answered by the shares module once it is built below.
  let shareVisits: ShareVisitResolver | undefined;
  // A route's library level is checked by the libraries module: an archived library is read-only.
  const libraries = buildLibraries(db, access.libraries);
  access.grants.useLibraries({ exists: async (id) => (await libraries.find(id)) !== undefined });
  registerApiAuth(app, {
    shares: {
      resolve: (request, needsUnlock) => {
        if (!shareVisits) throw new Error("share visits are not ready");
        return shareVisits.resolve(request, needsUnlock);
      },
    },
    prefix: API_PREFIX,
    verifiers,
    users: access.authUsers,
    libraries: { require: (user, libraryId, level) => libraries.checkLevel(user, libraryId, level) },
    publicPaths: [OPENAPI_PATH, DOCS_PATH],
    // WebDAV clients send Basic credentials: the password is a personal API token.
    basicPrefixes: [...DAV_PREFIXES],
    basicVerifier: apiTokens.verifier,
  });

  await registerOpenApi(app, version);
  const metrics = registerMetrics(app, {
    token: config.metricsToken,
    userMayRead: async (bearer) => {
      for (const verifier of verifiers) {
        const principal = await verifier.verify(bearer);
        if (!principal) continue;
        const user = await access.authUsers.loadUser(principal.userId);
        return user?.status === 1 && permits(user, { permission: "manage.monitor.task", action: "query" });
      }
      return false;
    },
  });
  registerHealth(app, db);

  // Durable jobs: enqueued by name (jobs.enqueue), handlers registered by the modules that do the work (jobs.register).
  const jobs = buildJobs(db, config.jobs, app.log);
  app.decorate("jobs", jobs);
  registerJobMetrics(metrics, jobs);
  // Workers stop while the HTTP server drains, not after it: both fit in the close delay.
  let workersStopped: Promise<void> | undefined;
  app.addHook("preClose", async () => {
    workersStopped = jobs.worker.stop();
  });
  app.addHook("onClose", async () => workersStopped ?? jobs.worker.stop());

  // Storage targets: the configured store is the built-in one; every key goes to the target it lives in.
  const storage = buildStorage(db, {
    builtIn: seams.blobStore ?? buildBlobStore(config.storage),
    dataDir: config.dataDir,
    credentialsKey: sharedKeys.channelCredentials,
    audit: audit.log,
    log: app.log,
  });
  const blobs = buildBlobs(db, config.storage, storage.store);
  // sharp, exifr, exiftool, ffprobe and ffmpeg under the configured limits: every media call goes through it.
  const media = new SystemMediaTools(config.media);
  const onBlobDeleteError = (key: string, error: unknown) =>
    app.log.warn({ key, err: error }, "a blob no longer needed could not be deleted");
  // Downloads leave with the story's current metadata embedded (docs/media.md, "Metadata on the way out").
  const outgoing = new OutgoingCopies({
    blobs: blobs.store,
    media,
    workDir: path.join(config.dataDir, "tmp", "outgoing"),
  });
  // Before the stories: they tell the index of every write, and run their lists through the search.
  const search = buildSearch(db);
  // A listening server brings an index of an older format up to date, in the background (docs/search.md).
  refreshSearchOnListen(app, search.service);
  // Before the stories: the catalogue and the folders ask the stories what they use.
  const storyUsage = new StoryUsage(db, search.index);
  const catalogue = buildCatalogue(db, seams.catalogueUsage ?? storyUsage);
  const folders = buildFolders(db, { libraries, usage: storyUsage });
  const librarySettings = buildLibrarySettings(db, {
    folders,
    usage: storyUsage,
    audit: audit.log,
    buckets: () => storage.targets,
  });
  const mediaUrls = new MediaUrlSigner(sharedKeys.mediaUrl, config.mediaUrls.ttlSeconds);
  // Field-level access: every answer loses the story properties the caller's role may not see.
  const propertyAccess = buildPropertyAccess(db, {
    roles: new RolesRepository(db),
    audit: audit.log,
    search: search.index,
  });
  stripHiddenProperties(app, propertyAccess);
  // Automation: commits, publishes and added tags enqueue the rules' evaluation in their own transaction.
  const actionTriggers = buildActionTriggers(db, jobs);
  const stories = buildStories({
    db,
    events: actionTriggers,
    audit: audit.log,
    search,
    libraries,
    rolePermissions: (roleId) => access.roles.permissionSet(roleId),
    folders,
    users,
    blobs: blobs.store,
    blobRegistry: blobs.registry,
    jobs,
    keywordUse: catalogue.keywords,
    propertyDefinitions: catalogue.properties,
    propertyAccess,
    signMediaUrl: (claims) => mediaUrls.url(claims),
    outgoing,
    onBlobDeleteError,
    onKeywordUseError: (names, error) => app.log.warn({ keywords: names, err: error }, "keyword use not counted"),
  });
  storage.connect({
    libraries: {
      list: () => librarySettings.storageList(),
      get: (libraryId) => librarySettings.storageOf(libraryId),
      setBucket: (actor, libraryId, bucketId) => librarySettings.setBucket(actor, libraryId, bucketId),
    },
    blobs: stories.statistics,
    registry: blobs.registry,
    jobs,
  });
  const storyLinks = { access: stories.access, queries: stories.queries, libraries, actions: stories.actions };
  const favourites = buildFavourites(db, storyLinks);
  const relations = buildRelations(db, storyLinks);
  const shares = buildShares(db, {
    ...storyLinks,
    folders,
    audit: audit.log,
    downloads: stories.downloads,
    texts: stories.texts,
    owner: async (userId) => {
      const owner = await access.authUsers.loadUser(userId);
      return owner && { ...owner, name: owner.name || owner.username };
    },
    throttle: new AuthThrottle(db),
    // Built below; a visitor's dropped file reaches it only while a request runs.
    ingest: { ingestFile: (input) => ingest.ingestFile(input) },
    fileTtlSeconds: config.mediaUrls.ttlSeconds,
    sharedKey: sharedKeys.mediaUrl,
    // Built below; asked only while a visitor's request runs.
    embargoed: (storyIds) => publishing.deliveries.embargoedNow(storyIds),
    // Called at request time, after the presets module below is built.
    presets: {
      storyTypeOf: (id) => presets.downloads.storyTypeOf(id),
      usable: (actor) => presets.downloads.usable(actor),
      ensureRendered: (id, ref, out) => presets.downloads.ensureRendered(id, ref, undefined, out),
    },
  });
  shareVisits = shares.visits;
  // Story views and searches that found nothing: counted in memory, written every few seconds.
  const usageCounter = buildUsageCounter(db, {
    onError: (error) => app.log.warn({ err: error }, "usage counts not written"),
  });
  app.addHook("onClose", () => usageCounter.counter.close());
  app.decorate("usageCounter", usageCounter.counter);
  const maintenanceRuns = new MaintenanceRuns(db);
  const monitor = buildMonitor({
    maintenanceRuns,
    quotas: () => storage.quotas.quotas(),
    counters: usageCounter.repository,
    statistics: stories.statistics,
    libraries,
    shares: shares.service,
    userName: async (userId) => {
      const user = await access.authUsers.loadUser(userId);
      return user ? user.name || user.username : null;
    },
    volumes: [
      { name: "data", path: config.dataDir },
      ...(config.storage.kind === "local" ? [{ name: "blobs", path: config.storage.directory }] : []),
    ],
  });
  exportTables.register(usageExportTable(monitor.usage));
  exportTables.register(searchMissesExportTable(monitor.usage));
  const channels = buildChannels(db, {
    audit: audit.log,
    credentialsKey: sharedKeys.channelCredentials,
    allowPrivate: config.channels.allowPrivate,
    // Called at request time, after the presets module below is built.
    presetType: (id) => presets.downloads.storyTypeOf(id),
    openDeliveries: (id) => publishing.deliveries.openCount(id),
  });
  const publishing = buildPublishing(db, {
    access: stories.access,
    stories: stories.stories,
    queries: stories.queries,
    channels,
    blobs: blobs.store,
    jobs,
    audit: audit.log,
    renditions: { ensureRendered: (presetId, ref, signal) => presets.downloads.ensureRendered(presetId, ref, signal) },
    outgoing,
  });
  const settings = buildUserSettings(db, { libraries, folders, users });
  // Modules register the handlers of the jobs they do the work of (docs/architecture.md, "Jobs").
  const processingRepair = registerMediaProcessing({
    jobs,
    stories: stories.stories,
    blobs: blobs.store,
    media,
    config: config.media,
    workDir: path.join(config.dataDir, "tmp", "processing"),
    onBlobDeleteError,
  });
  // The one way a file becomes a story: tus uploads, URL fetches and the image editor's save call it.
  const ingest = buildIngest({
    db,
    stories: stories.stories,
    defaultLibraryOf: async (userId) => (await settings.defaultLibraryFor(userId)).libraryId,
    newStoryRules: librarySettings,
    blobs: blobs.store,
    blobRegistry: blobs.registry,
    placement: storage.placement,
    quota: storage.quotas,
    workDir: path.join(config.dataDir, "tmp", "ingest"),
    onBlobDeleteError,
  });
  // The network disk: each user's space; tus uploads with Upload-Metadata target=disk land there.
  const disk = buildDisk({
    db,
    audit: audit.log,
    blobs: blobs.store,
    users,
    roles: access.roles,
    ingest,
    libraries,
    storyAccess: stories.access,
    downloads: stories.downloads,
    workDir: path.join(config.dataDir, "tmp", "disk"),
    onBlobDeleteError,
  });
  // The disk over WebDAV at /dav (class 1 and 2), for Finder, Windows Explorer and phones' file apps; beside it
  // /dav-shared (what colleagues shared) and /dav-libraries (the readable libraries, read-only).
  const dav = buildDav({
    disk: disk.disk,
    diskShares: disk.shares,
    libraries: { libraries, folders, stories: stories.queries, downloads: stories.downloads },
    blobs: blobs.store,
    workDir: path.join(config.dataDir, "tmp", "dav"),
  });
  dav.registerMethods(app);
  const uploads = buildUploads({
    config: config.uploads,
    db,
    store: blobs.store,
    ingest,
    log: app.log,
    destinations: { disk: disk.uploadDestination, "share-drop": shares.drops.destination },
    // Share links' visitors drop files here (docs/sharing.md, "Upload drop"); the share token is the access.
    doors: [shareDropDoor],
  });
  app.decorate("uploads", uploads);
  registerMonitorMetricsOf(metrics, { db, config, ...stories, libraries, jobs, ...publishing, ...uploads, users });
  app.decorate("processingRepair", processingRepair);
  repairAtStart(app, uploads, processingRepair);
  const urlIngestRoutes = buildUrlIngest({
    config: config.urlIngest,
    db,
    media,
    jobs,
    ingest,
    libraries,
    folders,
  });
  const videoEdit = buildVideoEdit({
    db,
    blobs: blobs.store,
    media: new SystemVideoRenderTools(config.media),
    mediaConfig: config.media,
    dataDir: config.dataDir,
    jobs,
    stories,
    libraries,
    relations,
    blobRegistry: blobs.registry,
    // Built below; asked only when a render runs.
    watermarkImage: (presetId) => presets.watermarks.image(presetId),
  });
  // Watermark and download presets; their renditions are made by the "presets.render" job.
  const presets = buildPresets({
    db,
    media,
    audit: audit.log,
    blobs: blobs.store,
    jobs,
    access: stories.access,
    storyDownloads: stories.downloads,
    outgoing,
    dataDir: config.dataDir,
    timeoutMs: Math.max(60_000, config.media.timeoutMs),
    onBlobDeleteError,
  });
  const metadataTemplates = buildMetadataTemplates(db, { libraries, audit: audit.log });
  // Batch edits of story metadata: small ones inside the request, larger ones as the "stories.batch-edit" job.
  const storyBatch = buildStoryBatch(db, {
    stories: stories.stories,
    access: stories.access,
    search: stories.queries,
    templates: metadataTemplates.service,
    propertyAccess,
    users,
    rolePermissions: (roleId) => access.roles.permissionSet(roleId),
    jobs,
    log: app.log,
  });
  // Automation rules (/manage/setting/action): evaluated and run by the "actions.evaluate" and "actions.run" jobs.
  const actions = buildActions(db, {
    jobs,
    audit: audit.log,
    stories,
    users,
    libraries,
    channels,
    publishing: publishing.publishing,
    templates: metadataTemplates.service,
    presets: presets.downloads,
    secretsKey: sharedKeys.channelCredentials,
    allowPrivate: config.channels.allowPrivate,
    webhookBackoff: { baseMs: config.jobs.backoffBaseMs, maxMs: config.jobs.backoffMaxMs },
    log: app.log,
  });
  registerMaintenance(jobs, {
    runs: maintenanceRuns,
    sweeper: blobs.sweeper,
    removeAbandonedUploads: () => removeAbandonedUploads(uploads),
    repairProcessing: () => processingRepair.repairAll(),
    disk: disk.disk,
    queue: jobs.queue,
    refreshStatistics: () => db.refreshStatistics(),
    pruneAuditLog: () => audit.service.prune(),
    sweepOutgoing: () =>
      outgoing.sweep({
        storiesThatExist: async (ids) => {
          const existing = new Set<string>();
          for (let at = 0; at < ids.length; at += 500) {
            for (const story of await stories.queries.findMany(ids.slice(at, at + 500))) existing.add(story.id);
          }
          return existing;
        },
      }),
    pruneUsageCounts: () => usageCounter.repository.prune(usageRetentionStart(new Date())),
    logger: app.log,
  });
  await app.register(
    async (api) => {
      await api.register(systemRoutes({ name: "dams", version }));
      await api.register(embedRoutes(config.embed.origins));
      await api.register(menusRoutes(menus));
      await api.register(currentUserRoutes(access.roles));
      await api.register(accessRoutes(access));
      await api.register(apiTokensRoutes(apiTokens));
      await api.register(oidc.apiRoutes);
      await api.register(librariesRoutes(libraries));
      await api.register(librarySettingsRoutes(librarySettings));
      await api.register(propertyAccessRoutes(propertyAccess));
      await api.register(foldersRoutes(folders));
      await api.register(storiesRoutes({ ...stories, usage: usageCounter.counter }));
      await api.register(relationsRoutes(relations));
      await api.register(
        mediaUrlsRoutes({ signer: mediaUrls, downloads: stories.downloads, queries: stories.queries }),
      );
      await api.register(workflowRoutes({ ...stories, libraries, folders, settings }));
      await api.register(storyBatch.routes);
      await api.register(favouritesRoutes(favourites));
      await api.register(publishingRoutes(publishing.publishing, publishing.deliveries, publishing.events));
      await api.register(channelsRoutes(channels));
      await api.register(actions.routes);
      await api.register(storageRoutes(storage));
      await api.register(sharesRoutes(shares.service));
      await api.register(shareVisitsRoutes(shares.visits, stories.downloads));
      await api.register(userSettingsRoutes(settings));
      await api.register(catalogueRoutes(catalogue, (user) => propertyAccess.lockedFor(user)));
      await api.register(jobs.routes);
      await api.register(monitor.routes);
      await api.register(auditRoutes(audit.service));
      await api.register(exportsRoutes(exportTables, audit.log));
      await api.register(uploads.routes);
      await api.register(disk.routes);
      await api.register(urlIngestRoutes);
      await api.register(videoEdit.routes);
      for (const routes of presets.routes) await api.register(routes);
      await api.register(metadataTemplates.routes);
      await api.register(
        mediaUploadsModule({
          stories,
          folders,
          blobs: blobs.store,
          blobRegistry: blobs.registry,
          ingest,
          jobs: jobs.queue,
          media,
          imageBodyLimit: config.imageBodyLimit,
        }),
      );
    },
    { prefix: API_PREFIX },
  );
  await app.register(dav.routes);
  await oidc.mount(app);

  const spaServed = await registerSpa(app, config.webDir);
  registerNotFoundHandler(app, methods, spaServed ? spaFallback : undefined);
  return app;
}
