import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "./config.js";
import type { Db } from "./db/database.js";
import { API_PREFIX, registerErrorHandler, registerNotFoundHandler } from "./http/error-handler.js";
import { registerHealth } from "./http/health.js";
import { MethodIndex } from "./http/method-index.js";
import { registerMetrics } from "./http/metrics.js";
import { registerOpenApi } from "./http/openapi.js";
import { registerSecurityHeaders } from "./http/security.js";
import { registerSpa, spaFallback } from "./http/spa.js";
import { MenusRepository } from "./modules/menus/menus.repository.js";
import { menusRoutes } from "./modules/menus/menus.routes.js";
import { MenusService } from "./modules/menus/menus.service.js";
import { systemRoutes } from "./modules/system/system.routes.js";
import { version } from "./version.js";

export interface AppDependencies {
  config: Config;
  db: Db;
  logger?: FastifyServerOptions["logger"];
}

/** The composition root: builds every service once and mounts the routes. Listening is server.ts's job. */
export async function buildApp({ config, db, logger }: AppDependencies): Promise<FastifyInstance> {
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

  const methods = new MethodIndex();
  methods.attach(app);

  registerSecurityHeaders(app);
  await registerOpenApi(app, version);
  registerMetrics(app);
  registerHealth(app, db);

  const menus = new MenusService(new MenusRepository(db));
  await app.register(
    async (api) => {
      await api.register(systemRoutes({ name: "dams", version }));
      await api.register(menusRoutes(menus));
    },
    { prefix: API_PREFIX },
  );

  const spaServed = await registerSpa(app, config.webDir);
  registerNotFoundHandler(app, methods, spaServed ? spaFallback : undefined);
  return app;
}
