import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import schema from "../formats/ninjs-schema-1.5.json" with { type: "json" };

export interface ReceivedPart {
  delivery: string;
  part: string;
  filename: string;
  mime: string;
  body: Buffer;
  signatureValid: boolean;
}

/** One request as the receiver answered it. */
export interface ReceivedCall {
  delivery: string;
  status: number;
  /** When the request arrived (Date.now()). */
  at: number;
}

/**
 * A newsroom's HTTP endpoint, as a test starts it: checks each body's
 * HMAC-SHA256, checks ninjs items against IPTC's schema (with its own ajv),
 * keeps one item per delivery id (de-duplicates like a real receiver),
 * records every request's delivery id and answer (`calls`), and can be told
 * to fail the next N requests (503, or a status given, with a Retry-After)
 * or to answer a fixed status.
 */
export async function startHttpReceiver(secret: string) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const validate = ajv.compile(schema);
  const parts: ReceivedPart[] = [];
  const items = new Map<string, Record<string, unknown>>();
  const schemaErrors: string[] = [];
  const calls: ReceivedCall[] = [];
  const failures: { status: number; retryAfter?: string }[] = [];
  let status: number | null = null;
  let requests = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests++;
      const delivery = String(request.headers["x-dams-delivery"]);
      const failure = failures.shift();
      if (failure) {
        calls.push({ delivery, status: failure.status, at: Date.now() });
        const headers = failure.retryAfter ? { "retry-after": failure.retryAfter } : {};
        response.writeHead(failure.status, headers).end("busy, try later");
        return;
      }
      if (status !== null) {
        calls.push({ delivery, status, at: Date.now() });
        response.writeHead(status).end("forbidden by the test");
        return;
      }
      const body = Buffer.concat(chunks);
      const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(body).digest("hex")}`);
      const given = Buffer.from(String(request.headers["x-dams-signature"] ?? ""));
      const signatureValid = given.length === expected.length && timingSafeEqual(given, expected);
      const part = {
        delivery,
        part: String(request.headers["x-dams-part"]),
        filename: decodeURIComponent(String(request.headers["x-dams-filename"] ?? "")),
        mime: String(request.headers["content-type"]),
        body,
        signatureValid,
      };
      parts.push(part);
      calls.push({ delivery, status: signatureValid ? 202 : 401, at: Date.now() });
      if (!signatureValid) {
        response.writeHead(401).end("bad signature");
        return;
      }
      if (part.part === "item" && part.mime === "application/json") {
        const item = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
        if (!validate(item)) schemaErrors.push(JSON.stringify(validate.errors));
        items.set(part.delivery, item);
      }
      response.writeHead(202, { "content-type": "application/json" }).end('{"accepted":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/ingest`,
    parts,
    items,
    schemaErrors,
    calls,
    get requests() {
      return requests;
    },
    /** The next `count` requests are answered `failStatus` (default 503), with `Retry-After: retryAfter` when given. */
    failNextRequests(count: number, failStatus = 503, retryAfter?: string) {
      for (let index = 0; index < count; index++) failures.push({ status: failStatus, retryAfter });
    },
    answer(code: number | null) {
      status = code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type HttpReceiver = Awaited<ReturnType<typeof startHttpReceiver>>;
