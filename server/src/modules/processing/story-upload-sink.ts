import { z } from "zod";
import { Invalid } from "../../http/errors.js";
import type { StoriesService } from "../stories/stories.service.js";
import type { StoryLinksService } from "../stories/story-links.service.js";
import type { StoryMetadata } from "../stories/story-types.js";
import type { InsertBlobRow, StoredUpload, UploadSink } from "../uploads/upload-sink.js";

/**
 * Upload-Metadata a client may send with a tus upload (each value a string,
 * as tus carries them). Without `storyId` the file becomes a new draft story
 * in `libraryId`/`folderId` (default: the user's default library); with it, a
 * new version of that story. Lists (keywords, tags, authors) are JSON arrays
 * or comma-separated.
 */
const list = z
  .string()
  .max(10_000)
  .transform((value) => {
    const trimmed = value.trim();
    if (trimmed.startsWith("[")) {
      const parsed = z.array(z.string()).safeParse(JSON.parse(trimmed));
      if (parsed.success) return parsed.data;
    }
    return trimmed
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean);
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

function parseMetadata(metadata: Record<string, string>) {
  const known = Object.fromEntries(
    Object.entries(metadata).filter(([key, value]) => key in uploadMetadataSchema.shape && value !== ""),
  );
  const parsed = uploadMetadataSchema.safeParse(known);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Invalid(`Upload-Metadata ${issue.path.join(".")}: ${issue.message}`);
  }
  return parsed.data;
}

/** What the client gets back in the upload's last answer. */
export interface UploadedStory {
  libraryId: string;
  storyId: string;
  versionNo: number;
  /** Stories of the same library with the same content (the user may keep both). */
  duplicates: { libraryId: string; storyId: string; title: string }[];
}

/**
 * A finished upload becomes a draft story (or a new version of one) in the
 * same transaction as its `blobs` row; media processing is enqueued in it too,
 * so thumbnails appear while the user is still filling in the form.
 */
export class StoryUploadSink implements UploadSink {
  constructor(
    private readonly stories: StoriesService,
    private readonly links: StoryLinksService,
  ) {}

  async onUploadStored(upload: StoredUpload, context: { insertBlobRow: InsertBlobRow }): Promise<UploadedStory> {
    const metadata = parseMetadata(upload.metadata);
    const originalName = upload.originalName ?? `upload.${upload.mime.split("/")[1] ?? "bin"}`;
    const common = {
      userId: upload.userId,
      blobKey: upload.blobKey,
      sha256: upload.sha256,
      size: upload.size,
      mime: upload.mime,
      originalName,
    };
    const options = { withinTransaction: context.insertBlobRow, enqueueProcessing: true };
    if (metadata.storyId) {
      if (!metadata.libraryId) throw new Invalid("Upload-Metadata libraryId: required with storyId");
      const story = await this.stories.addVersionFromUpload(
        { ...common, libraryId: metadata.libraryId, storyId: metadata.storyId, note: metadata.note ?? null },
        options,
      );
      return { libraryId: story.libraryId, storyId: story.id, versionNo: story.versionNo, duplicates: [] };
    }
    const libraryId = metadata.libraryId ?? (await this.defaultLibrary(upload.userId));
    const storyMetadata: StoryMetadata = {
      title: metadata.title,
      caption: metadata.caption,
      source: metadata.source,
      theme: metadata.theme,
      category: metadata.category,
      keywords: metadata.keywords,
      tags: metadata.tags,
      authors: metadata.authors,
    };
    const { story, duplicates } = await this.stories.createDraftFromUpload(
      {
        ...common,
        libraryId,
        folderId: metadata.folderId ?? null,
        type: upload.kind,
        metadata: Object.fromEntries(Object.entries(storyMetadata).filter(([, value]) => value !== undefined)),
      },
      options,
    );
    return {
      libraryId: story.libraryId,
      storyId: story.id,
      versionNo: story.versionNo,
      duplicates: duplicates.map((duplicate) => ({
        libraryId: duplicate.libraryId,
        storyId: duplicate.id,
        title: duplicate.title,
      })),
    };
  }

  private async defaultLibrary(userId: string): Promise<string> {
    return (await this.links.defaultLibraryFor(userId)).libraryId;
  }
}
