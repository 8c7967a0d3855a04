import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerErrorHandler } from "../../http/error-handler.js";
import { startTestS3Server, type TestS3Server } from "../../test/s3-servers.js";
import { readZip } from "../../test/zip.js";
import type { BlobStore } from "./blob-store.js";
import { LocalBlobStore } from "./local-blob-store.js";
import { S3BlobStore } from "./s3-blob-store.js";
import { parseRange, sendBlob } from "./send-blob.js";
import { sendZip } from "./send-zip.js";

const CORPUS = path.resolve(import.meta.dirname, "../../../../../shared/corpus/exif-samples");
const photo = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));
const other = fs.readFileSync(path.join(CORPUS, "jpg/Nikon_D70.jpg"));
const KEY = "originals/aa/bb/canon";
const OTHER_KEY = "originals/aa/bb/nikon";

/** A bare Fastify with the two helpers behind routes, the way the stories module will use them. */
function downloadApp(store: BlobStore): FastifyInstance {
  const app = Fastify({ logger: false });
  registerErrorHandler(app);
  app.get<{ Querystring: { key?: string; inline?: string; type?: string; name?: string } }>(
    "/download",
    (request, reply) =>
      sendBlob(request, reply, store, {
        key: request.query.key ?? KEY,
        fileName: request.query.name ?? "台风 Canon 40D.jpg",
        contentType: request.query.type ?? "image/jpeg",
        disposition: request.query.inline ? "inline" : "attachment",
      }),
  );
  app.get<{ Querystring: { missing?: string } }>("/zip", (request, reply) =>
    sendZip(
      reply,
      store,
      [
        { key: KEY, name: "photo.jpg", contentType: "image/jpeg" },
        { key: OTHER_KEY, name: "photo.jpg", contentType: "image/jpeg" },
        { key: OTHER_KEY, name: "../../etc/passwd", contentType: "image/jpeg" },
        { key: KEY, name: "poly.html", contentType: "image/jpeg" },
        { key: KEY, name: "invoice\u202egpj.exe", contentType: "image/jpeg" },
        { key: KEY, name: "a;b\u0000c\r\nd\\e.JPEG", contentType: "image/jpeg" },
        ...(request.query.missing ? [{ key: "originals/no/ne/x", name: "gone.jpg", contentType: "image/jpeg" }] : []),
      ],
      "三条新闻 stories.zip",
    ),
  );
  return app;
}

describe("parseRange", () => {
  it.each([
    [undefined, { kind: "whole" }],
    ["bytes=0-99", { kind: "partial", range: { start: 0, end: 99 } }],
    ["bytes=900-", { kind: "partial", range: { start: 900, end: 999 } }],
    ["bytes=-100", { kind: "partial", range: { start: 900, end: 999 } }],
    ["bytes=-5000", { kind: "partial", range: { start: 0, end: 999 } }],
    ["bytes=990-5000", { kind: "partial", range: { start: 990, end: 999 } }],
    ["bytes=1000-", { kind: "unsatisfiable" }],
    ["bytes=-0", { kind: "unsatisfiable" }],
    ["bytes=0-1,5-9", { kind: "whole" }],
    ["bytes=9-1", { kind: "whole" }],
    ["items=0-1", { kind: "whole" }],
  ])("%s of 1000 bytes", (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });
});

