import { randomUUID } from "node:crypto";
import { Conflict, Invalid, NotFound } from "../../http/errors.js";
import type { MediaTools, WatermarkSpec } from "../../media/index.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { PresetsRepository, WatermarkPresetRow } from "./presets.repository.js";
import type { WatermarkPresetInput, WatermarkPresetView, WatermarkSettings } from "./watermarks.schema.js";

export interface WatermarksDependencies {
  presets: PresetsRepository;
  media: MediaTools;
  audit: AuditLog;
  /** Called after a commit with the keys of renditions no longer valid (the download presets service deletes them). */
  onRenditionsDropped: (keys: string[]) => void;
  clock?: () => Date;
}

interface CheckedImage {
  data: string;
  type: string;
  width: number;
  height: number;
}

/** The mark a watermark's settings and image draw; null for an image mark without an image. */
export function watermarkSpec(settings: WatermarkSettings, image: Buffer | null): WatermarkSpec | null {
  const placement = { position: settings.position, opacity: settings.opacity, x: settings.x, y: settings.y };
  if (settings.type === 1) {
    return image ? { ...placement, mark: { type: "image", image, sizePercent: settings.sizePercent } } : null;
  }
  return {
    ...placement,
    mark: {
      type: "text",
      text: settings.text,
      textWidth: settings.textWidth,
      fontSize: settings.fontSize,
      fontFamily: settings.fontFamily,
      color: settings.color,
      background: settings.background,
    },
  };
}

