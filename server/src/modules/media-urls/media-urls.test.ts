import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, putThumbnail, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { MediaUrlSigner } from "./media-url-signer.js";

const KEY = randomBytes(32).toString("base64url");

describe("media URL signer", () => {
  const claims = { libraryId: "product", storyId: "s-1", versionNo: 2, rendition: "proxy" };

  it("verifies what it signed, and refuses a tampered, foreign-key or expired token", () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const signer = new MediaUrlSigner(Buffer.from(KEY), 600, () => now);
    const { token, expiresAt } = signer.token(claims);
    expect(signer.verify(token)).toEqual({ ...claims, expiresAt });
    expect(expiresAt - now / 1000).toBeGreaterThanOrEqual(600);
    expect(expiresAt - now / 1000).toBeLessThanOrEqual(750);

    const [body, mac] = token.split(".");
    const other = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, "base64url").toString()), s: "s-2" }));
    expect(signer.verify(`${other.toString("base64url")}.${mac}`)).toBe("bad_signature");
    expect(signer.verify(`${body}.${mac!.slice(0, -2)}AA`)).toBe("bad_signature");
    expect(signer.verify("nonsense")).toBe("malformed");
    expect(new MediaUrlSigner(randomBytes(32), 600, () => now).verify(token)).toBe("bad_signature");

    now = expiresAt * 1000;
    expect(signer.verify(token)).toBe("expired");
  });

  it("gives the same URL within a window, so the browser's cache keeps working", () => {
    let now = Date.parse("2026-01-01T00:00:10Z");
    const signer = new MediaUrlSigner(Buffer.from(KEY), 600, () => now);
    const first = signer.url(claims);
    now += 60_000;
    expect(signer.url(claims)).toBe(first);
    now += 150_000;
    expect(signer.url(claims)).not.toBe(first);
  });
});

