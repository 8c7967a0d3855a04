import type { FastifyInstance } from "fastify";
import type { AuditLog } from "./audit-log.js";

const CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Every refused attempt to change something (a 403 to a POST, PUT, PATCH or
 * DELETE under `prefix`) is recorded as `http.<method>` with result
 * `denied`, the route as target, whoever the caller was. Refused reads are
 * not: a screen probing what it may show is not an attempt.
 */
export function recordRefusals(app: FastifyInstance, audit: AuditLog, prefix: string): void {
  // A callback hook: the answers that are no refused change (nearly all) go on without a promise.
  app.addHook("onResponse", (request, reply, done) => {
    if (reply.statusCode !== 403 || !CHANGING.has(request.method)) return done();
    const route = request.routeOptions.url;
    if (route === undefined || !(route === prefix || route.startsWith(`${prefix}/`))) return done();
    const user = request.currentUser;
    audit
      .recordEvent(
        {
          id: user?.id ?? null,
          username: user?.username ?? null,
          ip: request.ip,
          userAgent: request.headers["user-agent"] ?? null,
        },
        {
          action: `http.${request.method.toLowerCase()}`,
          target: { type: "route", id: `${request.method} ${route.slice(prefix.length)}`, label: pathOf(request.url) },
          result: "denied",
        },
      )
      .catch((error: unknown) => {
        request.log.error({ err: error }, "a refusal could not be recorded in the operation log");
      })
      .finally(() => done());
  });
}

function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}
