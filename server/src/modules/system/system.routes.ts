import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { envelope, ok } from "../../http/envelope.js";

const systemInfo = z.object({ name: z.string(), version: z.string() });

/** Public facts about this installation; also the small route the API benchmark measures. */
export function systemRoutes(info: z.infer<typeof systemInfo>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/system/info",
      {
        config: { public: true },
        schema: { tags: ["system"], summary: "Product name and version", response: { 200: envelope(systemInfo) } },
      },
      async () => ok(info),
    );
  };
}
