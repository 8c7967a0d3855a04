import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { errorBody } from "./framework-errors.js";
import { embeddableHeaders, isEmbeddablePath, securityHeaders } from "./security.js";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The pattern of the route that matched (`/dams/api/v1/stories/:libraryId/:storyId`), undefined when none
     * did: read once by the request-start hook, for the guard and the metrics (`request.routeOptions` builds
     * a new object at every read).
     */
    routeUrl: string | undefined;
  }
}

/**
 * The API's sign-in and access check (registerApiAuth), run last by the
 * request-start hook with the matched route's pattern and config: a promise
 * when it has work to wait for, undefined when the request is none of its
 * business (not under the API, or public).
 */
export type RequestGuard = (
  request: FastifyRequest,
  reply: FastifyReply,
  url: string | undefined,
  config: FastifyContextConfig,
) => Promise<void> | undefined;

export interface RequestStart {
  /** Installs the API's guard (once; the server refuses to start without it). */
  guard(check: RequestGuard): void;
}

/**
 * The server's one onRequest hook, first of all, doing in order what three
 * hooks did (one hook call per request instead of three; the profile of GET
 * one story put the three at ~11 % of its CPU, docs/operations.md):
 *
 * 1. the security headers (security.ts) on every response, errors, 404s,
 *    tus and /uuas included, so early answers (401, 403, 503) carry them;
 * 2. while the server closes, requests still arriving on open connections
 *    get 503 in the envelope with `Connection: close` (Fastify's own closing
 *    answer has neither);
 * 3. the API's guard (sign-in, access, library level), whose refusals the
 *    error handler answers in the envelope.
 *
 * It is a callback hook, not an async one: a request the guard has nothing
 * to do for goes on without a promise.
 */
export function registerRequestStart(
  app: FastifyInstance,
  options: { embedOrigins?: readonly string[] } = {},
): RequestStart {
  const origins = options.embedOrigins ?? [];
  // With no embedding origins every page has the same headers: no path to look at.
  const embeddable = origins.length > 0 ? embeddableHeaders(origins) : undefined;
  let closing = false;
  let guard: RequestGuard | undefined;

  app.decorateRequest("routeUrl", undefined);
  app.addHook("onReady", async () => {
    if (!guard) throw new Error("the API's access guard was never installed (registerApiAuth)");
  });
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onRequest", (request, reply, done) => {
    const { url, config } = request.routeOptions;
    request.routeUrl = url;
    reply.headers(embeddable && isEmbeddablePath(request.url) ? embeddable : securityHeaders);
    if (closing) {
      reply
        .header("connection", "close")
        .status(503)
        .type("application/json; charset=utf-8")
        .send(errorBody(503, "service_unavailable"));
      return;
    }
    if (!guard) return done(new Error("the API's access guard was never installed (registerApiAuth)"));
    const pending = guard(request, reply, url, config);
    if (pending === undefined) return done();
    pending.then(
      () => done(),
      (error: Error | undefined) => done(error ?? new Error("the access check failed without a reason")),
    );
  });

  return {
    guard(check) {
      if (guard) throw new Error("the API's access guard is installed once");
      guard = check;
    },
  };
}
