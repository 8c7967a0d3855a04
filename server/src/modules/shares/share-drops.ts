import type { Db } from "../../db/database.js";
import { AppError, Forbidden, Invalid } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { FoldersService } from "../folders/folders.service.js";
import type { IngestService } from "../ingest/ingest.service.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import { type UploadDestination, uploadIngestKey } from "../uploads/uploads.service.js";
import type { ShareOwner } from "./share-visits.service.js";
import { shareGone } from "./share-visits.service.js";
import type { ShareDrop, ShareRecord, SharesRepository } from "./shares.repository.js";
import type { CreateShareInput } from "./shares.schema.js";
import { shareState } from "./shares.service.js";

/** The upload owner of a visitor's upload: the share, never a user (uploads.service picks the drop by it). */
export const SHARE_UPLOAD_OWNER = "share:";

export function shareUploadOwner(shareId: string): string {
  return `${SHARE_UPLOAD_OWNER}${shareId}`;
}

/** Characters of a visitor's name kept (the draft's author, the visitor log). */
const VISITOR_NAME_MAX = 100;

export interface ShareDropsDependencies {
  db: Db;
  shares: SharesRepository;
  libraries: LibrariesService;
  folders: FoldersService;
  owner: (userId: string) => Promise<ShareOwner | undefined>;
  ingest: Pick<IngestService, "ingestFile">;
  audit: AuditLog;
  clock?: () => Date;
}

type DropInput = CreateShareInput["uploadDrop"];

function visitorNameOf(metadata: Record<string, string>): string {
  const name = (metadata.visitorName ?? "").trim().replace(/\s+/g, " ");
  if (name === "") throw new Invalid("Upload-Metadata visitorName: your name is required", "visitor_name_required");
  if (name.length > VISITOR_NAME_MAX) {
    throw new Invalid(`Upload-Metadata visitorName: at most ${VISITOR_NAME_MAX} characters`);
  }
  return name;
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(413, "share_drop_too_large", `a file may have at most ${maxBytes} bytes here`).withMessageCode(
    "share.dropTooLarge",
    { bytes: maxBytes },
  );
}

function dropFull(): Forbidden {
  return new Forbidden("this share's upload drop is full", "share_drop_full");
}

/**
 * The upload drop of share links (docs/sharing.md, "Upload drop"): visitors
 * upload files through tus at /shared/uploads into the folder the owner
 * picked; each becomes a draft in the owner's name, the visitor's name its
 * author, through the one ingest command, counted and logged in the draft's
 * transaction. The drop works only while the share opens and its owner may
 * still write into the folder.
 */
export class ShareDrops {
  constructor(private readonly deps: ShareDropsDependencies) {}

  #now(): Date {
    return this.deps.clock?.() ?? new Date();
  }

  /** A create's or update's drop, checked against what the actor may do now (undefined: unchanged). */
  async options(actor: Actor, input: DropInput): Promise<Omit<ShareDrop, "files"> | null | undefined> {
    if (input === undefined || input === null) return input;
    await this.deps.libraries.require(actor, input.libraryId, "write");
    await this.deps.folders.require(input.libraryId, input.folderId, "uploadDrop.folderId");
    return {
      libraryId: input.libraryId,
      folderId: input.folderId,
      maxFiles: input.maxFiles ?? null,
      maxBytes: input.maxBytes ?? null,
    };
  }

  /** Whether the owner may still add files to the drop's folder. */
  async #writable(owner: ShareOwner, drop: ShareDrop): Promise<boolean> {
    try {
      await this.deps.libraries.require(owner, drop.libraryId, "write");
      await this.deps.folders.require(drop.libraryId, drop.folderId);
      return true;
    } catch {
      return false;
    }
  }

  /** The drop as the visitor page shows it: null without one, or when its owner can no longer write there. */
  async forVisitor(share: ShareRecord, owner: ShareOwner) {
    const drop = share.drop;
    if (!drop || !(await this.#writable(owner, drop))) return null;
    return { maxFiles: drop.maxFiles, maxBytes: drop.maxBytes, files: drop.files };
  }

  /** The share an upload's owner names, when its drop takes a file now: 410 as every visit, else 403. */
  async #open(uploadOwner: string): Promise<{ share: ShareRecord; owner: ShareOwner; drop: ShareDrop }> {
    const shareId = uploadOwner.startsWith(SHARE_UPLOAD_OWNER) ? uploadOwner.slice(SHARE_UPLOAD_OWNER.length) : "";
    const share = shareId ? await this.deps.shares.byId(shareId) : undefined;
    if (!share || shareState(share, this.#now()) !== "active" || !share.createdBy) throw shareGone();
    const owner = await this.deps.owner(share.createdBy);
    if (owner?.status !== 1) throw shareGone();
    const drop = share.drop;
    if (!drop) throw new Forbidden("this share takes no uploads", "share_drop_off");
    if (!(await this.#writable(owner, drop))) {
      throw new Forbidden("this share's owner can no longer add files to its folder", "share_drop_forbidden");
    }
    if (drop.maxFiles !== null && drop.files >= drop.maxFiles) throw dropFull();
    return { share, owner, drop };
  }

  /** The uploads module's destination for visitors' uploads (their owner is `share:<id>`). */
  readonly destination: UploadDestination = {
    check: async (uploadOwner, metadata, size) => {
      const { drop } = await this.#open(uploadOwner);
      visitorNameOf(metadata);
      if (size === undefined) throw new Invalid("Upload-Length: a dropped file's size is needed before its bytes");
      if (drop.maxBytes !== null && size > drop.maxBytes) throw tooLarge(drop.maxBytes);
    },
    complete: async (uploadOwner, metadata, staged, clientName, context) => {
      const { share, owner, drop } = await this.#open(uploadOwner);
      const visitorName = visitorNameOf(metadata);
      if (drop.maxBytes !== null && (await staged.size()) > drop.maxBytes) throw tooLarge(drop.maxBytes);
      const at = this.#now().toISOString();
      const address = context?.ip ?? null;
      const userAgent = context?.userAgent ?? null;
      const stored = await this.deps.ingest.ingestFile({
        source: { staged },
        ...(context?.uploadId ? { ingestKey: uploadIngestKey(uploadOwner, context.uploadId) } : {}),
        originalName: (content) => clientName ?? `upload.${content.mime.split("/")[1] ?? "bin"}`,
        userId: owner.id,
        ip: address,
        libraryId: drop.libraryId,
        folderId: drop.folderId,
        metadata: { authors: [visitorName] },
        withinTransaction: async (trx, story) => {
          const shares = this.deps.shares.with(trx);
          if (!(await shares.countDrop(share.id, at))) throw dropFull();
          await shares.recordVisit({
            shareId: share.id,
            at,
            address,
            action: "upload",
            storyId: story.id,
            userAgent,
            visitorName,
          });
          await this.deps.audit.record(
            trx,
            { id: null, username: `share:${share.id.slice(0, 8)}`, ip: address, userAgent },
            {
              action: "share.upload",
              target: { type: "share", id: share.id, label: share.title },
              details: { storyId: story.id, libraryId: story.libraryId, visitorName, fileName: clientName },
            },
          );
        },
      });
      return { dropped: { name: stored.blob.originalName, size: stored.blob.size, mime: stored.blob.mime } };
    },
  };
}
