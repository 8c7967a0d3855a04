import type { Db } from "../../db/database.js";
import { Invalid } from "../../http/errors.js";
import type { RolesService } from "../access/roles.service.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { IngestService } from "../ingest/ingest.service.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { StoryAccess } from "../stories/story-access.js";
import type { StoryDownloads } from "../stories/story-downloads.service.js";
import type { UploadDestination } from "../uploads/uploads.service.js";
import type { UsersService } from "../users/users.service.js";
import { DiskRepository } from "./disk.repository.js";
import { diskRoutes } from "./disk.routes.js";
import { DiskService } from "./disk.service.js";
import { DiskAccess } from "./disk-access.js";
import { DiskSharesService } from "./disk-shares.service.js";
import { DiskTransferService } from "./disk-transfer.service.js";

export interface DiskModule {
  disk: DiskService;
  shares: DiskSharesService;
  transfer: DiskTransferService;
  /** The tus uploads' `target=disk`: a finished upload becomes a disk file (Upload-Metadata `diskFolderId`, `filename`). */
  uploadDestination: UploadDestination;
  routes: ReturnType<typeof diskRoutes>;
}

export interface DiskModuleDependencies {
  db: Db;
  audit: AuditLog;
  blobs: BlobStore;
  users: Pick<UsersService, "enabledUser" | "enabledUserByName" | "accounts">;
  roles: Pick<RolesService, "get">;
  ingest: Pick<IngestService, "ingestFile">;
  libraries: Pick<LibrariesService, "require">;
  storyAccess: Pick<StoryAccess, "forRead">;
  downloads: Pick<StoryDownloads, "resolve">;
  workDir: string;
  onBlobDeleteError?: (key: string, error: unknown) => void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Builds the network disk once (app.ts): its services, its upload destination and its routes. */
export function buildDisk(deps: DiskModuleDependencies): DiskModule {
  const nodes = new DiskRepository(deps.db);
  const disk = new DiskService({
    nodes,
    access: new DiskAccess(nodes),
    blobs: deps.blobs,
    audit: deps.audit,
    onBlobDeleteError: deps.onBlobDeleteError,
  });
  const shares = new DiskSharesService({ nodes, disk, users: deps.users, roles: deps.roles, audit: deps.audit });
  const transfer = new DiskTransferService({
    disk,
    blobs: deps.blobs,
    ingest: deps.ingest,
    libraries: deps.libraries,
    storyAccess: deps.storyAccess,
    downloads: deps.downloads,
    audit: deps.audit,
    workDir: deps.workDir,
  });
  /** The uploader, acting through tus (no request address at the last byte). */
  const actorFor = async (userId: string): Promise<Actor> => {
    const user = await deps.users.enabledUser(userId);
    if (!user) throw new Invalid("the uploading account is disabled", "account_disabled");
    return { ...user, ip: null };
  };
  const folderOf = (metadata: Record<string, string>): string | null => {
    const folderId = metadata.diskFolderId;
    if (!folderId) return null;
    if (!UUID.test(folderId)) throw new Invalid("Upload-Metadata diskFolderId: not a folder id");
    return folderId;
  };
  const uploadDestination: UploadDestination = {
    async check(userId, metadata, size) {
      const actor = await actorFor(userId);
      const folder = await disk.writableFolder(actor, folderOf(metadata));
      if (size !== undefined) await disk.checkQuota(folder.ownerId, size);
    },
    async complete(userId, metadata, staged, clientName) {
      const actor = await actorFor(userId);
      const { node } = await disk.storeFile(
        actor,
        folderOf(metadata),
        { name: clientName ?? "upload", bytes: staged },
        "rename",
      );
      return { file: node };
    },
  };
  return {
    disk,
    shares,
    transfer,
    uploadDestination,
    routes: diskRoutes({
      disk,
      shares,
      transfer,
      blobs: deps.blobs,
      quotaUsers: async (keyword, size) =>
        (await deps.users.accounts({ keyword, page: 0, size })).users.map((user) => ({
          id: user.id,
          username: user.username,
          name: user.name ?? null,
        })),
    }),
  };
}
