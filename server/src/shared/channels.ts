/**
 * What a publishing channel is made of (docs/publishing.md): its kinds and
 * formats, the credentials each kind takes, and the item fields it can map
 * from a story's. The server validates channels with these and the web app's
 * channel form offers them (`@shared/channels`, docs/architecture.md).
 */

export const CHANNEL_KINDS = ["http", "folder", "sftp", "s3", "email"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export const CHANNEL_FORMATS = ["ninjs", "newsml", "original"] as const;
export type ChannelFormat = (typeof CHANNEL_FORMATS)[number];

/** The credential fields each kind takes (write-only: the API answers only which are set). */
export const CREDENTIAL_FIELDS: Record<ChannelKind, readonly string[]> = {
  http: ["secret", "token"],
  folder: [],
  sftp: ["password", "privateKey"],
  s3: ["accessKeyId", "secretAccessKey"],
  email: ["username", "password"],
};

/** The item's fields a channel can map. */
export const MAPPING_TARGETS = [
  "headline",
  "description",
  "byline",
  "slugline",
  "copyrightnotice",
  "usageterms",
  "ednote",
] as const;

/** The story fields a mapped item field can be filled from, besides `properties.<name>`. */
export const MAPPING_SOURCES = [
  "title",
  "caption",
  "authors",
  "source",
  "keywords",
  "tags",
  "theme",
  "category",
  "originalName",
] as const;

/** What a mapped field of the item is filled from: a story field, or one of its custom properties. */
export const MAPPING_SOURCE = new RegExp(`^(${MAPPING_SOURCES.join("|")}|properties\\.[A-Za-z0-9_-]{1,100})$`);
