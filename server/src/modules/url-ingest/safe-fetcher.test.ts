import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddressPolicy, FetchRefused } from "./address-policy.js";
import { SafeFetcher } from "./safe-fetcher.js";

/**
 * The check at connect time, below the early one the route makes: a host name
 * goes through the fetcher's own `lookup`, so the address checked is the
 * address connected to, and a refused one is never connected to at all.
 */
describe("SafeFetcher connects only to checked addresses", () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dams-safe-fetcher-"));
  let server: http.Server;
  let port: number;
  let requests = 0;

  beforeAll(async () => {
    server = http.createServer((_request, response) => {
      requests++;
      response.end("hello");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(work, { recursive: true, force: true });
  });

  const fetcher = (allowPrivate: string[]) =>
    new SafeFetcher({
      policy: new AddressPolicy(allowPrivate),
      maxBytes: 1000,
      connectTimeoutMs: 5000,
      idleTimeoutMs: 5000,
    });
  const fetch = (instance: SafeFetcher, url: string) =>
    instance.fetchToFile(url, path.join(work, "out"), {
      signal: new AbortController().signal,
      onProgress: () => undefined,
    });

  it("refuses a host name that resolves to loopback in the socket's lookup, before connecting", async () => {
    const before = requests;
    const refused = await fetch(fetcher([]), `http://localhost:${port}/`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FetchRefused);
    expect((refused as Error).message).toMatch(/localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(requests).toBe(before);
  });

  it("connects to an allowed range through the same lookup", async () => {
    const fetched = await fetch(fetcher(["127.0.0.0/8", "::1/128"]), `http://localhost:${port}/`);
    expect(fetched.size).toBe(5);
    expect(requests).toBeGreaterThan(0);
  });
});
