import fsp from "node:fs/promises";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../http/errors.js";
import type { MediaKind, SniffedType } from "../../media/sniff.js";
import type { LibraryUser } from "../auth/permissions.js";
import { newOriginalKey } from "../blobs/blob-keys.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { BlobsService } from "../blobs/blobs.service.js";
import type { NewStoryPlace, NewStoryRules } from "../libraries/library-settings.service.js";
import type { StoriesService } from "../stories/stories.service.js";
import type { UploadAccount } from "../stories/story-drafts.service.js";
import type { Actor, StoryMetadata } from "../stories/story-types.js";
import type { IngestKeysRepository } from "./ingest-keys.repository.js";
import { fileBytes, type IngestSource, type StagedBytes, spoolStream } from "./ingest-source.js";

/** The story a file becomes, once the ingest's transaction commits. */
export interface IngestTarget {
  id: string;
  libraryId: string;
  versionNo: number;
}

/** What `checkTarget` and `checkRoom` found before the bytes came: the library, the account, the size with room. */
export interface CheckedUpload {
  libraryId: string;
  account: UploadAccount;
  /** The declared size found to fit the library's quota (undefined: not checked). */
  roomFor?: number;
}

export interface IngestInput {
  source: IngestSource;
  /** The stored file name, or how to make it from what the content turned out to be (its extension). */
  originalName: string | ((content: SniffedType) => string);
  /** What the caller expects; the content decides, and another kind is refused (`IngestTypeMismatch`). */
  declaredType?: MediaKind;
  /** The acting user: the story's creator, checked for write access to the library. */
  userId: string;
  /** Where the request came from, for the story action. */
  ip?: string | null;
  /** The request's actor, when the acting user is the caller: the story's record is written with it (IngestOptions). */
  auditAs?: Actor;
  /** Where a new story goes; without it, the user's default library (and no folder). */
  libraryId?: string;
  folderId?: string | null;
  /** Make the file a new version of this story instead (`properties.lastVersion` points at the previous one). */
  asNewVersionOf?: { libraryId: string; storyId: string; note?: string | null };
  /** Editorial fields and properties of a new story (a new version keeps its story's). */
  metadata?: StoryMetadata;
  /**
   * Names this file for idempotency: a call whose key made a story already
   * gets that story back (`repeated: true`) and stores nothing (a file source
   * is deleted, a stream destroyed, staged bytes left to their owner); of two
   * calls at once with one key, one story is made and both answer with it.
   */
  ingestKey?: string;
  /**
   * Nothing can have been made with `ingestKey` yet (a tus upload created by the request that
   * finishes it): the key is not looked up first; its insert with the story still refuses a second.
   */
  ingestKeyIsNew?: boolean;
  /**
   * What this request checked moments ago, before the bytes came (a tus POST that creates and
   * finishes its upload): a new story in that library by that account is not checked again, nor the
   * quota's early check for that size (the one in the story's transaction still decides).
   */
  checkedByThisRequest?: CheckedUpload;
  /** The caller's own rows, written in the same transaction after the story's (a URL fetch marks itself done). */
  withinTransaction?: (trx: Kysely<Database>, story: IngestTarget) => Promise<void>;
}

/** What the file became. */
export interface IngestedStory {
  libraryId: string;
  storyId: string;
  versionNo: number;
  /** Stories of the same library with the same content (a new story only; the user may keep both). */
  duplicates: { libraryId: string; storyId: string; title: string }[];
  /** The stored original. */
  blob: { key: string; sha256: string; size: number; mime: string; kind: MediaKind; originalName: string };
  /** True when `ingestKey` had made this story already: nothing was stored this time. */
  repeated: boolean;
}

/** The content is of another kind than the caller declared (415). */
export class IngestTypeMismatch extends AppError {
  constructor(
    readonly declared: MediaKind,
    readonly content: SniffedType,
  ) {
    super(415, "type_mismatch", `a ${declared} was expected, but the file is ${content.mime}`);
  }
}

