import type { FastifyInstance } from "fastify";
import { addResponseHook, CHANGING_METHODS, recordRouteEvent } from "./audit-coverage.js";
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
      recordRouteEvent(audit, request, target, { result: "denied" })
        .catch((error: unknown) => {
          request.log.error({ err: error }, "a refusal could not be recorded in the operation log");
        })
        .finally(() => done());
    });
  });
}
