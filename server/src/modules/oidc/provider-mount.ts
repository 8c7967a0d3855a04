import type { FastifyInstance } from "fastify";
import type { Provider } from "oidc-provider";
import { signInPageHeaders } from "../../http/security.js";

/**
 * Hands every request under `mount` to oidc-provider untouched: Fastify does
 * not read the body (the provider parses its own form posts), and the
 * provider sees paths relative to the mount, with `originalUrl` telling it
 * where it lives. Routes registered elsewhere under the mount (our JSON
 * interaction endpoints) are more specific and win.
 */
export async function mountProvider(
  app: FastifyInstance,
  provider: Provider,
  mount: string,
  /** Where the provider's pages post or redirect results (redirect URIs), for the CSP's form-action. */
  formTargets: readonly string[],
): Promise<void> {
  const handle = provider.callback();
  // Set before the provider runs: it adds the hash of each inline script it writes to this CSP.
  const headers = Object.entries(signInPageHeaders(formTargets));
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
    scope.all(`${mount}/*`, { schema: { hide: true }, config: { public: true } }, async (request, reply) => {
      reply.hijack();
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      const url = raw.url ?? "/";
      raw.originalUrl = url;
      raw.url = url.slice(mount.length) || "/";
      for (const [name, value] of headers) reply.raw.setHeader(name, value);
      await handle(raw, reply.raw);
    });
  });
}
