import type { FastifyBaseLogger } from "fastify";
import { Invalid } from "../../http/errors.js";
import type { MediaKind } from "../../media/sniff.js";
import type { Actor } from "../auth/actor.js";
import type { CheckedUpload, IngestedStory, IngestService } from "../ingest/ingest.service.js";
import type { StagedBytes } from "../ingest/ingest-source.js";
import type { DatabaseLocker } from "./upload-locker.js";
import { ingestTargetOf } from "./upload-metadata.js";
import type { UploadStaging } from "./upload-staging.js";

/** The ingest key of an upload's story: the owner and the upload's id, so the same upload never makes two. */
export function uploadIngestKey(userId: string, uploadId: string): string {
  return `upload:${userId}:${uploadId}`;
}

/** Upload-Metadata keys the server sets; a client's values for them are dropped. */
export const OWNER_METADATA_KEY = "dams-owner";
/**
 * The library a new story's upload was checked for at its creation (the one
 * named, or the user's default then): the completion puts the story there
 * without looking the default up again, and its own write check runs on it.
 */
export const LIBRARY_METADATA_KEY = "dams-library";
const SERVER_METADATA_KEYS = new Set([OWNER_METADATA_KEY, LIBRARY_METADATA_KEY]);

/**
 * Owners of uploads that are not a user's: a share link's visitor (`share:<id>`,
 * the shares module's upload drop). Such an upload always goes to the
 * `share-drop` destination, whatever its `target`.
 */
const SHARE_OWNER_PREFIX = "share:";
const SHARE_DROP = "share-drop";

/** Who sent the upload's last request, as the API saw them (absent when a completion runs without one). */
export interface UploadClient {
  ip: string | null;
  userAgent: string | null;
}

export interface FinishedUpload {
  id: string;
  size: number;
  metadata: Record<string, string | null>;
}

/** The answer to an upload's last request. */
export interface UploadOutcome {
  upload: {
    /** The upload's id as its URL names it. */
    id: string;
    blobKey: string;
    sha256: string;
    size: number;
    /** From the content (magic bytes), never from the client. */
    mime: string;
    kind: MediaKind;
    /** The file name the client sent in Upload-Metadata (`filename` or `name`), or null. */
    originalName: string | null;
  };
  /** The story the upload became. */
  result: Pick<IngestedStory, "libraryId" | "storyId" | "versionNo" | "duplicates">;
}

/**
 * Somewhere else a finished upload may go instead of becoming a story, chosen
 * by the client's Upload-Metadata `target` (the network disk: `target=disk`).
 * Its module implements it; the tus protocol, staging and locks stay here.
 */
export interface UploadDestination {
  /** At the upload's creation, before any byte: throws (a 413 for a full disk, a 400, a 404) to refuse it. */
  check(userId: string, metadata: Record<string, string>, size: number | undefined): Promise<void>;
  /** On the last byte: takes the staged bytes (moving them) and answers what they became. */
  complete(
    userId: string,
    metadata: Record<string, string>,
    staged: StagedBytes,
    clientName: string | null,
    context?: { uploadId: string } & Partial<UploadClient>,
  ): Promise<Record<string, unknown>>;
}

/** The answer of an upload that went to a destination (`target`): the upload's id and what the destination said. */
export type DestinationOutcome = { upload: { id: string; originalName: string | null } } & Record<string, unknown>;

function clientMetadata(metadata: Record<string, string | null>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(metadata)) {
    if (!SERVER_METADATA_KEYS.has(name) && value !== null) kept[name] = value;
  }
  return kept;
}

/**
 * What happens on an upload's last byte: the ingest command (modules/ingest)
 * takes the staged bytes — content check, SHA-256 (the running one when this
 * node has it), the move into the blob store, the story in one transaction —
 * and the upload is forgotten. An upload that did not become a story is not
 * kept, not even to resume: refused content, or a finished upload that would
 * look "finished" to a client asking HEAD with nothing stored; it is sent
 * again from the start.
 */
export class UploadsService {
  constructor(
    private readonly deps: {
      staging: UploadStaging;
      ingest: Pick<IngestService, "ingestFile" | "madeBy" | "checkRoom" | "checkTarget">;
      /** The uploads' locks: a completion holds its upload's. */
      locker: Pick<DatabaseLocker, "newLock">;
      log: FastifyBaseLogger;
      /** Other places an upload may go, by the Upload-Metadata `target` they answer to. */
      destinations?: Record<string, UploadDestination>;
    },
  ) {}

