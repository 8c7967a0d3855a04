import type { ChannelFormat } from "../channels.schema.js";
import type { ItemContext } from "./item-fields.js";
import { newsmlDocument } from "./newsml-g2.js";
import { ninjsDocument } from "./ninjs.js";
import { xmpSidecar } from "./xmp-sidecar.js";

export type { ItemContext } from "./item-fields.js";

/**
 * The item document of a delivery in the channel's format: ninjs JSON,
 * a NewsML-G2 newsItem, or for `original` an XMP sidecar. A kill on an
 * `original` channel is a ninjs item with pubstatus canceled (XMP has no
 * way to say "withdrawn").
 */
export function itemDocument(
  format: ChannelFormat,
  baseName: string,
  context: ItemContext,
): { name: string; mime: string; body: Buffer } {
  switch (format) {
    case "ninjs":
      return { name: `${baseName}.json`, mime: "application/json", body: ninjsDocument(context) };
    case "newsml":
      return { name: `${baseName}.xml`, mime: "application/vnd.iptc.g2.newsitem+xml", body: newsmlDocument(context) };
    case "original":
      return context.action === "kill"
        ? { name: `${baseName}.json`, mime: "application/json", body: ninjsDocument(context) }
        : { name: `${baseName}.xmp`, mime: "application/rdf+xml", body: xmpSidecar(context) };
  }
}
