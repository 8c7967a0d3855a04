import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import type { Story } from "../../stories/story-types.js";
import { newsmlSchemaErrors } from "../test-support/newsml-schema.js";
import type { ItemContext } from "./item-fields.js";
import { newsmlDocument } from "./newsml-g2.js";
import { xmpSidecar } from "./xmp-sidecar.js";

/** Text a user may type (or a template variable bring in) that looks like XML: entities, markup, controls. */
const TRICKY = 'AT&T; &amp; &#60; <b>粗体</b> "引号" \u0001end';
/** What a receiver must read back: the same text, less the control character XML 1.0 cannot carry. */
const READ_BACK = 'AT&T; &amp; &#60; <b>粗体</b> "引号" end';

const story = {
  id: "5b0c3f8e-3b7a-4a51-9d0e-1c2f3a4b5c6d",
  type: "photo",
  versionNo: 2,
  title: `标题 ${TRICKY}`,
  caption: `说明 ${TRICKY}`,
  authors: [`王小明 ${TRICKY}`],
  keywords: [`台风 ${TRICKY}`],
  tags: [],
  source: `新华社 ${TRICKY}`,
  properties: {},
  createdAt: "2026-11-26T10:00:00.000Z",
  updatedAt: "2026-11-26T11:00:00.000Z",
  capturedAt: null,
} as unknown as Story;

const context: ItemContext = {
  story,
  deliveryId: "0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6",
  action: "publish",
  mapping: {},
  hidden: new Set(),
  embargoUntil: null,
  files: [],
  now: "2026-11-26T12:00:00.000Z",
};

const parse = (xml: string) =>
  new XMLParser({ ignoreAttributes: false, processEntities: true, htmlEntities: false, parseTagValue: false }).parse(
    xml,
  );

describe("the XML formats escape every value", () => {
  it("NewsML-G2: entity-like text, markup and control characters come back as typed, the item well-formed", () => {
    const xml = newsmlDocument(context).toString("utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain("&T;");
    const item = parse(xml).newsItem;
    expect(item.contentMeta.headline).toBe(`标题 ${READ_BACK}`);
    expect(item.contentMeta.description["#text"]).toBe(`说明 ${READ_BACK}`);
    expect(item.contentMeta.creator.name).toBe(`王小明 ${READ_BACK}`);
    expect(item.contentMeta.keyword).toBe(`台风 ${READ_BACK}`);
    expect(item.rightsInfo.copyrightNotice).toBe(`新华社 ${READ_BACK}`);
  });

  it("XMP sidecar: the same", () => {
    const xml = xmpSidecar(context).toString("utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    const description = parse(xml)["x:xmpmeta"]["rdf:RDF"]["rdf:Description"];
    expect(description["dc:title"]["rdf:Alt"]["rdf:li"]["#text"]).toBe(`标题 ${READ_BACK}`);
    expect(description["dc:description"]["rdf:Alt"]["rdf:li"]["#text"]).toBe(`说明 ${READ_BACK}`);
    expect(description["dc:subject"]["rdf:Bag"]["rdf:li"]).toBe(`台风 ${READ_BACK}`);
    expect(description["photoshop:Credit"]["#text"]).toBe(`新华社 ${READ_BACK}`);
  });
});

describe("NewsML-G2 is valid against IPTC's NewsML-G2 2.35 XSD (libxml2)", () => {
  /** Every optional part filled: mapped slugline, byline, usage terms and editorial note, a capture time, files. */
  const full: ItemContext = {
    ...context,
    story: {
      ...story,
      keywords: [`台风 ${TRICKY}`, "山竹", 'a "quoted" <keyword> & more'],
      capturedAt: story.createdAt,
    },
    mapping: { slugline: "title", byline: "authors", usageterms: "caption", ednote: "caption" },
    embargoUntil: "2026-11-26T18:00:00.000Z",
    files: [
      { name: "photo & <1>.jpg", mime: "image/jpeg", size: 2_048_000, width: 1600, height: 1067, role: "original" },
      { name: 'preview "中".webp', mime: "image/webp", size: 80_000, width: 1200, height: 800, role: "preview" },
      { name: "thumb.jpg", mime: "image/jpeg", size: 9_000, width: null, height: null, role: "thumbnail" },
    ],
  };

  it("the validator rejects what the schema does not allow (a check that checks)", async () => {
    const xml = newsmlDocument(full).toString("utf8").replace("<itemMeta>", "<itemMeta><notAnElement/>");
    expect((await newsmlSchemaErrors(xml)).join("\n")).toContain("notAnElement");
  });

  it("a published item: Chinese, &, <, quotes, keywords, an embargo, renditions — valid and read back", async () => {
    const xml = newsmlDocument(full).toString("utf8");
    expect(await newsmlSchemaErrors(xml)).toEqual([]);
    const item = parse(xml).newsItem;
    expect(item["@_standardversion"]).toBe("2.35");
    expect(item.itemMeta.embargoed).toBe("2026-11-26T18:00:00.000Z");
    expect(item.itemMeta.pubStatus["@_qcode"]).toBe("stat:usable");
    expect(item.itemMeta.itemMetaExtProperty).toMatchObject({
      "@_type": "dams:deliveryId",
      "@_value": context.deliveryId,
    });
    expect(item.contentMeta.keyword).toEqual([`台风 ${READ_BACK}`, "山竹", 'a "quoted" <keyword> & more']);
    expect(item.contentMeta.slugline).toBe(`标题 ${READ_BACK}`);
    expect(item.contentMeta.by).toBe(`王小明 ${READ_BACK}`);
    expect(item.contentSet.remoteContent.map((file: Record<string, string>) => file["@_href"])).toEqual([
      "photo & <1>.jpg",
      'preview "中".webp',
      "thumb.jpg",
    ]);
  });

  it("a kill (withdraw): pubStatus canceled, no content — valid", async () => {
    const xml = newsmlDocument({ ...full, action: "kill" }).toString("utf8");
    expect(await newsmlSchemaErrors(xml)).toEqual([]);
    const item = parse(xml).newsItem;
    expect(item.itemMeta.pubStatus["@_qcode"]).toBe("stat:canceled");
    expect(item.itemMeta.versionCreated).toBe(context.now);
    expect(item.contentSet).toBeUndefined();
  });

  it("the least item (no optional field, no files) — valid", async () => {
    const bare = { ...story, caption: null, authors: [], keywords: [], source: null, title: "" } as unknown as Story;
    const xml = newsmlDocument({ ...context, story: bare }).toString("utf8");
    expect(await newsmlSchemaErrors(xml)).toEqual([]);
  });
});
