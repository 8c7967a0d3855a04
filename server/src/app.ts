import path from "node:path";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "./config.js";
import type { Db } from "./db/database.js";
import { API_PREFIX, registerErrorHandler, registerNotFoundHandler } from "./http/error-handler.js";
import { registerHealth } from "./http/health.js";
import { MethodIndex } from "./http/method-index.js";
import { registerMetrics } from "./http/metrics.js";
import { DOCS_PATH, OPENAPI_PATH, registerOpenApi } from "./http/openapi.js";
import { registerSecurityHeaders } from "./http/security.js";
import { registerSpa, spaFallback } from "./http/spa.js";
import { buildAccessControl } from "./modules/access/access.compose.js";
import { accessRoutes } from "./modules/access/access.routes.js";
import { apiTokensRoutes } from "./modules/api-tokens/api-tokens.routes.js";
import { registerApiAuth } from "./modules/auth/auth.plugin.js";
import type { BearerVerifier } from "./modules/auth/bearer.js";
import { currentUserRoutes } from "./modules/auth/current-user.routes.js";
import type { BlobStore } from "./modules/blobs/blob-store.js";
import { BlobSweeper } from "./modules/blobs/blob-sweeper.js";
import { BlobsRepository } from "./modules/blobs/blobs.repository.js";
import { buildBlobStore } from "./modules/blobs/build-blob-store.js";
import { buildCatalogue } from "./modules/catalogue/catalogue.compose.js";
import { catalogueRoutes } from "./modules/catalogue/catalogue.routes.js";
import type { CatalogueUsage } from "./modules/catalogue/shared/catalogue-usage.js";
import { embedRoutes } from "./modules/embed/embed.routes.js";
import { foldersRoutes } from "./modules/folders/folders.routes.js";
import type { JobDefinition, JobEnqueuer } from "./modules/jobs/job-types.js";
import { buildJobs } from "./modules/jobs/jobs.compose.js";
import { registerJobMetrics } from "./modules/jobs/jobs.metrics.js";
import { librariesRoutes } from "./modules/libraries/libraries.routes.js";
import { MAINTENANCE_EVERY_MS, maintenanceJob } from "./modules/maintenance/maintenance.job.js";
import { mediaUploadsModule } from "./modules/media-uploads/media-uploads.compose.js";
import { loadOrCreateMediaUrlKey } from "./modules/media-urls/media-url-key.js";
import { MediaUrlSigner } from "./modules/media-urls/media-url-signer.js";
import { mediaUrlsRoutes } from "./modules/media-urls/media-urls.routes.js";
import { MenusRepository } from "./modules/menus/menus.repository.js";
import { menusRoutes } from "./modules/menus/menus.routes.js";
import { MenusService } from "./modules/menus/menus.service.js";
import { buildOidc } from "./modules/oidc/oidc.js";
import { processStoriesJob } from "./modules/processing/process-stories.job.js";
import { StoryMediaProcessor } from "./modules/processing/story-media.processor.js";
import { StoryUploadSink } from "./modules/processing/story-upload-sink.js";
import { buildStories } from "./modules/stories/stories.compose.js";
import { storiesRoutes } from "./modules/stories/stories.routes.js";
import type { ProcessStoriesPayload } from "./modules/stories/stories.service.js";
import { StoryCatalogueUsage } from "./modules/stories/story-catalogue-usage.js";
import { workflowRoutes } from "./modules/stories/workflow.routes.js";
import { systemRoutes } from "./modules/system/system.routes.js";
import type { UploadSink } from "./modules/uploads/upload-sink.js";
import { buildUploads, removeAbandonedUploads } from "./modules/uploads/uploads.js";
import { buildUrlIngest } from "./modules/url-ingest/url-ingest.compose.js";
import { UsersRepository } from "./modules/users/users.repository.js";
import { UsersService } from "./modules/users/users.service.js";
import { version } from "./version.js";

export interface AppDependencies {
  config: Config;
  db: Db;
  logger?: FastifyServerOptions["logger"];
  /** Where originals and renditions live; by default the one the configuration names. */
  blobStore?: BlobStore;
  /** The job queue stories enqueue on; by default the durable queue in the database. */
  jobs?: JobEnqueuer;
  /** The job enqueued when stories need their renditions; by default the media processing job. */
  processingJob?: JobDefinition<ProcessStoriesPayload>;
  /** How many stories use a catalogue entry; by default counted in the stories table. */
  catalogueUsage?: CatalogueUsage;
  /** What a finished upload turns into; by default a draft story (or a new version). */
  uploadSink?: UploadSink;
}

