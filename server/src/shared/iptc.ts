/**
 * The IPTC texts a story keeps in `properties`: the media job extracts them,
 * channels write them back, downloads embed them and the web app's 编辑信息
 * dialog edits them (`@shared/iptc`, docs/architecture.md).
 */
export const IPTC_TEXT_PROPERTIES = [
  "headline",
  "credit",
  "copyrightNotice",
  "usageTerms",
  "instructions",
  "city",
  "country",
] as const;
