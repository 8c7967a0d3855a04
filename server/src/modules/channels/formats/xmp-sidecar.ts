import { create } from "xmlbuilder2";
import { type ItemContext, mappedFields } from "./item-fields.js";
import { xmlText } from "./xml-text.js";

const NS = {
  x: "adobe:ns:meta/",
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  dc: "http://purl.org/dc/elements/1.1/",
  photoshop: "http://ns.adobe.com/photoshop/1.0/",
  xmpRights: "http://ns.adobe.com/xap/1.0/rights/",
};

/**
 * An XMP sidecar (`<story>.xmp`) beside the original: title, caption,
 * creators, keywords, rights and credit in the IPTC Photo Metadata
 * properties, written by the XML builder (values escaped through `xmlText`, Chinese kept as UTF-8).
 */
export function xmpSidecar(context: ItemContext): Buffer {
  const { story } = context;
  const fields = mappedFields(context);
  const document = create({ version: "1.0", encoding: "UTF-8" });
  document.ins("xpacket", 'begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"');
  const description = document
    .ele(NS.x, "x:xmpmeta")
    .ele(NS.rdf, "rdf:RDF")
    .ele(NS.rdf, "rdf:Description", { "rdf:about": "" });
  const alt = (name: string, namespace: string, value: string | undefined) => {
    if (!value) return;
    description
      .ele(namespace, name)
      .ele(NS.rdf, "rdf:Alt")
      .ele(NS.rdf, "rdf:li", { "xml:lang": "x-default" })
      .txt(xmlText(value));
  };
  const list = (name: string, kind: "rdf:Seq" | "rdf:Bag", values: string[]) => {
    if (values.length === 0) return;
    const container = description.ele(NS.dc, name).ele(NS.rdf, kind);
    for (const value of values) container.ele(NS.rdf, "rdf:li").txt(xmlText(value));
  };
  alt("dc:title", NS.dc, fields.headline);
  alt("dc:description", NS.dc, fields.description);
  list("dc:creator", "rdf:Seq", story.authors);
  list("dc:subject", "rdf:Bag", story.keywords);
  alt("dc:rights", NS.dc, fields.copyrightnotice);
  alt("xmpRights:UsageTerms", NS.xmpRights, fields.usageterms);
  if (fields.headline) description.ele(NS.photoshop, "photoshop:Headline").txt(xmlText(fields.headline));
  if (story.source) description.ele(NS.photoshop, "photoshop:Credit").txt(xmlText(story.source));
  if (fields.ednote) description.ele(NS.photoshop, "photoshop:Instructions").txt(xmlText(fields.ednote));
  document.ins("xpacket", 'end="w"');
  return Buffer.from(document.end({ prettyPrint: true }));
}
