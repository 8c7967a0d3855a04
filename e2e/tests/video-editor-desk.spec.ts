/**
 * Issue 19's done-when, as a video desk does it: three clips of a press
 * conference cut into a 45 s vertical video with a Chinese lower third, burned
 * captions (an SRT imported) and the station's logo (a watermark preset);
 * saved, found playing in the material library, the edit re-opened from it.
 * And a photo desk's captioned slideshow of eight photos.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, type FrameLocator, test } from "@playwright/test";
import { DEFAULT_WATERMARK } from "../../server/src/shared/watermark.js";
import { LAPTOP, makeTestVideo, PHONE, snapshot } from "./helpers.js";
import { API, commitAndProcess, PHOTOS, upload } from "./seed.js";
import { openVideoDialogFromHeader, pickStories, startVideoJourney } from "./video-editor.test-support.js";

/** ffprobe's duration, width and height of a file's first video stream. */
function probe(file: string): { duration: number; width: number; height: number } {
  const out = execFileSync("ffprobe", [
    "-v",
    "error",
    "-select_streams",
    "v:0",
    "-show_entries",
    "stream=width,height:format=duration",
    "-of",
    "json",
    file,
  ]).toString();
  const json = JSON.parse(out) as { streams: { width: number; height: number }[]; format: { duration: string } };
  return { duration: Number(json.format.duration), width: json.streams[0]!.width, height: json.streams[0]!.height };
}

/** A 20 s 1280×720 "camera" clip with a tone (the corpus has no video). */
function makeClip(file: string, pattern: string): void {
  makeTestVideo(file, `${pattern}=duration=20:size=1280x720:rate=25`, { frequency: 330, seconds: 20 });
}

async function setNumber(frame: FrameLocator, testId: string, value: number) {
  const input = frame.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
  await input.fill(String(value));
  await input.press("Tab");
}

async function chooseOption(frame: FrameLocator, testId: string, text: string | RegExp) {
  await frame.getByTestId(testId).click();
  await frame.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: text }).first().click();
}

