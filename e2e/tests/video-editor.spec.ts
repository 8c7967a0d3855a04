import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, type FrameLocator, type Page, test } from "@playwright/test";
import { expectNoHorizontalOverflow, LAPTOP, makeTestVideo, PHONE, snapshot, startSignedIn, zh } from "./helpers.js";
import { API, commitAndProcess, PHOTOS, upload } from "./seed.js";
import { openVideoDialogFromHeader, pickStories, startVideoJourney, videoDialog } from "./video-editor.test-support.js";

/** Seconds of ffprobe's reading of a file's duration. */
function probeDuration(file: string): number {
  return Number(
    execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]).toString(),
  );
}

/** A 10 s 640×360 test video with a tone (the corpus has no video: generated, as its README asks). */
function makeVideo(file: string): void {
  makeTestVideo(file, "testsrc2=duration=10:size=640x360:rate=25", { frequency: 440, seconds: 10 });
}

/** Types a number into an antd InputNumber and leaves it. */
async function setNumber(frame: FrameLocator, testId: string, value: number) {
  const input = frame.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
  await input.fill(String(value));
  await input.press("Tab");
}

/** The export preset of the edit (the whole edit's panel): 720p keeps the render short on a busy machine. */
async function choose720p(frame: FrameLocator) {
  const back = frame.getByTestId("video-inspector-edit");
  if (await back.isVisible()) await back.click();
  await frame.getByTestId("video-preset").click();
  await frame
    .locator(".ant-select-item-option")
    .filter({ hasText: /^720p$/ })
    .click();
}

/** No horizontal overflow inside the editor's frame. */
async function expectNoOverflow(page: Page) {
  const frame = page.frames().find((candidate) => candidate.url().includes("/source/ismpVideosEdit"));
  expect(frame).toBeTruthy();
  await expectNoHorizontalOverflow(frame!);
}

test("the header's video production: an edit the editor refuses re-enables the buttons", async ({ page }) => {
  await startSignedIn(page, LAPTOP);
  const { dialog, frame } = await openVideoDialogFromHeader(page, "video");
  const save = dialog.getByTestId("video-dialog-save");
  await expect(save).toBeEnabled();
  // No clip: the editor answers with the schema's reason, the dialog shows it and the buttons come back.
  await save.click();
  await expect(frame.getByTestId("video-render-error")).toContainText("clips: an edit needs at least one clip");
  await expect(dialog.getByTestId("video-dialog-error")).toContainText(zh("videoEditor.saveFailed"));
  await expect(save).toBeEnabled();
  await expect(dialog.locator(".ant-modal-footer button").first()).toBeEnabled();
});

