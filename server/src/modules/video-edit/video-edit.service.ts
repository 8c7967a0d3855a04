/**
 * The rules of the video editor: a user's projects (autosaved EDLs), renders
 * of an EDL (every story it reads checked for read access and pinned to its
 * version, the job enqueued with the row), their status, cancel and file.
 * Turning a render into a story is `render-story.ts`.
 */
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { Conflict, Invalid, NotFound } from "../../http/errors.js";
import type { LibraryUser } from "../access/library-access.js";
import type { JobRecord } from "../jobs/jobs.repository.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { Story } from "../stories/story-types.js";
import type { DraftEdl, Edl, SourceRef } from "./edl.schema.js";
import { edlSources, sourceKey } from "./edl.schema.js";
import type { ProjectRow, RenderRow, VideoEditRepository } from "./video-edit.repository.js";

/** What a story must be for each use in an EDL. */
const USES: Record<"clip" | "image" | "logo" | "music", readonly string[]> = {
  clip: ["video"],
  image: ["photo"],
  logo: ["photo"],
  music: ["audio", "video"],
};

export interface RenderJobs {
  /** Enqueues the render job of `renderId` in `transaction`; answers the job id. */
  enqueue(renderId: string, transaction: Kysely<Database>): Promise<string>;
  get(jobId: string): Promise<JobRecord>;
  cancel(jobId: string): Promise<unknown>;
}

export interface VideoEditDependencies {
  repository: VideoEditRepository;
  libraries: Pick<LibrariesService, "require">;
  stories: { require(libraryId: string, storyId: string): Promise<Story> };
  jobs: RenderJobs;
  transaction: <T>(work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;
  clock?: () => Date;
}

export type RenderState = "queued" | "running" | "done" | "failed" | "cancelled";

export interface RenderStatus {
  id: string;
  projectId: string | null;
  state: RenderState;
  progress: number;
  error: string | null;
  /** Where the MP4 is served once done (the editor hands it to the dialog). */
  videoUrl: string;
  method: "copy" | "encode" | null;
  reason: string | null;
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
  size: number | null;
  story: { libraryId: string; storyId: string } | null;
  createdAt: string;
}

export const RENDER_URL_PREFIX = "/dams/api/v1/video-edit/renders/";
export const renderFileUrl = (id: string) => `${RENDER_URL_PREFIX}${id}/file`;

const JOB_STATES: Record<JobRecord["state"], RenderState> = {
  queued: "queued",
  running: "running",
  succeeded: "done",
  dead: "failed",
  cancelled: "cancelled",
};

export class VideoEditService {
  constructor(private readonly deps: VideoEditDependencies) {}

  #now(): string {
    return (this.deps.clock?.() ?? new Date()).toISOString();
  }

  // Projects

  async createProject(actor: LibraryUser, input: { kind: ProjectRow["kind"]; edl: DraftEdl }): Promise<ProjectRow> {
    const now = this.#now();
    const row = {
      id: randomUUID(),
      owner_id: actor.id,
      kind: input.kind,
      title: input.edl.title,
      edl: input.edl,
      revision: 1,
      story_library_id: null,
      story_id: null,
      created_at: now,
      updated_at: now,
    };
    await this.deps.repository.insertProject(row);
    return row;
  }

  /** A project of the caller's; 404 for anyone else's (its existence does not leak). */
  async project(actor: LibraryUser, id: string): Promise<ProjectRow> {
    const row = await this.deps.repository.findProject(id);
    if (!row || row.owner_id !== actor.id) throw new NotFound(`project ${id} does not exist`, "project_not_found");
    return row;
  }

  /** An autosave: refused with 409 when the project changed since `revision` (another tab saved). */
  async saveProject(actor: LibraryUser, id: string, input: { edl: DraftEdl; revision: number }): Promise<ProjectRow> {
    await this.project(actor, id);
    const saved = await this.deps.repository.saveProject(id, input.revision, {
      edl: input.edl,
      title: input.edl.title,
      updatedAt: this.#now(),
    });
    if (!saved)
      throw new Conflict(
        `revision: the project was saved elsewhere since revision ${input.revision}; reopen it`,
        "project_revision",
      );
    return (await this.deps.repository.findProject(id))!;
  }

  async deleteProject(actor: LibraryUser, id: string): Promise<void> {
    await this.project(actor, id);
    await this.deps.repository.deleteProject(id);
  }

  projects(actor: LibraryUser, page: number, size: number) {
    return this.deps.repository.projectsOf(actor.id, page, size);
  }

  // Renders

