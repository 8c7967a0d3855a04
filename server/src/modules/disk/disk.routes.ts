import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorResponses, errorEnvelope, ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { sendBlob } from "../blobs/send-blob.js";
import {
  contentQuery,
  diskListQuery,
  diskListSchema,
  diskNodeSchema,
  diskShareSchema,
  diskSharesQuery,
  diskUsageSchema,
  folderBody,
  fromStoryBody,
  nodeIdParams,
  nodePatchBody,
  quotaBody,
  quotaUserSchema,
  quotaUsersQuery,
  sendToLibraryBody,
  sentFileSchema,
  shareBody,
  sharedWithMeSchema,
  shareIdParams,
  userIdParams,
} from "./disk.schema.js";
import type { DiskService } from "./disk.service.js";
import type { DiskSharesService } from "./disk-shares.service.js";
import type { DiskTransferService } from "./disk-transfer.service.js";

export interface DiskRoutesDeps {
  disk: DiskService;
  shares: DiskSharesService;
  transfer: DiskTransferService;
  blobs: BlobStore;
  /** Users by user name or name, for the storage settings' quota picker (the users module's accounts). */
  quotaUsers: (keyword: string | undefined, size: number) => Promise<z.output<typeof quotaUserSchema>[]>;
}

const tags = ["disk"];
const SIGNED_IN = { access: "authenticated" } as const;
const SHARING = { access: { permission: "share.netdisk", action: "add" } } as const;
/** Users' quotas are set on the storage settings screen (/manage/storage/setting), by its permission. */
const QUOTAS_QUERY = { access: { permission: "manage.storage.setting", action: "query" } } as const;
const QUOTAS_EDIT = { access: { permission: "manage.storage.setting", action: "edit" } } as const;

