import type { Server } from "@tus/server";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { uploadBody } from "../../http/body-deadline.js";
import { API_PREFIX } from "../../http/error-handler.js";
import { NotFound } from "../../http/errors.js";
import { currentUser } from "../auth/auth.plugin.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { releaseHeldLock, uploadClients, uploadOwners } from "./tus-server.js";
import type { UploadStaging } from "./upload-staging.js";
import { OWNER_METADATA_KEY, type UploadsService } from "./uploads.service.js";
import { storeWholeUpload, wholeUploadOf } from "./whole-upload.js";

export interface UploadsRoutesDeps {
  tus: Server;
  staging: UploadStaging;
  service: Pick<
    UploadsService,
    "completeStaged" | "completedUpload" | "becomesStory" | "checkNewUpload" | "completeWhole"
  >;
  /** Where a small file sent whole in its creation POST is written at once (whole-upload.ts). */
  blobs: BlobStore;
  /** The largest file stored that way; 0: every upload goes through tus. */
  wholeMaxBytes?: number;
  /** Where the door is and who may use it; default: signed-in users at /uploads. */
  door?: UploadDoor;
  /** The PATCH size a client is told (OPTIONS `Dams-Upload-Chunk-Size`) for a proxy's body limit; 0: none. */
  chunkBytes?: number;
}

/** A way in for tus uploads: its path, who may use it, whom an upload belongs to. */
export interface UploadDoor {
  path: string;
  access: "authenticated" | "share";
  /** The upload's owner: a user's id, or `share:<id>` for a share link's visitor. */
  ownerOf(request: FastifyRequest): string;
  tag: string;
  summary: { create: string; upload: string };
  description: string;
}

const USER_DOOR: UploadDoor = {
  path: "/uploads",
  access: "authenticated",
  ownerOf: (request) => currentUser(request).id,
  tag: "uploads",
  summary: {
    create: "Create a resumable upload (tus), optionally with its first or only bytes",
    upload: "The caller's upload: HEAD its offset, PATCH bytes at Upload-Offset, DELETE it (tus)",
  },
  description: "",
};

/** Tells the web app the PATCH size to send when a proxy in front limits request bodies (DAMS_UPLOAD_CHUNK_MIB). */
export const CHUNK_SIZE_HEADER = "Dams-Upload-Chunk-Size";
/** Tells the web app the largest file to send whole in its creation POST (DAMS_UPLOAD_WHOLE_MAX_MIB; whole-upload.ts). */
export const WHOLE_SIZE_HEADER = "Dams-Upload-Whole-Size";

/**
 * How many limits' worth of whole-file POSTs a node reads into memory at once (8 × 16 MiB by default); past
 * that, more go through tus's staging, which holds no file in memory.
 */
const WHOLE_IN_MEMORY = 8;

const uploadIdParams = z.object({ id: z.string().describe("the upload id from the Location of the POST") });

const PROTOCOL = `tus 1.0 resumable upload (https://tus.io/protocols/resumable-upload), extensions creation, creation-with-upload, creation-defer-length, termination.
Upload-Metadata: \`filename\` (the original name) and any other keys, passed on to the story that is created.
On the last byte the type is checked by content (415 with a message when refused), the file is stored and hashed,
and the answer (201 to a POST with the whole body, else 200 to the last PATCH) carries \`{ code: 0, data: { upload: { blobKey, sha256, size, mime, kind, originalName }, result } }\`.`;

/**
 * Hands the raw request to the tus server: Fastify has authenticated it (the
 * auth hook runs at onRequest) but must not read the body, so this plugin's
 * content-type parser leaves the stream alone.
 */
