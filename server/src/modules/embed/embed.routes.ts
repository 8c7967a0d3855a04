import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { EMBEDDABLE_PATHS } from "../../http/security.js";

const embedConfig = z
  .object({
    origins: z
      .array(z.string())
      .describe("origins (scheme://host[:port]) allowed to frame the embeddable pages and exchange messages with them"),
    paths: z.array(z.string()).describe("the pages they may frame"),
  })
  .meta({ id: "EmbedConfig" });

/**
 * The embed allow-list, public: the embeddable pages read it before any
 * sign-in, to decide whether the `origin` their opener names may receive
 * messages (docs/embedding.md). It names no data, only host systems.
 */
export function embedRoutes(origins: readonly string[]): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/embed/config",
      apiRoute(
        { public: true },
        {
          tags: ["system"],
          summary:
            "The origins allowed to frame the embeddable pages (/source/ismpsource, /source/ismpupload, /source/ismpnetdisk)",
        },
        embedConfig,
        commonErrorResponses,
      ),
      async () => ok({ origins: [...origins], paths: [...EMBEDDABLE_PATHS] }),
    );
  };
}
