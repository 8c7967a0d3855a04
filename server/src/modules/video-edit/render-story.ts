/**
 * A finished render becomes a story: the create-from-URL call of the video
 * edit dialog (spec section 4, step 2). The rendered MP4 enters like any
 * upload, as a draft video story whose processing (proxy, poster, strip,
 * search index) is queued; the EDL that made it (`edit`, JSON) and the
 * sidecar captions (`captions`, WebVTT) are kept as files of its version, and
 * the poster frame the editor chose becomes its cover. The dialog then saves
 * it: a commit, or `newversion/video` onto the story it edited (the draft's
 * files move to the new version).
 */
import { Readable } from "node:stream";
import { AppError, Conflict, Invalid, NotFound } from "../../http/errors.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { BlobRow } from "../blobs/blobs.repository.js";
import type { RelationsService } from "../relations/relations.service.js";
import type { StoriesService } from "../stories/stories.service.js";
import type { Actor } from "../stories/story-types.js";
import { type Edl, edlSchema } from "./edl.schema.js";
import type { VideoEditRepository } from "./video-edit.repository.js";
import { RENDER_URL_PREFIX, type VideoEditService } from "./video-edit.service.js";
import { toWebVtt } from "./webvtt.js";

export interface RenderStoryDependencies {
  service: VideoEditService;
  repository: VideoEditRepository;
  stories: Pick<StoriesService, "createDraftFromUpload" | "addRendition" | "setCoverImage">;
  relations: Pick<RelationsService, "relate">;
  blobs: BlobStore;
  blobRow(key: string): Promise<BlobRow | undefined>;
  /** The `edit` file of a story's version, when it has one (the stories' download resolver). */
  storyFile(request: { libraryId: string; storyId: string; rendition: string; versionNo?: number }): Promise<{
    blobKey: string;
  }>;
}

/** The render a `videoUrl` names: the file URL the editor replied with (absolute or not), or the render's id. */
export function renderIdOf(videoUrl: string): string {
  let pathname = videoUrl.trim();
  try {
    pathname = decodeURIComponent(new URL(pathname, "http://dams.invalid/").pathname);
  } catch {
    throw new Invalid("videoUrl: not a URL");
  }
  const match = new RegExp(`^${RENDER_URL_PREFIX.replaceAll("/", "\\/")}([0-9a-f-]{36})(?:\\/file)?$`).exec(pathname);
  if (!match)
    throw new Invalid(
      "videoUrl: not a video of the video editor (…/video-edit/renders/{id}/file)",
      "invalid_video_url",
    );
  return match[1]!;
}

export interface CreatedStory {
  libraryId: string;
  storyId: string;
  versionNo: number;
  renderId: string;
}

export class RenderStories {
  constructor(private readonly deps: RenderStoryDependencies) {}

  /** Create-from-URL: the render becomes a draft video story in `libraryId` (once; a second call answers the same story). */
  async createStory(
    actor: Actor,
    input: {
      videoUrl: string;
      libraryId: string;
      folderId?: string | null;
      title?: string | null;
      base?: { libraryId: string; storyId: string } | null;
    },
  ): Promise<CreatedStory> {
    const renderId = renderIdOf(input.videoUrl);
    const render = await this.deps.service.requireRender(actor, renderId);
    if (render.story_id && render.story_library_id)
      return { libraryId: render.story_library_id, storyId: render.story_id, versionNo: 1, renderId };
    if (!render.output_key) throw new Conflict(`render ${renderId} has not finished`, "render_not_done");
    const blob = await this.deps.blobRow(render.output_key);
    if (!blob) throw new NotFound(`render ${renderId} has no file any more`, "render_expired");
    const edl = edlSchema.parse(render.edl);
    const title = input.title?.trim() || edl.title.trim() || "video";
    const { story } = await this.deps.stories.createDraftFromUpload(
      {
        userId: actor.id,
        libraryId: input.libraryId,
        folderId: input.folderId ?? null,
        type: "video",
        blobKey: render.output_key,
        sha256: blob.sha256,
        size: Number(blob.size),
        mime: "video/mp4",
        originalName: `${title}.mp4`,
        metadata: { title },
      },
      {
        ip: actor.ip,
        enqueueProcessing: true,
        withinTransaction: async (trx, created) => {
          const target = { libraryId: created.libraryId, storyId: created.id };
          if (!(await this.deps.repository.takeRender(renderId, target, trx)))
            throw new Conflict(`render ${renderId} was saved as another story meanwhile`, "render_taken");
          if (render.project_id) await this.deps.repository.linkProject(render.project_id, target, trx);
        },
      },
    );
    await this.#attachFiles(actor, story.id, story.libraryId, edl, render);
    await this.#relateSources(actor, input.base ?? { libraryId: story.libraryId, storyId: story.id }, edl);
    return { libraryId: story.libraryId, storyId: story.id, versionNo: story.versionNo, renderId };
  }

