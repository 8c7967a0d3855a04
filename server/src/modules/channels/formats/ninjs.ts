import type { ErrorObject } from "ajv";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { type ItemContext, mappedFields, NINJS_TYPE, storyUri } from "./item-fields.js";
import schema from "./ninjs-schema-1.5.json" with { type: "json" };

/**
 * IPTC ninjs 1.5 (News in JSON), the schema vendored beside this file
 * (formats/NOTICE.md: © IPTC, CC BY 4.0 / MIT). Every item is checked
 * against it before it leaves: a channel never sends an invalid item.
 */
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);

export function ninjsErrors(item: unknown): ErrorObject[] {
  return validate(item) ? [] : (validate.errors ?? []);
}

export function ninjsItem(context: ItemContext): Record<string, unknown> {
  const { story } = context;
  const fields = mappedFields(context);
  const item: Record<string, unknown> = {
    uri: storyUri(story),
    type: NINJS_TYPE[story.type],
    version: String(story.versionNo),
    firstcreated: new Date(story.createdAt).toISOString(),
    versioncreated: new Date(context.action === "kill" ? context.now : story.updatedAt).toISOString(),
    pubstatus: context.action === "kill" ? "canceled" : "usable",
    representationtype: "complete",
    profile: "dams",
  };
  if (story.mime) item.mimetype = story.mime;
  if (context.embargoUntil) item.embargoed = new Date(context.embargoUntil).toISOString();
  if (fields.headline) item.headline = fields.headline;
  if (fields.description) item.description_text = fields.description;
  if (fields.byline) item.byline = fields.byline;
  if (fields.slugline) item.slugline = fields.slugline;
  if (fields.copyrightnotice) item.copyrightnotice = fields.copyrightnotice;
  if (fields.usageterms) item.usageterms = fields.usageterms;
  if (fields.ednote) item.ednote = fields.ednote;
  const subjects = [
    ...story.keywords.map((name) => ({ name, rel: "keyword" })),
    ...story.tags.map((name) => ({ name, rel: "tag" })),
  ];
  if (subjects.length > 0) item.subject = subjects;
  if (story.capturedAt) item.contentcreated = new Date(story.capturedAt).toISOString();
  if (context.action === "publish" && context.files.length > 0) {
    item.renditions = Object.fromEntries(
      context.files.map((file) => [
        file.role.replace(/[^A-Za-z0-9_]/g, "_"),
        {
          title: file.name,
          mimetype: file.mime,
          sizeinbytes: file.size,
          ...(file.width ? { width: file.width } : {}),
          ...(file.height ? { height: file.height } : {}),
          ...(story.duration ? { duration: story.duration } : {}),
        },
      ]),
    );
  }
  item.altids = { dams: story.id, delivery: context.deliveryId };
  return item;
}

/** The item as the bytes sent, refused when it does not pass the schema (a bug here, never the user's input). */
export function ninjsDocument(context: ItemContext): Buffer {
  const item = ninjsItem(context);
  const errors = ninjsErrors(item);
  if (errors.length > 0) {
    throw new Error(
      `the ninjs item fails IPTC's schema: ${errors.map((e) => `${e.instancePath} ${e.message}`).join("; ")}`,
    );
  }
  return Buffer.from(JSON.stringify(item, null, 2));
}
