import { randomUUID } from "node:crypto";
import { Conflict, Forbidden, Invalid, NotFound } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { EmbedLevel, OutgoingCopies } from "../outgoing/outgoing-copies.js";
import { lowerLevel } from "../outgoing/outgoing-copies.js";
import type {
  DownloadPresetInput,
  DownloadPresetView,
  RenditionSettings,
  RenditionState,
} from "./download-presets.schema.js";
import type { DownloadPresetRow, PresetsRepository, RenditionRow } from "./presets.repository.js";
import type { RenditionMaker } from "./rendition-maker.js";
import type { StoryFiles } from "./story-files.js";

export interface DownloadPresetsDependencies {
  presets: PresetsRepository;
  stories: StoryFiles;
  maker: RenditionMaker;
  audit: AuditLog;
  /** Deletes blobs of renditions no longer valid, after the commit that dropped them. */
  deleteBlobs: (keys: string[]) => void;
  /** Whether a watermark preset exists. */
  watermarkExists: (id: string) => Promise<boolean>;
  /** Embeds the story's current metadata into the rendition on its way out (the outgoing module). */
  outgoing: Pick<OutgoingCopies, "file">;
  /** Size of a blob (an embedded copy's). */
  blobSize: (key: string) => Promise<number | undefined>;
  /** The properties a user may not see (field-level access): not embedded in what they download. */
  hiddenFor?: (user: Pick<Actor, "admin" | "roleId">) => Promise<ReadonlySet<string>>;
  clock?: () => Date;
}

/** How a rendition leaves: how much of the story's metadata it may carry at most, and whether location goes. */
export interface OutgoingOptions {
  level?: EmbedLevel;
  stripPrivate?: boolean;
  /** The properties the receiver may not see (field-level access): left out of the file. */
  hidden?: ReadonlySet<string>;
  signal?: AbortSignal;
}

/** What a preset's metadata setting lets a rendition carry of the story's metadata. */
export const PRESET_EMBED_LEVEL: Record<RenditionSettings["metadata"], EmbedLevel> = {
  all: "all",
  rights: "basic",
  none: "none",
};

/** A story version of a library, as a preset's rendition is asked for. */
export interface StoryRef {
  libraryId: string;
  storyId: string;
  /** Default: the story's current version. */
  versionNo?: number;
}

/** A finished rendition: the blob and how to present it. */
export interface RenditionFile {
  blobKey: string;
  contentType: string;
  fileName: string;
  size: number;
  /** The embedded copy's validator (one per story revision). */
  etag?: string;
}

