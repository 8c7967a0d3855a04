import fs from "node:fs";
import path from "node:path";
import { expect, type Response } from "@playwright/test";
import { DESKTOP, expectViewerDownloadsOriginal, makeTestVideo, snapshot, test, zh } from "./helpers.js";
import { API, commitAndProcess, PHOTOS, seedingToken, upload, waitForProcessing } from "./seed.js";

test.use({ viewport: DESKTOP });

const MEDIA = `${API}/media/`;

test("a video streams by its signed URL: plays, seeks with Range, downloads, becomes a favourite", async ({
  page,
  signedIn: errors,
}, testInfo) => {
  // The 20 s video's proxy is a media job: at load 20 it took over 90 s (the video desk journeys allow 10 min).
  test.setTimeout(900_000);
  const token = await seedingToken(page);

  // 20 s of noisy pattern: a proxy of several MB, so the player fetches it in ranges rather than whole.
  const videoFile = testInfo.outputPath("noise.mp4");
  makeTestVideo(videoFile, "testsrc2=duration=20:size=640x360:rate=25,noise=alls=40:allf=t", {
    frequency: 440,
    seconds: 20,
  });
  const run = String(Date.now()).slice(-6);
  const video = await upload(page.request, token, videoFile, { libraryId: "product", title: `查看器 视频 ${run}` });
  await commitAndProcess(page.request, token, [video], "video", 600_000);

  // Every answer of the media route, with the Range the browser asked for.
  const media: { range: string | null; status: number; url: string }[] = [];
  page.on("response", (response: Response) => {
    if (!response.url().includes(MEDIA)) return;
    media.push({ range: response.request().headers().range ?? null, status: response.status(), url: response.url() });
  });

  await page.goto(`/frontend/search?story=product/${video.storyId}`, { waitUntil: "networkidle" });
  const viewer = page.locator(".ant-drawer-content");
  const player = viewer.getByTestId("story-video");
  await expect(player).toBeVisible();
  const src = await player.evaluate((element: HTMLVideoElement) => element.currentSrc);
  expect(new URL(src).pathname.startsWith(MEDIA)).toBe(true);

  // The signed URL needs no bearer token: a request without one gets the first bytes.
  const anonymous = await page.request.get(src, { headers: { range: "bytes=0-15" } });
  expect(anonymous.status()).toBe(206);
  expect(anonymous.headers()["content-range"]).toMatch(/^bytes 0-15\/\d+$/);
  expect((await anonymous.body()).subarray(4, 8).toString("latin1")).toBe("ftyp");

  // It plays.
  await player.evaluate((element: HTMLVideoElement) => {
    element.muted = true;
    return element.play();
  });
  await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0.5);
  expect(await player.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThanOrEqual(2);
  await player.evaluate((element: HTMLVideoElement) => element.pause());

  // It seeks near the end, and can play from there.
  await player.evaluate(
    (element: HTMLVideoElement) =>
      new Promise<void>((resolve) => {
        element.addEventListener("seeked", () => resolve(), { once: true });
        element.currentTime = element.duration - 3;
      }),
  );
  await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThanOrEqual(2);
  expect(await player.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(15);
  const ranged = media.filter((answer) => answer.url === src && answer.range !== null);
  expect(ranged.every((answer) => answer.status === 206)).toBe(true);
  // Seeking fetched a later part of the file, not the file from its start.
  expect(ranged.some((answer) => /^bytes=[1-9]\d*-/.test(answer.range ?? ""))).toBe(true);
  await snapshot(page, testInfo, "viewer-signed-video");

  // The original downloads whole, with the story's metadata written in.
  await expectViewerDownloadsOriginal(page, videoFile, video.title);

  // Favourite it and find it under the favourites, its thumbnail shown by signed URL too.
  await viewer.getByTestId("favorite-toggle").click();
  await expect(viewer.getByTestId("favorite-toggle")).toContainText(zh("stories.unfavorite").replace(/\s/g, ""));
  await page.goto("/upload/favorite", { waitUntil: "networkidle" });
  const card = page.locator(`[data-story="product/${video.storyId}"]`);
  await expect(card).toBeVisible();
  const thumbnail = card.getByRole("img", { name: video.title });
  await expect(thumbnail).toBeVisible();
  expect(new URL(await thumbnail.evaluate((image: HTMLImageElement) => image.currentSrc)).pathname).toMatch(
    new RegExp(`^${MEDIA}`),
  );
  expect(await thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

  // Its processing, as any reader sees it: one job, done.
  const processing = await page.request.get(`${API}/stories/product/${video.storyId}/processing`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const jobs = ((await processing.json()) as { data: { jobs: { state: string; progress: number }[] } }).data.jobs;
  expect(jobs[0]).toMatchObject({ state: "succeeded", progress: 100 });

  expect(errors).toEqual([]);
});

test("two versions of a photo compared side by side and with a swipe, their differences listed", async ({
  page,
  signedIn: errors,
}, testInfo) => {
  test.setTimeout(180_000);
  const token = await seedingToken(page);
  const run = String(Date.now()).slice(-6);
  const photo = await upload(page.request, token, path.join(PHOTOS, "Canon_40D.jpg"), {
    libraryId: "product",
    title: `版本 对比 ${run}`,
  });
  await commitAndProcess(page.request, token, [photo]);

  // Version 2: another image saved over it, as the image editor does.
  const edited = fs.readFileSync(path.join(PHOTOS, "Nikon_D70.jpg")).toString("base64");
  const saved = await page.request.post(`${API}/upload-images/base64image`, {
    headers: { authorization: `Bearer ${token}` },
    data: { base64String: `data:image/jpeg;base64,${edited}`, libraryId: "product", storyId: photo.storyId },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  await waitForProcessing(page.request, token, [photo]);

  await page.goto(`/frontend/search?story=product/${photo.storyId}`, { waitUntil: "networkidle" });
  const viewer = page.locator(".ant-drawer-content");
  await viewer.getByRole("tab", { name: zh("stories.viewer.versions") }).click();
  const compare = viewer.getByTestId("compare-versions");
  await expect(compare).toBeDisabled();
  await viewer.getByTestId("compare-tick-1").check();
  await viewer.getByTestId("compare-tick-2").check();
  await compare.click();

  const dialog = page.getByRole("dialog").filter({ has: page.getByTestId("compare-fields") });
  await expect(dialog).toBeVisible();
  for (const versionNo of [1, 2]) {
    const image = dialog.getByTestId(`compare-image-${versionNo}`);
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
  }
  const row = (field: string) => dialog.locator(`tr[data-field="${field}"]`);
  await expect(row("checksum")).toHaveAttribute("data-different", "true");
  await expect(row("size")).toHaveAttribute("data-different", "true");
  await expect(row("dimensions")).toHaveAttribute("data-different", "true");
  await expect(row("dimensions")).toContainText("100 × 68");
  await expect(row("dimensions")).toContainText("100 × 66");
  await expect(row("createdBy")).toContainText("admin");
  await snapshot(page, testInfo, "compare-side-by-side");

  await dialog.getByText(zh("viewerMedia.compare.swipe"), { exact: true }).click();
  await expect(dialog.getByTestId("compare-swipe")).toBeVisible();
  await expect(dialog.getByRole("slider")).toBeVisible();
  await snapshot(page, testInfo, "compare-swipe");

  expect(errors).toEqual([]);
});
