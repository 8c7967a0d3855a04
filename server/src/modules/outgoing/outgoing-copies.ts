import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { embedsMetadata, type MediaTools, type OutgoingFields } from "../../media/index.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { IPTC_TEXT_PROPERTIES, type Story } from "../stories/story-types.js";

/**
 * How much of a story's metadata a file carries out: `all` every field,
 * `basic` what a "basic" share shows and a "rights" preset keeps (title,
 * headline, caption, authors, credit, source, copyright, usage terms),
 * `none` nothing (a "strip all" preset: the file leaves as it is stored).
 */
export type EmbedLevel = "all" | "basic" | "none";

/** The lower of two levels (a share's and its preset's). */
export function lowerLevel(a: EmbedLevel, b: EmbedLevel): EmbedLevel {
  const order: EmbedLevel[] = ["none", "basic", "all"];
  return order[Math.min(order.indexOf(a), order.indexOf(b))]!;
}

/** A file on its way out: the blob and how it is named. */
export interface OutgoingSource {
  blobKey: string;
  fileName: string;
  contentType: string;
}

/** The file to send: the embedded copy (with an ETag per story revision), or the source unchanged. */
export interface OutgoingFile extends OutgoingSource {
  etag?: string;
}

export type OutgoingStory = Pick<
  Story,
  "id" | "revision" | "title" | "caption" | "authors" | "source" | "keywords" | "capturedAt" | "properties"
>;

/**
 * Files larger than this leave as stored unless location must go (a visitor's
 * copy): writing XMP into a film rewrites all of it, twice over (work copy,
 * then the store).
 */
export const EMBED_MAX_SOURCE_BYTES = 1024 ** 3;

/** Where embedded copies live in the built-in store: `embedded/<story>/<variant>-r<revision>.<ext>`. */
export const EMBEDDED_PREFIX = "embedded/";

/** The cache's bounds (docs/decisions.md): a copy older than this is made again on its next download… */
export const EMBEDDED_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** …and above this many bytes in all, the oldest go first. */
export const EMBEDDED_MAX_BYTES = 10 * 1024 ** 3;

function storyProperty(story: OutgoingStory, key: string): string {
  const value = story.properties[key];
  if (value === null || value === undefined) return "";
  return Array.isArray(value) ? value.map(String).join(", ") : String(value);
}

/** The story properties a file can carry (`outgoingFields`): the only ones field-level access matters for here. */
export const EMBEDDED_PROPERTIES = IPTC_TEXT_PROPERTIES;

/**
 * The embedded properties of `hidden` (field-level access: the caller may not
 * see them), sorted; a copy's cache key names them.
 */
export function hiddenEmbedded(hidden: ReadonlySet<string> | undefined): string[] {
  return hidden ? EMBEDDED_PROPERTIES.filter((key) => hidden.has(key)) : [];
}

/**
 * The fields a level writes into a file (empty ones remove their tags), or
 * null for `none`. A hidden property is written empty: its tag is removed
 * from the copy, also when the stored file carried it.
 */
export function outgoingFields(
  story: OutgoingStory,
  level: EmbedLevel,
  hidden: ReadonlySet<string> = new Set(),
): OutgoingFields | null {
  if (level === "none") return null;
  const all = level === "all";
  const property = (key: string) => (hidden.has(key) ? "" : storyProperty(story, key));
  return {
    title: story.title,
    headline: property("headline"),
    caption: story.caption,
    authors: story.authors,
    credit: property("credit"),
    source: story.source ?? "",
    // Only the notice typed as text: the seeded `copyright` property is a rights code ("owned", "licensed"…),
    // which must never become the file's copyright text.
    copyright: property("copyrightNotice"),
    usageTerms: property("usageTerms"),
    keywords: all ? story.keywords : [],
    instructions: all ? property("instructions") : "",
    city: all ? property("city") : "",
    country: all ? property("country") : "",
    capturedAt: all ? story.capturedAt : null,
  };
}

/**
 * "Embed on the way out" (docs/media.md): every download of an original or a
 * preset rendition — the viewer's, zips, share links, channel deliveries —
 * goes through `file`, which answers a copy of the stored file with the
 * story's current metadata written in (and, for share visitors, location and
 * serial numbers removed in the same exiftool request). The stored file is
 * only ever read. Copies are blobs under `embedded/` in the built-in store,
 * so every node shares them and `sendBlob` serves them (ranges, validators,
 * presigned URLs on S3); the key names the source blob, the level, the
 * stripping, the properties left out for the caller (field-level access)
 * and the story's revision, so an edit makes the next download a
 * new copy and the older one of the same variant is deleted then.
 */