export function uploadsRoutes({
  tus,
  staging,
  service,
  blobs,
  door = USER_DOOR,
  chunkBytes = 0,
  wholeMaxBytes = 0,
}: UploadsRoutesDeps): FastifyPluginAsyncZod {
  const description = `${PROTOCOL}${door.description ? `\n${door.description}` : ""}`;
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", (_request, _payload, done) => done(null));

    async function passToTus(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (request.currentUser || request.shareVisit) uploadOwners.set(request.raw, door.ownerOf(request));
      const agent = request.headers["user-agent"];
      uploadClients.set(request.raw, {
        ip: request.ip ?? null,
        userAgent: typeof agent === "string" ? agent.slice(0, 160) : null,
      });
      // Headers set by earlier hooks (security headers) travel with the hijacked response.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      if (request.method === "PATCH" || request.method === "POST") uploadBody(request.raw);
      if (request.method === "OPTIONS") {
        if (chunkBytes > 0) reply.raw.setHeader(CHUNK_SIZE_HEADER, String(chunkBytes));
        if (wholeMaxBytes > 0) reply.raw.setHeader(WHOLE_SIZE_HEADER, String(wholeMaxBytes));
      }
      if (request.method !== "HEAD" && request.method !== "OPTIONS")
        reply.raw.setHeader("content-type", "application/json; charset=utf-8");
      reply.hijack();
      try {
        await tus.handle(request.raw, reply.raw);
      } catch (error) {
        request.log.error({ err: error }, "the tus server failed");
        if (!reply.raw.headersSent) reply.raw.writeHead(500);
        reply.raw.end();
      } finally {
        // The lease runs out on its own if the database cannot take the release now.
        await releaseHeldLock(request.raw).catch((error: unknown) =>
          request.log.warn({ err: error }, "an upload's lock could not be released"),
        );
      }
    }

    /** Another user's upload is answered like one that does not exist. */
    async function requireOwnUpload(request: FastifyRequest, id: string): Promise<void> {
      const missing = () => new NotFound("upload not found", "upload_not_found");
      const uploadId = staging.idFromUrl(id);
      if (!uploadId) throw missing();
      const metadata = await staging.metadataOf(uploadId);
      if (metadata?.[OWNER_METADATA_KEY] !== door.ownerOf(request)) throw missing();
    }

    /** HEAD's answer for an upload whose every byte is here: offset = length. */
    function finishedHead(reply: FastifyReply, size: number): FastifyReply {
      return reply
        .code(200)
        .header("Tus-Resumable", "1.0.0")
        .header("Cache-Control", "no-store")
        .header("Upload-Offset", String(size))
        .header("Upload-Length", String(size))
        .send();
    }

    /**
     * HEAD promises "complete" (offset = length) only for an upload whose
     * completion is recorded: one still staged with all its bytes (a crash
     * came between its last byte and its story) is completed first, and one
     * completed earlier (gone from staging, its story made) still answers
     * complete, so a resuming client reports success and sends nothing again.
     */
    async function headOfFinished(request: FastifyRequest, reply: FastifyReply, id: string): Promise<boolean> {
      const uploadId = staging.idFromUrl(id);
      if (!uploadId) return false;
      const user = door.ownerOf(request);
      const metadata = await staging.metadataOf(uploadId);
      if (metadata === undefined) {
        const completed = await service.completedUpload(user, id);
        if (!completed) return false;
        finishedHead(reply, completed.size);
        return true;
      }
      if (metadata[OWNER_METADATA_KEY] !== user) return false;
      const finished = await staging.finishedUpload(uploadId);
      if (!finished) {
        // Unfinished — or completed a moment ago, its staged bytes being removed right now.
        const completed = await service.completedUpload(user, id);
        if (!completed) return false;
        finishedHead(reply, completed.size);
        return true;
      }
      const outcome = await service.completeStaged(uploadId);
      // Completed meanwhile by another request: complete only if that made its story.
      if (!outcome && !(await service.completedUpload(user, id))) return false;
      finishedHead(reply, finished.size);
      return true;
    }

    /** Bytes of whole-file POSTs being read into memory on this door now, at most WHOLE_IN_MEMORY of the limit. */
    let inMemory = 0;

    /** A small file sent whole in its creation POST, for a story: stored without tus's staging; else tus. */
    async function create(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const whole = wholeUploadOf(request.headers, wholeMaxBytes);
      const owner = whole && (request.currentUser || request.shareVisit) ? door.ownerOf(request) : undefined;
      const fits = whole !== undefined && inMemory + whole.size <= WHOLE_IN_MEMORY * wholeMaxBytes;
      if (!whole || !owner || !fits || !service.becomesStory(owner, whole.metadata)) return passToTus(request, reply);
      inMemory += whole.size;
      try {
        const tusPath = `${API_PREFIX}${door.path}`;
        await storeWholeUpload(request, reply, whole, { owner, service, staging, blobs, tusPath });
      } finally {
        inMemory -= whole.size;
      }
    }

    app.post(
      door.path,
      {
        config: { access: door.access },
        schema: { tags: [door.tag], summary: door.summary.create, description },
      },
      create,
    );
    app.route({
      method: ["HEAD", "PATCH", "DELETE"],
      url: `${door.path}/:id`,
      config: {
        access: door.access,
        notAudited:
          "tus chunks (PATCH) and dropping an unfinished upload (DELETE) change no story; the story an upload becomes is recorded when it is made",
      },
      schema: {
        tags: [door.tag],
        summary: door.summary.upload,
        description,
        params: uploadIdParams,
      },
      handler: async (request, reply) => {
        if (request.method === "HEAD" && (await headOfFinished(request, reply, request.params.id))) return reply;
        await requireOwnUpload(request, request.params.id);
        await passToTus(request, reply);
      },
    });
    app.options(door.path, { config: { public: true }, schema: { hide: true } }, passToTus);
  };
}
