import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, type TestApp, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { CORPUS } from "../uploads/uploads.test-support.js";

const JPEG = fs.readFileSync(path.join(CORPUS, "jpg/gps/DSCN0010.jpg"));
/** Over the JPEG (161 713 bytes), under the slow response. */
const MAX_BYTES = 400_000;

interface FetchView {
  id: string;
  url: string;
  libraryId: string;
  state: string;
  progress: number;
  bytes: number;
  total: number | null;
  error: string | null;
  errorCode: string | null;
  errorParams: Record<string, string | number> | null;
  storyId: string | null;
}

/**
 * Stands in for the internet: a JPEG, an HTML page posing as one, a large
 * response sent slowly without Content-Length, one that announces its size,
 * and redirects (a chain, too long a chain, to loopback and metadata addresses).
 */
function startOrigin(): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const port = (server.address() as AddressInfo).port;
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const redirect = (location: string) => response.writeHead(302, { location }).end();
    switch (url.pathname) {
      case "/photo.jpg":
        response.writeHead(200, { "content-type": "image/jpeg", "content-length": JPEG.length }).end(JPEG);
        return;
      case "/fake.jpg":
        response.writeHead(200, { "content-type": "image/jpeg" }).end("<!doctype html><html><body>hi</body></html>");
        return;
      case "/announced-large.mp4":
        response.writeHead(200, { "content-type": "video/mp4", "content-length": 5 * MAX_BYTES });
        response.end();
        return;
      case "/slow-large.mp4": {
        response.writeHead(200, { "content-type": "video/mp4" });
        let sent = 0;
        const chunk = Buffer.alloc(64 * 1024, 1);
        const timer = setInterval(() => {
          if (response.destroyed || sent > 3 * MAX_BYTES) {
            clearInterval(timer);
            response.end();
            return;
          }
          sent += chunk.length;
          response.write(chunk);
        }, 10);
        response.on("close", () => clearInterval(timer));
        return;
      }
      case "/chain": {
        const left = Number(url.searchParams.get("n"));
        redirect(left > 0 ? `/chain?n=${left - 1}` : "/photo.jpg");
        return;
      }
      case "/to-loopback":
        // 127.0.0.2 is loopback but outside the test allow-list (127.0.0.1/32).
        redirect(`http://127.0.0.2:${port}/photo.jpg`);
        return;
      case "/to-metadata":
        redirect("http://169.254.169.254/latest/meta-data/");
        return;
      case "/to-file":
        redirect("file:///etc/passwd");
        return;
      default:
        response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const JOB_ENV = { DAMS_JOBS_POLL_MS: "50", DAMS_JOBS_BACKOFF_MS: "50", DAMS_JOBS_PROGRESS_MS: "0" };

describeEachDialect("url ingest: the download centre and its SSRF rules", (dialect) => {
  // The test origin listens on 127.0.0.1: allowed here, as an operator may allow a trusted range.
  const allowed = useTestApp(dialect, {
    env: { ...JOB_ENV, DAMS_FETCH_ALLOW_PRIVATE: "127.0.0.1/32", DAMS_FETCH_MAX_BYTES: String(MAX_BYTES) },
  });
  // The default: nothing private.
  const strict = useTestApp(dialect, { env: JOB_ENV });
  let origin: http.Server;
  let base: string;
  let editor: TestPrincipal;
  let strictEditor: TestPrincipal;
  let refusedCases = 0;

  beforeAll(async () => {
    origin = await startOrigin();
    base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    allowed().app.jobs.worker.start();
    editor = await createPrincipal(allowed().db, { username: "fetch-editor", roleId: "editor" });
    strictEditor = await createPrincipal(strict().db, { username: "fetch-strict", roleId: "editor" });
  });
  afterAll(async () => {
    origin?.closeAllConnections();
    await new Promise((resolve) => origin?.close(resolve));
    console.log(`[${dialect}] SSRF cases refused: ${refusedCases}`);
  });

  async function call(test: TestApp, who: TestPrincipal, method: "GET" | "POST", url: string, payload?: object) {
    return test.app.inject({ method, url: `${API_PREFIX}${url}`, headers: who.headers, payload });
  }

  async function start(url: string, extra: object = {}): Promise<FetchView> {
    const response = await call(allowed(), editor, "POST", "/thirdfiledownload/download/action/asy", { url, ...extra });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as FetchView;
  }

  /** Polls the rate call until the fetch has ended. */
  async function ended(url: string): Promise<FetchView> {
    // A bound in time, not in polls (a loaded machine makes each poll slower, not the fetch shorter).
    const deadline = Date.now() + 110_000;
    while (Date.now() < deadline) {
      const response = await call(allowed(), editor, "GET", `/video-download/rate?url=${encodeURIComponent(url)}`);
      expect(response.statusCode, response.body).toBe(200);
      const view = response.json().data as FetchView;
      if (view.state === "done" || view.state === "failed") return view;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${url} did not finish within 110 s`);
  }

  /** Refused with its English reason, and the code (with its values) the web app translates. */
  async function refusedOnStart(url: string, reason: RegExp, msgCode: string, msgParams: object = {}) {
    const response = await call(strict(), strictEditor, "POST", "/thirdfiledownload/download/action/asy", { url });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().msg).toMatch(reason);
    expect(response.json()).toMatchObject({ error: "url_refused", msgCode, msgParams });
    refusedCases++;
  }

  async function refusedWhileFetching(url: string, reason: RegExp, errorCode?: string) {
    await start(url);
    const view = await ended(url);
    expect(view.state).toBe("failed");
    expect(view.error).toMatch(reason);
    if (errorCode) expect(view.errorCode).toBe(errorCode);
    expect(view.storyId).toBeNull();
    return view;
  }

  it("fetches a JPEG into the material library as a draft story, progress 100", async () => {
    const url = `${base}/photo.jpg`;
    const started = await start(url);
    // The in-process worker may already have taken the job when the answer is built.
    expect(started).toMatchObject({ libraryId: "material" });
    expect(["queued", "running", "done"]).toContain(started.state);
    const view = await ended(url);
    expect(view.error).toBeNull();
    expect(view).toMatchObject({ state: "done", progress: 100, bytes: JPEG.length, total: JPEG.length });
    const story = await call(allowed(), editor, "GET", `/stories/material/${view.storyId}`);
    expect(story.statusCode, story.body).toBe(200);
    const data = story.json().data as {
      status: string;
      type: string;
      title: string;
      files: { role: string; size: number }[];
    };
    expect(data).toMatchObject({ status: "draft", type: "photo", title: "photo" });
    expect(data.files.find((file) => file.role === "original")?.size).toBe(JPEG.length);
  });

  it("follows a chain of redirects (5 at most) and lists the user's fetches", async () => {
    expect((await ended((await start(`${base}/chain?n=4`)).url)).state).toBe("done");
    await refusedWhileFetching(`${base}/chain?n=5`, /more than 5 redirects/, "fetch.redirects");
    const list = await call(allowed(), editor, "GET", "/thirdfiledownload/downloads?page=0&size=2");
    expect(list.statusCode, list.body).toBe(200);
    const page = list.json().data as { content: FetchView[]; totalElements: number };
    expect(page.content).toHaveLength(2);
    expect(page.content[0]!.url).toBe(`${base}/chain?n=5`);
    expect(page.totalElements).toBeGreaterThanOrEqual(3);
    // Another user sees none of them.
    const other = await call(
      allowed(),
      await createPrincipal(allowed().db, { username: "fetch-other", roleId: "editor" }),
      "GET",
      "/thirdfiledownload/downloads",
    );
    expect((other.json().data as { totalElements: number }).totalElements).toBe(0);
  });

  it("refuses an HTML page by its content, whatever its Content-Type says", async () => {
    const view = await refusedWhileFetching(`${base}/fake.jpg`, /HTML/, "file.refused");
    // Named for the web app's translation: what the file is, and the accepted types.
    expect(view.errorParams).toMatchObject({ content: "html", photoTypes: expect.stringMatching(/^JPEG, PNG/) });
  });

  it("refuses a response over the size limit, announced or streamed", async () => {
    await refusedWhileFetching(`${base}/announced-large.mp4`, /over the limit of/, "fetch.tooLarge");
    const slow = await refusedWhileFetching(`${base}/slow-large.mp4`, /over the limit of/, "fetch.overLimit");
    expect(slow.bytes).toBeLessThanOrEqual(MAX_BYTES);
  });

  it("refuses redirects to loopback, metadata and file: addresses, hop by hop", async () => {
    const loopback = await refusedWhileFetching(
      `${base}/to-loopback`,
      /127\.0\.0\.2 is a loopback address/,
      "fetch.address",
    );
    expect(loopback.errorParams).toMatchObject({ address: "127.0.0.2", range: "loopback" });
    refusedCases++;
    await refusedWhileFetching(`${base}/to-metadata`, /169\.254\.169\.254 is a link-local address/, "fetch.address");
    refusedCases++;
    await refusedWhileFetching(`${base}/to-file`, /file: URLs are not fetched/, "fetch.scheme");
    refusedCases++;
  });

  it("retries a failed fetch; a done one is not retried", async () => {
    const failed = await ended(`${base}/fake.jpg`);
    const retried = await call(allowed(), editor, "POST", `/thirdfiledownload/downloads/${failed.id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().data).toMatchObject({ state: "queued", error: null });
    expect((await ended(`${base}/fake.jpg`)).error).toMatch(/HTML/);
    const done = await ended(`${base}/photo.jpg`);
    const again = await call(allowed(), editor, "POST", `/thirdfiledownload/downloads/${done.id}/retry`);
    expect(again.statusCode).toBe(409);
  });

  it("without the allow-list, refuses private, loopback, metadata and other-scheme URLs when asked", async () => {
    await refusedOnStart(`${base}/photo.jpg`, /127\.0\.0\.1 is a loopback address/, "fetch.address", {
      address: "127.0.0.1",
      range: "loopback",
    });
    await refusedOnStart("http://10.0.0.1/", /10\.0\.0\.1 is a private address/, "fetch.address", { range: "private" });
    await refusedOnStart("http://172.16.5.4/a.jpg", /private address/, "fetch.address", { range: "private" });
    await refusedOnStart("http://192.168.1.1/a.jpg", /private address/, "fetch.address", { range: "private" });
    await refusedOnStart(
      "http://169.254.169.254/latest/meta-data/",
      /169\.254\.169\.254 is a link-local address/,
      "fetch.address",
      { range: "metadata" },
    );
    await refusedOnStart("http://100.64.0.1/", /carrier-grade NAT/, "fetch.address", { range: "cgnat" });
    await refusedOnStart("http://0.0.0.0/", /unspecified/, "fetch.address", { range: "unspecified" });
    await refusedOnStart("http://224.0.0.1/", /multicast/, "fetch.address", { range: "multicast" });
    await refusedOnStart("http://[::1]/", /::1 is a loopback address/, "fetch.address", { range: "loopback" });
    await refusedOnStart("http://[fd12:3456::1]/", /unique-local/, "fetch.address", { range: "uniqueLocal" });
    await refusedOnStart("http://[fe80::1]/", /link-local/, "fetch.address", { range: "linkLocal" });
    await refusedOnStart(
      "http://[::ffff:127.0.0.1]/",
      /loopback address written as IPv6 \(127\.0\.0\.1\)/,
      "fetch.address.ipv6",
      { range: "loopback", ipv4: "127.0.0.1" },
    );
    await refusedOnStart(
      "http://[::ffff:a9fe:a9fe]/",
      /link-local address .*written as IPv6 \(169\.254\.169\.254\)/,
      "fetch.address.ipv6",
      { range: "metadata", ipv4: "169.254.169.254" },
    );
    // Translated, NAT64 (well-known and local use), 6to4 and Teredo carry an IPv4 address too.
    for (const [url, ipv4] of [
      ["http://[::ffff:0:127.0.0.1]/", "127.0.0.1"],
      ["http://[64:ff9b::a9fe:a9fe]/", "169.254.169.254"],
      ["http://[64:ff9b:1:7f00:0:100::]/", "127.0.0.1"],
      ["http://[2002:7f00:1::1]/", "127.0.0.1"],
      ["http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "127.0.0.1"],
    ] as const) {
      await refusedOnStart(url, /written as IPv6/, "fetch.address.ipv6", { ipv4 });
    }
    await refusedOnStart("http://2130706433/", /127\.0\.0\.1 is a loopback address/, "fetch.address", {
      range: "loopback",
    });
    await refusedOnStart("ftp://example.com/a.jpg", /ftp: URLs are not fetched/, "fetch.scheme", { scheme: "ftp" });
    await refusedOnStart("file:///etc/passwd", /file: URLs are not fetched/, "fetch.scheme", { scheme: "file" });
    await refusedOnStart("gopher://127.0.0.1:70/", /gopher: URLs are not fetched/, "fetch.scheme", {
      scheme: "gopher",
    });
    await refusedOnStart(
      `http://localhost:${(origin.address() as AddressInfo).port}/photo.jpg`,
      /localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
      "fetch.resolvedAddress",
      { host: "localhost", range: "loopback" },
    );
    await refusedOnStart("http://user:secret@example.com/a.jpg", /user name or password/, "fetch.credentials");
    // Nothing was queued for any of them.
    const list = await call(strict(), strictEditor, "GET", "/thirdfiledownload/downloads");
    expect((list.json().data as { totalElements: number }).totalElements).toBe(0);
  });

  it("needs write access to the library it fetches into", async () => {
    const viewer = await createPrincipal(allowed().db, { username: "fetch-viewer", roleId: "contributor" });
    const response = await call(allowed(), viewer, "POST", "/thirdfiledownload/download/action/asy", {
      url: `${base}/photo.jpg`,
      libraryId: "product-not-there",
    });
    expect(response.statusCode).toBe(404);
  });
});
