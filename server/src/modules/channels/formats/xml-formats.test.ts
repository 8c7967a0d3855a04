import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import type { Story } from "../../stories/story-types.js";
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
