import type { FastifyInstance } from "fastify";
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";

type Observer = (seconds: number) => void;

/**
 * Prometheus metrics in a registry of the app's own, so test apps do not
 * share one. The histogram's `_count` series is the request counter.
 */
export function registerMetrics(app: FastifyInstance): Registry {
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
    // The route pattern, never the raw URL, so label cardinality stays bounded.
    const route = request.routeOptions.url ?? "unmatched";
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

  app.get("/metrics", { schema: { hide: true } }, async (_request, reply) => {
    reply.header("content-type", registry.contentType);
    return registry.metrics();
  });
  return registry;
}
