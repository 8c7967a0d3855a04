import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { baseURL, embedHostPort } from "../playwright.config.js";
import { expectSamePhotoWithTitle, makeTestVideo, signIn, snapshot, startSignedIn, zh } from "./helpers.js";
import { API, commitAndProcess, PHOTOS, seedingToken, storyOf, upload } from "./seed.js";

/** The cover's bytes and its size as the browser decodes it. */
async function coverOf(page: Page, token: string, url: string) {
  const response = await page.request.get(url, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  const bytes = await response.body();
  const size = await page.evaluate(
    async ({ base64, type }) => {
      // The page's CSP refuses to fetch data: URLs; the bytes are decoded here instead.
      const blob = new Blob([Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))], { type });
      const bitmap = await createImageBitmap(blob);
      return { width: bitmap.width, height: bitmap.height };
    },
    { base64: bytes.toString("base64"), type: response.headers()["content-type"] ?? "image/jpeg" },
  );
  return { bytes, ...size };
}

test("the cover cropper: a frame of a video, cropped to 16:9, becomes the story's cover", async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const errors = await startSignedIn(page, { width: 1440, height: 900 });
  const token = await seedingToken(page, "cover and embed");

  // A 4:3 clip made here: its first frame is black, later frames are the moving test pattern.
  const videoFile = testInfo.outputPath("cover-source.mp4");
  makeTestVideo(videoFile, "testsrc2=duration=4:size=640x480:rate=25,fade=in:st=0:d=1");
  const title = `封面 裁剪 ${String(Date.now()).slice(-6)}`;
  const video = await upload(page.request, token, videoFile, { libraryId: "product", title });
  await commitAndProcess(page.request, token, [video], "video");
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
  // The frame picker gave way to the cropper.
  await expect(modal.getByTestId("cover-frame-video")).toHaveCount(0);
  await modal.getByTestId("cover-confirm").scrollIntoViewIfNeeded();
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
  // A window resized and back (a full-page capture does this too): the crop box keeps its place and ratio.
  await page.setViewportSize({ width: 700, height: 600 });
  await expect.poll(async () => (await cropBox.boundingBox())?.width ?? 0).toBeLessThan(shrunk.width * 0.95);
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(modal.getByTestId("cover-confirm")).toBeEnabled();
  await expect
    .poll(async () => {
      const resized = await cropBox.boundingBox();
      return resized
        ? Math.abs(resized.width - shrunk.width) < 2 && Math.abs(resized.height - shrunk.height) < 2
        : false;
    })
    .toBe(true);
  await snapshot(page, testInfo, "cover-cropper");

  await modal.getByTestId("cover-confirm").click();
  // Saved: the modal closes (the toast lasts a second, spec section 9, too short to wait for).
  await expect(modal).toBeHidden({ timeout: 60_000 });

  // The story's cover changed: a new URL, a 16:9 image, other bytes than before.
  await expect.poll(async () => (await storyOf(page.request, token, video)).coverUrl).not.toBe(before.coverUrl);
  const after = await storyOf(page.request, token, video);
  const newCover = await coverOf(page, token, after.coverUrl!);
  expect(newCover.width * 9).toBe(newCover.height * 16);
  expect(newCover.bytes.equals(oldCover.bytes)).toBe(false);
  expect(oldCover.width * 9).not.toBe(oldCover.height * 16);

  // The viewer's video shows it as its poster, and the story's history records the edit.
  const player = viewer.getByTestId("story-video");
  // (Files of the API are shown through object URLs; the poster's is decoded to read its size.)
  const posterSize = (element: HTMLVideoElement) => {
    const image = new Image();
    image.src = element.poster;
    return image.decode().then(
      () => [image.naturalWidth, image.naturalHeight],
      () => [0, 0],
    );
  };
  await expect.poll(() => player.evaluate(posterSize)).toEqual([newCover.width, newCover.height]);
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
  await expect(cardImage).toBeVisible({ timeout: 60_000 });
  await expect
    .poll(() => cardImage.evaluate((element: HTMLImageElement) => [element.naturalWidth, element.naturalHeight]))
    .toEqual([newCover.width, newCover.height]);
  expect(errors).toEqual([]);
});

/**
 * Another newsroom system: a page that frames one of ours and records every
 * message it receives. Served on `port` (an origin of its own).
 */
async function startHost(port: number): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://host.invalid");
    const frame = `${baseURL}${url.searchParams.get("frame") ?? "/source/ismpsource"}`;
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html><body><h1>cms</h1>
<script>
window.received = [];
window.addEventListener("message", (event) => window.received.push({ origin: event.origin, data: event.data }));
</script>
<iframe id="dams" src="${frame.replaceAll('"', "&quot;")}" style="width: 1280px; height: 820px"></iframe>
</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${bound}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Received {
  origin: string;
  data: {
    type: string;
    page?: string;
    stories?: { libraryId: string; storyId: string; title: string; downloadUrl: string }[];
  };
}

const receivedBy = (page: Page) => page.evaluate(() => (window as unknown as { received: Received[] }).received);

