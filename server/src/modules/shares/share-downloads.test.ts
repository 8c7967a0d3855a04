import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect } from "../../test/dialects.js";
import { jpegPhotoPreset, textWatermark } from "../../test/preset-bodies.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { readZip } from "../../test/zip.js";

/** A Nikon D70s photo of the corpus with EXIF GPS, and serial numbers in EXIF, XMP-aux, XMP-exifEX and the maker notes. */
const GPS_PHOTO = path.resolve(
  import.meta.dirname,
  "../../../../../shared/corpus/exif-samples/jpg/tests/87_OSError.jpg",
);

/** What exiftool finds of location and serial numbers in `bytes` (tag name → value). */
function privateTags(bytes: Buffer, name: string): Record<string, unknown> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-share-downloads-"));
  const file = path.join(outDir, `${randomBytes(4).toString("hex")}-${name}`);
  fs.writeFileSync(file, bytes);
  const out = execFileSync(
    "exiftool",
    ["-j", "-q", "-q", "-a", "-G1", "-gps:all", "-location:all", "-*serial*", "-makernotes:all", file],
    { encoding: "utf8" },
  );
  fs.rmSync(outDir, { recursive: true, force: true });
  const [tags] = JSON.parse(out) as Record<string, unknown>[];
  const { SourceFile: _source, ...rest } = tags!;
  return rest;
}

/**
 * Downloads share visitors get: a download preset's rendition (made on the
 * first request), and originals without GPS and camera serial numbers unless
 * the owner keeps them; the owner's own download is the file as stored.
 */