export class OutgoingCopies {
  readonly #making = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      blobs: BlobStore;
      media: Pick<MediaTools, "outgoingCopy">;
      workDir: string;
      /** EMBED_MAX_SOURCE_BYTES unless given. */
      maxSourceBytes?: number;
      clock?: () => Date;
    },
  ) {}

  /** The file to send for `source` of `story`: an embedded (and stripped) copy, made on the first request. */
  async file(
    source: OutgoingSource,
    story: OutgoingStory,
    options: { level: EmbedLevel; stripPrivate?: boolean; hidden?: ReadonlySet<string>; signal?: AbortSignal },
  ): Promise<OutgoingFile> {
    const stripPrivate = options.stripPrivate ?? false;
    const hidden = hiddenEmbedded(options.hidden);
    let fields = embedsMetadata(source.contentType) ? outgoingFields(story, options.level, new Set(hidden)) : null;
    if (fields && !stripPrivate) {
      const size = (await this.deps.blobs.stat(source.blobKey))?.size ?? 0;
      if (size > (this.deps.maxSourceBytes ?? EMBED_MAX_SOURCE_BYTES)) fields = null;
    }
    if (!fields && !stripPrivate) return source;
    const variant = createHash("sha256")
      .update(
        `${source.blobKey}\n${fields ? options.level : "none"}\n${stripPrivate ? "strip" : "keep"}` +
          // Callers with different field-level access get different copies (the hidden tags are not in theirs).
          (fields && hidden.length > 0 ? `\nhide ${hidden.join(",")}` : ""),
      )
      .digest("hex")
      .slice(0, 20);
    const extension = path
      .extname(source.fileName)
      .replace(/[^.A-Za-z0-9]/g, "")
      .slice(0, 10)
      .toLowerCase();
    const folder = `${EMBEDDED_PREFIX}${story.id}/`;
    const key = `${folder}${variant}-r${story.revision}${extension}`;
    const etag = `"${variant}-r${story.revision}"`;
    if (!(await this.deps.blobs.stat(key))) {
      let making = this.#making.get(key);
      if (!making) {
        making = this.#make(source, key, { contentType: source.contentType, fields, stripPrivate }, options.signal)
          .then(() => this.#dropOlder(folder, `${variant}-r`, key))
          .finally(() => this.#making.delete(key));
        this.#making.set(key, making);
      }
      await making;
    }
    return { ...source, blobKey: key, etag };
  }

  async #make(
    source: OutgoingSource,
    key: string,
    request: Parameters<MediaTools["outgoingCopy"]>[2],
    signal?: AbortSignal,
  ): Promise<void> {
    await fs.mkdir(this.deps.workDir, { recursive: true });
    const dir = await fs.mkdtemp(path.join(this.deps.workDir, "outgoing-"));
    try {
      // exiftool reads some formats by their extension.
      const out = path.join(dir, `copy${path.extname(key)}`);
      await this.deps.blobs.withLocalFile(source.blobKey, (file) =>
        this.deps.media.outgoingCopy(file, out, request, signal ? { signal } : undefined),
      );
      await this.deps.blobs.putFile(key, out, { contentType: source.contentType });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  /** Copies of the same variant for an older revision: not asked for again. */
  async #dropOlder(folder: string, variantPrefix: string, keep: string): Promise<void> {
    for await (const key of this.deps.blobs.list(folder)) {
      if (key !== keep && key.startsWith(`${folder}${variantPrefix}`)) await this.deps.blobs.delete(key);
    }
  }

  /** Every copy of a story (it was deleted). */
  async forgetStory(storyId: string): Promise<void> {
    for await (const key of this.deps.blobs.list(`${EMBEDDED_PREFIX}${storyId}/`)) await this.deps.blobs.delete(key);
  }

  /**
   * The maintenance job's pass: copies older than `maxAgeMs`, or of stories
   * that no longer exist, are deleted; then the oldest, until the rest fit
   * in `maxBytes`. A deleted copy is made again by its next download.
   */
  async sweep(options: {
    storiesThatExist: (ids: string[]) => Promise<Set<string>>;
    maxAgeMs?: number;
    maxBytes?: number;
  }): Promise<{ scanned: number; deleted: number; bytes: number }> {
    const maxAgeMs = options.maxAgeMs ?? EMBEDDED_MAX_AGE_MS;
    const maxBytes = options.maxBytes ?? EMBEDDED_MAX_BYTES;
    const now = (this.deps.clock?.() ?? new Date()).getTime();
    const copies: { key: string; storyId: string; size: number; at: number }[] = [];
    for await (const key of this.deps.blobs.list(EMBEDDED_PREFIX)) {
      const stat = await this.deps.blobs.stat(key);
      if (!stat) continue;
      const storyId = key.slice(EMBEDDED_PREFIX.length).split("/")[0]!;
      copies.push({ key, storyId, size: stat.size, at: stat.modifiedAt?.getTime() ?? 0 });
    }
    const existing = await options.storiesThatExist([...new Set(copies.map((copy) => copy.storyId))]);
    let deleted = 0;
    const kept = [];
    for (const copy of copies) {
      if (!existing.has(copy.storyId) || now - copy.at > maxAgeMs) {
        await this.deps.blobs.delete(copy.key);
        deleted++;
      } else kept.push(copy);
    }
    kept.sort((a, b) => b.at - a.at);
    let bytes = 0;
    for (const copy of kept) {
      if (bytes + copy.size > maxBytes) {
        await this.deps.blobs.delete(copy.key);
        deleted++;
      } else bytes += copy.size;
    }
    return { scanned: copies.length, deleted, bytes };
  }
}