describeEachDialect("signed media URLs", (dialect) => {
  const ctx = useStoriesApp(dialect, { env: { DAMS_MEDIA_URL_KEY: KEY } });
  const call = api(ctx);
  const anonymous = (url: string, headers: Record<string, string> = {}, method: "GET" | "HEAD" = "GET") =>
    ctx().app.inject({ method, url, headers });
  let editor: TestPrincipal;
  let contributor: TestPrincipal;

  beforeAll(async () => {
    editor = await createPrincipal(ctx().db, { username: "media-editor", roleId: "editor" });
    contributor = await createPrincipal(ctx().db, { username: "media-contributor", roleId: "contributor" });
  });

  it("serves a story's file without a bearer token, with ranges, validators and the user-content headers", async () => {
    const { story } = await uploadStory(ctx(), editor, {
      bytes: "0123456789",
      name: "clip.mp4",
      type: "video",
      mime: "video/mp4",
    });
    const view = (await call(editor, "GET", `/stories/product/${story.id}`)).json().data;
    const original = view.files.find((file: { role: string }) => file.role === "original");
    expect(original.mediaUrl).toMatch(/^\/dams\/api\/v1\/media\/[\w-]+\.[\w-]+$/);

    const whole = await anonymous(original.mediaUrl);
    expect(whole.statusCode).toBe(200);
    expect(whole.body).toBe("0123456789");
    expect(whole.headers).toMatchObject({
      "accept-ranges": "bytes",
      "content-type": "video/mp4",
      "x-content-type-options": "nosniff",
    });
    expect(whole.headers["content-disposition"]).toMatch(/^inline; /);
    expect(whole.headers["content-security-policy"]).toMatch(/^sandbox; default-src 'none'/);

    const middle = await anonymous(original.mediaUrl, { range: "bytes=2-5" });
    expect(middle.statusCode).toBe(206);
    expect(middle.body).toBe("2345");
    expect(middle.headers["content-range"]).toBe("bytes 2-5/10");
    const outside = await anonymous(original.mediaUrl, { range: "bytes=10-" });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers["content-range"]).toBe("bytes */10");
    const unchanged = await anonymous(original.mediaUrl, { "if-none-match": String(whole.headers.etag) });
    expect(unchanged.statusCode).toBe(304);
    expect((await anonymous(original.mediaUrl, {}, "HEAD")).headers["content-length"]).toBe("10");

    // The explicit call gives a fresh URL of the same file.
    const asked = await call(editor, "GET", `/stories/product/${story.id}/media-url`);
    expect(asked.statusCode).toBe(200);
    expect((await anonymous(asked.json().data.url)).body).toBe("0123456789");
    expect(Date.parse(asked.json().data.expiresAt)).toBeGreaterThan(Date.now() + 590_000);
  });

  it("refuses a tampered, expired or other story's token with 403", async () => {
    const mine = (await uploadStory(ctx(), editor, { bytes: "mine", name: "a.jpg" })).story;
    const theirs = (await uploadStory(ctx(), editor, { bytes: "theirs", name: "b.jpg" })).story;
    const url = (await call(editor, "GET", `/stories/product/${mine.id}/media-url`)).json().data.url as string;
    const token = url.split("/").pop()!;
    const [body, mac] = token.split(".");
    const payload = JSON.parse(Buffer.from(body!, "base64url").toString());

    const retarget = Buffer.from(JSON.stringify({ ...payload, s: theirs.id })).toString("base64url");
    const refused = await anonymous(`/dams/api/v1/media/${retarget}.${mac}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("media_url_bad_signature");
    const later = Buffer.from(JSON.stringify({ ...payload, e: payload.e + 86_400 })).toString("base64url");
    expect((await anonymous(`/dams/api/v1/media/${later}.${mac}`)).statusCode).toBe(403);
    expect((await anonymous(`/dams/api/v1/media/${body}.${mac}x`)).statusCode).toBe(403);
    expect((await anonymous("/dams/api/v1/media/not-a-token")).statusCode).toBe(403);

    const past = new MediaUrlSigner(Buffer.from(KEY), 600, () => Date.now() - 3600_000);
    const expired = await anonymous(
      past.url({ libraryId: "product", storyId: mine.id, versionNo: 1, rendition: "original" }),
    );
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error).toBe("media_url_expired");
    expect((await anonymous(url)).body).toBe("mine");
  });

  it("gives no URL to a user who cannot read the story's library", async () => {
    const { story } = await uploadStory(ctx(), editor, { libraryId: "department", bytes: "secret", name: "s.jpg" });
    const asked = await call(contributor, "GET", `/stories/department/${story.id}/media-url`);
    expect(asked.statusCode).toBe(404);
    expect(asked.body).not.toContain("/media/");
    const viewed = await call(contributor, "GET", `/stories/department/${story.id}`);
    expect(viewed.statusCode).toBe(404);
    expect((await call(editor, "GET", `/stories/department/${story.id}/media-url`)).statusCode).toBe(200);
  });

  it("never serves SVG or HTML inline, even through a signed URL", async () => {
    for (const [mime, bytes] of [
      ["image/svg+xml", '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      ["text/html", "<html><script>alert(1)</script></html>"],
    ] as const) {
      const { story } = await uploadStory(ctx(), editor, { bytes, name: "x.svg", mime });
      const url = (await call(editor, "GET", `/stories/product/${story.id}/media-url`)).json().data.url;
      const served = await anonymous(url);
      expect(served.statusCode).toBe(200);
      expect(served.headers["content-disposition"], mime).toMatch(/^attachment; /);
      expect(served.headers["x-content-type-options"]).toBe("nosniff");
      expect(served.headers["content-security-policy"]).toMatch(/^sandbox; default-src 'none'/);
      const viaApi = await call(editor, "GET", `/stories/download/product/${story.id}`);
      expect(viaApi.headers["content-disposition"], mime).toMatch(/^attachment; /);
    }
  });

  it("serves a rendition of an older version by its own URL", async () => {
    const { story } = await uploadStory(ctx(), editor, { bytes: "v1 bytes", name: "p.jpg" });
    await putThumbnail(ctx(), story.id, `renditions/${story.id}/v1/thumbnail.webp`, "thumb v1");
    const view = (await call(editor, "GET", `/stories/product/${story.id}`)).json().data;
    expect(view.thumbnailMediaUrl).toMatch(/^\/dams\/api\/v1\/media\//);
    const thumbnail = await anonymous(view.thumbnailMediaUrl);
    expect(thumbnail.body).toBe("thumb v1");
    expect(thumbnail.headers["content-disposition"]).toMatch(/^inline; /);
    const versions = (await call(editor, "GET", `/stories/product/${story.id}/versions`)).json().data;
    expect(versions[0].files.map((file: { mediaUrl: string }) => file.mediaUrl)).toHaveLength(2);
    const list = (await call(editor, "GET", "/stories?libraryId=product&size=50")).json().data.content;
    expect(list.every((item: { files: { mediaUrl: string }[] }) => item.files.every((file) => file.mediaUrl))).toBe(
      true,
    );
  });
});