  /**
   * Checks that the caller may read every story the EDL names and that each
   * is what its use needs, and pins each to its version (the current one when
   * the EDL names none): 404 for a story or library they cannot see, 400 for
   * the wrong type, naming the field.
   */
  async pinSources(actor: LibraryUser, edl: Edl): Promise<Edl> {
    const versions = new Map<string, number>();
    const uses = this.#uses(edl);
    for (const ref of edlSources(edl)) {
      await this.deps.libraries.require(actor, ref.libraryId, "read");
      const story = await this.deps.stories.require(ref.libraryId, ref.storyId);
      const use = uses.get(sourceKey(ref))!;
      if (!USES[use.kind].includes(story.type))
        throw new Invalid(
          `${use.field}: story ${ref.storyId} is a ${story.type}, not a ${USES[use.kind].join(" or ")}`,
        );
      if (story.status === "draft" && story.createdBy !== actor.id)
        throw new NotFound(`story ${ref.storyId} is not in library ${ref.libraryId}`);
      if (ref.versionNo !== undefined && ref.versionNo > story.versionNo)
        throw new Invalid(`${use.field}: story ${ref.storyId} has no version ${ref.versionNo}`);
      versions.set(sourceKey(ref), ref.versionNo ?? story.versionNo);
    }
    const pin = (ref: SourceRef): SourceRef => ({ ...ref, versionNo: versions.get(sourceKey(ref))! });
    return {
      ...edl,
      clips: edl.clips.map((clip) => (clip.kind === "colour" ? clip : { ...clip, source: pin(clip.source) })),
      ...(edl.logo?.source ? { logo: { ...edl.logo, source: pin(edl.logo.source) } } : {}),
      ...(edl.music ? { music: { ...edl.music, source: pin(edl.music.source) } } : {}),
    };
  }

  #uses(edl: Edl): Map<string, { kind: keyof typeof USES; field: string }> {
    const uses = new Map<string, { kind: keyof typeof USES; field: string }>();
    edl.clips.forEach((clip, index) => {
      if (clip.kind !== "colour")
        uses.set(sourceKey(clip.source), {
          kind: clip.kind === "video" ? "clip" : "image",
          field: `clips[${index}].source`,
        });
    });
    if (edl.logo?.source) uses.set(sourceKey(edl.logo.source), { kind: "logo", field: "logo.source" });
    if (edl.music) uses.set(sourceKey(edl.music.source), { kind: "music", field: "music.source" });
    return uses;
  }

  /** Starts a render of `edl` (its sources pinned); the row and its job commit together. */
  async startRender(actor: LibraryUser, input: { edl: Edl; projectId?: string | null }): Promise<RenderStatus> {
    if (input.projectId) await this.project(actor, input.projectId);
    const edl = await this.pinSources(actor, input.edl);
    const id = randomUUID();
    await this.deps.transaction(async (trx) => {
      await this.deps.repository.insertRender(
        {
          id,
          user_id: actor.id,
          project_id: input.projectId ?? null,
          edl,
          job_id: null,
          output_key: null,
          poster_key: null,
          method: null,
          reason: null,
          duration: null,
          width: null,
          height: null,
          size: null,
          story_library_id: null,
          story_id: null,
          created_at: this.#now(),
          finished_at: null,
        },
        trx,
      );
      const jobId = await this.deps.jobs.enqueue(id, trx);
      await this.deps.repository.updateRender(id, { job_id: jobId }, trx);
    });
    return this.render(actor, id);
  }

  /** A render of the caller's; 404 for anyone else's. */
  async requireRender(actor: LibraryUser, id: string): Promise<RenderRow> {
    const row = await this.deps.repository.findRender(id);
    if (!row || row.user_id !== actor.id) throw new NotFound(`render ${id} does not exist`, "render_not_found");
    return row;
  }

  async render(actor: LibraryUser, id: string): Promise<RenderStatus> {
    return this.#status(await this.requireRender(actor, id));
  }

  /** Stops the render: a queued one never runs, a running one's ffmpeg is killed and nothing is stored. */
  async cancelRender(actor: LibraryUser, id: string): Promise<RenderStatus> {
    const row = await this.requireRender(actor, id);
    if (row.job_id && !row.output_key) await this.deps.jobs.cancel(row.job_id);
    return this.#status((await this.deps.repository.findRender(id))!);
  }

  async #status(read: RenderRow): Promise<RenderStatus> {
    const job = read.job_id ? await this.deps.jobs.get(read.job_id).catch(() => undefined) : undefined;
    // The row was read before the job: a render that finished in between has a succeeded job and, in the row
    // read first, no file yet. Its job succeeds only after the file's row is committed, so read the row again.
    const row =
      job?.state === "succeeded" && read.output_key === null
        ? ((await this.deps.repository.findRender(read.id)) ?? read)
        : read;
    const done = row.output_key !== null;
    const state: RenderState = done ? "done" : job ? JOB_STATES[job.state] : "failed";
    return {
      id: row.id,
      projectId: row.project_id,
      // A job that succeeded without storing a file (its story vanished meanwhile) did not render.
      state: state === "done" && !done ? "failed" : state,
      progress: done ? 100 : Math.min(99, job?.progress ?? 0),
      error:
        state === "done" || state === "cancelled" ? null : (job?.lastError ?? (job ? null : "the render was lost")),
      videoUrl: renderFileUrl(row.id),
      method: row.method,
      reason: row.reason,
      durationSeconds: row.duration,
      width: row.width,
      height: row.height,
      size: row.size === null ? null : Number(row.size),
      story: row.story_id && row.story_library_id ? { libraryId: row.story_library_id, storyId: row.story_id } : null,
      createdAt: row.created_at,
    };
  }

  /** The finished MP4 of a render of the caller's. */
  async renderFile(actor: LibraryUser, id: string): Promise<{ blobKey: string; fileName: string }> {
    const row = await this.requireRender(actor, id);
    if (!row.output_key) throw new NotFound(`render ${id} has no file yet`, "render_not_done");
    const title = (row.edl as Edl).title?.trim() || `render-${id.slice(0, 8)}`;
    return { blobKey: row.output_key, fileName: `${title}.mp4` };
  }
}