test("press conference: three clips → 45 s vertical with a Chinese lower third, burned captions and the logo", async ({
  page,
}, testInfo) => {
  test.setTimeout(1_500_000);
  const { errors, token, headers, run } = await startVideoJourney(page, LAPTOP, "press conference");

  // The station's logo: an image watermark preset (a PNG made here).
  const logoFile = testInfo.outputPath("logo.png");
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "color=c=red:s=200x80",
    "-frames:v",
    "1",
    logoFile,
  ]);
  const preset = await page.request.post(`${API}/watermark-presets`, {
    headers,
    data: {
      name: `台标 ${run}`,
      settings: { ...DEFAULT_WATERMARK, position: "upper-right", opacity: 80 },
      image: { data: fs.readFileSync(logoFile).toString("base64"), type: "image/png" },
    },
  });
  expect(preset.status()).toBe(200);

  const clips = [];
  for (const [index, pattern] of ["testsrc2", "smptebars", "rgbtestsrc"].entries()) {
    const file = testInfo.outputPath(`press-${index + 1}.mp4`);
    makeClip(file, pattern);
    clips.push(
      await upload(page.request, token, file, { libraryId: "material", title: `发布会 ${run} 机位${index + 1}` }),
    );
  }
  // Three 20 s 720p clips' proxies and strips: minutes when other work shares the two cores.
  await commitAndProcess(page.request, token, clips, "video", 600_000);

  await page.goto("/frontend/search", { waitUntil: "networkidle" });
  const { dialog, frame } = await openVideoDialogFromHeader(page, "video");
  await pickStories(
    frame,
    `发布会 ${run}`,
    clips.map((clip) => `material/${clip.storyId}`),
  );
  await expect(frame.getByTestId("video-clip")).toHaveCount(3);

  // 15 s of each: 2–17 s.
  for (let index = 0; index < 3; index++) {
    await frame.getByTestId("video-clip").nth(index).click();
    await setNumber(frame, "video-clip-out", 17);
    await setNumber(frame, "video-clip-in", 2);
  }
  await expect(frame.getByTestId("video-timecode")).toContainText("/ 0:45.00");

  // The lower third: name and role in Chinese.
  await frame.getByTestId("video-add-lower-third").click();
  await frame.getByTestId("video-text-input").fill("张明");
  await frame.getByTestId("video-text-subtitle").fill("市政府新闻发言人");
  await frame.getByTestId("video-inspector-edit").click();

  await frame.getByTestId("video-title").fill(`发布会 竖屏 ${run}`);
  await chooseOption(frame, "video-preset", "1080×1920");
  // The vertical preset is always 9:16: the frame's select says so and cannot say otherwise.
  await expect(frame.getByTestId("video-aspect")).toContainText("9:16");
  await expect(frame.getByTestId("video-aspect")).toHaveClass(/ant-select-disabled/);

  // Captions: an SRT imported, burned in.
  const srt = testInfo.outputPath("press.srt");
  fs.writeFileSync(
    srt,
    "1\n00:00:01,000 --> 00:00:05,000\n今天我们发布新的城市规划\n\n2\n00:00:20,000 --> 00:00:25,000\n欢迎各位记者提问\n",
  );
  const chooser = page.waitForEvent("filechooser");
  await frame.getByTestId("video-captions-import").click();
  await (await chooser).setFiles(srt);
  await expect(frame.getByTestId("video-caption-cue")).toHaveCount(2);

  // The logo from the preset, shown in the preview.
  await chooseOption(frame, "video-logo-choice", `台标 ${run}`);
  await expect(frame.getByTestId("video-preview-logo")).toBeVisible();

  // Autosaved.
  await expect(frame.getByTestId("video-project-state")).toHaveAttribute("data-state", "saved", { timeout: 60_000 });
  await snapshot(page, testInfo, "press-conference-1366");

  const created = page.waitForResponse((response) => response.url().includes(`${API}/video-edit/stories`), {
    timeout: 1_200_000,
  });
  await dialog.getByTestId("video-dialog-save").click();
  await expect(dialog.getByTestId("video-dialog-progress")).toBeVisible();
  const story = (await (await created).json()).data as { libraryId: string; storyId: string };
  await page.waitForURL(/\/frontend\/material\?types=VIDEO$/, { timeout: 1_200_000 });

  const saved = (await (await page.request.get(`${API}/stories/material/${story.storyId}`, { headers })).json()).data;
  expect(saved).toMatchObject({ type: "video", status: "committed", title: `发布会 竖屏 ${run}` });
  const original = await page.request.get(`${API}/stories/download/material/${story.storyId}`, { headers });
  const rendered = testInfo.outputPath("press-vertical.mp4");
  fs.writeFileSync(rendered, await original.body());
  const measured = probe(rendered);
  testInfo.annotations.push({ type: "press-conference", description: JSON.stringify(measured) });
  expect(Math.abs(measured.duration - 45)).toBeLessThanOrEqual(0.1);
  expect([measured.width, measured.height]).toEqual([1080, 1920]);
  const edl = (
    await (await page.request.get(`${API}/video-edit/stories/material/${story.storyId}/edl`, { headers })).json()
  ).data;
  expect(edl.logo).toMatchObject({ type: 1, presetId: (await preset.json()).data.id, position: "upper-right" });
  expect(edl.texts[0]).toMatchObject({ kind: "lowerThird", text: "张明", subtitle: "市政府新闻发言人" });
  expect(edl.captions.mode).toBe("burn");

  // In the library, playing.
  await page.goto(`/frontend/material?types=VIDEO&story=material/${story.storyId}`, { waitUntil: "networkidle" });
  const drawer = page.locator(".ant-drawer-content");
  const player = drawer.locator("video").first();
  await expect(player).toBeVisible({ timeout: 60_000 });
  await player.evaluate((video: HTMLVideoElement) => {
    video.muted = true;
    return video.play();
  });
  await expect
    .poll(() => player.evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 60_000 })
    .toBeGreaterThan(0.5);
  await snapshot(page, testInfo, "press-conference-library-1366");

  // Re-opened from the story: three clips, the lower third, the logo.
  await drawer.getByTestId("story-edit-video").click();
  await expect(frame.getByTestId("video-clip")).toHaveCount(3, { timeout: 120_000 });
  await expect(frame.getByTestId("video-timecode")).toContainText("/ 0:45.00");
  await expect(frame.getByTestId("video-text")).toContainText("张明");
  // "Edit again" goes on with the project the render came from: a change is saved into it, no second project made.
  const made = await page.request.get(`${API}/video-edit/stories/material/${story.storyId}/project`, { headers });
  const project = (await made.json()).data as { id: string };
  expect(project).toMatchObject({ id: expect.any(String) });
  await frame.getByTestId("video-title").fill(`发布会 竖屏 ${run} 改`);
  await expect
    .poll(async () => {
      const listed = await page.request.get(`${API}/video-edit/projects?page=0&size=100`, { headers });
      const content = (await listed.json()).data.content as { id: string; title: string }[];
      return content
        .filter((item) => item.title.startsWith(`发布会 竖屏 ${run}`))
        .map((item) => ({ id: item.id, title: item.title }));
    })
    .toEqual([{ id: project.id, title: `发布会 竖屏 ${run} 改` }]);
  await expect(frame.getByTestId("video-project-state")).toHaveAttribute("data-state", "saved");
  await page.setViewportSize({ width: 390, height: 844 });
  await snapshot(page, testInfo, "press-conference-reopened-390");
  expect(errors).toEqual([]);
});

