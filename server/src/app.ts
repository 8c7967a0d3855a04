import type { FastifyInstance, FastifyServerOptions } from "fastify";
import { createServer } from "./app-setup.js";
import { apiRoutes } from "./composition/api-routes.js";
import { composeFiles } from "./composition/files.js";
import { composeFoundation } from "./composition/foundation.js";
import { composeAutomation, composeMonitoring } from "./composition/operations.js";
import { composeSharing } from "./composition/sharing.js";
import { composeStories } from "./composition/stories.js";
import type { Config } from "./config.js";
import type { Db } from "./db/database.js";
import { API_PREFIX, registerNotFoundHandler } from "./http/error-handler.js";
import { MethodIndex } from "./http/method-index.js";
import { registerSpa, spaFallback } from "./http/spa.js";
import type { BlobStore } from "./modules/blobs/blob-store.js";
import type { CatalogueUsage } from "./modules/catalogue/shared/catalogue-usage.js";

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

/**
 * The composition root: builds every service once, area by area (server/src/composition/), and mounts the
 * routes. The areas are built in this order because it is the order of the server's hooks, of the metrics and
 * of the recurring jobs; listening is server.ts's job.
 */
export async function buildApp({ config, db, logger, ...seams }: AppDependencies): Promise<FastifyInstance> {
  const { app, requestStart } = createServer(config, logger);
  const methods = new MethodIndex();
  methods.attach(app);

  const foundation = await composeFoundation(app, { config, db, requestStart, blobStore: seams.blobStore });
  const stories = composeStories(app, foundation, seams);
  const sharing = composeSharing(foundation, stories);
  const monitoring = composeMonitoring(app, foundation, stories, sharing);
  const files = composeFiles(app, foundation, stories, sharing);
  const automation = composeAutomation(app, foundation, stories, sharing, monitoring, files);

  const areas = { foundation, stories, sharing, monitoring, files, automation };
  await app.register(
    async (api) => {
      for (const routes of apiRoutes(areas)) await api.register(routes);
    },
    { prefix: API_PREFIX },
  );
  await app.register(files.dav.routes);
  await foundation.oidc.mount(app);

  const spaServed = await registerSpa(app, config.webDir);
  registerNotFoundHandler(app, methods, spaServed ? spaFallback : undefined);
  return app;
}
