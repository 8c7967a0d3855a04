import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { expectSamePhotoWithTitle, expectToast, signIn, snapshot, startSignedIn, zh } from "./helpers.js";
import { API, commitAndProcess, PHOTOS, seedingHeaders, upload } from "./seed.js";

const PHOTO = path.join(PHOTOS, "mobile/jolla.jpg");

/** The editor's session as it exposes it on its root element. */
async function session(editor: ReturnType<Page["getByTestId"]>) {
  const read = async (name: string) => Number(await editor.getAttribute(`data-${name}`));
  return {
    width: await read("width"),
    height: await read("height"),
    undo: await read("undo"),
    redo: await read("redo"),
    edited: (await editor.getAttribute("data-edited")) === "true",
  };
}

test("open a corpus photo in the editor, crop 16:9, rotate, watermark, undo/redo, save a new version", async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const errors = await startSignedIn(page, { width: 1440, height: 900 });
  const { token, headers } = await seedingHeaders(page, "image editor");
  const run = String(Date.now()).slice(-6);
  // A committed, processed photo story in the product library, made through tus as the upload pages do.
  const photo = await upload(page.request, token, PHOTO, { libraryId: "product", title: `编辑 ${run}` });
  await commitAndProcess(page.request, token, [photo]);
  const { storyId } = photo;
  const original = await sharp(PHOTO).metadata();

  await page.goto(`/frontend/search?story=product/${storyId}`, { waitUntil: "networkidle" });
  const viewer = page.locator(".ant-drawer-content");
  await viewer.getByTestId("story-edit-image").click();
  const modal = page.locator(".ant-modal-content");
  const editor = modal.getByTestId("image-editor");
  // Resize opens by itself once mounted; editing starts once the image has loaded.
  await expect(editor).toHaveAttribute("data-mode", "5");
  await expect(editor).toHaveAttribute("data-editable", "true");
  // (Measured once the modal's opening animation is over.) The modal takes 90 % of the window; the panel is 425 px wide.
  const box = await modal.boundingBox();
  expect(Math.round(box?.width ?? 0)).toBe(Math.round(1440 * 0.9));
  expect(Math.round((await modal.getByTestId("image-editor-panel").boundingBox())?.width ?? 0)).toBe(425);
  expect(await session(editor)).toEqual({
    width: original.width,
    height: original.height,
    undo: 0,
    redo: 0,
    edited: false,
  });
  const undo = modal.getByRole("button", { name: zh("imageEditor.undo") });
  const redo = modal.getByRole("button", { name: zh("imageEditor.redo") });
  const confirm = modal.getByTestId("mode-confirm");
  const mode = (key: string) =>
    modal.locator(".ant-radio-button-wrapper").filter({ hasText: new RegExp(`^${zh(`imageEditor.mode.${key}`)}$`) });

  // Crop to 16:9.
  await mode("crop").click();
  await expect(modal.getByTestId("crop-box").locator(".cropper-crop-box")).toBeVisible();
  await modal
    .locator(".ant-radio-button-wrapper")
    .filter({ hasText: /^16:9$/ })
    .click();
  await confirm.click();
  await expect(editor).toHaveAttribute("data-undo", "1");
  const cropped = await session(editor);
  expect(cropped.edited).toBe(true);
  // The crop box starts as the largest 16:9 box the cropper fits; the result is 16:9 to the pixel.
  expect(cropped.width).toBeGreaterThan((original.width ?? 0) * 0.9);
  expect(Math.abs(cropped.height - Math.round((cropped.width * 9) / 16))).toBeLessThanOrEqual(1);
  await expect(undo).toBeEnabled();

  // Rotate 90°: while the change is unconfirmed, undo and redo are off.
  await mode("rotate").click();
  await modal.getByRole("button", { name: zh("imageEditor.rotate.right") }).click();
  await expect(undo).toBeDisabled();
  await expect(modal.getByTestId("preview-canvas")).toBeVisible();
  await confirm.click();
  await expect(editor).toHaveAttribute("data-undo", "2");
  await expect(undo).toBeEnabled();
  const rotated = await session(editor);
  expect([rotated.width, rotated.height]).toEqual([cropped.height, cropped.width]);

  // A text watermark: the spec's messages for missing and too long text, then a real one.
  await mode("watermark").click();
  await modal
    .locator(".ant-radio-wrapper")
    .filter({ hasText: new RegExp(`^${zh("imageEditor.watermark.text")}$`) })
    .click();
  await confirm.click();
  await expectToast(page, zh("imageEditor.watermark.required"));
  const text = modal.getByRole("textbox", { name: zh("imageEditor.watermark.textContent") });
  await text.fill("新".repeat(101));
  await confirm.click();
  await expectToast(page, zh("imageEditor.watermark.tooLong"));
  expect((await session(editor)).undo).toBe(2);
  await text.fill(`新华社 dams ${run}`);
  await modal.getByRole("spinbutton", { name: zh("imageEditor.watermark.fontSize") }).fill("60");
  await modal.getByRole("spinbutton", { name: zh("imageEditor.watermark.textWidth") }).fill("900");
  await confirm.click();
  await expect(editor).toHaveAttribute("data-undo", "3");
  // Mode 99 after a watermark.
  await expect(editor).toHaveAttribute("data-mode", "99");
  await snapshot(page, testInfo, "editor-watermarked");

  // Undo and redo.
  await undo.click();
  expect(await session(editor)).toMatchObject({ undo: 2, redo: 1, edited: true });
  await redo.click();
  expect(await session(editor)).toMatchObject({
    undo: 3,
    redo: 0,
    edited: true,
    width: rotated.width,
    height: rotated.height,
  });

  // Save: a new version of the story. The page's long tasks meanwhile, and the editor's own account of the
  // save (render in the worker by step, upload), are printed.
  const saveLines: string[] = [];
  page.on("console", (message) => {
    if (message.text().startsWith("image editor:")) saveLines.push(message.text());
  });
  await page.evaluate(() => {
    const tasks: { at: number; ms: number }[] = [];
    (window as unknown as { longTasks: typeof tasks }).longTasks = tasks;
    const from = performance.now();
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push({ at: entry.startTime - from, ms: entry.duration });
    }).observe({ type: "longtask" });
  });
  const saveStarted = Date.now();
  await modal.getByTestId("editor-save").click();
  await expectToast(page, zh("imageEditor.saved").replace("{{no}}", "2"), { timeout: 30_000 });
  const saveSeconds = (Date.now() - saveStarted) / 1000;
  const longTasks = await page.evaluate(
    () => (window as unknown as { longTasks: { at: number; ms: number }[] }).longTasks,
  );
  console.log(
    `image editor journey: save of ${rotated.width}×${rotated.height} to "saved" in ${saveSeconds.toFixed(1)} s; ${saveLines.join("; ")}; main-thread long tasks ${longTasks.length}, longest ${Math.round(Math.max(0, ...longTasks.map(({ ms }) => ms)))} ms (at+ms: ${longTasks.map(({ at, ms }) => `${Math.round(at)}+${Math.round(ms)}`).join(" ")})`,
  );
  await expect(modal).toBeHidden();
  await viewer.getByRole("tab", { name: zh("stories.viewer.versions") }).click();
  const versions = viewer.getByTestId("story-versions");
  await expect(versions.getByText(zh("stories.viewer.versionNo").replace("{{no}}", "2"))).toBeVisible();
  await expect(versions.getByText(zh("stories.viewer.versionNo").replace("{{no}}", "1"))).toBeVisible();
  await viewer.getByRole("tab", { name: zh("stories.viewer.history") }).click();
  await expect(viewer.getByText(zh("stories.action.new-version"), { exact: true })).toBeVisible();

  // The viewer shows the new version (portrait now) once its media job has made the preview.
  const preview = viewer.getByTestId("story-preview").getByRole("img").first();
  await expect
    .poll(
      () =>
        preview
          .evaluate((image: HTMLImageElement) => image.complete && image.naturalHeight > image.naturalWidth)
          .catch(() => false),
      { timeout: 90_000 },
    )
    .toBe(true);

  // The new version carries the edit; version 1 is the untouched original.
  const current = await page.request.get(`${API}/stories/download/product/${storyId}?rendition=original`, {
    headers,
  });
  expect(current.status()).toBe(200);
  const edited = sharp(await current.body());
  const meta = await edited.metadata();
  expect([meta.width, meta.height]).toEqual([rotated.width, rotated.height]);
  // The watermark's black box (900 × one 75 px line + 2 × 15 px padding) sits in the lower-right corner
  // (2 % margin), with white text on it.
  const margin = Math.round(Math.min(rotated.width, rotated.height) * 0.02);
  // (Cut out first: stats() describes the input, not the pipeline's output.)
  const cornerPixels = await edited
    .clone()
    .extract({ left: rotated.width - margin - 900, top: rotated.height - margin - 105, width: 900, height: 105 })
    .png()
    .toBuffer();
  const corner = await sharp(cornerPixels).stats();
  const means = corner.channels.slice(0, 3).map((channel) => channel.mean);
  const maxima = corner.channels.slice(0, 3).map((channel) => channel.max);
  for (const value of means) expect(value).toBeLessThan(80);
  for (const value of maxima) expect(value).toBeGreaterThan(200);
  const first = await page.request.get(`${API}/stories/download/product/${storyId}?rendition=original&versionNo=1`, {
    headers,
  });
  // Version 1 is still the uploaded photo (with the story's metadata written in on the way out).
  await expectSamePhotoWithTitle(await first.body(), PHOTO, photo.title);
  await snapshot(page, testInfo, "viewer-new-version");
  expect(errors).toEqual([]);
});

