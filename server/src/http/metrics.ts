import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";

type Observer = (seconds: number) => void;

export interface MetricsAccess {
  /** A scraper's token (DAMS_METRICS_TOKEN): `Authorization: Bearer <token>`. */
  token?: string;
  /** Whether a user's access token may read the metrics (a monitor reader). */
  userMayRead: (bearer: string) => Promise<boolean>;
}

const BEARER = /^Bearer\s+(\S+)$/i;
const digest = (value: string) => createHash("sha256").update(value).digest();

/** The scraper's token or a monitor reader's access token; nothing else reads /metrics. */
async function mayRead(request: FastifyRequest, access: MetricsAccess): Promise<boolean> {
  const bearer = BEARER.exec(request.headers.authorization ?? "")?.[1];
  if (!bearer) return false;
  // Digests of equal length, so the comparison takes the same time whatever the token's length.
  if (access.token && timingSafeEqual(digest(bearer), digest(access.token))) return true;
  return access.userMayRead(bearer).catch(() => false);
}

/**
 * Prometheus metrics in a registry of the app's own, so test apps do not
 * share one. The histogram's `_count` series is the request counter.
 * `/metrics` answers only the scraper's token or a monitor reader (401 otherwise).
 */
export function registerMetrics(app: FastifyInstance, access: MetricsAccess): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "dams_" });

  const duration = new Histogram({
    name: "dams_http_request_duration_seconds",
    help: "HTTP request duration by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // Resolving labels costs more than observing; keep one child per label set.
  const observers = new Map<string, Observer>();

  app.addHook("onResponse", (request, reply, done) => {
    // The route pattern, never the raw URL, so label cardinality stays bounded (read once by request-start.ts).
    const route = request.routeUrl ?? "unmatched";
    const status = reply.statusCode;
    const key = `${request.method} ${status} ${route}`;
    let observe = observers.get(key);
    if (!observe) {
      const child = duration.labels({ method: request.method, route, status: String(status) });
      observe = (seconds) => child.observe(seconds);
      observers.set(key, observe);
    }
    observe(reply.elapsedTime / 1000);
    done();
  });

  app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
    if (!(await mayRead(request, access))) {
      // The API's error envelope, like every other refusal; the token sent is never echoed.
      reply.code(401).header("www-authenticate", 'Bearer realm="metrics"');
      return {
        code: 401,
        msg: "the metrics need Authorization: Bearer <DAMS_METRICS_TOKEN or a monitor reader's access token>",
        error: "metrics_unauthorized",
      };
    }
    reply.header("content-type", registry.contentType);
    return registry.metrics();
  });
  return registry;
}
