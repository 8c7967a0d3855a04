import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect } from "../../test/dialects.js";
import { until } from "../../test/eventually.js";
import { jpegPhotoPreset } from "../../test/preset-bodies.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, FAST_JOBS_ENV, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { readZip } from "../../test/zip.js";
import { EMBEDDED_PREFIX, OutgoingCopies } from "./outgoing-copies.js";

/** A Nikon D70s photo of the corpus with EXIF GPS and camera serial numbers. */
const GPS_PHOTO = path.resolve(
  import.meta.dirname,
  "../../../../../shared/corpus/exif-samples/jpg/tests/87_OSError.jpg",
);

/** Every tag the way out writes, as exiftool names them. */
const WRITTEN = [
  "XMP-dc:Title",
  "IPTC:ObjectName",
  "XMP-photoshop:Headline",
  "IPTC:Headline",
  "XMP-dc:Description",
  "IPTC:Caption-Abstract",
  "XMP-dc:Subject",
  "IPTC:Keywords",
  "XMP-dc:Creator",
  "IPTC:By-line",
  "XMP-photoshop:Credit",
  "IPTC:Credit",
  "XMP-photoshop:Source",
  "IPTC:Source",
  "XMP-dc:Rights",
  "IPTC:CopyrightNotice",
  "XMP-xmpRights:UsageTerms",
  "XMP-photoshop:Instructions",
  "IPTC:SpecialInstructions",
  "XMP-photoshop:City",
  "IPTC:City",
  "XMP-photoshop:Country",
  "IPTC:Country-PrimaryLocationName",
  "XMP-photoshop:DateCreated",
  "IPTC:DateCreated",
  "IPTC:TimeCreated",
  "IPTC:CodedCharacterSet",
];

