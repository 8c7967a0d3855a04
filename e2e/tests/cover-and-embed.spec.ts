import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { signIn, snapshot, watchConsoleErrors, zh } from "./helpers.js";

const API = "/dams/api/v1";

async function accessToken(page: Page): Promise<string> {
  const raw = await page.evaluate(() => localStorage.getItem("pro__Access-Token"));
  return (JSON.parse(raw ?? "{}") as { value: string }).value;
}

interface Seeded {
  libraryId: string;
  storyId: string;
}

/** Uploads a file with tus (a creation POST, then one PATCH with all bytes), as the upload pages do. */
async function upload(
  request: APIRequestContext,
  token: string,
  file: string,
  metadata: Record<string, string>,
): Promise<Seeded> {
  const bytes = fs.readFileSync(file);
  const encoded = Object.entries({ filename: path.basename(file), ...metadata })
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");
  const tus = { authorization: `Bearer ${token}`, "tus-resumable": "1.0.0" };
  const created = await request.post(`${API}/uploads`, {
    headers: { ...tus, "upload-length": String(bytes.length), "upload-metadata": encoded },
  });
  expect(created.status(), await created.text()).toBe(201);
  const patched = await request.patch(created.headers().location ?? "", {
    headers: { ...tus, "upload-offset": "0", "content-type": "application/offset+octet-stream" },
    data: bytes,
  });
  expect(patched.status(), await patched.text()).toBeLessThan(300);
  return ((await patched.json()) as { data: { result: Seeded } }).data.result;
}

async function commitAndProcess(request: APIRequestContext, token: string, story: Seeded, type: string) {
  const headers = { authorization: `Bearer ${token}` };
  const committed = await request.post(`${API}/workflow-story-create/${type}/commit`, {
    headers,
    data: { libraryId: story.libraryId, storyIds: [story.storyId] },
  });
  expect(committed.status(), await committed.text()).toBe(200);
  await expect
    .poll(async () => (await storyOf(request, token, story)).processingState, { timeout: 90_000 })
    .toBe("done");
}

interface StoryView {
  processingState: string;
  coverUrl: string | null;
  title: string;
}