test("the header's image-edit upload: only .jpg .jpeg .png .bmp, the chosen file opens in the editor", async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const input = page.locator(".ant-layout-header input[type=file]");
  await expect(input).toHaveAttribute("accept", ".jpg,.jpeg,.png,.bmp");
  await input.setInputFiles({ name: "clip.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a") });
  await expectToast(page, zh("imageEditor.notImage"));
  await expect(page).toHaveURL(/\/frontend\/search/);

  await input.setInputFiles(PHOTO);
  await expect(page).toHaveURL(/\/source\/editimg$/);
  const editor = page.getByTestId("image-editor");
  await expect(editor).toHaveAttribute("data-editable", "true");
  const original = await sharp(PHOTO).metadata();
  expect(await session(editor)).toMatchObject({ width: original.width, height: original.height, edited: false });

  // Picking another image: a non-image is refused with the same warning (once the first one has gone).
  await expect(page.locator(".ant-message").getByText(zh("imageEditor.notImage"))).toHaveCount(0, { timeout: 60_000 });
  const pick = page.locator('input[type=file][accept=".jpg,.jpeg,.png,.bmp,.webp,.gif"]');
  await pick.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expectToast(page, zh("imageEditor.notImage"));

  // Resize by percent with the aspect lock; save downloads the edited file (no story behind it).
  await expect(editor).toHaveAttribute("data-mode", "5");
  await page.getByRole("spinbutton", { name: zh("imageEditor.resize.percent") }).fill("50");
  await page.getByTestId("mode-confirm").click();
  await expect(editor).toHaveAttribute("data-width", String(Math.round((original.width ?? 0) / 2)));
  await expect(editor).toHaveAttribute("data-height", String(Math.round((original.height ?? 0) / 2)));
  const downloading = page.waitForEvent("download");
  await page.getByTestId("editor-save").click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("jolla-edited.jpg");
  const saved = await sharp(fs.readFileSync(await download.path())).metadata();
  expect([saved.width, saved.height]).toEqual([
    Math.round((original.width ?? 0) / 2),
    Math.round((original.height ?? 0) / 2),
  ]);
});