/** /disk: the caller's network disk, what is shared with them, and the administrator's quotas (docs/disk.md). */
export function diskRoutes({ disk, shares, transfer, blobs, quotaUsers }: DiskRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/disk/quota-users",
      apiRoute(
        QUOTAS_QUERY,
        {
          tags,
          summary:
            "Users whose disk quota may be set (the storage settings' picker): id, user name and name, by user name",
          querystring: quotaUsersQuery,
        },
        z.array(quotaUserSchema),
      ),
      async (request) => ok(await quotaUsers(request.query.keyword || undefined, request.query.size)),
    );
    app.get(
      "/disk/usage",
      apiRoute(SIGNED_IN, { tags, summary: "The caller's disk usage and quota" }, diskUsageSchema),
      async (request) => ok(await disk.usage(actorOf(request).id)),
    );
    app.get(
      "/disk/quotas/:userId",
      apiRoute(QUOTAS_QUERY, { tags, summary: "A user's disk usage and quota", params: userIdParams }, diskUsageSchema),
      async (request) => ok(await disk.usage(request.params.userId)),
    );
    app.put(
      "/disk/quotas/:userId",
      apiRoute(
        QUOTAS_EDIT,
        { tags, summary: "Set a user's disk quota", params: userIdParams, body: quotaBody },
        diskUsageSchema,
      ),
      async (request) => ok(await disk.setQuota(actorOf(request), request.params.userId, request.body.quotaBytes)),
    );
    app.get(
      "/disk/nodes",
      apiRoute(
        SIGNED_IN,
        {
          tags,
          summary: "A folder's contents: the caller's root, one of their folders, or a folder shared with them",
          querystring: diskListQuery,
        },
        diskListSchema,
      ),
      async (request) => ok(await disk.list(actorOf(request), request.query.folderId ?? null)),
    );
    app.post(
      "/disk/folders",
      apiRoute(
        SIGNED_IN,
        { tags, summary: "Create a folder (409 when the name is taken)", body: folderBody },
        diskNodeSchema,
      ),
      async (request) => ok(await disk.createFolder(actorOf(request), request.body)),
    );
    app.patch(
      "/disk/nodes/:id",
      apiRoute(
        SIGNED_IN,
        {
          tags,
          summary: "Rename an item and/or move it into another folder of the same disk (edit access)",
          params: nodeIdParams,
          body: nodePatchBody,
        },
        diskNodeSchema,
      ),
      async (request) => ok(await disk.update(actorOf(request), request.params.id, request.body)),
    );
    app.delete(
      "/disk/nodes/:id",
      apiRoute(
        SIGNED_IN,
        {
          tags,
          summary: "Move an item (and what is in it) to its owner's trash, kept 30 days (edit access)",
          params: nodeIdParams,
        },
        z.null(),
      ),
      async (request) => {
        await disk.trash(actorOf(request), request.params.id);
        return ok(null);
      },
    );
    app.get(
      "/disk/nodes/:id/content",
      {
        config: SIGNED_IN,
        schema: {
          tags,
          summary:
            "A file's bytes: a preview (inline, view access; passive media only) or a download (download access)",
          params: nodeIdParams,
          querystring: contentQuery,
          response: { 200: z.any(), 206: z.any(), 416: errorEnvelope, ...apiErrorResponses },
        },
      },
      async (request, reply) => {
        const inline = request.query.disposition === "inline";
        const file = await disk.open(actorOf(request), request.params.id, inline ? "preview" : "download");
        return sendBlob(request, reply, blobs, { ...file, disposition: inline ? "inline" : "attachment" });
      },
    );
    app.get(
      "/disk/trash",
      apiRoute(SIGNED_IN, { tags, summary: "The caller's trash, newest first" }, z.array(diskNodeSchema)),
      async (request) => ok(await disk.listTrash(actorOf(request))),
    );
    app.post(
      "/disk/trash/:id/restore",
      apiRoute(
        SIGNED_IN,
        {
          tags,
          summary: "Restore an item from the trash (into the root when its folder is gone; a taken name is numbered)",
          params: nodeIdParams,
        },
        diskNodeSchema,
      ),
      async (request) => ok(await disk.restore(actorOf(request), request.params.id)),
    );
    app.delete(
      "/disk/trash/:id",
      apiRoute(SIGNED_IN, { tags, summary: "Delete an item of the trash for good", params: nodeIdParams }, z.null()),
      async (request) => {
        await disk.purge(actorOf(request), request.params.id);
        return ok(null);
      },
    );
    app.post(
      "/disk/send-to-library",
      apiRoute(
        SIGNED_IN,
        {
          tags,
          summary:
            "Files of the disk become draft stories in a library and folder (the ingest command); the disk keeps them",
          body: sendToLibraryBody,
        },
        z.array(sentFileSchema),
      ),
      async (request) => ok(await transfer.sendToLibrary(actorOf(request), request.body)),
    );
    app.post(
      "/disk/from-story",
      apiRoute(
        SIGNED_IN,
        { tags, summary: "Save a story's original to the caller's disk", body: fromStoryBody },
        diskNodeSchema,
      ),
      async (request) => ok(await transfer.saveFromStory(actorOf(request), request.body)),
    );
    app.get(
      "/disk/shares",
      apiRoute(
        SIGNED_IN,
        {
          tags,
          summary: "What the caller shared inside the newsroom (of one item, or all)",
          querystring: diskSharesQuery,
        },
        z.array(diskShareSchema),
      ),
      async (request) => ok(await shares.mine(actorOf(request), request.query.nodeId)),
    );
    app.post(
      "/disk/nodes/:id/shares",
      apiRoute(
        SHARING,
        {
          tags,
          summary: "Share one of the caller's items with a colleague, a role or everyone (again: the level changes)",
          params: nodeIdParams,
          body: shareBody,
        },
        diskShareSchema,
      ),
      async (request) => ok(await shares.share(actorOf(request), request.params.id, request.body)),
    );
    app.delete(
      "/disk/shares/:id",
      apiRoute(SIGNED_IN, { tags, summary: "Revoke one of the caller's shares", params: shareIdParams }, z.null()),
      async (request) => {
        await shares.revoke(actorOf(request), request.params.id);
        return ok(null);
      },
    );
    app.get(
      "/disk/shared-with-me",
      apiRoute(
        SIGNED_IN,
        { tags, summary: "Items colleagues shared with the caller (by name, role or with everyone)" },
        z.array(sharedWithMeSchema),
      ),
      async (request) => ok(await shares.sharedWithMe(actorOf(request))),
    );
  };
}
