import type { IncomingMessage, Server, ServerResponse } from "node:http";

/** How long a request's body may take, and how fast an upload's must keep coming (docs/security.md). */
export interface BodyDeadlineOptions {
  /** A body not whole this long after its request began is answered 408, as Node's `requestTimeout` would. */
  requestTimeoutMs: number;
  /** An upload's body has no deadline but must bring at least this many bytes in every window… */
  uploadMinBytes: number;
  /** …of this many milliseconds; else it is cut (408), and tus keeps what had arrived for the client to resume. */
  uploadWindowMs: number;
}

interface Watch {
  timer: NodeJS.Timeout;
  options: BodyDeadlineOptions;
  server: Server;
  response: ServerResponse;
}

const watches = new WeakMap<IncomingMessage, Watch>();

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/**
 * Ends a request whose body is late: the 408 in the envelope on the socket (the server's clientError handler,
 * as for Node's own request timeout), or only the connection when an answer has already begun.
 */
function cut(watch: Watch, request: IncomingMessage, message: string): void {
  if (request.complete || request.socket.destroyed) return;
  if (watch.response.headersSent) {
    request.socket.destroy();
    return;
  }
  const error = Object.assign(new Error(message), { code: "ERR_HTTP_REQUEST_TIMEOUT" });
  watch.server.emit("clientError", error, request.socket);
}

/**
 * Node's `requestTimeout` is one deadline for every request's body, so an upload larger than the link can carry
 * in that time could never be sent in one request. It is turned off (`requestTimeout: 0`) and kept here instead:
 * every request with a body gets the same deadline, except those a route declares an upload (`uploadBody`),
 * which may take as long as they need while their bytes keep coming at the minimum rate. Requests without a body
 * cost nothing here; Node's `headersTimeout` still bounds the headers.
 */
export function registerBodyDeadline(server: Server, options: BodyDeadlineOptions): void {
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    if (!hasBody(request)) return;
    const watch: Watch = {
      timer: setTimeout(() => cut(watch, request, "request timeout"), options.requestTimeoutMs),
      options,
      server,
      response,
    };
    watch.timer.unref();
    watches.set(request, watch);
    response.once("close", () => clearTimeout(watch.timer));
  });
}

/**
 * Declares the request's body an upload (a tus PATCH or POST, a WebDAV PUT): no deadline, but at least
 * `uploadMinBytes` in every `uploadWindowMs`, counted on the socket. A request without a body, or on a server
 * without the deadline (tests' inject), is left alone.
 */
export function uploadBody(request: IncomingMessage): void {
  const watch = watches.get(request);
  if (!watch) return;
  clearTimeout(watch.timer);
  const { uploadMinBytes, uploadWindowMs } = watch.options;
  let counted = request.socket.bytesRead;
  watch.timer = setInterval(() => {
    const read = request.socket.bytesRead;
    if (request.complete) clearInterval(watch.timer);
    else if (read - counted < uploadMinBytes) {
      clearInterval(watch.timer);
      cut(watch, request, "upload too slow");
    } else counted = read;
  }, uploadWindowMs);
  watch.timer.unref();
}
