import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { commonErrorResponses, envelope, errorEnvelope, ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import { can } from "../auth/route-config.js";
import { storySchema } from "../stories/stories.schema.js";
import {
  base64ImageBody,
  coverBody,
  coverResultSchema,
  storyRefBody,
  transcodeTaskSchema,
  videoTransTasksQuery,
} from "./media-uploads.schema.js";
import type { MediaUploadsService } from "./media-uploads.service.js";

const errors = {
  ...commonErrorResponses,
  401: errorEnvelope,
  403: errorEnvelope,
  404: errorEnvelope,
  409: errorEnvelope,
  413: errorEnvelope,
  415: errorEnvelope,
  422: errorEnvelope,
};

/** Editing a story: the permission of the stories module's edit routes. */
const EDIT = { permission: "story.list", action: "edit" } as const;

/** The media calls of spec section 7: image editor save, cover, re-transcode, transcode progress. */
export function mediaUploadsRoutes(
  service: MediaUploadsService,
  limits: { imageBodyLimit: number },
): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      "/upload-images/base64image",
      {
        bodyLimit: limits.imageBodyLimit,
        config: { access: EDIT },
        schema: {
          tags: ["media"],
          summary: "The image editor's save: the edited image becomes a new version of the photo story",
          description:
            "Write access to the library. The image (JPEG, PNG or WebP by content; at most DAMS_IMAGE_BODY_LIMIT and the pixel limit) is stored and becomes version n+1 with properties.lastVersion = the previous oid; earlier versions keep their files. Media processing of the new version is queued. Answers the story.",
          body: base64ImageBody,
          response: { 200: envelope(storySchema), ...errors },
        },
      },
      async (request) => ok(await service.saveEditedImage(actorOf(request), request.body)),
    );
    app.post(
      "/upload-images/cover",
      {
        bodyLimit: limits.imageBodyLimit,
        config: { access: EDIT },
        schema: {
          tags: ["media"],
          summary: "The cover cropper's confirm: store a cover image and set it on a video, audio or composite story",
          description:
            "Write access to the library. The image must have the crop box's `ratio` within a pixel of rounding (400 `wrong_ratio` otherwise). With `storyId` it becomes the story's cover (the `cover` file of its current version) and `coverUrl` serves it. Without `storyId` (a story not created yet) it is only stored: send the answered `coverKey` with `storyId` (and without `base64String`) to this same call later to attach it; only the user who stored a cover can attach it.",
          body: coverBody,
          response: { 200: envelope(coverResultSchema), ...errors },
        },
      },
      async (request) => ok(await service.saveCover(actorOf(request), request.body)),
    );
    app.post(
      "/upload-files/re-transcode",
      apiRoute(
        { access: EDIT },
        {
          tags: ["media"],
          summary: "Run media processing (renditions, proxy, metadata) of the story's current version again",
          description:
            "Write access to the library. 409 `processing_active` while a processing job for the story is queued or running. Answers the new task; poll GET /video-trans-tasks for its progress.",
          body: storyRefBody,
        },
        transcodeTaskSchema,
        errors,
      ),
      async (request) => ok(await service.reTranscode(actorOf(request), request.body)),
    );
    app.get(
      "/video-trans-tasks",
      apiRoute(
        can("search", "get"),
        {
          tags: ["media"],
          summary: "Progress of the media processing (transcode) of a story's current version",
          description:
            "Read access to the library. The video editor polls until `progress` is 100 (`state` done); stop polling as well when `state` is failed (see `error`) or cancelled. A failed attempt that will be retried shows as queued with its `error`.",
          querystring: videoTransTasksQuery,
        },
        transcodeTaskSchema,
        errors,
      ),
      async (request) => ok(await service.transcodeTask(actorOf(request), request.query)),
    );
  };
}