  /** The EDL as a file of version 1, the sidecar captions, and the poster frame as the cover. */
  async #attachFiles(
    actor: Actor,
    storyId: string,
    libraryId: string,
    edl: Edl,
    render: { poster_key: string | null; width: number | null; height: number | null },
  ): Promise<void> {
    const put = async (role: string, name: string, mime: string, text: string) => {
      const blobKey = `renditions/${storyId}/v1/${name}`;
      const { size } = await this.deps.blobs.put(blobKey, Readable.from([Buffer.from(text)]), { contentType: mime });
      await this.deps.stories.addRendition({ storyId, versionNo: 1, role, blobKey, mime, size });
    };
    await put("edit", "edit.json", "application/json", JSON.stringify(edl));
    if (edl.captions?.mode === "sidecar" && edl.captions.cues.length > 0)
      await put("captions", "captions.vtt", "text/vtt", toWebVtt(edl.captions.cues));
    if (render.poster_key && render.width && render.height) {
      const poster = await this.deps.blobRow(render.poster_key);
      if (poster)
        await this.deps.stories.setCoverImage(actor, libraryId, storyId, {
          blobKey: render.poster_key,
          mime: "image/jpeg",
          size: Number(poster.size),
          width: render.width,
          height: render.height,
        });
    }
  }

  /**
   * The clips' and photos' stories as relations (`derived`) of the video, or
   * of the story it edits (the draft disappears into its new version).
   * A relation that exists already, or a story the user may no longer read, is
   * left as it is.
   */
  async #relateSources(actor: Actor, video: { libraryId: string; storyId: string }, edl: Edl): Promise<void> {
    const seen = new Set<string>([video.storyId]);
    for (const clip of edl.clips) {
      if (clip.kind === "colour" || seen.has(clip.source.storyId)) continue;
      seen.add(clip.source.storyId);
      await this.deps.relations
        .relate(actor, video.libraryId, video.storyId, {
          relatedLibraryId: clip.source.libraryId,
          relatedStoryId: clip.source.storyId,
          type: "derived",
        })
        .catch((error: unknown) => {
          if (!(error instanceof AppError) || error.status >= 500) throw error;
        });
    }
  }

  /**
   * The caller's project that a story's version was rendered from (its
   * original is the render's MP4, also after it moved into another story as
   * its next version), so that "edit again" goes on with that project; null
   * when the video editor did not make it, or the project is gone or another
   * user's.
   */
  async storyProject(actor: Actor, libraryId: string, storyId: string, versionNo?: number) {
    const blobKey = await this.deps.storyFile({ libraryId, storyId, rendition: "original", versionNo }).then(
      (file) => file.blobKey,
      (error: unknown) => {
        // A version without an original (a draft still uploading, a composite) was not rendered here; the
        // resolver names a missing file under `rendition:`, while a story that does not exist stays a 404.
        if (error instanceof NotFound && error.message.startsWith("rendition:")) return null;
        throw error;
      },
    );
    if (blobKey === null) return null;
    const render = await this.deps.repository.findRenderByOutput(blobKey);
    if (!render?.project_id) return null;
    const project = await this.deps.repository.findProject(render.project_id);
    return project && project.owner_id === actor.id ? project : null;
  }

  /** The EDL kept on a story's version (the route checks read access), to reopen the edit. */
  async storyEdl(libraryId: string, storyId: string, versionNo?: number): Promise<Edl> {
    const { blobKey } = await this.deps.storyFile({ libraryId, storyId, rendition: "edit", versionNo });
    const chunks: Buffer[] = [];
    for await (const chunk of await this.deps.blobs.get(blobKey)) chunks.push(chunk as Buffer);
    return edlSchema.parse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
  }
}