describeEachDialect("share link downloads", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let owner: TestPrincipal;
  let admin: TestPrincipal;
  let address = 0;

  beforeAll(async () => {
    owner = await createPrincipal(ctx().db, { username: "share-dl-owner", roleId: "editor" });
    admin = await createPrincipal(ctx().db, { username: "share-dl-admin", roleId: "administrator", admin: true });
  });

  /** The corpus photo with GPS as a committed story of the owner's. */
  async function gpsPhoto(title: string) {
    const { story } = await uploadStory(ctx(), owner, {
      bytes: fs.readFileSync(GPS_PHOTO),
      name: "florence.jpg",
      mime: "image/jpeg",
    });
    const committed = await call(owner, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [story.id],
    });
    expect(committed.statusCode).toBe(200);
    await call(owner, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=product`, { title });
    return story.id;
  }

  async function share(body: object) {
    const response = await call(owner, "POST", "/shares", body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: string; token: string };
  }

  /** A visitor with the token, from an address of their own. */
  function visitor(token: string) {
    const remoteAddress = `10.9.0.${++address}`;
    const get = (url: string) =>
      ctx().app.inject({ method: "GET", url, remoteAddress, headers: { "x-share-token": token } });
    return { open: async () => (await get(`${API_PREFIX}/shared`)).json().data, get };
  }

  async function presetOf(settings: object, roleIds: string[] = []) {
    const response = await call(
      admin,
      "POST",
      "/download-presets",
      jpegPhotoPreset(
        `share ${randomBytes(3).toString("hex")}`,
        { maxWidth: 320, metadata: "all", ...settings },
        roleIds,
      ),
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.id as string;
  }

  it("gives visitors the original without GPS or serial numbers; the owner's download and keepLocation keep them", async () => {
    expect(Object.keys(privateTags(fs.readFileSync(GPS_PHOTO), "corpus.jpg"))).toEqual(
      expect.arrayContaining(["GPS:GPSLatitude", "ExifIFD:SerialNumber", "XMP-aux:SerialNumber"]),
    );
    const storyId = await gpsPhoto("佛罗伦萨");
    const target = { kind: "story", libraryId: "product", storyId };

    const stripped = await share({ target, downloadPolicy: "original" });
    const guest = visitor(stripped.token);
    const opened = await guest.open();
    const download = await guest.get(opened.stories[0].downloadUrl);
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-disposition"]).toMatch(/^attachment/);
    expect(download.headers["content-security-policy"]).toContain("sandbox");
    const visitorCopy = download.rawPayload;
    expect(privateTags(visitorCopy, "visitor.jpg")).toEqual({});
    // Still the photo: the same pixels, the camera's make and model.
    expect((await sharp(visitorCopy).metadata()).width).toBe((await sharp(GPS_PHOTO).metadata()).width);
    const zip = await guest.get(opened.zipUrl);
    expect(zip.statusCode).toBe(200);
    const [inZip] = [...(await readZip(zip.rawPayload)).values()];
    expect(privateTags(inZip!, "zipped.jpg")).toEqual({});

    // The owner's download: the story's metadata written in, location and serials kept.
    const mine = await call(owner, "GET", `/stories/download/product/${storyId}`);
    expect(mine.statusCode).toBe(200);
    expect(privateTags(mine.rawPayload, "owner.jpg")).toHaveProperty("GPS:GPSLatitude");

    const kept = await share({ target, downloadPolicy: "original", metadata: "all", keepLocation: true });
    const partner = visitor(kept.token);
    const keptDownload = await partner.get((await partner.open()).stories[0].downloadUrl);
    expect(privateTags(keptDownload.rawPayload, "kept.jpg")).toEqual(privateTags(mine.rawPayload, "owner.jpg"));

    const log = await ctx()
      .db.kysely.selectFrom("audit_log")
      .select(["action", "details"])
      .where("target_id", "=", stripped.id)
      .where("action", "=", "share.download")
      .execute();
    expect(
      log.map((entry) => (typeof entry.details === "string" ? entry.details : JSON.stringify(entry.details))),
    ).toEqual([expect.stringContaining('"stripped":true'), expect.stringContaining('"zip":1')]);
  });

  it("lets visitors download a download preset's rendition, made on the first request, checked when chosen", async () => {
    const storyId = await gpsPhoto("乌菲兹");
    const target = { kind: "story", libraryId: "product", storyId };
    const presetId = await presetOf({});

    const refused = async (body: object, status: number, field: string) => {
      const response = await call(owner, "POST", "/shares", { target, ...body });
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().msg).toContain(field);
    };
    await refused({ downloadPolicy: "preset" }, 400, "downloadPresetId");
    await refused({ downloadPolicy: "preset", downloadPresetId: crypto.randomUUID() }, 400, "no download preset");
    const watermark = await call(admin, "POST", "/watermark-presets", {
      name: `wm ${randomBytes(3).toString("hex")}`,
      settings: textWatermark("dams"),
    });
    await refused({ downloadPolicy: "preset", downloadPresetId: watermark.json().data.id }, 400, "no download preset");
    await refused({ downloadPolicy: "preset", downloadPresetId: await presetOf({}, ["viewer"]) }, 403, "not yours");

    const made = await share({ target, downloadPolicy: "preset", downloadPresetId: presetId });
    const guest = visitor(made.token);
    const opened = await guest.open();
    expect(opened.downloadPolicy).toBe("preset");
    const download = await guest.get(opened.stories[0].downloadUrl);
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers["content-type"]).toBe("image/jpeg");
    expect(download.headers["content-disposition"]).toMatch(/^attachment/);
    expect((await sharp(download.rawPayload).metadata()).width).toBe(320);
    // The preset keeps all metadata; the share does not keep location, so the visitor's copy has none.
    expect(privateTags(download.rawPayload, "rendition.jpg")).toEqual({});
    const zip = await guest.get(opened.zipUrl);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers["content-type"]).toBe("application/zip");
    // A URL for the original, made by changing the rendition the share handed out, is refused.
    expect(opened.stories[0].downloadUrl).not.toContain("original");

    const listed = (await call(owner, "GET", "/shares")).json().data.content;
    expect(listed.find((item: { id: string }) => item.id === made.id)).toMatchObject({
      downloadPolicy: "preset",
      downloadPresetId: presetId,
      target: "乌菲兹",
      downloads: 2,
    });
    const changed = await call(owner, "PATCH", `/shares/${made.id}`, { downloadPolicy: "original" });
    expect(changed.json().data).toMatchObject({ downloadPolicy: "original", downloadPresetId: null });
    const again = await call(owner, "PATCH", `/shares/${made.id}`, { downloadPolicy: "preset" });
    expect(again.statusCode).toBe(400);

    // A preset deleted later: the share offers no download rather than something else.
    await call(owner, "PATCH", `/shares/${made.id}`, { downloadPolicy: "preset", downloadPresetId: presetId });
    expect((await call(admin, "DELETE", `/download-presets/${presetId}`)).statusCode).toBe(200);
    const after = await visitor(made.token).open();
    expect(after.stories[0].downloadUrl).toBeNull();
  });

  it("says what each share points at: the story's title, the folder's name, the search's words", async () => {
    const storyId = await gpsPhoto("韦奇奥桥");
    const folder = (
      await call(admin, "POST", "/libraries/product/folders", { name: `桥 ${randomBytes(2).toString("hex")}` })
    ).json().data;
    await share({ target: { kind: "story", libraryId: "product", storyId } });
    await share({ target: { kind: "folder", libraryId: "product", folderId: folder.id }, title: "for the desk" });
    await share({ target: { kind: "search", query: { fulltext: "佛罗伦萨" } } });
    const listed = (await call(owner, "GET", "/shares?size=3")).json().data.content;
    expect(listed.map((item: { kind: string; target: string }) => [item.kind, item.target])).toEqual([
      ["search", "佛罗伦萨"],
      ["folder", folder.name],
      ["story", "韦奇奥桥"],
    ]);
  });
});
