import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Registry } from "prom-client";
import type { Config } from "./config.js";
import type { Db } from "./db/database.js";
import { registerBodyDeadline } from "./http/body-deadline.js";
import { API_PREFIX, registerErrorHandler } from "./http/error-handler.js";
import { frameworkErrorOptions, MAX_PARAM_LENGTH } from "./http/framework-errors.js";
import { registerJsonBodyParser } from "./http/json-body.js";
import { registerRequestStart } from "./http/request-start.js";
import { responseSerializerCompiler } from "./http/response-serializer.js";
import { type PropertyAccessService, stripHidden } from "./modules/access/property-access.service.js";
import type { Jobs } from "./modules/jobs/jobs.compose.js";
import type { LibrariesService } from "./modules/libraries/libraries.service.js";
import { registerMonitorMetrics } from "./modules/monitor/monitor.metrics.js";
import { OidcRepository } from "./modules/oidc/oidc.repository.js";
import type { DeliveriesService } from "./modules/publishing/deliveries.service.js";
import type { SearchService } from "./modules/search/search.service.js";
import type { SharedSecrets } from "./modules/secrets/shared-secrets.js";
import { keyBytes, textKeySecret } from "./modules/secrets/text-key.js";
import type { StoryStatistics } from "./modules/stories/story-statistics.js";
import type { UploadStaging } from "./modules/uploads/upload-staging.js";
import type { UsersService } from "./modules/users/users.service.js";

// Pieces of the composition root (app.ts) that are hooks and settings of the
// server as a whole rather than one module's.

/**
 * The Fastify instance with the API's validation, errors, JSON parsing and security headers, and the
 * request-start hook that the API's guard joins (`requestStart.guard`, by registerApiAuth).
 */
export function createServer(config: Config, logger: FastifyServerOptions["logger"] | undefined) {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    // Node's one deadline for every body is ours instead (registerBodyDeadline): uploads may take longer.
    requestTimeout: 0,
    connectionTimeout: config.requestTimeoutMs,
    keepAliveTimeout: 72_000,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    ...frameworkErrorOptions,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  registerBodyDeadline(app.server, {
    requestTimeoutMs: config.requestTimeoutMs,
    uploadMinBytes: config.uploads.minBytes,
    uploadWindowMs: config.uploads.windowMs,
  });
  registerErrorHandler(app);
  registerJsonBodyParser(app);
  // The first and only onRequest hook: security headers, 503 while closing, then the API's guard.
  const requestStart = registerRequestStart(app, { embedOrigins: config.embed.origins });
  return { app, requestStart };
}

/** Keys every node must share: configured, or kept in the database; never made per process. */
export async function resolveSharedKeys(secrets: SharedSecrets, config: Config) {
  return {
    mediaUrl: Buffer.from(
      await secrets.resolve(
        textKeySecret("media-urls.key", "DAMS_MEDIA_URL_KEY or DAMS_MEDIA_URL_KEY_FILE", config.mediaUrls),
      ),
    ),
    channelCredentials: keyBytes(
      await secrets.resolve(
        textKeySecret(
          "channels.credentials-key",
          "DAMS_CHANNEL_CREDENTIALS_KEY or DAMS_CHANNEL_CREDENTIALS_KEY_FILE",
          config.channelCredentials,
        ),
      ),
    ),
  };
}

/** A listening server brings an index of an older format up to date, in the background (docs/search.md). */
export function refreshSearchOnListen(app: FastifyInstance, search: Pick<SearchService, "refreshIfStale">): void {
  app.addHook("onListen", async () => {
    const started = Date.now();
    search
      .refreshIfStale()
      .then((count) => {
        if (count !== null) app.log.info({ stories: count, ms: Date.now() - started }, "search index rewritten");
      })
      .catch((error: unknown) => app.log.warn({ err: error }, "search index not rewritten; run dams reindex"));
  });
}

/**
 * Field-level access: every answer loses the story properties the caller's role may not see. When the
 * role's set is known (cached, or an administrator's), this runs at once with no promise, and does nothing
 * more when the set is empty; otherwise it reads the set first.
 */
export function stripHiddenProperties(
  app: FastifyInstance,
  propertyAccess: Pick<PropertyAccessService, "hiddenFor" | "knownHiddenFor">,
): void {
  app.addHook("preSerialization", (request, _reply, payload, done) => {
    const user = request.currentUser;
    if (!user || user.admin || !request.url.startsWith(API_PREFIX)) return done(null, payload);
    const known = propertyAccess.knownHiddenFor(user);
    if (known) {
      if (known.size > 0) stripHidden(payload, known);
      return done(null, payload);
    }
    propertyAccess
      .hiddenFor(user)
      .then((hidden) => {
        if (hidden.size > 0) stripHidden(payload, hidden);
      })
      .then(
        () => done(null, payload),
        (error: FastifyError) => done(error),
      );
  });
}

/**
 * Finished uploads a crash left between their last byte and their story become stories now, once each.
 * And stories left saying "processing" by a job that ended without telling them show it failed.
 */
export function repairAtStart(
  app: FastifyInstance,
  uploads: { service: { completeStranded(): Promise<unknown> }; locker: { close(): void } },
  processingRepair: { repairAll(): Promise<readonly unknown[]> },
): void {
  let strandedUploads: Promise<unknown> = Promise.resolve();
  app.addHook("onReady", async () => {
    strandedUploads = Promise.all([
      uploads.service.completeStranded().catch((error: unknown) => {
        app.log.error({ err: error }, "completing the finished uploads left by a crash failed");
      }),
      processingRepair.repairAll().then(
        (repaired) => {
          if (repaired.length) app.log.info({ stories: repaired }, "stories stuck in processing marked failed");
        },
        (error: unknown) => app.log.error({ err: error }, "repairing stories stuck in processing failed"),
      ),
    ]);
  });
  app.addHook("onClose", async () => {
    await strandedUploads;
    uploads.locker.close();
  });
}

/** The monitors' figures on `/metrics`, each asked of its owner (docs/monitors.md, "/metrics"). */
export function registerMonitorMetricsOf(
  registry: Registry,
  parts: {
    db: Db;
    config: Config;
    statistics: StoryStatistics;
    libraries: Pick<LibrariesService, "find">;
    jobs: Pick<Jobs, "monitor">;
    deliveries: Pick<DeliveriesService, "countsByChannelAndState">;
    staging: Pick<UploadStaging, "list" | "finishedUpload">;
    users: Pick<UsersService, "countByStatus">;
  },
): void {
  const sessions = new OidcRepository(parts.db);
  registerMonitorMetrics(registry, {
    statistics: parts.statistics,
    libraryName: async (id) => (await parts.libraries.find(id))?.name ?? null,
    jobs: async () => (await parts.jobs.monitor.summary()).byName,
    deliveries: () => parts.deliveries.countsByChannelAndState(),
    uploadsInProgress: async () => {
      let open = 0;
      for (const id of await parts.staging.list()) if (!(await parts.staging.finishedUpload(id))) open += 1;
      return open;
    },
    users: () => parts.users.countByStatus(),
    sessions: async () => (parts.config.oidc.external ? null : sessions.activeSessions(new Date().toISOString())),
  });
}
