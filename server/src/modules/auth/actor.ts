import type { FastifyRequest } from "fastify";
import { currentUser } from "./auth.plugin.js";
import type { PermissionSet } from "./permissions.js";

/**
 * Who makes a change and from where; the story trail, the operation log
 * (`AuditLog.record(trx, actor, …)`) and the access rules read it. Built
 * once per request by `actorOf`, so a service given an actor has the caller's
 * address and user agent without being passed them.
 */
export interface Actor {
  id: string;
  username: string;
  admin: boolean;
  roleId: string | null;
  /** The permissions of the caller's role; absent for actors not made from a request. */
  permissions?: PermissionSet;
  ip: string | null;
  /** The request's User-Agent; absent for actors not made from a request (jobs acting for a user). */
  userAgent?: string | null;
}

const actors = new WeakMap<FastifyRequest, Actor>();

/**
 * The signed-in caller of a route that declared its access, with the address
 * the request came from. The same object for every call on one request, so
 * the operation log can tell whether a request's change recorded itself.
 */
export function actorOf(request: FastifyRequest): Actor {
  const known = actors.get(request);
  if (known) return known;
  const user = currentUser(request);
  const actor: Actor = {
    id: user.id,
    username: user.username,
    admin: user.admin,
    roleId: user.roleId,
    permissions: user.permissions,
    ip: request.ip,
    userAgent: request.headers["user-agent"] ?? null,
  };
  actors.set(request, actor);
  return actor;
}

/** The actor `actorOf` gave for this request, if a handler asked for one. */
export function actorGivenFor(request: FastifyRequest): Actor | undefined {
  return actors.get(request);
}
