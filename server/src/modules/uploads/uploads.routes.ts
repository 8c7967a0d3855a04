import type { Server } from "@tus/server";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { NotFound } from "../../http/errors.js";
import { currentUser } from "../auth/auth.plugin.js";
import { type HashingFileStore, UPLOAD_ID } from "./hashing-file-store.js";
import { uploadOwners } from "./tus-server.js";
import { OWNER_METADATA_KEY } from "./uploads.service.js";

export interface UploadsRoutesDeps {
  tus: Server;
  fileStore: HashingFileStore;
}

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
export function uploadsRoutes({ tus, fileStore }: UploadsRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", (_request, _payload, done) => done(null));

    async function passToTus(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (request.currentUser) uploadOwners.set(request.raw, request.currentUser.id);
      // Headers set by earlier hooks (security headers) travel with the hijacked response.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
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
      }
    }

    /** Another user's upload is answered like one that does not exist. */
    async function requireOwnUpload(request: FastifyRequest, id: string): Promise<void> {
      const missing = () => new NotFound("upload not found", "upload_not_found");
      if (!UPLOAD_ID.test(id)) throw missing();
      const upload = await fileStore.configstore.get(id);
      if (upload?.metadata?.[OWNER_METADATA_KEY] !== currentUser(request).id) throw missing();
    }

    app.post(
      "/uploads",
      {
        config: { access: "authenticated" },
        schema: {
          tags: ["uploads"],
          summary: "Create a resumable upload (tus), optionally with its first or only bytes",
          description: PROTOCOL,
        },
      },
      passToTus,
    );
    app.route({
      method: ["HEAD", "PATCH", "DELETE"],
      url: "/uploads/:id",
      config: { access: "authenticated" },
      schema: {
        tags: ["uploads"],
        summary: "The caller's upload: HEAD its offset, PATCH bytes at Upload-Offset, DELETE it (tus)",
        description: PROTOCOL,
        params: uploadIdParams,
      },
      handler: async (request, reply) => {
        await requireOwnUpload(request, request.params.id);
        await passToTus(request, reply);
      },
    });
    app.options("/uploads", { config: { public: true }, schema: { hide: true } }, passToTus);
  };
}
