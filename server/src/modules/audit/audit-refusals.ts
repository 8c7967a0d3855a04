import type { FastifyInstance, FastifyRequest } from "fastify";
import { addResponseHook, CHANGING_METHODS } from "./audit-coverage.js";
import type { AuditLog } from "./audit-log.js";

/**
 * Every refused attempt to change something (a 403 to a POST, PUT, PATCH or
 * DELETE under `prefix`) is recorded as `http.<method>` with result
 * `denied`, the route as target, whoever the caller was. Refused reads are
 * not: a screen probing what it may show is not an attempt. The hook is the
 * changing routes' own (onResponse of the route): reads never call it.
 */
export function recordRefusals(app: FastifyInstance, audit: AuditLog, prefix: string): void {
  app.addHook("onRoute", (route) => {
    if (!(route.url === prefix || route.url.startsWith(`${prefix}/`))) return;
    if (![route.method].flat().some((method) => CHANGING_METHODS.has(method))) return;
    const target = route.url.slice(prefix.length);
    // A callback hook: the answers that are no refusal (nearly all) go on without a promise.
    addResponseHook(route, (request, reply, done) => {
      if (reply.statusCode !== 403 || !CHANGING_METHODS.has(request.method)) return done();
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
            target: { type: "route", id: `${request.method} ${target}`, label: pathOf(request) },
            result: "denied",
          },
        )
        .catch((error: unknown) => {
          request.log.error({ err: error }, "a refusal could not be recorded in the operation log");
        })
        .finally(() => done());
    });
  });
}

function pathOf(request: FastifyRequest): string {
  const query = request.url.indexOf("?");
  return query === -1 ? request.url : request.url.slice(0, query);
}
