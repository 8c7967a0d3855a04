import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from "fastify";
import { messageForStatus, statusCodes } from "./errors.js";
import { securityHeaders } from "./security.js";

/**
 * Answers Fastify and Node.js give before any route or hook runs: a path
 * parameter over `maxParamLength` (414), a path that is not valid
 * percent-encoding (400), a request line or headers over Node's limit (431),
 * a request too slow to arrive (408), bytes that are not HTTP (400). Their
 * defaults are bare JSON of another shape, without our security headers, and
 * the 414 echoed the whole path. Here they get the envelope and the headers,
 * and never repeat what the client sent.
 */
export function errorBody(status: number, error: string, msg = messageForStatus(status)): string {
  return JSON.stringify({ code: status, msg, error });
}

/** The longest path parameter the router takes (Fastify's `maxParamLength`); longer answers 414. */
export const MAX_PARAM_LENGTH = 500;

const FRAMEWORK_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_MAX_PARAM_LENGTH: [
    414,
    `request URI too long: a path parameter holds at most ${MAX_PARAM_LENGTH} characters`,
  ],
  FST_ERR_BAD_URL: [400, "the request path is not valid percent-encoded UTF-8"],
};

/** Fastify's `frameworkErrors`: routing failures, before the onRequest hooks (so the headers are set here). */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const [status, msg] = FRAMEWORK_MESSAGES[error.code] ?? [500, messageForStatus(500)];
  const code = status === 400 ? "bad_url" : (statusCodes[status] ?? "error");
  if (status >= 500) request.log.error({ err: error }, "routing failed");
  else request.log.info({ status, code }, msg);
  reply
    .headers(securityHeaders)
    .status(status)
    .type("application/json; charset=utf-8")
    .send(errorBody(status, code, msg));
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, "request_timeout"],
  HPE_HEADER_OVERFLOW: [431, "headers_too_large"],
};

const RAW_SECURITY_HEADERS = Object.entries(securityHeaders)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join("");

/**
 * Node's `clientError`: the request could not even be parsed, so there is no
 * request object; the answer is written to the socket as it is, then the
 * connection closes (as Node does).
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, code] = CLIENT_ERRORS[error.code ?? ""] ?? [400, "bad_request"];
  this.log.debug({ err: error }, "client error");
  if (socket.writable) {
    const body = errorBody(status, code);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${RAW_SECURITY_HEADERS}` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** The handlers above, as options of `Fastify()`. */
export const frameworkErrorOptions = {
  frameworkErrors,
  clientErrorHandler,
  return503OnClosing: false,
} satisfies Pick<FastifyServerOptions, "frameworkErrors" | "clientErrorHandler" | "return503OnClosing">;