test("edit a video: split, trim both clips, a title, save → version 2 in material, 6 s by ffprobe", async ({
  page,
}, testInfo) => {
  test.setTimeout(900_000);
  const { errors, token, headers, run } = await startVideoJourney(page, LAPTOP, "video editor");
  const file = testInfo.outputPath("press.mp4");
  makeVideo(file);
  const video = await upload(page.request, token, file, { libraryId: "material", title: `发布会 ${run}` });
  await commitAndProcess(page.request, token, [video], "video");
  const before = (await (await page.request.get(`${API}/stories/material/${video.storyId}`, { headers })).json()).data;

  await page.goto(`/frontend/search?story=material/${video.storyId}`, { waitUntil: "networkidle" });
  await page.locator(".ant-drawer-content").getByTestId("story-edit-video").click();
  const { dialog, frame } = videoDialog(page);
  // Measured once the opening zoom has ended (a box read during it is a little narrower).
  await expect.poll(async () => Math.round((await dialog.boundingBox())?.width ?? 0)).toBe(Math.round(1366 * 0.9));
  // The story opens as the first clip, whole.
  await expect(frame.getByTestId("video-clip")).toHaveCount(1);
  await expect(frame.getByTestId("video-timecode")).toContainText("/ 0:10.00");
  await expect(dialog.getByTestId("video-dialog-save")).toBeEnabled();

  // L moves the playhead a second on (outside text fields); S splits the clip under it.
  await frame.getByTestId("video-preview").click();
  for (let i = 0; i < 5; i++) await frame.getByTestId("video-preview").press("l");
  await expect(frame.getByTestId("video-timecode")).toContainText("0:05.00 /");
  await frame.getByTestId("video-preview").press("s");
  await expect(frame.getByTestId("video-clip")).toHaveCount(2);

  // Trim both: 1–4 s and 6–9 s of the source.
  await frame.getByTestId("video-clip").nth(0).click();
  await setNumber(frame, "video-clip-in", 1);
  await setNumber(frame, "video-clip-out", 4);
  await frame.getByTestId("video-clip").nth(1).click();
  await setNumber(frame, "video-clip-in", 6);
  await setNumber(frame, "video-clip-out", 9);
  await expect(frame.getByTestId("video-timecode")).toContainText("/ 0:06.00");

  // A title with the characters drawtext must take literally.
  await frame.getByTestId("video-add-title").click();
  await frame.getByTestId("video-text-input").fill("发布会 It's 50%: a\\b");
  await expect(frame.getByTestId("video-preview-text")).toHaveText("发布会 It's 50%: a\\b");
  await choose720p(frame);
  await snapshot(page, testInfo, "video-editor-1366");
  await expectNoOverflow(page);

  const created = page.waitForResponse((response) => response.url().includes(`${API}/video-edit/stories`));
  await dialog.getByTestId("video-dialog-save").click();
  await expect(dialog.getByTestId("video-dialog-progress")).toBeVisible();
  expect((await created).status()).toBe(200);
  await page.waitForURL(/\/frontend\/material\?types=VIDEO$/, { timeout: 720_000 });
  await expect(page.getByTestId("video-dialog-frame")).toHaveCount(0);

  const after = (await (await page.request.get(`${API}/stories/material/${video.storyId}`, { headers })).json()).data;
  expect(after.versionNo).toBe(2);
  expect(after.properties.lastVersion).toBe(before.oid);
  const original = await page.request.get(`${API}/stories/download/material/${video.storyId}`, { headers });
  const rendered = testInfo.outputPath("rendered.mp4");
  fs.writeFileSync(rendered, await original.body());
  expect(Math.abs(probeDuration(rendered) - 6)).toBeLessThanOrEqual(0.1);
  const edl = (
    await (await page.request.get(`${API}/video-edit/stories/material/${video.storyId}/edl`, { headers })).json()
  ).data;
  expect(edl.texts[0].text).toBe("发布会 It's 50%: a\\b");
  expect(edl.clips.map((clip: { in: number; out: number }) => [clip.in, clip.out])).toEqual([
    [1, 4],
    [6, 9],
  ]);

  // The edit reopens: version 2 opens with its two clips and its title, not as one clip.
  await page.goto(`/frontend/search?story=material/${video.storyId}`, { waitUntil: "networkidle" });
  await page.locator(".ant-drawer-content").getByTestId("story-edit-video").click();
  await expect(frame.getByTestId("video-clip")).toHaveCount(2, { timeout: 60_000 });
  await expect(frame.getByTestId("video-text")).toHaveText("发布会 It's 50%: a\\b");
  expect(errors).toEqual([]);
});

test("image-to-video from three photos: slides with pan and zoom, crossfades, saved as a video in material", async ({
  page,
}, testInfo) => {
  test.setTimeout(900_000);
  const { errors, token, headers, run } = await startVideoJourney(page, PHONE, "image to video");
  const photos = [];
  for (const [index, name] of ["mobile/jolla.jpg", "Canon_40D.jpg", "Nikon_D70.jpg"].entries())
    photos.push(
      await upload(page.request, token, path.join(PHOTOS, name), {
        libraryId: "product",
        title: `幻灯片 ${run} ${index + 1}`,
      }),
    );
  await commitAndProcess(page.request, token, photos);

  await page.goto("/frontend/search", { waitUntil: "networkidle" });
  const { dialog, frame } = await openVideoDialogFromHeader(page, "slideshow");
  await pickStories(
    frame,
    `幻灯片 ${run}`,
    photos.map((photo) => `product/${photo.storyId}`),
  );
  await expect(frame.getByTestId("video-clip")).toHaveCount(3);
  // Three 4 s slides, two 0.5 s crossfades: 11 s.
  await expect(frame.getByTestId("video-timecode")).toContainText("/ 0:11.00");
  await frame.getByTestId("video-title").fill(`幻灯片 ${run}`);
  await expect(frame.getByTestId("video-preview-image")).toBeVisible();
  await choose720p(frame);
  await snapshot(page, testInfo, "image-to-video-390");
  await expectNoOverflow(page);

  const created = page.waitForResponse((response) => response.url().includes(`${API}/video-edit/stories`));
  await dialog.getByTestId("video-dialog-save").click();
  const story = (await (await created).json()).data as { libraryId: string; storyId: string };
  expect(story.libraryId).toBe("material");
  await page.waitForURL(/\/frontend\/material\?types=VIDEO$/, { timeout: 720_000 });
  const saved = (await (await page.request.get(`${API}/stories/material/${story.storyId}`, { headers })).json()).data;
  expect(saved).toMatchObject({ type: "video", status: "committed", title: `幻灯片 ${run}` });
  const original = await page.request.get(`${API}/stories/download/material/${story.storyId}`, { headers });
  const rendered = testInfo.outputPath("slideshow.mp4");
  fs.writeFileSync(rendered, await original.body());
  expect(Math.abs(probeDuration(rendered) - 11)).toBeLessThanOrEqual(0.1);
  expect(errors).toEqual([]);
});
