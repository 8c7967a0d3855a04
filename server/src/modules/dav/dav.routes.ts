import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { uploadBody } from "../../http/body-deadline.js";
import { actorOf } from "../auth/actor.js";
import type { RouteAccess } from "../auth/auth.types.js";
import type { DavService } from "./dav.service.js";
import { DavStatus, davStatusOf } from "./dav-responses.js";

export interface DavRoutesDeps {
  prefix: string;
  methods: readonly string[];
  dav: DavService;
  /** The routes' declared access (default: every signed-in user, who all have a disk). */
  access?: RouteAccess;
}

/** A PROPFIND, PROPPATCH, LOCK or MKCOL body is read whole: at most this much (413 beyond). */
const MAX_XML_BODY = 1024 * 1024;

/**
 * A WebDAV mount and everything under it (`/dav`: each user's network disk;
 * `/dav-shared`, `/dav-libraries`; docs/disk.md). The API's authentication hook guards these routes like
 * any other (declared access, Basic credentials: the user's name and a
 * personal API token); the disk's service records each change in the
 * operation log itself.
 */
export function davRoutes({ prefix, methods, dav, access = "authenticated" }: DavRoutesDeps): FastifyPluginAsync {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const actor = actorOf(request);
    try {
      const answer = await dav.handle(actor, {
        method: request.method,
        segments: dav.segmentsOf(request.raw.url ?? "/"),
        header: (name) => {
          const value = request.headers[name];
          return Array.isArray(value) ? value.join(", ") : value;
        },
        body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        stream: request.raw,
      });
      reply.code(answer.status);
      for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
      return reply.send(answer.body ?? "");
    } catch (error) {
      const status = davStatusOf(error);
      if (status === undefined) throw error;
      reply.code(status).header("content-type", "text/plain; charset=utf-8");
      return reply.send(error instanceof DavStatus ? (error.body ?? "") : (error as Error).message);
    }
  };
  const config = { access };
  const urls = [prefix, `${prefix}/*`];
  return async (app) => {
    // A PUT's body streams into the disk: Fastify reads none of it.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
      const put: typeof handler = (request, reply) => {
        uploadBody(request.raw);
        return handler(request, reply);
      };
      for (const url of urls) scope.route({ method: "PUT", url, config, schema: { hide: true }, handler: put });
    });
    // The others' bodies are small XML, read whole.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: MAX_XML_BODY }, (_request, body, done) =>
        done(null, body),
      );
      const method = ["GET", "HEAD", "DELETE", "OPTIONS", ...methods];
      for (const url of urls) scope.route({ method, url, config, schema: { hide: true }, handler });
    });
  };
}