test("material selection in a frame of an allowed system: pick a story, the host receives it", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 960 });
  await signIn(page);
  const token = await seedingToken(page, "cover and embed");
  const title = `嵌入 素材 ${String(Date.now()).slice(-6)}`;
  const photo = await upload(page.request, token, path.join(PHOTOS, "Canon_40D.jpg"), { libraryId: "product", title });
  await commitAndProcess(page.request, token, [photo], "photo");

  const host = await startHost(embedHostPort);
  try {
    const origin = encodeURIComponent(host.origin);
    await page.goto(`${host.origin}/?frame=${encodeURIComponent(`/source/ismpsource?origin=${origin}`)}`);
    const frame = page.frameLocator("#dams");
    // The page announces itself to the host, at the host's origin, from ours.
    await expect
      .poll(async () =>
        (await receivedBy(page)).map((message) => [message.origin, message.data.type, message.data.page]),
      )
      .toEqual([[baseURL, "dams:ready", "ismpsource"]]);
    // No front-area chrome inside the frame: no header menu, no tabs.
    await expect(frame.getByTestId("embed-source")).toBeVisible();
    await expect(frame.getByTestId("user-menu")).toHaveCount(0);

    const search = frame.getByLabel(zh("search.placeholder"));
    await search.fill(title);
    await search.press("Enter");
    const card = frame.getByTestId("story-card").filter({ hasText: title });
    await expect(card).toHaveCount(1);
    await card.click();
    await expect(frame.getByTestId("embed-selected")).toHaveText(zh("stories.selected").replace("{{count}}", "1"));
    await snapshot(page, testInfo, "embed-source");
    await frame.getByTestId("embed-confirm").click();

    await expect.poll(async () => (await receivedBy(page)).length).toBe(2);
    const selection = (await receivedBy(page))[1]!;
    expect(selection.origin).toBe(baseURL);
    expect(selection.data.type).toBe("dams:selection");
    expect(selection.data.stories).toEqual([
      expect.objectContaining({
        libraryId: photo.libraryId,
        storyId: photo.storyId,
        title,
        downloadUrl: `${baseURL}${API}/stories/download/${photo.libraryId}/${photo.storyId}`,
      }),
    ]);
    // What the host received downloads the story (with a token of its own): the photo, with the story's title in it.
    const original = await page.request.get(selection.data.stories![0]!.downloadUrl, {
      headers: { authorization: `Bearer ${token}` },
    });
    await expectSamePhotoWithTitle(await original.body(), path.join(PHOTOS, "Canon_40D.jpg"), title);

    await frame.getByTestId("embed-cancel").click();
    await expect
      .poll(async () => (await receivedBy(page)).map((message) => message.data.type))
      .toEqual(["dams:ready", "dams:selection", "dams:cancel"]);

    // A host that names another origin than its own gets the refusal and no message at all.
    const foreign = encodeURIComponent(`http://127.0.0.1:${embedHostPort + 1}`);
    await page.goto(`${host.origin}/?frame=${encodeURIComponent(`/source/ismpsource?origin=${foreign}`)}`);
    await expect(page.frameLocator("#dams").getByTestId("embed-refused")).toBeVisible();
    expect(await receivedBy(page)).toEqual([]);
  } finally {
    await host.close();
  }
});

test("a system that is not allowed cannot frame the embeddable pages", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const stranger = await startHost(embedHostPort + 1);
  try {
    const origin = encodeURIComponent(stranger.origin);
    for (const path of ["/source/ismpsource", "/source/ismpupload"]) {
      await page.goto(`${stranger.origin}/?frame=${encodeURIComponent(`${path}?origin=${origin}`)}`);
      // Chromium refuses the frame: its Content-Security-Policy names only the allowed origin.
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      await expect.poll(() => frame?.url()).toMatch(/^chrome-error:/);
      expect(await receivedBy(page)).toEqual([]);
    }
    // The same pages open as top-level pages (for the sign-in, for instance), but talk to nobody.
    await page.goto(`/source/ismpsource?origin=${origin}`);
    await expect(page.getByTestId("embed-refused")).toBeVisible();
  } finally {
    await stranger.close();
  }
});

test("image upload in a frame of an allowed system: the committed photo is sent to the host", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 960 });
  await signIn(page);
  const host = await startHost(embedHostPort);
  try {
    const origin = encodeURIComponent(host.origin);
    await page.goto(`${host.origin}/?frame=${encodeURIComponent(`/source/ismpupload?origin=${origin}`)}`);
    await expect
      .poll(async () => (await receivedBy(page)).map((message) => [message.data.type, message.data.page]))
      .toEqual([["dams:ready", "ismpupload"]]);
    const frame = page.frameLocator("#dams");
    await expect(frame.getByTestId("upload-page-photo")).toBeVisible();
    await frame
      .locator("input.uppy-Dashboard-input[type=file]")
      .first()
      .setInputFiles(path.join(PHOTOS, "Nikon_D70.jpg"));
    await frame.locator(".uppy-StatusBar-actionBtn--upload").click();
    const row = frame.getByTestId("upload-row");
    await expect(row).toHaveCount(1, { timeout: 90_000 });
    const [libraryId, storyId] = ((await row.getAttribute("data-story")) ?? "").split("/");
    await frame.getByTestId("upload-commit").click();
    await expect(frame.getByTestId("upload-committed")).toBeVisible({ timeout: 30_000 });

    await expect.poll(async () => (await receivedBy(page)).length, { timeout: 30_000 }).toBe(2);
    const uploaded = (await receivedBy(page))[1]!;
    expect(uploaded.origin).toBe(baseURL);
    expect(uploaded.data.type).toBe("dams:uploaded");
    expect(uploaded.data.stories).toEqual([
      expect.objectContaining({
        libraryId,
        storyId,
        downloadUrl: `${baseURL}${API}/stories/download/${libraryId}/${storyId}`,
      }),
    ]);
  } finally {
    await host.close();
  }
});
