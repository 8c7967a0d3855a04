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
import { buildBlobStore } from "./modules/blobs/build-blob-store.js";
import { MenusRepository } from "./modules/menus/menus.repository.js";
import { menusRoutes } from "./modules/menus/menus.routes.js";
import { MenusService } from "./modules/menus/menus.service.js";
import { buildOidc } from "./modules/oidc/oidc.js";
import { systemRoutes } from "./modules/system/system.routes.js";
import { registryOnlySink, type UploadSink } from "./modules/uploads/upload-sink.js";
import { buildUploads } from "./modules/uploads/uploads.js";
import { UsersRepository } from "./modules/users/users.repository.js";
import { UsersService } from "./modules/users/users.service.js";
import { version } from "./version.js";

export interface AppDependencies {
  config: Config;
  db: Db;
  logger?: FastifyServerOptions["logger"];
  /** What a finished upload turns into (the stories module's draft story); by default only the blob and its row. */
  uploadSink?: UploadSink;
}

/** The composition root: builds every service once and mounts the routes. Listening is server.ts's job. */
export async function buildApp({ config, db, logger, uploadSink }: AppDependencies): Promise<FastifyInstance> {
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
  registerSecurityHeaders(app);

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
  registerMetrics(app);
  registerHealth(app, db);

  const menus = new MenusService(new MenusRepository(db));
  const blobStore = buildBlobStore(config.storage);
  const uploads = buildUploads({
    config: config.uploads,
    db,
    store: blobStore,
    sink: uploadSink ?? registryOnlySink,
    log: app.log,
  });
  await app.register(
    async (api) => {
      await api.register(systemRoutes({ name: "dams", version }));
      await api.register(menusRoutes(menus));
      await api.register(currentUserRoutes(access.roles));
      await api.register(accessRoutes(access));
      await api.register(apiTokensRoutes(access.apiTokens));
      await api.register(oidc.apiRoutes);
      await api.register(uploads.routes);
    },
    { prefix: API_PREFIX },
  );
  await oidc.mount(app);

  const spaServed = await registerSpa(app, config.webDir);
  registerNotFoundHandler(app, methods, spaServed ? spaFallback : undefined);
  return app;
}