test("image-to-video: eight photos → a captioned slideshow (caption and credit by default)", async ({
  page,
}, testInfo) => {
  test.setTimeout(1_500_000);
  const { errors, token, headers, run } = await startVideoJourney(page, PHONE, "slideshow of eight");
  const names = fs
    .readdirSync(PHOTOS)
    .filter((name) => /\.jpe?g$/i.test(name))
    .sort()
    .slice(0, 8);
  expect(names).toHaveLength(8);
  const photos = [];
  for (const [index, name] of names.entries())
    photos.push(
      await upload(page.request, token, path.join(PHOTOS, name), {
        libraryId: "product",
        title: `八图 ${run} ${index + 1}`,
      }),
    );
  await commitAndProcess(page.request, token, photos, "photo", 600_000);
  // The first photo's caption and credit.
  const edited = await page.request.put(`${API}/workflow-story-edit/photo/${photos[0]!.storyId}?libraryId=product`, {
    headers,
    data: { caption: "市民在公园赏花", properties: { credit: "新华社 记者 李华 摄" } },
  });
  expect(edited.status()).toBe(200);

  await page.goto("/frontend/search", { waitUntil: "networkidle" });
  const { dialog, frame } = await openVideoDialogFromHeader(page, "slideshow");
  // At 390 px the picker shows two or three of the eight: the grid is scrolled to each (it is virtualised).
  await pickStories(
    frame,
    `八图 ${run}`,
    photos.map((photo) => `product/${photo.storyId}`),
  );
  await expect(frame.getByTestId("video-clip")).toHaveCount(8);
  // Eight 4 s slides, seven 0.5 s crossfades: 28.5 s, which the timecode (m:ss and frames at 25/s) shows as 0:28.12.
  await expect(frame.getByTestId("video-timecode")).toContainText("/ 0:28.12");
  await frame.getByTestId("video-clip").nth(0).click();
  const caption = frame.locator('[data-testid="video-clip-panel"] textarea').first();
  await expect(caption).toHaveValue("市民在公园赏花 — 新华社 记者 李华 摄");
  // Edited on the second slide.
  await frame.getByTestId("video-clip").nth(1).click();
  await caption.fill("第二张：春天的城市");
  await frame.getByTestId("video-inspector-edit").click();
  await frame.getByTestId("video-title").fill(`八图 ${run}`);
  await chooseOption(frame, "video-preset", /^720p$/);
  await expect(frame.getByTestId("video-project-state")).toHaveAttribute("data-state", "saved", { timeout: 60_000 });
  await snapshot(page, testInfo, "slideshow-8-390");

  const created = page.waitForResponse((response) => response.url().includes(`${API}/video-edit/stories`), {
    timeout: 1_200_000,
  });
  await dialog.getByTestId("video-dialog-save").click();
  const story = (await (await created).json()).data as { libraryId: string; storyId: string };
  await page.waitForURL(/\/frontend\/material\?types=VIDEO$/, { timeout: 1_200_000 });
  const original = await page.request.get(`${API}/stories/download/material/${story.storyId}`, { headers });
  const rendered = testInfo.outputPath("slideshow-8.mp4");
  fs.writeFileSync(rendered, await original.body());
  const measured = probe(rendered);
  testInfo.annotations.push({ type: "slideshow", description: JSON.stringify(measured) });
  expect(Math.abs(measured.duration - 28.5)).toBeLessThanOrEqual(0.1);
  const edl = (
    await (await page.request.get(`${API}/video-edit/stories/material/${story.storyId}/edl`, { headers })).json()
  ).data;
  expect(edl.clips[0].caption).toBe("市民在公园赏花 — 新华社 记者 李华 摄");
  expect(edl.clips[1].caption).toBe("第二张：春天的城市");
  await page.setViewportSize({ width: 1366, height: 900 });
  await snapshot(page, testInfo, "slideshow-8-library-1366");
  expect(errors).toEqual([]);
});