export function watermarkView(row: WatermarkPresetRow): WatermarkPresetView {
  return {
    id: row.id,
    name: row.name,
    settings: row.settings as WatermarkSettings,
    image:
      row.image_type && row.image_width && row.image_height
        ? { type: row.image_type, width: row.image_width, height: row.image_height }
        : null,
    revision: row.revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Watermark presets (spec section 3's settings, named): CRUD, the mark they draw, a preview. */
export class WatermarksService {
  constructor(private readonly deps: WatermarksDependencies) {}

  #now(): string {
    return (this.deps.clock?.() ?? new Date()).toISOString();
  }

  async list(query: { keyword?: string; page: number; size: number }) {
    const { rows, total } = await this.deps.presets.listWatermarks(query);
    return { content: rows.map(watermarkView), total };
  }

  async get(id: string): Promise<WatermarkPresetView> {
    return watermarkView(await this.#find(id));
  }

  async #find(id: string): Promise<WatermarkPresetRow> {
    const row = await this.deps.presets.findWatermark(id);
    if (!row) throw new NotFound(`presetId: no watermark preset ${id}`);
    return row;
  }

  /** The image of an image mark: its bytes and type (404 when it has none). */
  async image(id: string): Promise<{ bytes: Buffer; type: string }> {
    const row = await this.#find(id);
    if (!row.image_data || !row.image_type) throw new NotFound("the watermark preset has no image");
    return { bytes: Buffer.from(row.image_data, "base64"), type: row.image_type };
  }

  /** The mark a preset draws (null: an image mark without its image), for renditions. */
  async spec(id: string): Promise<{ spec: WatermarkSpec | null; revision: number } | null> {
    const row = await this.deps.presets.findWatermark(id);
    if (!row) return null;
    const image = row.image_data ? Buffer.from(row.image_data, "base64") : null;
    return { spec: watermarkSpec(row.settings as WatermarkSettings, image), revision: row.revision };
  }

  async #checkImage(image: { data: string; type: string }): Promise<CheckedImage> {
    const bytes = Buffer.from(image.data, "base64");
    if (bytes.length === 0 || bytes.length > 2 * 1024 * 1024) {
      throw new Invalid("image.data: the watermark image must be a PNG or JPEG of at most 2 MB");
    }
    const checked = await this.deps.media
      .checkImage(bytes, image.type === "image/png" ? ["png"] : ["jpeg"])
      .catch(() => {
        throw new Invalid(`image.data: not a readable ${image.type === "image/png" ? "PNG" : "JPEG"} image`);
      });
    return { data: bytes.toString("base64"), type: image.type, width: checked.width, height: checked.height };
  }

  #checkSettings(settings: WatermarkSettings, hasImage: boolean): void {
    if (settings.type === 2 && settings.text.trim() === "")
      throw new Invalid("settings.text: please enter watermark text.");
    if (settings.type === 1 && !hasImage) throw new Invalid("image: an image watermark needs its image");
  }

  async create(actor: Actor, input: WatermarkPresetInput): Promise<WatermarkPresetView> {
    const image = input.image ? await this.#checkImage(input.image) : null;
    this.#checkSettings(input.settings, image !== null);
    const now = this.#now();
    const row: WatermarkPresetRow = {
      id: randomUUID(),
      name: input.name,
      settings: input.settings,
      image_data: image?.data ?? null,
      image_type: image?.type ?? null,
      image_width: image?.width ?? null,
      image_height: image?.height ?? null,
      revision: 1,
      created_by: actor.username,
      created_at: now,
      updated_at: now,
    };
    await this.deps.presets.transaction(async (trx, presets) => {
      if (await presets.watermarkNamed(input.name))
        throw new Conflict(`name: a watermark preset "${input.name}" exists`).withMessageCode("presets.duplicateName", {
          name: input.name,
        });
      await presets.insertWatermark(row);
      await this.deps.audit.record(trx, actor, {
        action: "watermark-preset.create",
        target: { type: "watermark-preset", id: row.id, label: row.name },
        after: { name: row.name, settings: row.settings },
      });
    });
    return watermarkView(row);
  }

  /** Saves the preset; every download preset that draws it gets a new revision (its cached renditions go). */
  async update(actor: Actor, id: string, input: WatermarkPresetInput): Promise<WatermarkPresetView> {
    const image = input.image ? await this.#checkImage(input.image) : undefined;
    const dropped = await this.deps.presets.transaction(async (trx, presets) => {
      const before = await presets.findWatermark(id);
      if (!before) throw new NotFound(`presetId: no watermark preset ${id}`);
      const named = await presets.watermarkNamed(input.name);
      if (named && named.id !== id)
        throw new Conflict(`name: a watermark preset "${input.name}" exists`).withMessageCode("presets.duplicateName", {
          name: input.name,
        });
      const keep = input.image === undefined;
      const row: WatermarkPresetRow = {
        ...before,
        name: input.name,
        settings: input.settings,
        image_data: keep ? before.image_data : (image?.data ?? null),
        image_type: keep ? before.image_type : (image?.type ?? null),
        image_width: keep ? before.image_width : (image?.width ?? null),
        image_height: keep ? before.image_height : (image?.height ?? null),
        revision: before.revision + 1,
        updated_at: this.#now(),
      };
      this.#checkSettings(row.settings as WatermarkSettings, row.image_data !== null);
      await presets.updateWatermark(row);
      const users = await presets.downloadsUsingWatermark(id);
      await presets.bumpDownloadRevisions(
        users.map((user) => user.id),
        row.updated_at,
      );
      const keys = await presets.deleteRenditionsOf(users.map((user) => user.id));
      await this.deps.audit.record(trx, actor, {
        action: "watermark-preset.edit",
        target: { type: "watermark-preset", id, label: row.name },
        before: { name: before.name, settings: before.settings, imageChanged: false },
        after: { name: row.name, settings: row.settings, imageChanged: !keep },
      });
      return { row, keys };
    });
    this.deps.onRenditionsDropped(dropped.keys);
    return watermarkView(dropped.row);
  }

  /** Refused (409 in_use) while a download preset draws it. */
  async remove(actor: Actor, id: string): Promise<void> {
    await this.deps.presets.transaction(async (trx, presets) => {
      const row = await presets.findWatermark(id);
      if (!row) throw new NotFound(`presetId: no watermark preset ${id}`);
      const users = await presets.downloadsUsingWatermark(id);
      if (users.length > 0) {
        const names = users.map((user) => `"${user.name}"`).join(", ");
        throw new Conflict(`the download presets ${names} use this watermark`, "in_use").withMessageCode(
          "presets.watermarkInUse",
          { names },
        );
      }
      await presets.deleteWatermark(id);
      await this.deps.audit.record(trx, actor, {
        action: "watermark-preset.delete",
        target: { type: "watermark-preset", id, label: row.name },
        before: { name: row.name, settings: row.settings },
      });
    });
  }

  /** The sample picture with this mark (JPEG): settings as edited, the image given or the preset's stored one. */
  async preview(input: {
    settings: WatermarkSettings;
    image?: { data: string; type: string } | null;
    presetId?: string;
  }): Promise<Buffer> {
    let image: Buffer | null = null;
    if (input.image) image = Buffer.from((await this.#checkImage(input.image)).data, "base64");
    else if (input.image === undefined && input.presetId) {
      const row = await this.deps.presets.findWatermark(input.presetId);
      image = row?.image_data ? Buffer.from(row.image_data, "base64") : null;
    }
    const blank = input.settings.type === 2 && input.settings.text.trim() === "";
    return this.deps.media.watermarkPreview(blank ? null : watermarkSpec(input.settings, image));
  }
}
