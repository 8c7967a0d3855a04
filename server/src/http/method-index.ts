import type { FastifyInstance } from "fastify";
import FindMyWay from "find-my-way";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Method = (typeof METHODS)[number];

/**
 * Fastify answers 404 for a known path with an unknown method. This index of
 * registered routes lets the not-found handler answer 405 with `Allow`.
 */
export class MethodIndex {
  readonly #router = FindMyWay();

  attach(app: FastifyInstance): void {
    app.addHook("onRoute", (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (!METHODS.includes(method as Method) || route.url.includes("*")) continue;
        this.#router.on(method as Method, route.url, () => {});
      }
    });
  }

  allowedMethods(path: string): string[] {
    return METHODS.filter((method) => this.#router.find(method, path) !== null);
  }
}