  #destination(owner: string, metadata: Record<string, string>): UploadDestination | undefined {
    if (owner.startsWith(SHARE_OWNER_PREFIX)) {
      const drop = this.deps.destinations?.[SHARE_DROP];
      if (!drop) throw new Error("a share visitor's upload, and no share drop to take it");
      return drop;
    }
    const target = metadata.target;
    if (target === SHARE_DROP) throw new Invalid(`Upload-Metadata target: ${target} is for share links' visitors`);
    if (target === undefined || target === "" || target === "library") return undefined;
    const destination = this.deps.destinations?.[target];
    if (!destination) throw new Invalid(`Upload-Metadata target: ${target} is not a destination`);
    return destination;
  }

  /** Whether an upload of this owner and metadata becomes a story (false: a destination's, or tus refuses it). */
  becomesStory(userId: string, metadata: Record<string, string | null>): boolean {
    try {
      return this.#destination(userId, clientMetadata(metadata)) === undefined;
    } catch {
      return false;
    }
  }

  /**
   * A new upload's metadata, checked before its bytes come (the same reading
   * as on the last byte; throws Invalid). Answers the metadata to keep: the
   * client's, with the owner and (for a story) the library checked.
   */
  async checkNewUpload(
    metadata: Record<string, string | null>,
    userId: string,
    size?: number,
  ): Promise<{ metadata: Record<string, string | null>; checked?: CheckedUpload }> {
    const kept = clientMetadata(metadata);
    const recorded = Object.fromEntries(Object.entries(metadata).filter(([name]) => !SERVER_METADATA_KEYS.has(name)));
    recorded[OWNER_METADATA_KEY] = userId;
    const destination = this.#destination(userId, kept);
    if (destination) {
      await destination.check(userId, kept, size);
      return { metadata: recorded };
    }
    const target = ingestTargetOf(kept);
    // Who may put a file there, before any byte is sent (403 / 404, as on the last byte).
    const checked = await this.deps.ingest.checkTarget(userId, target);
    // The declared length against the library's quota: a clear 413 before any byte is sent.
    if (size !== undefined) await this.deps.ingest.checkRoom(userId, checked.libraryId, size);
    return {
      metadata: { ...recorded, [LIBRARY_METADATA_KEY]: checked.libraryId },
      // A new version's draft rules are checked again on the last byte; a new story's write access and room
      // need not be, when that byte comes in this same request.
      checked: target.asNewVersionOf ? undefined : { ...checked, roomFor: size },
    };
  }

  /**
   * Completes a finished upload still in staging, holding its lock: on a
   * HEAD that finds all the bytes but no recorded completion, and on start-up
   * and in maintenance for uploads a crash left between their last byte and
   * their story. Undefined when it is not (or no longer) a finished upload here.
   */
  async completeStaged(id: string): Promise<UploadOutcome | DestinationOutcome | undefined> {
    const lock = this.deps.locker.newLock(id);
    await lock.lock(new AbortController().signal, () => {});
    try {
      const finished = await this.deps.staging.finishedUpload(id);
      return finished && (await this.complete(finished));
    } finally {
      await lock.unlock();
    }
  }

  /**
   * Every finished upload in staging without a recorded completion, completed
   * once (what a crash between the last byte and the story left); returns the
   * ids completed and those that failed (refused content is removed).
   */
  async completeStranded(): Promise<{ completed: string[]; failed: string[] }> {
    const completed: string[] = [];
    const failed: string[] = [];
    for (const id of await this.deps.staging.list()) {
      if (!(await this.deps.staging.finishedUpload(id))) continue;
      try {
        if (await this.completeStaged(id)) completed.push(id);
      } catch (error) {
        this.deps.log.warn({ err: error, uploadId: id }, "a finished upload left by a crash could not be completed");
        failed.push(id);
      }
    }
    if (completed.length || failed.length) this.deps.log.info({ completed, failed }, "finished uploads completed");
    return { completed, failed };
  }

  /** What the user's upload `uploadId` (its URL segment) became, when it was completed as a story. */
  async completedUpload(userId: string, uploadId: string): Promise<{ size: number } | undefined> {
    const made = await this.deps.ingest.madeBy(uploadIngestKey(userId, uploadId));
    return made && { size: made.blob.size };
  }

  /** Where the story goes: as the client said, in the library checked at the creation when it named none. */
  #targetOf(recorded: Record<string, string | null>, metadata: Record<string, string>) {
    const target = ingestTargetOf(metadata);
    const checked = recorded[LIBRARY_METADATA_KEY];
    if (target.asNewVersionOf || target.libraryId || !checked) return target;
    return { ...target, libraryId: checked };
  }

  /**
   * `createdByThisRequest`: the request finishing the upload is the POST that created it
   * (creation-with-upload); `checked`: what that POST's `checkNewUpload` found.
   */
  async complete(
    finished: FinishedUpload,
    client?: UploadClient,
    { createdByThisRequest = false, checked }: { createdByThisRequest?: boolean; checked?: CheckedUpload } = {},
  ): Promise<UploadOutcome | DestinationOutcome> {
    const { staging, log } = this.deps;
    const userId = finished.metadata[OWNER_METADATA_KEY];
    if (!userId) throw new Error(`upload ${finished.id} has no owner`);
    const metadata = clientMetadata(finished.metadata);
    const clientName = metadata.filename ?? metadata.name ?? null;
    const destination = this.#destination(userId, metadata);
    let moved = false;
    // A story's upload keeps its staged bytes until the story is recorded (the ingest key makes a second
    // completion after a crash give the same story). A destination has no key: its bytes move at once, so
    // bytes still staged always mean "not completed yet".
    const keepStaged = !destination;
    const staged: StagedBytes = {
      size: async () => finished.size,
      sniff: () => staging.sniff(finished.id, finished.size),
      sha256: () => staging.sha256Of(finished.id, finished.size),
      moveInto: async (key, contentType) => {
        try {
          await staging.moveInto(finished.id, key, contentType, { keepStaged });
          moved = true;
        } catch (error) {
          log.error({ err: error, uploadId: finished.id }, "moving a finished upload into the blob store failed");
          throw error;
        }
      },
    };
    if (destination) {
      let answer: Record<string, unknown>;
      try {
        answer = await destination.complete(userId, metadata, staged, clientName, {
          uploadId: staging.urlSegment(finished.id),
          ...client,
        });
      } catch (error) {
        if (moved) await staging.forget(finished.id).catch(() => {});
        else await staging.remove(finished.id).catch(() => {});
        throw error;
      }
      await staging.forget(finished.id);
      return { ...answer, upload: { id: staging.urlSegment(finished.id), originalName: clientName } };
    }
    let outcome: UploadOutcome;
    try {
      outcome = await this.#story(staging.urlSegment(finished.id), finished.metadata, staged, {
        createdByThisRequest,
        checked,
      });
    } catch (error) {
      if (moved) log.error({ err: error, uploadId: finished.id }, "storing a finished upload failed");
      await staging.remove(finished.id).catch(() => {});
      throw error;
    }
    // The story is recorded: the staged bytes (still there, or a second completion's) can go.
    await staging.remove(finished.id).catch(() => {});
    return outcome;
  }

  /**
   * A whole file that came in one creation-with-upload POST, in memory (whole-upload.ts): the story `complete`
   * makes of a staged upload, from the same checks (`recorded` and `checked`: what `checkNewUpload` answered),
   * with no staged bytes, description or lock — the upload's URL exists only once this answers. `segment` is
   * the upload's id in its Location; its ingest key is the one a staged upload of that id would have.
   */
  async completeWhole(
    segment: string,
    recorded: Record<string, string | null>,
    bytes: StagedBytes,
    checked: CheckedUpload | undefined,
    auditAs?: Actor,
  ): Promise<UploadOutcome> {
    return this.#story(segment, recorded, bytes, { createdByThisRequest: true, checked, auditAs });
  }

  /** The ingest command on an upload's bytes, and the answer the client reads. */
  async #story(
    segment: string,
    recorded: Record<string, string | null>,
    bytes: StagedBytes,
    {
      createdByThisRequest,
      checked,
      auditAs,
    }: { createdByThisRequest: boolean; checked?: CheckedUpload; auditAs?: Actor },
  ): Promise<UploadOutcome> {
    const userId = recorded[OWNER_METADATA_KEY];
    if (!userId) throw new Error(`upload ${segment} has no owner`);
    const metadata = clientMetadata(recorded);
    const clientName = metadata.filename ?? metadata.name ?? null;
    const stored = await this.deps.ingest.ingestFile({
      source: { staged: bytes },
      ingestKey: uploadIngestKey(userId, segment),
      ingestKeyIsNew: createdByThisRequest,
      checkedByThisRequest: createdByThisRequest ? checked : undefined,
      auditAs,
      originalName: (content) => clientName ?? `upload.${content.mime.split("/")[1] ?? "bin"}`,
      userId,
      ...this.#targetOf(recorded, metadata),
    });
    const { blob, libraryId, storyId, versionNo, duplicates } = stored;
    return {
      upload: {
        id: segment,
        blobKey: blob.key,
        sha256: blob.sha256,
        size: blob.size,
        mime: blob.mime,
        kind: blob.kind,
        originalName: clientName,
      },
      result: { libraryId, storyId, versionNo, duplicates },
    };
  }
}
