import path from "node:path";
import type { FastifyInstance } from "fastify";
import { resolveSharedKeys } from "../app-setup.js";
import type { Config } from "../config.js";
import type { Db } from "../db/database.js";
import { API_PREFIX } from "../http/error-handler.js";
import { registerHealth } from "../http/health.js";
import { registerMetrics } from "../http/metrics.js";
import { DOCS_PATH, OPENAPI_PATH, registerOpenApi } from "../http/openapi.js";
import type { RequestStart } from "../http/request-start.js";
import { SystemMediaTools } from "../media/index.js";
import { buildAccessControl } from "../modules/access/access.compose.js";
import { ApiTokensRepository } from "../modules/api-tokens/api-tokens.repository.js";
import { ApiTokensService } from "../modules/api-tokens/api-tokens.service.js";
import { buildAudit } from "../modules/audit/audit.compose.js";
import { auditExportTable } from "../modules/audit/audit.export.js";
import { recordUnrecorded } from "../modules/audit/audit-coverage.js";
import { recordRefusals } from "../modules/audit/audit-refusals.js";
import { permits, registerApiAuth } from "../modules/auth/auth.plugin.js";
import type { ShareVisitResolver } from "../modules/auth/auth.types.js";
import type { BearerVerifier } from "../modules/auth/bearer.js";
import { signedInTag } from "../modules/auth/signed-in-cache.js";
import type { BlobStore } from "../modules/blobs/blob-store.js";
import { buildBlobs } from "../modules/blobs/blobs.compose.js";
import { buildBlobStore } from "../modules/blobs/build-blob-store.js";
import { DAV_PREFIXES } from "../modules/dav/dav.compose.js";
import { ExportRegistry } from "../modules/exports/exports.routes.js";
import { buildJobs } from "../modules/jobs/jobs.compose.js";
import { registerJobMetrics } from "../modules/jobs/jobs.metrics.js";
import { buildLibraries } from "../modules/libraries/libraries.compose.js";
import { MenusRepository } from "../modules/menus/menus.repository.js";
import { MenusService } from "../modules/menus/menus.service.js";
import { buildOidc } from "../modules/oidc/oidc.js";
import { oidcKeysSecret, parseOidcKeys } from "../modules/oidc/oidc-keys.js";
import { OutgoingCopies } from "../modules/outgoing/outgoing-copies.js";
import { SharedSecrets } from "../modules/secrets/shared-secrets.js";
import { buildStorage } from "../modules/storage/storage.compose.js";
import { placeOf } from "../modules/storage/target-stores.js";
import { UsersRepository } from "../modules/users/users.repository.js";
import { UsersService } from "../modules/users/users.service.js";
import { version } from "../version.js";
import { Late } from "./late.js";

/** What every area stands on: the operation log, users and access, sign-in, the API's checks, jobs, storage. */
export type Foundation = Awaited<ReturnType<typeof composeFoundation>>;

/**
 * The first part of the composition root. The order is the order of the server's hooks: the operation log
 * sees refusals, then every route under API_PREFIX must declare its access (checked at start-up), then the
 * OpenAPI document, metrics and health.
 */
export async function composeFoundation(
  app: FastifyInstance,
  {
    config,
    db,
    requestStart,
    blobStore,
  }: { config: Config; db: Db; requestStart: RequestStart; blobStore?: BlobStore },
) {
  // The operation log first: every service that changes state records itself in it.
  const audit = buildAudit(db);
  recordRefusals(app, audit.log, API_PREFIX);
  recordUnrecorded(app, audit.log, API_PREFIX);
  // The back-area tables POST /export/table_0 can write (docs/exports.md): each module registers its own.
  const exportTables = new ExportRegistry();
  exportTables.register(auditExportTable(audit.service));
  // The users module is the only way into `users`; access (roles, grants, user administration) builds on it.
  const users = new UsersService(new UsersRepository(db));
  const menus = new MenusService(new MenusRepository(db));
  const access = buildAccessControl(db, { users, menus, cacheTtlMs: config.authCacheMs });
  app.addHook("onClose", async () => access.caches.close());
  const apiTokens = new ApiTokensService(new ApiTokensRepository(db));
  apiTokens.useSignedIn(access.caches);
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
    grantEnded: (grantId) => access.caches.invalidate(signedInTag.grant(grantId)),
    keys: async () => parseOidcKeys(await secrets.resolve(await oidcKeysSecret(config.oidc))),
  });
  const verifiers: BearerVerifier[] = [apiTokens.verifier, oidc.verifier];
  // Share links' visitors: the `share` kind of access, answered by the shares module once it is built.
  const shareVisits = new Late<ShareVisitResolver>("share visits");
  // A route's library level is checked by the libraries module: an archived library is read-only.
  const libraries = buildLibraries(db, access.libraries, config.authCacheMs);
  app.addHook("onClose", async () => libraries.close());
  access.grants.useLibraries({ exists: async (id) => (await libraries.find(id)) !== undefined });
  registerApiAuth(app, {
    requestStart,
    shares: { resolve: (request, needsUnlock) => shareVisits.get().resolve(request, needsUnlock) },
    prefix: API_PREFIX,
    verifiers,
    users: access.authUsers,
    signedIn: access.caches.signedIn,
    libraries: {
      require: (user, libraryId, level) => libraries.checkLevel(user, libraryId, level),
      known: (user, libraryId, level) => libraries.passesKnown(user, libraryId, level),
    },
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
    builtIn: blobStore ?? buildBlobStore(config.storage),
    builtInPlace: placeOf(config.storage),
    dataDir: config.dataDir,
    credentialsKey: sharedKeys.channelCredentials,
    audit: audit.log,
    log: app.log,
  });
  const blobs = buildBlobs(db, config.storage, storage.store, storage.sweepTargets);
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
  return {
    config,
    db,
    audit,
    exportTables,
    users,
    menus,
    access,
    apiTokens,
    sharedKeys,
    oidc,
    shareVisits,
    libraries,
    metrics,
    jobs,
    storage,
    blobs,
    media,
    onBlobDeleteError,
    outgoing,
  };
}
