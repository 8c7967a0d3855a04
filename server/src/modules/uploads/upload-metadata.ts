import { z } from "zod";
import { Invalid } from "../../http/errors.js";
import type { IngestInput } from "../ingest/ingest.service.js";

/**
 * Upload-Metadata a client may send with a tus upload (each value a string,
 * as tus carries them). Without `storyId` the file becomes a new draft story
 * in `libraryId`/`folderId` (default: the user's default library); with it, a
 * new version of that story. Lists (keywords, tags, authors) are JSON arrays
 * or comma-separated.
 */
const LIST_FORMAT = "must be a JSON array of strings, or comma-separated text that does not start with [";

const list = z
  .string()
  .max(10_000)
  .transform((value, context) => {
    const trimmed = value.trim();
    if (!trimmed.startsWith("[")) {
      return trimmed
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean);
    }
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch {
      json = undefined;
    }
    const parsed = z.array(z.string()).safeParse(json);
    if (parsed.success) return parsed.data;
    context.addIssue({ code: "custom", message: LIST_FORMAT });
    return z.NEVER;
  });

const uploadMetadataSchema = z.object({
  libraryId: z.string().min(1).max(100).optional(),
  folderId: z.uuid().optional(),
  storyId: z.uuid().optional(),
  note: z.string().max(1000).optional(),
  title: z.string().max(500).optional(),
  caption: z.string().max(20_000).optional(),
  source: z.string().max(500).optional(),
  theme: z.string().max(500).optional(),
  category: z.string().max(500).optional(),
  keywords: list.optional(),
  tags: list.optional(),
  authors: list.optional(),
});

/**
 * Where the upload goes and what the new story says, from the client's
 * Upload-Metadata (other keys are ignored); Invalid naming the first bad
 * field. Read at the upload's creation too, so a bad value never costs an upload.
 */
export function ingestTargetOf(
  metadata: Record<string, string>,
): Pick<IngestInput, "libraryId" | "folderId" | "asNewVersionOf" | "metadata"> {
  const known = Object.fromEntries(
    Object.entries(metadata).filter(([key, value]) => key in uploadMetadataSchema.shape && value !== ""),
  );
  const parsed = uploadMetadataSchema.safeParse(known);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Invalid(`Upload-Metadata ${issue.path.join(".")}: ${issue.message}`);
  }
  const { libraryId, folderId, storyId, note, ...fields } = parsed.data;
  if (storyId) {
    if (!libraryId) throw new Invalid("Upload-Metadata libraryId: required with storyId");
    return { asNewVersionOf: { libraryId, storyId, note: note ?? null } };
  }
  return { libraryId, folderId: folderId ?? null, metadata: fields };
}