/** exiftool's reading of `bytes` (group:tag → value), for the tags given. */
function readTags(bytes: Buffer, name: string, tags: string[]): Record<string, unknown> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-outgoing-"));
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  try {
    const out = execFileSync("exiftool", ["-j", "-G1", "-a", ...tags.map((tag) => `-${tag}`), file], {
      encoding: "utf8",
    });
    const [found] = JSON.parse(out) as Record<string, unknown>[];
    const { SourceFile: _source, ...rest } = found!;
    return rest;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const written = (bytes: Buffer, name = "file.jpg") => readTags(bytes, name, WRITTEN);
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

const FIELDS = {
  title: "台风山竹登陆深圳",
  caption: "9月16日，台风“山竹”在广东台山登陆，深圳湾海浪翻涌。",
  authors: ["王小明", "李华"],
  source: "深圳特区报",
  keywords: ["台风", "typhoon"],
  capturedAt: "2018-09-16T09:30:00.000Z",
  properties: {
    storyLevel: "important",
    headline: "山竹来了",
    credit: "新华社",
    copyrightNotice: "© 2018 深圳报业集团",
    usageTerms: "仅限新闻报道使用",
    instructions: "请勿裁切",
    city: "深圳",
    country: "中国",
  },
};

/** What exiftool must read back from a file carrying FIELDS (caption `caption`), IPTC included. */
function expectedTags(caption: string, withIptc = true) {
  const xmp = {
    "XMP-dc:Title": FIELDS.title,
    "XMP-photoshop:Headline": FIELDS.properties.headline,
    "XMP-dc:Description": caption,
    "XMP-dc:Subject": FIELDS.keywords,
    "XMP-dc:Creator": FIELDS.authors,
    "XMP-photoshop:Credit": FIELDS.properties.credit,
    "XMP-photoshop:Source": FIELDS.source,
    "XMP-dc:Rights": FIELDS.properties.copyrightNotice,
    "XMP-xmpRights:UsageTerms": FIELDS.properties.usageTerms,
    "XMP-photoshop:Instructions": FIELDS.properties.instructions,
    "XMP-photoshop:City": FIELDS.properties.city,
    "XMP-photoshop:Country": FIELDS.properties.country,
    "XMP-photoshop:DateCreated": "2018:09:16 09:30:00+00:00",
  };
  if (!withIptc) return xmp;
  return {
    ...xmp,
    "IPTC:ObjectName": FIELDS.title,
    "IPTC:Headline": FIELDS.properties.headline,
    "IPTC:Caption-Abstract": caption,
    "IPTC:Keywords": FIELDS.keywords,
    "IPTC:By-line": FIELDS.authors,
    "IPTC:Credit": FIELDS.properties.credit,
    "IPTC:Source": FIELDS.source,
    "IPTC:CopyrightNotice": FIELDS.properties.copyrightNotice,
    "IPTC:SpecialInstructions": FIELDS.properties.instructions,
    "IPTC:City": FIELDS.properties.city,
    "IPTC:Country-PrimaryLocationName": FIELDS.properties.country,
    "IPTC:DateCreated": "2018:09:16",
    "IPTC:TimeCreated": "09:30:00+00:00",
    "IPTC:CodedCharacterSet": "UTF8",
  };
}

/**
 * Metadata on the way out (docs/media.md): downloads of originals and preset
 * renditions carry the story's current fields as IPTC and XMP, read back by
 * exiftool; the stored original never changes; a share visitor's copy is
 * also without GPS; a "strip" preset carries none; a channel delivering the
 * original embeds them.
 */
describeEachDialect("metadata on the way out", (dialect) => {
  const ctx = useStoriesApp(dialect, { env: FAST_JOBS_ENV });
  const call = api(ctx);
  let editor: TestPrincipal;
  let admin: TestPrincipal;
  let photo: Buffer;
  const hotFolder = fs.mkdtempSync(path.join(os.tmpdir(), "dams-outgoing-channel-"));

  beforeAll(async () => {
    editor = await createPrincipal(ctx().db, { username: "outgoing-editor", roleId: "editor" });
    admin = await createPrincipal(ctx().db, { username: "outgoing-admin", roleId: "administrator", admin: true });
    photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#3060a0" } })
      .jpeg({ quality: 85 })
      .toBuffer();
    ctx().app.jobs.worker.start();
  });
  afterAll(() => fs.rmSync(hotFolder, { recursive: true, force: true }));

  async function committed(bytes: Buffer, caption = FIELDS.caption) {
    const { story } = await uploadStory(ctx(), editor, { bytes, name: "shanzhu.jpg", mime: "image/jpeg" });
    const response = await call(editor, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [story.id],
    });
    expect(response.statusCode, response.body).toBe(200);
    const edited = await call(editor, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=product`, {
      ...FIELDS,
      caption,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    return story.id as string;
  }

  /** The editor role's hidden properties (field-level access); [] shows them all again. */
  const hideFromEditors = (properties: string[]) =>
    call(admin, "PUT", "/property-access/editor", {
      rules: properties.map((property) => ({ property, visible: false, editable: false })),
    });

  async function storedOriginal(storyId: string): Promise<Buffer> {
    const row = await ctx()
      .db.kysely.selectFrom("story_files")
      .select("blob_key")
      .where("story_id", "=", storyId)
      .where("role", "=", "original")
      .executeTakeFirstOrThrow();
    return fs.readFileSync(path.join(ctx().dataDir, "blobs", row.blob_key));
  }

  async function embeddedKeys(storyId: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const key of ctx().blobs.list(`${EMBEDDED_PREFIX}${storyId}/`)) keys.push(key);
    return keys;
  }

  async function preset(metadata: "all" | "rights" | "none") {
    const response = await call(
      admin,
      "POST",
      "/download-presets",
      jpegPhotoPreset(`outgoing ${metadata} ${randomBytes(3).toString("hex")}`, { maxWidth: 400, metadata }),
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.id as string;
  }

  async function rendition(presetId: string, storyId: string) {
    const asked = await call(editor, "POST", `/download-presets/${presetId}/renditions/product`, {
      storyIds: [storyId],
    });
    expect(asked.statusCode, asked.body).toBe(200);
    return until(async () => {
      const response = await call(editor, "GET", `/download-presets/${presetId}/file/product/${storyId}`);
      return response.statusCode === 200 ? response : undefined;
    }, "the rendition");
  }

  it("embeds every field (Chinese intact) into the downloaded original; the stored original keeps its hash", async () => {
    const storyId = await committed(photo);
    const storedBefore = sha256(await storedOriginal(storyId));
    expect(storedBefore).toBe(sha256(photo));

    const download = await call(editor, "GET", `/workflow-story-download/product/${storyId}`);
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers["content-disposition"]).toMatch(/^attachment/);
    expect(written(download.rawPayload)).toEqual(expectedTags(FIELDS.caption));
    expect((await sharp(download.rawPayload).metadata()).width).toBe(1200);
    // The viewer's download (the same route the page fetches) carries the same.
    const viewer = await call(editor, "GET", `/stories/download/product/${storyId}`);
    expect(viewer.rawPayload.equals(download.rawPayload)).toBe(true);

    expect(sha256(await storedOriginal(storyId))).toBe(storedBefore);
    expect(written(await storedOriginal(storyId))).toEqual({});
  });

  it("writes the copyright notice typed as text, never the seeded rights code (`copyright` is a code list)", async () => {
    // A photo whose file carries its own notice: the media job keeps it as `copyrightNotice`.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-outgoing-notice-"));
    const file = path.join(dir, "notice.jpg");
    fs.writeFileSync(file, photo);
    execFileSync("exiftool", [
      "-q",
      "-overwrite_original",
      "-charset",
      "iptc=UTF8",
      "-IPTC:CodedCharacterSet=UTF8",
      "-IPTC:CopyrightNotice=© 2024 新华社 文件",
      file,
    ]);
    const bytes = fs.readFileSync(file);
    fs.rmSync(dir, { recursive: true, force: true });
    const { story } = await uploadStory(ctx(), editor, { bytes, name: "notice.jpg", mime: "image/jpeg" });
    const storyId = story.id as string;
    const commit = await call(editor, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [storyId],
    });
    expect(commit.statusCode, commit.body).toBe(200);
    const properties = () =>
      until(
        async () => {
          const got = (await call(editor, "GET", `/stories/product/${storyId}`)).json().data;
          return got.processingState === "done" || got.processingState === "failed"
            ? (got.properties as Record<string, unknown>)
            : undefined;
        },
        "the media job",
        120_000,
      );
    expect((await properties()).copyrightNotice).toBe("© 2024 新华社 文件");
    const coded = await call(editor, "PUT", `/workflow-story-edit/photo/${storyId}?libraryId=product`, {
      properties: { storyLevel: "normal", copyright: "licensed" },
    });
    expect(coded.statusCode, coded.body).toBe(200);
    const rights = ["IPTC:CopyrightNotice", "XMP-dc:Rights", "EXIF:Copyright"];
    const first = await call(editor, "GET", `/workflow-story-download/product/${storyId}`);
    expect(readTags(first.rawPayload, "a.jpg", rights)).toEqual({
      "IPTC:CopyrightNotice": "© 2024 新华社 文件",
      "XMP-dc:Rights": "© 2024 新华社 文件",
    });

    // Without a notice the code stays in the library, not in the file.
    const cleared = await call(editor, "PUT", `/workflow-story-edit/photo/${storyId}?libraryId=product`, {
      properties: { copyrightNotice: null },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data.properties).toMatchObject({ copyright: "licensed" });
    const second = await call(editor, "GET", `/workflow-story-download/product/${storyId}`);
    expect(second.statusCode, second.body).toBe(200);
    expect(readTags(second.rawPayload, "b.jpg", rights)).toEqual({});
    expect(JSON.stringify(readTags(second.rawPayload, "b.jpg", ["all"]))).not.toContain("licensed");
  });

  it("caches per revision: ranges and 304 on the copy; an edited caption is the next download's, the old copy goes", async () => {
    const storyId = await committed(photo);
    const first = await call(editor, "GET", `/workflow-story-download/product/${storyId}`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/-r\d+"$/);
    const size = first.rawPayload.length;

    const ranged = await call(editor, "GET", `/workflow-story-download/product/${storyId}`, undefined, {
      range: "bytes=100-199",
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers["content-range"]).toBe(`bytes 100-199/${size}`);
    expect(ranged.rawPayload.equals(first.rawPayload.subarray(100, 200))).toBe(true);
    const cached = await call(editor, "GET", `/workflow-story-download/product/${storyId}`, undefined, {
      "if-none-match": etag,
    });
    expect(cached.statusCode).toBe(304);
    expect(await embeddedKeys(storyId)).toHaveLength(1);

    const edited = await call(editor, "PUT", `/workflow-story-edit/photo/${storyId}?libraryId=product`, {
      caption: "新的说明：风暴过后",
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const second = await call(editor, "GET", `/workflow-story-download/product/${storyId}`, undefined, {
      "if-none-match": etag,
    });
    expect(second.statusCode).toBe(200);
    expect(second.headers.etag).not.toBe(etag);
    expect(written(second.rawPayload)).toEqual(expectedTags("新的说明：风暴过后"));
    // The copy of the older revision was deleted when the new one was made.
    expect(await embeddedKeys(storyId)).toHaveLength(1);

    // Zip downloads carry it too.
    const other = await committed(photo);
    const zip = await call(editor, "GET", `/workflow-story-download/product/${storyId},${other}`);
    expect(zip.statusCode, zip.body).toBe(200);
    const entries = [...(await readZip(zip.rawPayload)).values()];
    expect(entries.map((entry) => written(entry)["XMP-dc:Description"]).sort()).toEqual(
      [FIELDS.caption, "新的说明：风暴过后"].sort(),
    );

    // A deleted story's copies go with it.
    expect((await call(editor, "DELETE", `/workflow-story-delete/product/${other}`)).statusCode).toBeLessThan(300);
    expect(await embeddedKeys(other)).toEqual([]);
  });

  it("embeds into a preset's rendition; a preset that strips metadata gives none", async () => {
    const storyId = await committed(photo);
    const kept = await rendition(await preset("all"), storyId);
    expect((await sharp(kept.rawPayload).metadata()).width).toBe(400);
    expect(written(kept.rawPayload)).toEqual(expectedTags(FIELDS.caption));
    expect(kept.headers.etag).toMatch(/-r\d+"$/);

    const stripped = await rendition(await preset("none"), storyId);
    expect((await sharp(stripped.rawPayload).metadata()).width).toBe(400);
    expect(readTags(stripped.rawPayload, "stripped.jpg", ["XMP:all", "IPTC:all"])).toEqual({});

    // "rights": title, headline, caption, authors, credit, source, copyright and usage terms only.
    const rights = written((await rendition(await preset("rights"), storyId)).rawPayload);
    expect(rights).toMatchObject({ "IPTC:Caption-Abstract": FIELDS.caption, "XMP-photoshop:Credit": "新华社" });
    expect(rights).not.toHaveProperty("XMP-dc:Subject");
    expect(rights).not.toHaveProperty("IPTC:City");
  });

  it("gives a share visitor a copy without GPS that carries caption and credit, made in one pass", async () => {
    const storyId = await committed(fs.readFileSync(GPS_PHOTO));
    const shared = await call(editor, "POST", "/shares", {
      target: { kind: "story", libraryId: "product", storyId },
      downloadPolicy: "original",
    });
    expect(shared.statusCode, shared.body).toBe(200);
    const token = shared.json().data.token as string;
    const get = (url: string) =>
      ctx().app.inject({ method: "GET", url, remoteAddress: "10.8.0.1", headers: { "x-share-token": token } });
    const opened = (await get(`${API_PREFIX}/shared`)).json().data;
    const download = await get(opened.stories[0].downloadUrl);
    expect(download.statusCode, download.body).toBe(200);
    const tags = readTags(download.rawPayload, "visitor.jpg", [...WRITTEN, "gps:all", "*serial*"]);
    expect(Object.keys(tags).filter((tag) => /GPS|Serial|City|Country/.test(tag))).toEqual([]);
    expect(tags).toMatchObject({
      "XMP-dc:Description": FIELDS.caption,
      "IPTC:Caption-Abstract": FIELDS.caption,
      "IPTC:Credit": "新华社",
      "XMP-dc:Creator": FIELDS.authors,
    });
    // A basic share carries no keywords or instructions.
    expect(tags).not.toHaveProperty("IPTC:Keywords");
    expect(sha256(await storedOriginal(storyId))).toBe(sha256(fs.readFileSync(GPS_PHOTO)));
  });

  it("leaves a property out of the file for whom it is hidden (field-level access): role, preset, share visitor", async () => {
    const storyId = await committed(photo);
    const other = await committed(photo);
    const headlines = (bytes: Buffer) => readTags(bytes, "hidden.jpg", ["XMP-photoshop:Headline", "IPTC:Headline"]);
    const headline = FIELDS.properties.headline;
    const withHeadline = { "XMP-photoshop:Headline": headline, "IPTC:Headline": headline };
    // An editor's copy made before the rule carries it: the rule must not be served that cached copy.
    const before = await call(editor, "GET", `/workflow-story-download/product/${storyId}`);
    expect(headlines(before.rawPayload)).toEqual(withHeadline);
    expect((await hideFromEditors(["headline"])).statusCode).toBe(200);
    try {
      const own = await call(editor, "GET", `/workflow-story-download/product/${storyId}`);
      expect(own.statusCode, own.body).toBe(200);
      expect(headlines(own.rawPayload)).toEqual({});
      expect(written(own.rawPayload)).toMatchObject({ "IPTC:Credit": "新华社", "XMP-dc:Description": FIELDS.caption });
      const zip = await call(editor, "GET", `/workflow-story-download/product/${storyId},${other}`);
      expect(zip.statusCode, zip.body).toBe(200);
      for (const entry of (await readZip(zip.rawPayload)).values()) expect(headlines(entry)).toEqual({});
      const rendered = await rendition(await preset("all"), storyId);
      expect(headlines(rendered.rawPayload)).toEqual({});

      // An administrator sees every property: their copy has it (a copy of its own, not the editor's).
      const admins = await call(admin, "GET", `/workflow-story-download/product/${storyId}`);
      expect(headlines(admins.rawPayload)).toEqual(withHeadline);
      expect(admins.headers.etag).not.toBe(own.headers.etag);

      // A share visitor gets no property hidden from any role, whoever shares.
      const shared = await call(admin, "POST", "/shares", {
        target: { kind: "story", libraryId: "product", storyId },
        downloadPolicy: "original",
        metadata: "all",
      });
      expect(shared.statusCode, shared.body).toBe(200);
      const token = shared.json().data.token as string;
      const get = (url: string) =>
        ctx().app.inject({ method: "GET", url, remoteAddress: "10.8.0.2", headers: { "x-share-token": token } });
      const opened = (await get(`${API_PREFIX}/shared`)).json().data;
      const visitor = await get(opened.stories[0].downloadUrl);
      expect(visitor.statusCode, visitor.body).toBe(200);
      expect(headlines(visitor.rawPayload)).toEqual({});
      expect(written(visitor.rawPayload)).toMatchObject({ "IPTC:Credit": "新华社" });
      const visitorZip = await get(opened.zipUrl);
      expect(visitorZip.statusCode, visitorZip.body).toBe(200);
      expect(headlines([...(await readZip(visitorZip.rawPayload)).values()][0]!)).toEqual({});
    } finally {
      expect((await hideFromEditors([])).statusCode).toBe(200);
    }
  });

  it("delivers the original with the story's metadata embedded to an 'original' channel", async () => {
    const channel = await call(admin, "POST", "/channels", {
      name: `outgoing folder ${randomBytes(2).toString("hex")}`,
      kind: "folder",
      format: "original",
      settings: { path: hotFolder },
    });
    expect(channel.statusCode, channel.body).toBe(200);
    const storyId = await committed(photo);
    const published = await call(editor, "POST", `/workflow-story-publish/product/${storyId}`, {
      channels: [channel.json().data.id],
    });
    expect(published.statusCode, published.body).toBe(200);
    const file = path.join(hotFolder, `${storyId}.jpg`);
    await until(() => fs.existsSync(file) && fs.existsSync(path.join(hotFolder, `${storyId}.xmp`)), "the delivery");
    expect(written(fs.readFileSync(file))).toEqual(expectedTags(FIELDS.caption));

    // A channel delivers for its publisher: a property their role may not see is not in the file.
    const hiddenStory = await committed(photo);
    expect((await hideFromEditors(["headline"])).statusCode).toBe(200);
    try {
      const again = await call(editor, "POST", `/workflow-story-publish/product/${hiddenStory}`, {
        channels: [channel.json().data.id],
      });
      expect(again.statusCode, again.body).toBe(200);
      const hiddenFile = path.join(hotFolder, `${hiddenStory}.jpg`);
      await until(() => fs.existsSync(path.join(hotFolder, `${hiddenStory}.xmp`)), "the second delivery");
      const tags = written(fs.readFileSync(hiddenFile));
      expect(tags).not.toHaveProperty("IPTC:Headline");
      expect(tags).not.toHaveProperty("XMP-photoshop:Headline");
      expect(tags).toMatchObject({ "IPTC:Credit": "新华社" });
    } finally {
      expect((await hideFromEditors([])).statusCode).toBe(200);
    }
  });

  it("keeps the cache bounded: old copies, copies of deleted stories and the oldest over the size bound go", async () => {
    const storyId = await committed(photo);
    await call(editor, "GET", `/workflow-story-download/product/${storyId}`);
    expect(await embeddedKeys(storyId)).toHaveLength(1);
    const copies = new OutgoingCopies({
      blobs: ctx().blobs,
      media: { outgoingCopy: async () => {} },
      workDir: path.join(ctx().dataDir, "tmp", "outgoing-test"),
    });
    const all = async () => new Set([storyId]);
    const kept = await copies.sweep({ storiesThatExist: all });
    expect(kept.bytes).toBeGreaterThan(0);
    expect(await embeddedKeys(storyId)).toHaveLength(1);
    const gone = await copies.sweep({ storiesThatExist: async () => new Set() });
    expect(gone.deleted).toBeGreaterThanOrEqual(1);
    expect(await embeddedKeys(storyId)).toEqual([]);
    await call(editor, "GET", `/workflow-story-download/product/${storyId}`);
    await copies.sweep({ storiesThatExist: all, maxBytes: 1 });
    expect(await embeddedKeys(storyId)).toEqual([]);
    await call(editor, "GET", `/workflow-story-download/product/${storyId}`);
    await copies.sweep({ storiesThatExist: all, maxAgeMs: -1 });
    expect(await embeddedKeys(storyId)).toEqual([]);
  });
});