describe("sendBlob and sendZip on the local store", () => {
  let root: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "dams-send-"));
    const store = new LocalBlobStore(root);
    await store.put(KEY, Readable.from([photo]));
    await store.put(OTHER_KEY, Readable.from([other]));
    app = downloadApp(store);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("sends the whole blob as an attachment with a UTF-8 name, nosniff and a sandbox", async () => {
    const response = await app.inject({ method: "GET", url: "/download" });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(photo)).toBe(true);
    expect(response.headers["content-length"]).toBe(String(photo.length));
    expect(response.headers["accept-ranges"]).toBe("bytes");
    expect(response.headers["content-type"]).toBe("image/jpeg");
    expect(response.headers["content-disposition"]).toBe(
      "attachment; filename=\"?? Canon 40D.jpg\"; filename*=UTF-8''%E5%8F%B0%E9%A3%8E%20Canon%2040D.jpg",
    );
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["content-security-policy"]).toMatch(/^sandbox; default-src 'none'; /);
    expect(response.headers["content-security-policy"]).not.toMatch(/script-src/);
    expect(response.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(response.headers["last-modified"]).toBeDefined();
  });

  it("answers HEAD with the headers of the whole blob and no body", async () => {
    const response = await app.inject({ method: "HEAD", url: "/download" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-length"]).toBe(String(photo.length));
    expect(response.headers["accept-ranges"]).toBe("bytes");
    expect(response.rawPayload.length).toBe(0);
  });

  it("sends inline for players", async () => {
    const response = await app.inject({ method: "GET", url: "/download?inline=1" });
    expect(response.headers["content-disposition"]).toMatch(/^inline; /);
  });

  it("never sends a type that can carry script inline, whatever the caller asks", async () => {
    for (const type of ["image/svg+xml", "text/html", "application/xhtml+xml", "application/pdf", "text/xml"]) {
      const response = await app.inject({ method: "GET", url: `/download?inline=1&type=${encodeURIComponent(type)}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-disposition"], type).toMatch(/^attachment; /);
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
    }
    for (const type of ["image/png", "video/mp4", "audio/mpeg"]) {
      const response = await app.inject({ method: "GET", url: `/download?inline=1&type=${encodeURIComponent(type)}` });
      expect(response.headers["content-disposition"], type).toMatch(/^inline; /);
    }
  });

  it("answers ranges: the first bytes, a suffix, an open end", async () => {
    const first = await app.inject({ method: "GET", url: "/download", headers: { range: "bytes=0-99" } });
    expect(first.statusCode).toBe(206);
    expect(first.headers["content-range"]).toBe(`bytes 0-99/${photo.length}`);
    expect(first.headers["content-length"]).toBe("100");
    expect(first.rawPayload.equals(photo.subarray(0, 100))).toBe(true);

    const suffix = await app.inject({ method: "GET", url: "/download", headers: { range: "bytes=-500" } });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.headers["content-range"]).toBe(`bytes ${photo.length - 500}-${photo.length - 1}/${photo.length}`);
    expect(suffix.rawPayload.equals(photo.subarray(photo.length - 500))).toBe(true);

    const open = await app.inject({ method: "GET", url: "/download", headers: { range: "bytes=4000-" } });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload.equals(photo.subarray(4000))).toBe(true);
  });

  it("answers a range past the end with 416 and the size", async () => {
    const response = await app.inject({
      method: "GET",
      url: "/download",
      headers: { range: `bytes=${photo.length}-` },
    });
    expect(response.statusCode).toBe(416);
    expect(response.headers["content-range"]).toBe(`bytes */${photo.length}`);
  });

  it("honours validators: 304 for a matching ETag, the whole body when If-Range no longer matches", async () => {
    const { headers } = await app.inject({ method: "GET", url: "/download" });
    const cached = await app.inject({ method: "GET", url: "/download", headers: { "if-none-match": headers.etag! } });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
    const stale = await app.inject({
      method: "GET",
      url: "/download",
      headers: { range: "bytes=0-9", "if-range": '"stale-etag"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(photo.length);
    const fresh = await app.inject({
      method: "GET",
      url: "/download",
      headers: { range: "bytes=0-9", "if-range": headers.etag! },
    });
    expect(fresh.statusCode).toBe(206);
  });

  it("answers 404 for a missing blob", async () => {
    const response = await app.inject({ method: "GET", url: "/download?key=originals/no/ne/x" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: "blob_not_found" });
  });

  it("names a download by its content: the sniffed type's extension, no bidi or control characters, no ; or separators", async () => {
    const nameOf = async (name: string, type = "image/jpeg") => {
      const query = new URLSearchParams({ name, type });
      const response = await app.inject({ method: "GET", url: `/download?${query}` });
      expect(response.statusCode).toBe(200);
      const disposition = response.headers["content-disposition"] as string;
      const star = /filename\*=UTF-8''([^;]+)$/.exec(disposition);
      return star ? decodeURIComponent(star[1]!) : /filename="([^"]*)"/.exec(disposition)![1]!;
    };
    expect(await nameOf("poly.html")).toBe("poly.jpg");
    expect(await nameOf("report.JPEG")).toBe("report.JPEG");
    expect(await nameOf("clip.mov", "video/mp4")).toBe("clip.mp4");
    expect(await nameOf("台风\u202egpj.exe")).toBe("台风gpj.jpg");
    expect(await nameOf("\u2066a\u2069b\u200f.jpg")).toBe("ab.jpg");
    expect(await nameOf("a;b.jpg")).toBe("a_b.jpg");
    expect(await nameOf("x\u0000y.jpg")).toBe("x_y.jpg");
    expect(await nameOf("..\\..\\windows/evil.jpg")).toBe("_.._windows_evil.jpg");
    expect(await nameOf("line\r\nbreak\u0085.jpg")).toBe("linebreak.jpg");
    expect(await nameOf("CON.jpg")).toBe("_CON.jpg");
    expect(await nameOf("...")).toBe("file.jpg");
  });

  it("streams a zip whose entries are the blobs, with safe and unique names", async () => {
    const response = await app.inject({ method: "GET", url: "/zip" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/zip");
    expect(response.headers["content-disposition"]).toContain("filename*=UTF-8''%E4%B8%89");
    expect(response.headers["content-length"]).toBe(String(response.rawPayload.length));
    const entries = await readZip(response.rawPayload);
    // Path separators, ;, NUL and controls neutralised or gone; the extension is the content's.
    expect([...entries.keys()]).toEqual([
      "photo.jpg",
      "photo (2).jpg",
      "_.._etc_passwd.jpg",
      "poly.jpg",
      "invoicegpj.jpg",
      "a_b_cd_e.JPEG",
    ]);
    expect(entries.get("photo.jpg")!.equals(photo)).toBe(true);
    expect(entries.get("photo (2).jpg")!.equals(other)).toBe(true);
    expect(entries.get("_.._etc_passwd.jpg")!.equals(other)).toBe(true);
  });

  it("refuses a zip with a missing blob before the first byte", async () => {
    const response = await app.inject({ method: "GET", url: "/zip?missing=1" });
    expect(response.statusCode).toBe(404);
  });
});

describe("sendBlob on S3 with presigned downloads", () => {
  let server: TestS3Server;
  let app: FastifyInstance;
  beforeAll(async () => {
    server = await startTestS3Server({ presignedDownloads: true });
    const store = new S3BlobStore(server.config);
    await store.put(KEY, Readable.from([photo]));
    app = downloadApp(store);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await server.close();
  });

  it("streams through the API, ranges included, when presigning is off", async () => {
    const streaming = downloadApp(new S3BlobStore({ ...server.config, presignedDownloads: false }));
    await streaming.ready();
    const whole = await streaming.inject({ method: "GET", url: "/download" });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(photo)).toBe(true);
    expect(whole.headers["last-modified"]).toBeDefined();
    const suffix = await streaming.inject({ method: "GET", url: "/download", headers: { range: "bytes=-100" } });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.rawPayload.equals(photo.subarray(photo.length - 100))).toBe(true);
    await streaming.close();
  });

  it("redirects to a presigned URL that serves the bytes", async () => {
    const response = await app.inject({ method: "GET", url: "/download" });
    expect(response.statusCode).toBe(302);
    const location = response.headers.location as string;
    expect(location).toContain(server.config.endpoint!);
    const fetched = await fetch(location);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(photo)).toBe(true);
  });
});
