import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { crudRoutes } from "../../http/crud-routes.js";
import { apiErrorResponses, ok } from "../../http/envelope.js";
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
    crudRoutes(app, {
      tags,
      path: "/watermark-presets",
      itemPath: "/watermark-presets/:presetId",
      item: watermarkPresetSchema,
      body: watermarkPresetBody,
      params: presetIdParams,
      list: {
        config: { access: "authenticated" },
        summary: "Watermark presets, by name",
        querystring: presetListQuery,
        run: (query) => watermarks.list(query),
      },
      create: {
        config: can(WATERMARK, "add"),
        summary: "Create a watermark preset",
        run: (body, request) => watermarks.create(actorOf(request), body),
      },
      update: {
        config: can(WATERMARK, "edit"),
        summary: "Edit a watermark preset (the download presets drawing it make their renditions again)",
        run: ({ presetId }, body, request) => watermarks.update(actorOf(request), presetId, body),
      },
      remove: {
        config: can(WATERMARK, "delete"),
        summary: "Delete a watermark preset (409 in_use while a download preset draws it)",
        run: ({ presetId }, request) => watermarks.remove(actorOf(request), presetId),
      },
    });
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
    crudRoutes(app, {
      tags,
      path: "/download-presets",
      itemPath: "/download-presets/:presetId",
      item: downloadPresetSchema,
      body: downloadPresetBody,
      params: presetIdParams,
      list: {
        config: can(DOWNLOAD, "query"),
        summary: "Every download preset, by name (the settings screen)",
        querystring: downloadPresetListQuery,
        run: (query) => presets.list(query),
      },
      create: {
        config: can(DOWNLOAD, "add"),
        summary: "Create a download preset",
        run: (body, request) => presets.create(actorOf(request), body),
      },
      collectionExtras: () =>
        app.get(
          "/download-presets/usable",
          apiRoute(
            { access: "authenticated" },
            { tags, summary: "The enabled download presets the caller's role may use", querystring: usablePresetQuery },
            z.array(downloadPresetSchema),
          ),
          async (request) => ok(await presets.usable(actorOf(request), request.query.storyType)),
        ),
      update: {
        config: can(DOWNLOAD, "edit"),
        summary: "Edit a download preset (its cached renditions are dropped)",
        run: ({ presetId }, body, request) => presets.update(actorOf(request), presetId, body),
      },
      remove: {
        config: can(DOWNLOAD, "delete"),
        summary: "Delete a download preset and its renditions",
        run: ({ presetId }, request) => presets.remove(actorOf(request), presetId),
      },
    });
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
