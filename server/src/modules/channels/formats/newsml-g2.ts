import { create } from "xmlbuilder2";
import { type ItemContext, mappedFields, NINJS_TYPE, storyUri } from "./item-fields.js";
import { xmlText } from "./xml-text.js";

const NAR = "http://iptc.org/std/nar/2006-10-01/";

/** The rendition role of a file in the IPTC rendition scheme. */
function rendition(role: string): string {
  if (role === "original") return "rnd:highRes";
  if (role.includes("thumb")) return "rnd:thumbnail";
  return "rnd:preview";
}

/** The scheme of our own QCodes (`dams:deliveryId`), declared in the item's inline catalog. */
const DAMS_SCHEME = "urn:dams:scheme:";

/**
 * A NewsML-G2 2.35 newsItem (power conformance), valid against IPTC's XSD
 * vendored beside this file (NOTICE.md; xml-formats.test.ts validates with
 * libxml2): rights, item meta (class, provider, dates, embargo, pubStatus
 * `stat:canceled` for a kill, the delivery id as an itemMetaExtProperty),
 * content meta and the files as remoteContent. Every value goes through
 * `xmlText` and the XML builder, which escape it: a caption cannot inject
 * markup or entities.
 */
export function newsmlDocument(context: ItemContext): Buffer {
  const { story } = context;
  const fields = mappedFields(context);
  const root = create({ version: "1.0", encoding: "UTF-8" }).ele(NAR, "newsItem", {
    guid: storyUri(story),
    version: String(story.versionNo),
    standard: "NewsML-G2",
    standardversion: "2.35",
    conformance: "power",
  });
  root.ele(NAR, "catalogRef", { href: "http://www.iptc.org/std/catalog/catalog.IPTC-G2-Standards_38.xml" });
  root.ele(NAR, "catalog").ele(NAR, "scheme", { alias: "dams", uri: DAMS_SCHEME });
  if (fields.copyrightnotice || fields.usageterms) {
    const rights = root.ele(NAR, "rightsInfo");
    if (fields.copyrightnotice) rights.ele(NAR, "copyrightNotice").txt(xmlText(fields.copyrightnotice));
    if (fields.usageterms) rights.ele(NAR, "usageTerms").txt(xmlText(fields.usageterms));
  }
  const itemMeta = root.ele(NAR, "itemMeta");
  itemMeta.ele(NAR, "itemClass", { qcode: `ninat:${NINJS_TYPE[story.type]}` });
  itemMeta.ele(NAR, "provider", { literal: "dams" });
  itemMeta
    .ele(NAR, "versionCreated")
    .txt(new Date(context.action === "kill" ? context.now : story.updatedAt).toISOString());
  itemMeta.ele(NAR, "firstCreated").txt(new Date(story.createdAt).toISOString());
  if (context.embargoUntil) itemMeta.ele(NAR, "embargoed").txt(new Date(context.embargoUntil).toISOString());
  itemMeta.ele(NAR, "pubStatus", { qcode: context.action === "kill" ? "stat:canceled" : "stat:usable" });
  if (fields.ednote) itemMeta.ele(NAR, "edNote").txt(xmlText(fields.ednote));
  // The id a receiver de-duplicates on. altId belongs to contentMeta and names the content, not a sending.
  itemMeta.ele(NAR, "itemMetaExtProperty", { type: "dams:deliveryId", value: context.deliveryId });
  const contentMeta = root.ele(NAR, "contentMeta");
  if (story.capturedAt) contentMeta.ele(NAR, "contentCreated").txt(new Date(story.capturedAt).toISOString());
  for (const author of story.authors) contentMeta.ele(NAR, "creator").ele(NAR, "name").txt(xmlText(author));
  for (const keyword of story.keywords) contentMeta.ele(NAR, "keyword").txt(xmlText(keyword));
  if (fields.slugline) contentMeta.ele(NAR, "slugline").txt(xmlText(fields.slugline));
  if (fields.headline) contentMeta.ele(NAR, "headline").txt(xmlText(fields.headline));
  if (fields.byline) contentMeta.ele(NAR, "by").txt(xmlText(fields.byline));
  if (fields.description)
    contentMeta.ele(NAR, "description", { role: "drol:caption" }).txt(xmlText(fields.description));
  if (context.action === "publish" && context.files.length > 0) {
    const contentSet = root.ele(NAR, "contentSet");
    for (const file of context.files) {
      contentSet.ele(NAR, "remoteContent", {
        href: file.name,
        rendition: rendition(file.role),
        contenttype: file.mime,
        size: String(file.size),
        ...(file.width ? { width: String(file.width) } : {}),
        ...(file.height ? { height: String(file.height) } : {}),
      });
    }
  }
  return Buffer.from(root.end({ prettyPrint: true }));
}
