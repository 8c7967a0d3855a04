import type { FastifyContextConfig, FastifySchema } from "fastify";
import type { z } from "zod";
import { apiErrorResponses, envelope } from "./envelope.js";

/**
 * A route's options, as most API routes declare them: who may call it, and its schema, which answers `data` in the
 * envelope or one of the API's errors (apiErrorResponses).
 */
export function apiRoute<Schema extends Omit<FastifySchema, "response">, Data extends z.ZodType>(
  config: FastifyContextConfig,
  schema: Schema,
  data: Data,
) {
  return { config, schema: { ...schema, response: { 200: envelope(data), ...apiErrorResponses } } };
}