export interface IngestDependencies {
  stories: Pick<StoriesService, "createDraftFromUpload" | "addVersionFromUpload" | "checkUploadTarget">;
  /**
   * The library a new story goes to when the caller names none (the user's default): of a user id,
   * or of the account when the caller has just read it (no second read of the user's row).
   */
  defaultLibraryOf(user: string | LibraryUser): Promise<string>;
  /** The library's rules for a new story (accepted types, archived, default folder): the libraries module's. */
  newStoryRules?: NewStoryRules;
  blobs: BlobStore;
  /** The registry of originals (the blobs module's): its row is written in the ingest's transaction. */
  blobRegistry: Pick<BlobsService, "register" | "find">;
  keys: IngestKeysRepository;
  /** Which storage target a library's new originals go to (the storage module's); absent: the blob store decides. */
  placement?: {
    /** Answers the target placed, for `settle`; `bucketId` is the library's, when the ingest has read it. */
    placeNewOriginal(libraryId: string, key: string, bucketId?: string | null): Promise<string>;
    settle(key: string, targetId: string): Promise<void>;
  };
  /**
   * Quotas per library (the storage module's): 413 when a file would take its library past its quota.
   * `check` answers early (unlocked); `checkWithin` decides, in the story's transaction (the new file
   * counted), the library's quota locked until it ends.
   */
  quota?: {
    check(libraryId: string, extra: number): Promise<void>;
    checkWithin(trx: Kysely<Database>, libraryId: string, size: number): Promise<void>;
  };
  /** Scratch space for streamed sources (under the data dir: videos are large). */
  workDir: string;
  onBlobDeleteError?: (key: string, error: unknown) => void;
}

/**
 * The one way a file becomes a story (tus uploads, URL fetches, the image
 * editor's save; next the network disk, the video editor, publishing
 * receivers): the content sniffed (the allow-list; names and declared types
 * are never trusted), its SHA-256, the bytes moved into the blob store under
 * a new key, then in ONE transaction the `blobs` row, the draft story (or the
 * new version) with its original file and its media job, the ingest key and
 * the caller's own rows. When that fails the blob is deleted again; a crash
 * between the two leaves an orphan the sweeper removes. A caller's failure
 * before the move leaves its source as it was.
 */
export class IngestService {
  constructor(private readonly deps: IngestDependencies) {}

