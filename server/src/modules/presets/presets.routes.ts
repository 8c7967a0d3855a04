import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorResponses, ok, okPage, page } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import { can, inLibrary } from "../auth/route-config.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { sendBlob } from "../blobs/send-blob.js";
import { sendZip } from "../blobs/send-zip.js";
import {
  downloadPresetBody,
  downloadPresetListQuery,
  downloadPresetSchema,
  renditionFileParams,
  renditionFileQuery,
  renditionParams,
  renditionRequestBody,
  renditionStateSchema,
  renditionZipQuery,
  usablePresetQuery,
} from "./download-presets.schema.js";
import type { DownloadPresetsService } from "./download-presets.service.js";
import {
  presetIdParams,
  presetListQuery,
  watermarkPresetBody,
  watermarkPresetSchema,
  watermarkPreviewBody,
} from "./watermarks.schema.js";
import type { WatermarksService } from "./watermarks.service.js";

const WATERMARK = "manage.setting.watermark";
const DOWNLOAD = "manage.setting.download";

/** /watermark-presets: the back area's watermark presets (spec section 2, /manage/setting/watermark). */
export function watermarkPresetsRoutes(watermarks: WatermarksService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["presets"];
    app.get(
      "/watermark-presets",
      apiRoute(
        { access: "authenticated" },
        { tags, summary: "Watermark presets, by name", querystring: presetListQuery },
        page(watermarkPresetSchema),
      ),
      async (request) => okPage(await watermarks.list(request.query), request.query),
    );
    app.post(
      "/watermark-presets",
      apiRoute(
        can(WATERMARK, "add"),
        { tags, summary: "Create a watermark preset", body: watermarkPresetBody },
        watermarkPresetSchema,
      ),
      async (request) => ok(await watermarks.create(actorOf(request), request.body)),
    );
    app.put(
      "/watermark-presets/:presetId",
      apiRoute(
        can(WATERMARK, "edit"),
        {
          tags,
          summary: "Edit a watermark preset (the download presets drawing it make their renditions again)",
          params: presetIdParams,
          body: watermarkPresetBody,
        },
        watermarkPresetSchema,
      ),
      async (request) => ok(await watermarks.update(actorOf(request), request.params.presetId, request.body)),
    );
    app.delete(
      "/watermark-presets/:presetId",
      apiRoute(
        can(WATERMARK, "delete"),
        {
          tags,
          summary: "Delete a watermark preset (409 in_use while a download preset draws it)",
          params: presetIdParams,
        },
        z.null(),
      ),
      async (request) => {
        await watermarks.remove(actorOf(request), request.params.presetId);
        return ok(null);
      },
    );
    app.get(
      "/watermark-presets/:presetId/image",
      {
        config: { access: "authenticated" },
        schema: {
          tags,
          summary: "The image of an image watermark",
          params: presetIdParams,
          response: { 200: z.any().describe("PNG or JPEG bytes"), ...apiErrorResponses },
        },
      },
      async (request, reply) => {
        const image = await watermarks.image(request.params.presetId);
        return reply.header("cache-control", "private, no-cache").type(image.type).send(image.bytes);
      },
    );
    app.post(
      "/watermark-presets/preview",
      {
        config: {
          access: "authenticated",
          notAudited: "draws a preview picture of the settings sent and stores nothing",
        },
        schema: {
          tags,
          summary: "A sample picture with the watermark as set (JPEG): the settings page's live preview",
          body: watermarkPreviewBody,
          response: { 200: z.any().describe("JPEG bytes"), ...apiErrorResponses },
        },
      },
      async (request, reply) => {
        const jpeg = await watermarks.preview(request.body);
        return reply.header("cache-control", "no-store").type("image/jpeg").send(jpeg);
      },
    );
  };
}

