import sharp from "sharp";
import { beforeAll, expect, it } from "vitest";
import { auditSince, lastAuditId } from "../../test/audit.js";
import { describeEachDialect } from "../../test/dialects.js";
import { textWatermark } from "../../test/preset-bodies.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, uploadStory, useStoriesApp } from "../../test/stories-app.js";

const text = textWatermark("新华社 中文水印");

const webp1200 = {
  format: "webp",
  maxWidth: 1200,
  maxHeight: null,
  quality: 85,
  srgb: true,
  metadata: "rights",
  videoBitrateKbps: 2000,
  audioBitrateKbps: 128,
} as const;

describeEachDialect("watermark and download presets", (dialect) => {
  const ctx = useStoriesApp(dialect, { env: { DAMS_JOBS_POLL_MS: "100" } });
  const call = api(ctx);
  let admin: TestPrincipal;
  let editor: TestPrincipal;
  let viewer: TestPrincipal;
  let photo: Buffer;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "presets-admin", roleId: "administrator", admin: true });
    editor = await createPrincipal(ctx().db, { username: "presets-editor", roleId: "editor" });
    viewer = await createPrincipal(ctx().db, { username: "presets-viewer", roleId: "viewer" });
    // 24 megapixels, mid grey with noise, made here.
    photo = await sharp({
      create: {
        width: 6000,
        height: 4000,
        channels: 3,
        background: "#808080",
        noise: { type: "gaussian", mean: 128, sigma: 6 },
      },
    })
      .jpeg({ quality: 85 })
      .toBuffer();
    ctx().app.jobs.worker.start();
  }, 60_000);

  it("watermark presets: the spec's fields and limits, names unique, image marks need their image, audited", async () => {
    const before = await lastAuditId(ctx().db);
    const created = await call(admin, "POST", "/watermark-presets", { name: "新华社 text", settings: text });
    expect(created.statusCode, created.body).toBe(200);
    const preset = created.json().data;
    expect(preset).toMatchObject({ name: "新华社 text", settings: text, image: null, revision: 1 });
    expect((await call(admin, "POST", "/watermark-presets", { name: "新华社 text", settings: text })).statusCode).toBe(
      409,
    );
    const tooLong = await call(admin, "POST", "/watermark-presets", {
      name: "long",
      settings: { ...text, text: "字".repeat(101) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain("at most 100 characters");
    for (const settings of [
      { ...text, opacity: 0 },
      { ...text, fontSize: 1001 },
      { ...text, color: "white" },
    ]) {
      expect((await call(admin, "POST", "/watermark-presets", { name: "bad", settings })).statusCode).toBe(400);
    }
    const noImage = await call(admin, "POST", "/watermark-presets", { name: "logo", settings: { ...text, type: 1 } });
    expect(noImage.statusCode).toBe(400);
    const logo = await sharp({ create: { width: 80, height: 40, channels: 4, background: "#ff0000ff" } })
      .png()
      .toBuffer();
    const withImage = await call(admin, "POST", "/watermark-presets", {
      name: "logo",
      settings: { ...text, type: 1, position: "upper-left" },
      image: { data: logo.toString("base64"), type: "image/png" },
    });
    expect(withImage.json().data.image).toEqual({ type: "image/png", width: 80, height: 40 });
    const image = await call(editor, "GET", `/watermark-presets/${withImage.json().data.id}/image`);
    expect(image.headers["content-type"]).toBe("image/png");
    expect(Buffer.compare(image.rawPayload, logo)).toBe(0);
    const notPng = await call(admin, "POST", "/watermark-presets", {
      name: "fake",
      settings: { ...text, type: 1 },
      image: { data: Buffer.from("<svg/>").toString("base64"), type: "image/png" },
    });
    expect(notPng.statusCode).toBe(400);
    expect((await call(editor, "POST", "/watermark-presets", { name: "x", settings: text })).statusCode).toBe(403);

    const preview = await call(editor, "POST", "/watermark-presets/preview", { settings: text });
    expect(preview.headers["content-type"]).toBe("image/jpeg");
    expect((await sharp(preview.rawPayload).metadata()).width).toBe(960);

    const records = await auditSince(ctx().db, before);
    expect(records.filter((record) => record.action === "watermark-preset.create")).toHaveLength(2);
  });

  it("a 24 MP photo through a 1200 px WebP preset with a Chinese text watermark, by the job, cached, invalidated on edit", async () => {
    const watermark = (await call(admin, "POST", "/watermark-presets", { name: "wm 1200", settings: text })).json()
      .data;
    const created = await call(admin, "POST", "/download-presets", {
      name: "Web 1200",
      storyType: "photo",
      settings: webp1200,
      watermarkPresetId: watermark.id,
      roleIds: ["editor"],
      enabled: true,
    });
    expect(created.statusCode, created.body).toBe(200);
    const preset = created.json().data;
    const wrongFormat = await call(admin, "POST", "/download-presets", {
      name: "bad",
      storyType: "photo",
      settings: { ...webp1200, format: "mp3" },
      watermarkPresetId: null,
      roleIds: [],
      enabled: true,
    });
    expect(wrongFormat.statusCode).toBe(400);
    expect(wrongFormat.body).toContain("settings.format");

    const usable = async (who: TestPrincipal) =>
      (await call(who, "GET", "/download-presets/usable?storyType=photo"))
        .json()
        .data.map((one: { id: string }) => one.id);
    expect(await usable(editor)).toContain(preset.id);
    expect(await usable(viewer)).not.toContain(preset.id);

    const { story: uploaded } = await uploadStory(ctx(), editor, {
      libraryId: "material",
      bytes: photo,
      name: "台风.jpg",
    });
    const story = { storyId: uploaded.id };
    const request = (who: TestPrincipal) =>
      call(who, "POST", `/download-presets/${preset.id}/renditions/material`, { storyIds: [story.storyId] });
    const refused = await request(viewer);
    expect(refused.statusCode, refused.body).toBe(403);
    const first = await request(editor);
    expect(first.statusCode, first.body).toBe(200);
    expect(["queued", "running"]).toContain(first.json().data[0].state);
    const notReady = await call(editor, "GET", `/download-presets/${preset.id}/file/material/${story.storyId}`);
    if (notReady.statusCode !== 200) expect(notReady.json().error).toBe("rendition_not_ready");

    let state = first.json().data[0];
    for (let attempt = 0; attempt < 600 && (state.state === "queued" || state.state === "running"); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = (await request(editor)).json().data[0];
    }
    expect(state, state.error ?? "").toMatchObject({ state: "done", mime: "image/webp", width: 1200, height: 800 });

    const file = await call(editor, "GET", `/download-presets/${preset.id}/file/material/${story.storyId}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-disposition"]).toContain("Web-1200.webp");
    const { data, info } = await sharp(file.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect((await sharp(file.rawPayload).metadata()).format).toBe("webp");
    expect([info.width, info.height]).toEqual([1200, 800]);
    const at = (x: number, y: number) => data[(y * info.width + x) * info.channels]!;
    // The box: 300 px wide, 16 px (2 % of 800) from the right and bottom edges; black padding, white glyphs.
    const right = 1200 - 16 - 1;
    const bottom = 800 - 16 - 1;
    expect(at(right - 2, bottom - 2)).toBeLessThan(40);
    expect(at(1200 - 16 - 300 + 2, bottom - 2)).toBeLessThan(40);
    expect(at(1200 - 16 - 300 - 6, bottom - 2)).toBeGreaterThan(90);
    let top = bottom;
    while (top > 0 && at(right - 2, top - 1) < 40) top--;
    const boxHeight = bottom - top + 1;
    expect(boxHeight).toBeGreaterThan(30);
    expect(boxHeight).toBeLessThan(200);
    let white = 0;
    for (let y = top; y <= bottom; y++) for (let x = 1200 - 16 - 300; x <= right; x++) if (at(x, y) > 200) white++;
    expect(white).toBeGreaterThan(300);
    // Outside the box the photo is its grey.
    expect(Math.abs(at(600, 400) - 128)).toBeLessThan(30);

    // Asked again: the cached rendition, no new job.
    expect((await request(editor)).json().data[0]).toMatchObject({ state: "done" });
    const zip = await call(editor, "GET", `/download-presets/${preset.id}/zip/material?storyIds=${story.storyId}`);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers["content-type"]).toBe("application/zip");

    // Editing the watermark drops the preset's renditions: the next request queues a new one.
    const edited = await call(admin, "PUT", `/watermark-presets/${watermark.id}`, {
      name: "wm 1200",
      settings: { ...text, position: "upper-left" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(["queued", "running"]).toContain((await request(editor)).json().data[0].state);
    const presetNow = (await call(admin, "GET", "/download-presets"))
      .json()
      .data.content.find((one: { id: string }) => one.id === preset.id);
    expect(presetNow.revision).toBe(2);
    // The watermark is in use: refused.
    const inUse = await call(admin, "DELETE", `/watermark-presets/${watermark.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error).toBe("in_use");
    expect((await call(admin, "DELETE", `/download-presets/${preset.id}`)).statusCode).toBe(200);
    expect((await call(admin, "DELETE", `/watermark-presets/${watermark.id}`)).statusCode).toBe(200);
  }, 120_000);
});