  async ingestFile(input: IngestInput): Promise<IngestedStory> {
    const earlier = input.ingestKey && !input.ingestKeyIsNew ? await this.#earlier(input.ingestKey) : undefined;
    if (earlier) {
      if ("file" in input.source) await fsp.rm(input.source.file, { force: true });
      if ("stream" in input.source) input.source.stream.destroy();
      return earlier;
    }
    if ("staged" in input.source) return this.#ingest(input, input.source.staged);
    if ("file" in input.source) return this.#ingest(input, fileBytes(input.source.file, this.deps.blobs, input.source));
    const spooled = await spoolStream(input.source.stream, this.deps.workDir);
    try {
      return await this.#ingest(
        input,
        fileBytes(spooled.file, this.deps.blobs, { sha256: input.source.sha256 ?? spooled.sha256 }),
      );
    } finally {
      await spooled.discard();
    }
  }

  /**
   * Before a file's bytes come: may this user's file go where the target says
   * (write on the library, and the story's draft rules for a new version)?
   * Throws as the ingest itself would; answers the library checked (the
   * named one, or the user's default), so the caller need not look it up again.
   */
  async checkTarget(userId: string, target: Pick<IngestInput, "libraryId" | "asNewVersionOf">): Promise<CheckedUpload> {
    const version = target.asNewVersionOf;
    return this.deps.stories.checkUploadTarget(
      userId,
      { libraryId: version?.libraryId ?? target.libraryId, storyId: version?.storyId },
      (user) => this.deps.defaultLibraryOf(user),
    );
  }

  /**
   * Whether `size` more bytes fit the library a file of this user would go to
   * (named, or the user's default): an upload's creation asks before any byte comes.
   */
  async checkRoom(userId: string, libraryId: string | undefined, size: number): Promise<void> {
    if (!this.deps.quota) return;
    await this.deps.quota.check(libraryId ?? (await this.deps.defaultLibraryOf(userId)), size);
  }

  /** What an ingest key made (the story and its original), or undefined when that key made nothing (yet). */
  madeBy(key: string): Promise<IngestedStory | undefined> {
    return this.#earlier(key);
  }

  async #ingest(input: IngestInput, bytes: StagedBytes): Promise<IngestedStory> {
    const content = await bytes.sniff();
    if (input.declaredType && input.declaredType !== content.kind)
      throw new IngestTypeMismatch(input.declaredType, content);
    const blob = {
      key: newOriginalKey(),
      sha256: await bytes.sha256(),
      size: await bytes.size(),
      mime: content.mime,
      kind: content.kind,
      originalName: typeof input.originalName === "function" ? input.originalName(content) : input.originalName,
    };
    // The user's default library, looked up once for this ingest (it takes a few queries) and only when needed.
    let defaultLibrary: Promise<string> | undefined;
    const libraryOf = (): Promise<string> => {
      const named = input.asNewVersionOf?.libraryId ?? input.libraryId;
      if (named) return Promise.resolve(named);
      defaultLibrary ??= this.deps.defaultLibraryOf(input.userId);
      return defaultLibrary;
    };
    // The final size against the library's quota, before any byte is stored (413, the source left as it was),
    // unless this request has just checked it for this size.
    const checked = input.checkedByThisRequest;
    const roomChecked = checked?.roomFor === blob.size && checked.libraryId === (await libraryOf());
    if (this.deps.quota && !roomChecked) await this.deps.quota.check(await libraryOf(), blob.size);
    try {
      // A new story's library rules (archived, accepted types, folder) are read once, before the bytes move;
      // the same read says where the library's new originals go.
      const place = input.asNewVersionOf
        ? undefined
        : await this.#placeForNewStory(input, blob.kind, await libraryOf());
      const placement = this.deps.placement;
      const placed = placement && (await placement.placeNewOriginal(await libraryOf(), blob.key, place?.bucketId));
      await bytes.moveInto(blob.key, blob.mime);
      if (placement && placed !== undefined) await placement.settle(blob.key, placed);
      return { ...(await this.#story(input, blob, libraryOf, place?.folderId ?? null)), blob, repeated: false };
    } catch (error) {
      await this.deps.blobs
        .delete(blob.key)
        .catch((cleanup: unknown) => this.deps.onBlobDeleteError?.(blob.key, cleanup));
      // Another call with the same key made the story meanwhile (its key row won): that story is the answer.
      const winner = input.ingestKey ? await this.#earlier(input.ingestKey) : undefined;
      if (winner) return winner;
      throw error;
    }
  }

  /** The library's rules for a new story: the folder it goes to and the library's bucket (absent rules: as asked). */
  async #placeForNewStory(input: IngestInput, kind: MediaKind, libraryId: string): Promise<NewStoryPlace> {
    const folderId = input.folderId ?? null;
    return this.deps.newStoryRules ? this.deps.newStoryRules.placeForNewStory(libraryId, kind, folderId) : { folderId };
  }

  /** The transaction: the stories module writes the story (or version) and its job; the rest joins it here. */
  async #story(
    input: IngestInput,
    blob: IngestedStory["blob"],
    libraryOf: () => Promise<string>,
    folderId: string | null,
  ): Promise<Omit<IngestedStory, "blob" | "repeated">> {
    const withinTransaction = async (trx: Kysely<Database>, story: IngestTarget) => {
      await this.deps.blobRegistry.register(
        {
          key: blob.key,
          sha256: blob.sha256,
          size: blob.size,
          mime: blob.mime,
          kind: blob.kind,
          original_name: blob.originalName,
          created_by: input.userId,
          created_at: new Date().toISOString(),
        },
        trx,
      );
      // Two uploads finishing together must not both fit: the check that counts is made here, atomically.
      await this.deps.quota?.checkWithin(trx, story.libraryId, blob.size);
      if (input.ingestKey) await this.deps.keys.insert(input.ingestKey, story, blob.key, trx);
      await input.withinTransaction?.(trx, story);
    };
    const file = {
      userId: input.userId,
      blobKey: blob.key,
      sha256: blob.sha256,
      size: blob.size,
      mime: blob.mime,
      originalName: blob.originalName,
    };
    // The new original is processed at once, whether its story is a draft or committed.
    const options = { withinTransaction, ip: input.ip ?? null, auditAs: input.auditAs, enqueueProcessing: true };
    if (input.asNewVersionOf) {
      const { libraryId, storyId, note } = input.asNewVersionOf;
      const story = await this.deps.stories.addVersionFromUpload(
        { ...file, libraryId, storyId, note: note ?? null },
        options,
      );
      return { libraryId: story.libraryId, storyId: story.id, versionNo: story.versionNo, duplicates: [] };
    }
    const libraryId = await libraryOf();
    const checked = input.checkedByThisRequest;
    const checkedAccount = checked?.libraryId === libraryId ? checked.account : undefined;
    const { story, duplicates } = await this.deps.stories.createDraftFromUpload(
      { ...file, libraryId, folderId, type: blob.kind, metadata: definedOnly(input.metadata), checkedAccount },
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

  /** The story an ingest key made, as a repeated answer. */
  async #earlier(key: string): Promise<IngestedStory | undefined> {
    const made = await this.deps.keys.find(key);
    const row = made && (await this.deps.blobRegistry.find(made.blobKey));
    if (!made || !row) return undefined;
    const blob = {
      key: row.key,
      sha256: row.sha256,
      size: Number(row.size),
      mime: row.mime,
      kind: row.kind,
      originalName: row.original_name ?? "",
    };
    return {
      libraryId: made.libraryId,
      storyId: made.storyId,
      versionNo: made.versionNo,
      duplicates: [],
      blob,
      repeated: true,
    };
  }
}

/** The fields that have a value (an undefined title would hide the default one, the file's name). */
function definedOnly(metadata: StoryMetadata | undefined): StoryMetadata | undefined {
  if (!metadata) return undefined;
  return Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== undefined)) as StoryMetadata;
}
