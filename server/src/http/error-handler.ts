import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { AppError, type CodedMessage, type MessageParams, messageForStatus, statusCodes } from "./errors.js";
import type { MethodIndex } from "./method-index.js";

export const API_PREFIX = "/dams/api/v1";

function send(reply: FastifyReply, status: number, error: string, msg: string, coded: Partial<CodedMessage> = {}) {
  const body = coded.msgCode
    ? { code: status, msg, error, msgCode: coded.msgCode, msgParams: coded.msgParams ?? {} }
    : { code: status, msg, error };
  return reply.status(status).send(body);
}

function validationMessage(error: FastifyError): string {
  if (!hasZodFastifySchemaValidationErrors(error)) return error.message;
  const where = error.validationContext ?? "request";
  return error.validation
    .map((issue) => {
      const field = issue.instancePath.replace(/^\//, "").replaceAll("/", ".");
      const path = field ? `${where}.${field}` : where;
      return `${path}: ${issue.message}`;
    })
    .join("; ");
}

/** Maps a thrown error to a status, a machine code and a message. */
export function describeError(error: FastifyError | Error): {
  status: number;
  code: string;
  msg: string;
  msgCode?: string;
  msgParams?: MessageParams;
} {
  if (error instanceof AppError)
    return {
      status: error.status,
      code: error.code,
      msg: error.message,
      msgCode: error.msgCode,
      msgParams: error.msgParams,
    };
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fastifyError)) {
    return { status: 400, code: "validation_failed", msg: validationMessage(fastifyError) };
  }
  if (isResponseSerializationError(fastifyError)) {
    return { status: 500, code: "server_error", msg: messageForStatus(500) };
  }
  switch (fastifyError.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return { status: 400, code: "invalid_json", msg: `request body is not valid JSON: ${fastifyError.message}` };
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { status: 413, code: "payload_too_large", msg: "request body is larger than the limit" };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { status: 415, code: "unsupported_media_type", msg: fastifyError.message };
    default:
      break;
  }
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return { status: 400, code: "invalid_json", msg: `request body is not valid JSON: ${error.message}` };
  }
  const status = fastifyError.statusCode && fastifyError.statusCode >= 400 ? fastifyError.statusCode : 500;
  const msg = status < 500 ? fastifyError.message || messageForStatus(status) : messageForStatus(status);
  return { status, code: statusCodes[status] ?? "error", msg };
}

/** Answers a request no route matched, or returns false to let the 404 envelope answer. */
export type FallbackHandler = (request: FastifyRequest, reply: FastifyReply) => boolean;

/**
 * Fastify binds a route to the error handler in force when the route is
 * registered, so this must run before any route is: routes registered
 * earlier would answer errors with Fastify's default body.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, code, msg, msgCode, msgParams } = describeError(error);
    if (status >= 500) request.log.error({ err: error }, "request failed");
    else request.log.info({ status, code }, msg);
    return send(reply, status, code, msg, { msgCode, msgParams });
  });
}

/** 404 (or 405 with Allow) for requests no route matched; after every route, as the fallback needs them. */
export function registerNotFoundHandler(app: FastifyInstance, methods: MethodIndex, fallback?: FallbackHandler): void {
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    if (fallback?.(request, reply)) return reply;
    const path = request.url.split("?")[0] ?? request.url;
    const allowed = methods.allowedMethods(path).filter((method) => method !== request.method);
    if (allowed.length > 0) {
      reply.header("allow", allowed.join(", "));
      return send(reply, 405, "method_not_allowed", messageForStatus(405));
    }
    return send(reply, 404, "not_found", messageForStatus(404));
  });
}