/** The composition root: builds every service once and mounts the routes. Listening is server.ts's job. */
export async function buildApp({ config, db, logger, ...seams }: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    keepAliveTimeout: 72_000,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // First of the onRequest hooks, so early answers (401, 403) carry the headers too.
  registerSecurityHeaders(app, { embedOrigins: config.embed.origins });

  const methods = new MethodIndex();
  methods.attach(app);

  // Before any route: every route under API_PREFIX must declare its access (checked at start-up).
  const access = buildAccessControl(db);
  const usersRepository = new UsersRepository(db);
  // Sign-in: the embedded provider under /uuas, or an external issuer (config.oidc.external).
  const oidc = await buildOidc({
    config: config.oidc,
    trustProxy: config.trustProxy,
    db,
    users: new UsersService(usersRepository),
    usersRepository,
  });
  const verifiers: BearerVerifier[] = [access.apiTokens.verifier, oidc.verifier];
  registerApiAuth(app, {
    prefix: API_PREFIX,
    verifiers,
    users: access.authUsers,
    libraries: access.libraries,
    publicPaths: [OPENAPI_PATH, DOCS_PATH],
  });

  await registerOpenApi(app, version);
  const metrics = registerMetrics(app);
  registerHealth(app, db);

  // Durable jobs: parts that need background work register their definitions on jobs.worker here.
  const jobs = buildJobs(db, config.jobs, app.log);
  app.decorate("jobs", jobs);
  registerJobMetrics(metrics, jobs);
  // Workers stop while the HTTP server drains, not after it: both fit in the close delay.
  let workersStopped: Promise<void> | undefined;
  app.addHook("preClose", async () => {
    workersStopped = jobs.worker.stop();
  });
  app.addHook("onClose", async () => workersStopped ?? jobs.worker.stop());

  const menus = new MenusService(new MenusRepository(db));
  const blobStore = seams.blobStore ?? buildBlobStore(config.storage);
  const onBlobDeleteError = (key: string, error: unknown) =>
    app.log.warn({ key, err: error }, "a blob no longer needed could not be deleted");
  // Before the stories: they count the keywords they apply in the catalogue.
  const catalogue = buildCatalogue(db, seams.catalogueUsage ?? new StoryCatalogueUsage(db));
  // The processing job and the stories service need each other: the job is
  // defined first and reaches the processor, built after the stories, late.
  let processor: StoryMediaProcessor | undefined;
  const processingJob =
    seams.processingJob ?? processStoriesJob(() => processor!, { timeoutMs: Math.max(config.media.timeoutMs, 60_000) });
  const mediaUrls = new MediaUrlSigner(loadOrCreateMediaUrlKey(config.mediaUrls), config.mediaUrls.ttlSeconds);
  const stories = buildStories({
    db,
    signMediaUrl: (claims) => mediaUrls.url(claims),
    access: access.libraries,
    blobs: blobStore,
    jobs: seams.jobs ?? jobs.queue,
    processingJob,
    keywordUse: catalogue.keywords,
    propertyDefinitions: catalogue.properties,
    onBlobDeleteError,
    onKeywordUseError: (names, error) => app.log.warn({ keywords: names, err: error }, "keyword use not counted"),
  });
  processor = new StoryMediaProcessor({
    stories: stories.stories,
    blobs: blobStore,
    media: config.media,
    workDir: path.join(config.dataDir, "tmp", "processing"),
    onBlobDeleteError,
  });
  jobs.worker.register(processingJob);
  const uploads = buildUploads({
    config: config.uploads,
    db,
    store: blobStore,
    sink: seams.uploadSink ?? new StoryUploadSink(stories.stories, stories.links),
    log: app.log,
  });
  const urlIngest = buildUrlIngest({
    config: config.urlIngest,
    db,
    blobs: blobStore,
    jobs: jobs.queue,
    stories: stories.stories,
    libraries: stories.libraries,
    folders: stories.folders,
  });
  jobs.worker.register(urlIngest.job);
  jobs.worker.every(
    maintenanceJob({
      sweeper: new BlobSweeper(blobStore, new BlobsRepository(db)),
      removeAbandonedUploads: () => removeAbandonedUploads(uploads),
      queue: jobs.queue,
      logger: app.log,
    }),
    MAINTENANCE_EVERY_MS,
    {},
  );
  await app.register(
    async (api) => {
      await api.register(systemRoutes({ name: "dams", version }));
      await api.register(embedRoutes(config.embed.origins));
      await api.register(menusRoutes(menus));
      await api.register(currentUserRoutes(access.roles));
      await api.register(accessRoutes(access));
      await api.register(apiTokensRoutes(access.apiTokens));
      await api.register(oidc.apiRoutes);
      await api.register(librariesRoutes(stories.libraries));
      await api.register(foldersRoutes(stories.folders));
      await api.register(storiesRoutes(stories));
      await api.register(
        mediaUrlsRoutes({ signer: mediaUrls, downloads: stories.downloads, queries: stories.queries }),
      );
      await api.register(workflowRoutes(stories));
      await api.register(catalogueRoutes(catalogue));
      await api.register(jobs.routes);
      await api.register(uploads.routes);
      await api.register(urlIngest.routes);
      await api.register(
        mediaUploadsModule({
          db,
          stories,
          blobs: blobStore,
          processingJob,
          media: config.media,
          imageBodyLimit: config.imageBodyLimit,
        }),
      );
    },
    { prefix: API_PREFIX },
  );
  await oidc.mount(app);

  const spaServed = await registerSpa(app, config.webDir);
  registerNotFoundHandler(app, methods, spaServed ? spaFallback : undefined);
  return app;
}
