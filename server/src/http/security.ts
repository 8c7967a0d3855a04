/**
 * Security headers and a Content-Security-Policy on every response, errors
 * included (added by the request-start hook, request-start.ts). The set is
 * computed once and added in one call per request:
 * @fastify/helmet did the same job at half the API's throughput (measured with
 * bench/), because it runs Express-style middleware on every request.
 *
 * style-src needs 'unsafe-inline' because antd writes its CSS-in-JS into
 * <style> elements at run time; scripts stay restricted to our origin.
 */
const policyWith = (frameAncestors: string, formAction = "'self'") =>
  [
    "default-src 'self'",
    "base-uri 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "frame-src 'self'",
    `frame-ancestors ${frameAncestors}`,
    `form-action ${formAction}`,
    "object-src 'none'",
  ].join("; ");

export const contentSecurityPolicy = policyWith("'self'");

export const securityHeaders: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": contentSecurityPolicy,
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "origin-agent-cluster": "?1",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "SAMEORIGIN",
  "x-permitted-cross-domain-policies": "none",
});

/**
 * The pages other newsroom systems may frame (docs/embedding.md). Only these,
 * and only by the configured origins: every other page, and every API answer,
 * keeps `frame-ancestors 'self'` and X-Frame-Options.
 */
export const EMBEDDABLE_PATHS: readonly string[] = ["/source/ismpsource", "/source/ismpupload", "/source/ismpnetdisk"];

export function isEmbeddablePath(url: string): boolean {
  const pathname = (url.split("?")[0] ?? "").replace(/\/+$/, "");
  return EMBEDDABLE_PATHS.includes(pathname);
}

/**
 * The headers of an embeddable page: frame-ancestors names the allowed
 * origins, and X-Frame-Options (which can only say SAMEORIGIN) is left out,
 * since browsers that know CSP follow frame-ancestors and older ones would
 * refuse every frame.
 */
export function embeddableHeaders(origins: readonly string[]): Readonly<Record<string, string>> {
  const { "x-frame-options": _sameOrigin, ...rest } = securityHeaders;
  return Object.freeze({
    ...rest,
    "content-security-policy": policyWith(["'self'", ...origins].join(" ")),
    // Opened with window.open by another system, the page must keep its opener to answer it;
    // same-origin would cut the tie (it matters only for top-level pages, not frames).
    "cross-origin-opener-policy": "unsafe-none",
  });
}

/**
 * The headers of the sign-in server's own pages (/uuas: the logout page, the
 * form that posts a result back): the same policy, whose script-src
 * oidc-provider extends with the SHA-256 of each inline script it writes
 * (so `session/end`'s auto-submit runs and nothing else inline does), and
 * whose form-action also names the origins results are posted or redirected
 * to (the registered redirect URIs).
 */
export function signInPageHeaders(formTargets: readonly string[]): Readonly<Record<string, string>> {
  const origins = [...new Set(formTargets.map((target) => new URL(target).origin))];
  return Object.freeze({
    ...securityHeaders,
    "content-security-policy": policyWith("'self'", ["'self'", ...origins].join(" ")),
  });
}