export function downloadPresetView(row: DownloadPresetRow): DownloadPresetView {
  return {
    id: row.id,
    name: row.name,
    storyType: row.story_type,
    settings: row.settings as RenditionSettings,
    watermarkPresetId: row.watermark_preset_id,
    roleIds: row.role_ids,
    enabled: row.enabled,
    revision: row.revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function renditionState(row: RenditionRow): RenditionState {
  return {
    storyId: row.story_id,
    versionNo: row.version_no,
    state: row.state,
    mime: row.mime,
    size: row.size,
    width: row.width,
    height: row.height,
    error: row.error,
  };
}

/** Whether a user may use a preset: administrators always; others when it is enabled and names their role or none. */
export function mayUse(actor: Pick<Actor, "admin" | "roleId">, preset: DownloadPresetRow): boolean {
  if (actor.admin) return true;
  if (!preset.enabled) return false;
  return preset.role_ids.length === 0 || (actor.roleId !== null && preset.role_ids.includes(actor.roleId));
}

/**
 * Download presets (docs/presets.md): named renditions, made by the
 * "presets.render" job on first request and cached per (story version,
 * preset) until the preset (or its watermark) changes. Other modules use
 * `rendition(ref, presetId)` (channels: `ensureRendered`).
 */
export class DownloadPresetsService {
  constructor(private readonly deps: DownloadPresetsDependencies) {}

  #now(): string {
    return (this.deps.clock?.() ?? new Date()).toISOString();
  }

  async list(query: { keyword?: string; page: number; size: number }) {
    const { rows, total } = await this.deps.presets.listDownloads(query);
    return { content: rows.map(downloadPresetView), total };
  }

  /** The presets the caller may use, of a story type or all. */
  async usable(actor: Actor, storyType?: string): Promise<DownloadPresetView[]> {
    const rows = await this.deps.presets.enabledDownloads(storyType);
    return rows.filter((row) => mayUse(actor, row)).map(downloadPresetView);
  }

  /** The story type a preset renders, or undefined when there is no such preset (a rule's step and a channel name one per type). */
  async storyTypeOf(id: string): Promise<string | undefined> {
    return (await this.deps.presets.findDownload(id))?.story_type;
  }

  async #find(id: string): Promise<DownloadPresetRow> {
    const row = await this.deps.presets.findDownload(id);
    if (!row) throw new NotFound(`presetId: no download preset ${id}`);
    return row;
  }

  async #check(input: DownloadPresetInput): Promise<void> {
    if (input.watermarkPresetId && !(await this.deps.watermarkExists(input.watermarkPresetId))) {
      throw new Invalid(`watermarkPresetId: no watermark preset ${input.watermarkPresetId}`);
    }
  }

  #row(input: DownloadPresetInput, base: Pick<DownloadPresetRow, "id" | "revision" | "created_by" | "created_at">) {
    return {
      ...base,
      name: input.name,
      story_type: input.storyType,
      settings: input.settings,
      watermark_preset_id: input.watermarkPresetId,
      role_ids: [...new Set(input.roleIds)],
      enabled: input.enabled,
      updated_at: this.#now(),
    } satisfies DownloadPresetRow;
  }

  async create(actor: Actor, input: DownloadPresetInput): Promise<DownloadPresetView> {
    await this.#check(input);
    const now = this.#now();
    const row = this.#row(input, { id: randomUUID(), revision: 1, created_by: actor.username, created_at: now });
    await this.deps.presets.transaction(async (trx, presets) => {
      if (await presets.downloadNamed(input.name))
        throw new Conflict(`name: a download preset "${input.name}" exists`).withMessageCode("presets.duplicateName", {
          name: input.name,
        });
      await presets.insertDownload(row);
      await this.deps.audit.record(trx, actor, {
        action: "download-preset.create",
        target: { type: "download-preset", id: row.id, label: row.name },
        after: downloadPresetView(row),
      });
    });
    return downloadPresetView(row);
  }

  /** Saves the preset at a new revision; its cached renditions go. */
  async update(actor: Actor, id: string, input: DownloadPresetInput): Promise<DownloadPresetView> {
    await this.#check(input);
    const { row, keys } = await this.deps.presets.transaction(async (trx, presets) => {
      const before = await presets.findDownload(id);
      if (!before) throw new NotFound(`presetId: no download preset ${id}`);
      const named = await presets.downloadNamed(input.name);
      if (named && named.id !== id)
        throw new Conflict(`name: a download preset "${input.name}" exists`).withMessageCode("presets.duplicateName", {
          name: input.name,
        });
      const row = this.#row(input, { ...before, revision: before.revision + 1 });
      await presets.updateDownload(row);
      const keys = await presets.deleteRenditionsOf([id]);
      await this.deps.audit.record(trx, actor, {
        action: "download-preset.edit",
        target: { type: "download-preset", id, label: row.name },
        before: downloadPresetView(before),
        after: downloadPresetView(row),
      });
      return { row, keys };
    });
    this.deps.deleteBlobs(keys);
    return downloadPresetView(row);
  }

  async remove(actor: Actor, id: string): Promise<void> {
    const keys = await this.deps.presets.transaction(async (trx, presets) => {
      const row = await presets.findDownload(id);
      if (!row) throw new NotFound(`presetId: no download preset ${id}`);
      const keys = await presets.deleteRenditionsOf([id]);
      await presets.deleteDownload(id);
      await this.deps.audit.record(trx, actor, {
        action: "download-preset.delete",
        target: { type: "download-preset", id, label: row.name },
        before: downloadPresetView(row),
      });
      return keys;
    });
    this.deps.deleteBlobs(keys);
  }

  /** A preset the caller may use on stories of its type (403 otherwise, 404 when there is none). */
  async #usableBy(actor: Actor, presetId: string): Promise<DownloadPresetRow> {
    const preset = await this.#find(presetId);
    if (!mayUse(actor, preset))
      throw new Forbidden(`presetId: the download preset "${preset.name}" is not yours to use`);
    return preset;
  }

  /**
   * The state of a preset's renditions of stories, each queued (its job
   * enqueued) when it was never asked for or failed before.
   */
  async request(
    actor: Actor,
    presetId: string,
    input: { libraryId: string; storyIds: string[]; versionNo?: number },
  ): Promise<RenditionState[]> {
    const preset = await this.#usableBy(actor, presetId);
    if (input.versionNo !== undefined && input.storyIds.length > 1) {
      throw new Invalid("versionNo: a version applies to one story only");
    }
    const states: RenditionState[] = [];
    for (const storyId of input.storyIds) {
      states.push(await this.rendition(preset, { libraryId: input.libraryId, storyId, versionNo: input.versionNo }));
    }
    return states;
  }

  /**
   * The rendition of a story version by a preset, for other modules (share
   * links, channels): its state, its job enqueued when it is new (or failed
   * and asked for again). Checks that the story exists in the library and
   * has the preset's type; who may use it is the caller's business.
   */
  async rendition(presetOrId: DownloadPresetRow | string, ref: StoryRef): Promise<RenditionState> {
    const preset = typeof presetOrId === "string" ? await this.#find(presetOrId) : presetOrId;
    const story = await this.deps.stories.story(ref.libraryId, ref.storyId);
    if (story.type !== preset.story_type) {
      throw new Invalid(
        `presetId: the preset "${preset.name}" makes ${preset.story_type} renditions, the story is a ${story.type}`,
      );
    }
    const versionNo = ref.versionNo ?? story.versionNo;
    const [existing] = (await this.deps.presets.renditionsOf(preset.id, [story.id])).filter(
      (row) => row.version_no === versionNo,
    );
    if (existing && existing.state !== "failed") return renditionState(existing);
    if (existing) await this.deps.presets.deleteRendition(existing.id);
    const now = this.#now();
    const row: RenditionRow = {
      id: randomUUID(),
      preset_id: preset.id,
      revision: preset.revision,
      library_id: story.libraryId,
      story_id: story.id,
      version_no: versionNo,
      state: "queued",
      blob_key: null,
      mime: null,
      size: null,
      width: null,
      height: null,
      error: null,
      created_at: now,
      updated_at: now,
    };
    await this.deps.presets.transaction(async (trx, presets) => {
      if (await presets.insertRendition(row)) await this.deps.maker.enqueue(row, trx);
    });
    const [current] = (await this.deps.presets.renditionsOf(preset.id, [story.id])).filter(
      (candidate) => candidate.version_no === versionNo,
    );
    return renditionState(current ?? row);
  }

  /** The finished rendition of a story for the caller: 409 not_ready while it is being made. */
  async file(actor: Actor, presetId: string, ref: StoryRef): Promise<RenditionFile> {
    const preset = await this.#usableBy(actor, presetId);
    return this.#file(preset, ref, { hidden: await this.deps.hiddenFor?.(actor) });
  }

  async #file(preset: DownloadPresetRow, ref: StoryRef, outgoing: OutgoingOptions = {}): Promise<RenditionFile> {
    const story = await this.deps.stories.story(ref.libraryId, ref.storyId);
    const versionNo = ref.versionNo ?? story.versionNo;
    const [row] = (await this.deps.presets.renditionsOf(preset.id, [story.id])).filter(
      (candidate) => candidate.version_no === versionNo,
    );
    if (row?.state !== "done" || !row.blob_key || !row.mime) {
      const state = row?.state ?? "not requested";
      throw new Conflict(
        `storyId: the "${preset.name}" rendition of story ${story.id} is ${state}${row?.error ? `: ${row.error}` : ""}`,
        "rendition_not_ready",
      );
    }
    const stored = {
      blobKey: row.blob_key,
      contentType: row.mime,
      fileName: this.deps.stories.fileName(story, preset.name, row.mime),
    };
    const metadata = (preset.settings as RenditionSettings).metadata;
    const level = lowerLevel(PRESET_EMBED_LEVEL[metadata] ?? "basic", outgoing.level ?? "all");
    const file = await this.deps.outgoing.file(stored, story, {
      level,
      stripPrivate: outgoing.stripPrivate,
      hidden: outgoing.hidden,
      signal: outgoing.signal,
    });
    const size = file.blobKey === row.blob_key ? row.size : await this.deps.blobSize(file.blobKey);
    return { ...file, size: size ?? 0 };
  }

  /** The finished renditions of several stories, for a zip (409 while any is not ready). */
  async files(actor: Actor, presetId: string, libraryId: string, storyIds: string[]): Promise<RenditionFile[]> {
    const preset = await this.#usableBy(actor, presetId);
    const hidden = await this.deps.hiddenFor?.(actor);
    const files: RenditionFile[] = [];
    for (const storyId of storyIds) files.push(await this.#file(preset, { libraryId, storyId }, { hidden }));
    return files;
  }

  /** Records the download of renditions as story actions and in the operation log. */
  async recordDownloads(
    actor: Actor,
    presetId: string,
    libraryId: string,
    files: { storyId: string; file: RenditionFile }[],
  ) {
    await this.deps.stories.recordDownloads(actor, presetId, libraryId, files);
  }

  /**
   * For a caller that needs the file now (a channel's delivery job): the
   * finished rendition, made in the caller's process when it is missing.
   */
  async ensureRendered(
    presetId: string,
    ref: StoryRef,
    signal?: AbortSignal,
    outgoing: OutgoingOptions = {},
  ): Promise<RenditionFile> {
    const preset = await this.#find(presetId);
    const state = await this.rendition(preset, ref);
    if (state.state !== "done") {
      const [row] = (await this.deps.presets.renditionsOf(preset.id, [ref.storyId])).filter(
        (candidate) => candidate.version_no === state.versionNo,
      );
      if (row) await this.deps.maker.make(row.id, signal);
    }
    return this.#file(preset, { ...ref, versionNo: state.versionNo }, { ...outgoing, signal });
  }
}
