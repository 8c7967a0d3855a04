import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { until } from "../../test/eventually.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, FAST_JOBS_ENV, uploadStory, useStoriesApp } from "../../test/stories-app.js";

/** An embedded property (headline) and a custom one (sourceFee), each with a value found nowhere else. */
const HEADLINE = "山竹来了 quaggahead";
const FEE = "稿酬八百 zebrafee";

/** Every channel maps both properties into the item: headline from `headline`, usage terms from `sourceFee`. */
const MAPPING = { headline: "properties.headline", usageterms: "properties.sourceFee" };

const parseXml = (xml: string) =>
  new XMLParser({ ignoreAttributes: false, processEntities: true, htmlEntities: false, parseTagValue: false }).parse(
    xml,
  );

/** An element's text, whether the parser gave it as a string or (with attributes) as an object. */
const textOf = (node: unknown): unknown =>
  typeof node === "object" && node !== null ? (node as Record<string, unknown>)["#text"] : node;

/**
 * Channel items and field-level access (docs/property-access.md): a delivery writes no property hidden from its
 * publisher's role into the item, in any format (ninjs, NewsML-G2, the XMP sidecar of `original`), a kill
 * included, whatever the channel's field mapping says; an administrator's delivery of the same story has them.
 */
describeEachDialect("channel items leave out the publisher's hidden properties", (dialect) => {
  const ctx = useStoriesApp(dialect, { env: FAST_JOBS_ENV });
  const call = api(ctx);
  let editor: TestPrincipal;
  let admin: TestPrincipal;
  let photo: Buffer;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "dams-channel-hidden-"));
  const channels: Record<"ninjs" | "newsml" | "original", { id: string; folder: string }> = {} as never;

  beforeAll(async () => {
    editor = await createPrincipal(ctx().db, { username: "feeds-editor", roleId: "editor" });
    admin = await createPrincipal(ctx().db, { username: "feeds-admin", roleId: "administrator", admin: true });
    photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3060a0" } })
      .jpeg()
      .toBuffer();
    for (const format of ["ninjs", "newsml", "original"] as const) {
      const folder = path.join(root, format);
      fs.mkdirSync(folder);
      const made = await call(admin, "POST", "/channels", {
        name: `hidden ${format}`,
        kind: "folder",
        format,
        settings: { path: folder },
        fieldMapping: MAPPING,
      });
      expect(made.statusCode, made.body).toBe(200);
      channels[format] = { id: made.json().data.id, folder };
    }
    ctx().app.jobs.worker.start();
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  async function committed(): Promise<string> {
    const { story } = await uploadStory(ctx(), editor, { bytes: photo, name: "shanzhu.jpg", mime: "image/jpeg" });
    const response = await call(editor, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [story.id],
    });
    expect(response.statusCode, response.body).toBe(200);
    const edited = await call(editor, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=product`, {
      title: "台风山竹登陆深圳",
      caption: "深圳湾海浪翻涌",
      properties: { headline: HEADLINE, sourceFee: FEE, credit: "新华社" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    return story.id as string;
  }

  const hideFromEditors = async (properties: string[]) => {
    const response = await call(admin, "PUT", "/property-access/editor", {
      rules: properties.map((property) => ({ property, visible: false, editable: false })),
    });
    expect(response.statusCode, response.body).toBe(200);
  };

  /** Publishes the story as `who` to the three channels; the three items once they are all written. */
  async function published(who: TestPrincipal, storyId: string) {
    const response = await call(who, "POST", `/workflow-story-publish/product/${storyId}`, {
      channels: Object.values(channels).map((channel) => channel.id),
    });
    expect(response.statusCode, response.body).toBe(200);
    const files = {
      ninjs: path.join(channels.ninjs.folder, `${storyId}.json`),
      newsml: path.join(channels.newsml.folder, `${storyId}.xml`),
      xmp: path.join(channels.original.folder, `${storyId}.xmp`),
    };
    await until(() => Object.values(files).every((file) => fs.existsSync(file)), "the three deliveries");
    const ninjs = fs.readFileSync(files.ninjs, "utf8");
    const newsml = fs.readFileSync(files.newsml, "utf8");
    const xmp = fs.readFileSync(files.xmp, "utf8");
    return {
      raw: { ninjs, newsml, xmp },
      ninjs: JSON.parse(ninjs) as Record<string, unknown>,
      newsml: parseXml(newsml).newsItem,
      xmp: parseXml(xmp)["x:xmpmeta"]["rdf:RDF"]["rdf:Description"],
    };
  }

  it("writes neither the embedded nor the custom hidden property into ninjs, NewsML-G2 or the XMP sidecar", async () => {
    const byEditor = await committed();
    const byAdmin = await committed();
    await hideFromEditors(["headline", "sourceFee"]);
    try {
      const hidden = await published(editor, byEditor);
      for (const text of Object.values(hidden.raw)) {
        expect(text).not.toContain("quaggahead");
        expect(text).not.toContain("zebrafee");
      }
      expect(hidden.ninjs).not.toHaveProperty("headline");
      expect(hidden.ninjs).not.toHaveProperty("usageterms");
      expect(hidden.newsml.contentMeta).not.toHaveProperty("headline");
      expect(hidden.newsml.rightsInfo ?? {}).not.toHaveProperty("usageTerms");
      expect(hidden.xmp).not.toHaveProperty("photoshop:Headline");
      expect(hidden.xmp).not.toHaveProperty("dc:title");
      expect(hidden.xmp).not.toHaveProperty("xmpRights:UsageTerms");
      // What the role may see still goes: the caption.
      expect(hidden.ninjs.description_text).toBe("深圳湾海浪翻涌");

      // An administrator sees every property: the same mapping delivers both.
      const shown = await published(admin, byAdmin);
      expect(shown.ninjs).toMatchObject({ headline: HEADLINE, usageterms: FEE });
      expect(textOf(shown.newsml.contentMeta.headline)).toBe(HEADLINE);
      expect(textOf(shown.newsml.rightsInfo.usageTerms)).toBe(FEE);
      expect(textOf(shown.xmp["photoshop:Headline"])).toBe(HEADLINE);
      expect(textOf(shown.xmp["xmpRights:UsageTerms"]["rdf:Alt"]["rdf:li"])).toBe(FEE);

      // The kill the editor sends withdraws the item without the hidden properties too.
      const withdrawn = await call(editor, "POST", `/workflow-story-withdraw/product/${byEditor}`, {
        channels: [channels.ninjs.id],
      });
      expect(withdrawn.statusCode, withdrawn.body).toBe(200);
      const kill = await until(() => {
        const item = JSON.parse(fs.readFileSync(path.join(channels.ninjs.folder, `${byEditor}.json`), "utf8"));
        return item.pubstatus === "canceled" ? item : undefined;
      }, "the kill");
      expect(kill).not.toHaveProperty("headline");
      expect(kill).not.toHaveProperty("usageterms");
    } finally {
      await hideFromEditors([]);
    }
  });
});
