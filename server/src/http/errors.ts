/**
 * Domain errors thrown by services. One error handler (error-handler.ts)
 * turns them into the statuses and messages of spec section 8.
 */
export class AppError extends Error {
  /** A stable name of the message (`fetch.address`), for clients that show it in the user's language. */
  msgCode?: string;
  /** The values the message names (a host, a count), for the translated text. */
  msgParams?: MessageParams;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** Names the message, so the web app can translate it (docs/api.md, "Errors"); `message` stays the English text. */
  withMessageCode(msgCode: string, msgParams: MessageParams = {}): this {
    this.msgCode = msgCode;
    this.msgParams = msgParams;
    return this;
  }
}

/** Values of a translatable message: plain strings and numbers only. */
export type MessageParams = Record<string, string | number>;

/** A message a client can show in its own language: the English text, and its stable code and values. */
export interface CodedMessage {
  msg: string;
  msgCode?: string;
  msgParams?: MessageParams;
}

export class Invalid extends AppError {
  constructor(message: string, code = "invalid") {
    super(400, code, message);
  }
}

export class Unauthorized extends AppError {
  constructor(message = "Unauthorized", code = "unauthorized") {
    super(401, code, message);
  }
}

export class Forbidden extends AppError {
  constructor(message = messageForStatus(403), code = "forbidden") {
    super(403, code, message);
  }
}

export class NotFound extends AppError {
  constructor(message = messageForStatus(404), code = "not_found") {
    super(404, code, message);
  }
}

export class Conflict extends AppError {
  constructor(message: string, code = "conflict") {
    super(409, code, message);
  }
}

/** The messages of spec section 8, by HTTP status. */
export const statusMessages: Record<number, string> = {
  400: "bad request",
  401: "Unauthorized",
  403: "access denied",
  404: "request error, resource not found",
  405: "request method not allowed",
  408: "request timeout",
  409: "conflict",
  412: "precondition failed",
  413: "payload too large",
  414: "request URI too long",
  415: "unsupported media type",
  429: "too many requests",
  431: "request header fields too large",
  500: "server error",
  501: "network not implemented",
  502: "network error",
  503: "service unavailable",
  504: "network timeout",
  505: "http version not supported",
};

/** Machine codes for statuses that carry no more specific one. */
export const statusCodes: Record<number, string> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  408: "request_timeout",
  409: "conflict",
  412: "precondition_failed",
  413: "payload_too_large",
  414: "uri_too_long",
  415: "unsupported_media_type",
  429: "too_many_requests",
  431: "headers_too_large",
  500: "server_error",
  503: "service_unavailable",
};

export function messageForStatus(status: number): string {
  return statusMessages[status] ?? "connection error";
}
