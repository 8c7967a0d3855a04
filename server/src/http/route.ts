import type { FastifyContextConfig, FastifySchema } from "fastify";
import type { z } from "zod";
import { apiErrorResponses, envelope } from "./envelope.js";

/**
 * A route's options, as API routes declare them: who may call it, and its schema, which answers `data` in the
 * envelope or one of `errors` (by default the API's usual ones, apiErrorResponses).
 */
export function apiRoute<
  Schema extends Omit<FastifySchema, "response">,
  Data extends z.ZodType,
  Errors extends Record<number, z.ZodType> = typeof apiErrorResponses,
>(config: FastifyContextConfig, schema: Schema, data: Data, errors?: Errors) {
  return { config, schema: { ...schema, response: { 200: envelope(data), ...(errors ?? apiErrorResponses) } } };
}
