import type { FastifyInstance } from "fastify";
import { Invalid } from "./errors.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });
/** A `\uD800`-`\uDFFF` escape in the text: only then can a parsed string hold half a surrogate pair. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;
const LONE_SURROGATE = /\p{Cs}/u;

/** Whether a parsed JSON value holds a string (or key) with half a surrogate pair, which no UTF-8 can store. */
function holdsLoneSurrogate(value: unknown): boolean {
  if (typeof value === "string") return LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(holdsLoneSurrogate);
  if (value && typeof value === "object") {
    return Object.entries(value).some(([key, entry]) => LONE_SURROGATE.test(key) || holdsLoneSurrogate(entry));
  }
  return false;
}

/**
 * JSON bodies must be UTF-8 (RFC 8259). Fastify's own parser decodes the
 * bytes leniently, so invalid sequences became U+FFFD and were stored (a
 * role named "����"); here they are refused with 400, and so is an escaped
 * half of a surrogate pair (`"\ud800"`), which would turn into U+FFFD on the
 * way to the database. The rest (empty body, prototype poisoning, syntax) is
 * Fastify's parser, unchanged.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new Invalid("request body is not valid UTF-8", "invalid_utf8"), undefined);
      return;
    }
    parseJson(request, text, (error, value) => {
      if (error) done(error, undefined);
      else if (SURROGATE_ESCAPE.test(text) && holdsLoneSurrogate(value))
        done(
          new Invalid("request body holds half of a UTF-16 surrogate pair (\\ud800-\\udfff)", "invalid_utf8"),
          undefined,
        );
      else done(null, value);
    });
  });
}
