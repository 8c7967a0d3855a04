import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../db/database.js";

const readiness = z.object({
  status: z.enum(["ready", "not_ready"]),
  database: z.enum(["ok", "unreachable"]),
  pendingMigrations: z.array(z.string()),
});

/** /healthz: the process answers. /readyz: the database answers and is migrated. */
export function registerHealth(app: FastifyInstance, db: Db): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    "/healthz",
    { schema: { tags: ["system"], summary: "Liveness", response: { 200: z.object({ status: z.literal("ok") }) } } },
    async () => ({ status: "ok" as const }),
  );
  routes.get(
    "/readyz",
    { schema: { tags: ["system"], summary: "Readiness", response: { 200: readiness, 503: readiness } } },
    async (request, reply) => {
      try {
        await db.ping();
        const pendingMigrations = await db.pendingMigrations();
        const ready = pendingMigrations.length === 0;
        return reply.status(ready ? 200 : 503).send({
          status: ready ? "ready" : "not_ready",
          database: "ok",
          pendingMigrations,
        });
      } catch (error) {
        request.log.warn({ err: error }, "readiness check failed");
        return reply.status(503).send({ status: "not_ready", database: "unreachable", pendingMigrations: [] });
      }
    },
  );
}