/** /download-presets: named renditions (/manage/setting/download), and the renditions users download with them. */
export function downloadPresetsRoutes(presets: DownloadPresetsService, blobs: BlobStore): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["presets"];
    app.get(
      "/download-presets",
      apiRoute(
        can(DOWNLOAD, "query"),
        { tags, summary: "Every download preset, by name (the settings screen)", querystring: downloadPresetListQuery },
        page(downloadPresetSchema),
      ),
      async (request) => okPage(await presets.list(request.query), request.query),
    );
    app.get(
      "/download-presets/usable",
      apiRoute(
        { access: "authenticated" },
        { tags, summary: "The enabled download presets the caller's role may use", querystring: usablePresetQuery },
        z.array(downloadPresetSchema),
      ),
      async (request) => ok(await presets.usable(actorOf(request), request.query.storyType)),
    );
    app.post(
      "/download-presets",
      apiRoute(
        can(DOWNLOAD, "add"),
        { tags, summary: "Create a download preset", body: downloadPresetBody },
        downloadPresetSchema,
      ),
      async (request) => ok(await presets.create(actorOf(request), request.body)),
    );
    app.put(
      "/download-presets/:presetId",
      apiRoute(
        can(DOWNLOAD, "edit"),
        {
          tags,
          summary: "Edit a download preset (its cached renditions are dropped)",
          params: presetIdParams,
          body: downloadPresetBody,
        },
        downloadPresetSchema,
      ),
      async (request) => ok(await presets.update(actorOf(request), request.params.presetId, request.body)),
    );
    app.delete(
      "/download-presets/:presetId",
      apiRoute(
        can(DOWNLOAD, "delete"),
        { tags, summary: "Delete a download preset and its renditions", params: presetIdParams },
        z.null(),
      ),
      async (request) => {
        await presets.remove(actorOf(request), request.params.presetId);
        return ok(null);
      },
    );
    app.post(
      "/download-presets/:presetId/renditions/:libraryId",
      apiRoute(
        inLibrary({ permission: "upload.download", action: "get" }, "read"),
        {
          tags,
          summary: "Ask for a preset's renditions of stories: their states, each new one made by a job",
          params: renditionParams,
          body: renditionRequestBody,
        },
        z.array(renditionStateSchema),
      ),
      async (request) =>
        ok(await presets.request(actorOf(request), request.params.presetId, { ...request.body, ...request.params })),
    );
    app.get(
      "/download-presets/:presetId/file/:libraryId/:storyId",
      {
        config: inLibrary({ permission: "upload.download", action: "get" }, "read"),
        schema: {
          tags,
          summary: "Download a story's finished rendition (409 rendition_not_ready until its job is done)",
          params: renditionFileParams,
          querystring: renditionFileQuery,
          response: { 200: z.any().describe("the rendition's bytes"), ...apiErrorResponses },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const { presetId, libraryId, storyId } = request.params;
        const file = await presets.file(actor, presetId, { libraryId, storyId, versionNo: request.query.versionNo });
        if (request.method !== "HEAD") await presets.recordDownloads(actor, presetId, libraryId, [{ storyId, file }]);
        return sendBlob(request, reply, blobs, {
          key: file.blobKey,
          fileName: file.fileName,
          contentType: file.contentType,
          disposition: "attachment",
          etag: file.etag,
        });
      },
    );
    app.get(
      "/download-presets/:presetId/zip/:libraryId",
      {
        config: inLibrary({ permission: "upload.download", action: "get" }, "read"),
        schema: {
          tags,
          summary: "Several stories' finished renditions as one zip (up to 100 ids, comma-separated)",
          params: renditionParams,
          querystring: renditionZipQuery,
          response: { 200: z.any().describe("a zip of the renditions"), ...apiErrorResponses },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const { presetId, libraryId } = request.params;
        const { storyIds } = request.query;
        const files = await presets.files(actor, presetId, libraryId, storyIds);
        if (request.method !== "HEAD") {
          await presets.recordDownloads(
            actor,
            presetId,
            libraryId,
            files.map((file, index) => ({ storyId: storyIds[index]!, file })),
          );
        }
        return sendZip(
          reply,
          blobs,
          files.map((file) => ({ key: file.blobKey, name: file.fileName, contentType: file.contentType })),
          `${libraryId}-${files.length}-stories.zip`,
        );
      },
    );
  };
}
