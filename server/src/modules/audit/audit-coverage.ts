import type { FastifyInstance, FastifyRequest, onResponseHookHandler, RouteOptions } from "fastify";
import { actorGivenFor } from "../auth/actor.js";
import { type AuditLog, recordedBy } from "./audit-log.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * Why a POST, PUT, PATCH or DELETE route records nothing in the operation log
     * (it changes nothing: a read sent as POST; or it is a part of a change recorded
     * elsewhere: a tus chunk). Every other such route records (docs/audit.md).
     */
    notAudited?: string;
  }
}

export const CHANGING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A POST, PUT, PATCH or DELETE route of the API, as registered. */
export interface ChangingRoute {
  method: string;
  /** Without the API prefix: `/workflow-story-delete/:libraryId/:storyId`. */
  url: string;
  notAudited?: string;
}

const routeTables = new WeakMap<FastifyInstance, ChangingRoute[]>();

/** The changing routes of an app built with `recordUnrecorded` (the coverage test walks them). */
export function changingRoutes(app: FastifyInstance): ChangingRoute[] {
  return routeTables.get(app) ?? [];
}

/**
 * Nothing changes unrecorded: a successful POST, PUT, PATCH or DELETE under
 * `prefix` whose service recorded nothing for the request's actor (no
 * `AuditLog.record` with `actorOf(request)`) is recorded here, after the
 * answer, as `http.<method>` with the route as target and the path's
 * parameters as details. Services that know what changed record in their
 * transaction with the fields before and after; this is the floor under the
 * rest (and under routes added later), written beside the change rather
 * than in its transaction. A route that changes nothing declares
 * `config.notAudited` with the reason.
 */
export function recordUnrecorded(app: FastifyInstance, audit: AuditLog, prefix: string): void {
  const table: ChangingRoute[] = [];
  routeTables.set(app, table);
  app.addHook("onRoute", (route) => {
    if (!(route.url === prefix || route.url.startsWith(`${prefix}/`))) return;
    const methods = [route.method].flat().filter((method) => CHANGING_METHODS.has(method));
    if (methods.length === 0) return;
    const notAudited = route.config?.notAudited;
    for (const method of methods) {
      table.push({ method, url: route.url.slice(prefix.length), ...(notAudited ? { notAudited } : {}) });
    }
    // On the changing routes alone: a read never calls it. A route that changes nothing has no hook.
    if (notAudited === undefined) addResponseHook(route, recordIfUnrecorded(audit, route.url.slice(prefix.length)));
  });
}

/** Appends a route-level onResponse hook to the ones the route declares. */
export function addResponseHook(route: RouteOptions, hook: onResponseHookHandler): void {
  route.onResponse = [...[route.onResponse ?? []].flat(), hook];
}

/** The onResponse hook of one changing route (`route`: its path without the API prefix). */
function recordIfUnrecorded(audit: AuditLog, route: string): onResponseHookHandler {
  // A callback hook: the answers that need no record go on without a promise.
  return (request, reply, done) => {
    if (reply.statusCode >= 400 || !CHANGING_METHODS.has(request.method)) return done();
    const actor = actorGivenFor(request);
    if (actor && recordedBy(actor)) return done();
    recordRouteEvent(audit, request, route, { details: { status: reply.statusCode, params: request.params ?? {} } })
      .catch((error: unknown) => {
        request.log.error({ err: error }, "a change could not be recorded in the operation log");
      })
      .finally(() => done());
  };
}

/**
 * Records a call of a route that no service recorded (or a refusal of one): the signed-in user, the address
 * and user agent, `http.<method>` as the action and the route (`route`: its path without the API prefix) as
 * the target, labelled with the path asked for.
 */
export function recordRouteEvent(
  audit: AuditLog,
  request: FastifyRequest,
  route: string,
  fields: { details?: Record<string, unknown>; result?: "denied" },
): Promise<unknown> {
  const user = request.currentUser;
  const query = request.url.indexOf("?");
  return audit.recordEvent(
    {
      id: user?.id ?? null,
      username: user?.username ?? null,
      ip: request.ip,
      userAgent: request.headers["user-agent"] ?? null,
    },
    {
      action: `http.${request.method.toLowerCase()}`,
      target: {
        type: "route",
        id: `${request.method} ${route}`,
        label: query === -1 ? request.url : request.url.slice(0, query),
      },
      ...fields,
    },
  );
}