async function storyOf(request: APIRequestContext, token: string, story: Seeded): Promise<StoryView> {
  const response = await request.get(`${API}/stories/${story.libraryId}/${story.storyId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await response.json()) as { data: StoryView }).data;
}

/** The cover's bytes and its size as the browser decodes it. */
async function coverOf(page: Page, token: string, url: string) {
  const response = await page.request.get(url, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  const bytes = await response.body();
  const size = await page.evaluate(
    async ({ base64, type }) => {
      const blob = await (await fetch(`data:${type};base64,${base64}`)).blob();
      const bitmap = await createImageBitmap(blob);
      return { width: bitmap.width, height: bitmap.height };
    },
    { base64: bytes.toString("base64"), type: response.headers()["content-type"] ?? "image/jpeg" },
  );
  return { bytes, ...size };
}

/** How many bytes the object URL an element shows holds (the app shows files of the API through object URLs). */
const bytesOfImage = async (element: HTMLImageElement) => (await (await fetch(element.src)).blob()).size;
const bytesOfPoster = async (element: HTMLVideoElement) =>
  element.poster ? (await (await fetch(element.poster)).blob()).size : 0;

test("the cover cropper: a frame of a video, cropped to 16:9, becomes the story's cover", async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const errors = watchConsoleErrors(page);
  await signIn(page);
  const token = await accessToken(page);

  // A 4:3 clip made here: its first frame is black, later frames are the moving test pattern.
  const videoFile = testInfo.outputPath("cover-source.mp4");
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc2=duration=4:size=640x480:rate=25,fade=in:st=0:d=1",
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    videoFile,
  ]);
  const title = `封面 裁剪 ${String(Date.now()).slice(-6)}`;
  const video = await upload(page.request, token, videoFile, { libraryId: "product", title });
  await commitAndProcess(page.request, token, video, "video");
  const before = await storyOf(page.request, token, video);
  expect(before.coverUrl).not.toBeNull();
  const oldCover = await coverOf(page, token, before.coverUrl!);

  // The viewer's cover action opens the cropper on a frame of the video.
  await page.goto(`/frontend/search?story=${video.libraryId}/${video.storyId}`, { waitUntil: "networkidle" });
  const viewer = page.locator(".ant-drawer-content");
  await viewer.getByTestId("cover-action").click();
  const modal = page.locator(".ant-modal-content").filter({ hasText: zh("cover.title") });
  await expect(modal).toBeVisible();
  const frameVideo = modal.getByTestId("cover-frame-video");
  await expect.poll(() => frameVideo.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThan(1);
  await frameVideo.evaluate(
    (element: HTMLVideoElement) =>
      new Promise<void>((resolve) => {
        element.addEventListener("seeked", () => resolve(), { once: true });
        element.currentTime = 2.5;
      }),
  );
  await modal.getByTestId("cover-take-frame").click();

  // The crop box is locked to 16:9, with the spec's caption.
  await expect(modal.getByTestId("cover-ratio-caption")).toHaveText(
    zh("cover.ratioCaption").replace("{{ratio}}", "16:9"),
  );
  const cropBox = modal.locator(".cropper-crop-box");
  await expect(cropBox).toBeVisible();
  const box = (await cropBox.boundingBox())!;
  expect(Math.abs(box.width / box.height - 16 / 9)).toBeLessThan(0.02);
  // Shrink it from a corner handle: it stays 16:9.
  const handle = (await modal.locator(".cropper-point.point-se").boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x - box.width * 0.3, handle.y - box.height * 0.1, { steps: 5 });
  await page.mouse.up();
  const shrunk = (await cropBox.boundingBox())!;
  expect(shrunk.width).toBeLessThan(box.width);
  expect(Math.abs(shrunk.width / shrunk.height - 16 / 9)).toBeLessThan(0.02);
  await snapshot(page, testInfo, "cover-cropper");

  await modal.getByTestId("cover-confirm").click();
  await expect(page.getByText(zh("cover.saved"))).toBeVisible();
  await expect(modal).toBeHidden();

  // The story's cover changed: a new URL, a 16:9 image, other bytes than before.
  await expect.poll(async () => (await storyOf(page.request, token, video)).coverUrl).not.toBe(before.coverUrl);
  const after = await storyOf(page.request, token, video);
  const newCover = await coverOf(page, token, after.coverUrl!);
  expect(newCover.width * 9).toBe(newCover.height * 16);
  expect(newCover.bytes.equals(oldCover.bytes)).toBe(false);
  expect(oldCover.width * 9).not.toBe(oldCover.height * 16);

  // The viewer's video shows it as its poster, and the story's history records the edit.
  const player = viewer.getByTestId("story-video");
  await expect.poll(() => player.evaluate(bytesOfPoster)).toBe(newCover.bytes.length);
  const actions = await page.request.get(`${API}/story-actions?libraryId=${video.libraryId}&storyId=${video.storyId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const content = ((await actions.json()) as { data: { content: { action: string; detail?: unknown }[] } }).data
    .content;
  expect(content.some((action) => action.action === "edit" && JSON.stringify(action).includes("cover"))).toBe(true);

  // The search grid's card shows the new cover (the image of the card is the new cover's bytes).
  await page.goto(`/frontend/search?fulltext=${encodeURIComponent(title)}`, { waitUntil: "networkidle" });
  const card = page.getByTestId("story-card").filter({ hasText: title }).first();
  const cardImage = card.locator("img");
  await expect(cardImage).toBeVisible();
  await expect.poll(() => cardImage.evaluate(bytesOfImage)).toBe(newCover.bytes.length);
  expect(errors).toEqual([]);
});
