import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import {
  buttonName,
  confirmPopconfirm,
  DESKTOP,
  en,
  expectToast,
  expectViewerDownloadsOriginal,
  snapshot,
  test,
  zh,
} from "./helpers.js";
import { API, commitAndProcess, seedingToken, upload } from "./seed.js";

test.use({ viewport: DESKTOP });

/** A button's accessible name: antd puts a space between two Chinese characters (下 载). */
const CORPUS = path.resolve(import.meta.dirname, "../../../shared/corpus/exif-samples/jpg");

test("search from the header, open a story, favourite it, find it under favourites; browse a folder", async ({
  page,
  signedIn: errors,
}, testInfo) => {
  // Three photos processed and a dozen pages: 2.7 min at load 20, over 3 min at load 36.
  test.setTimeout(360_000);
  const token = await seedingToken(page, "browse");
  const headers = { authorization: `Bearer ${token}` };

  // A folder of the product library, and three photos (one of them in the folder).
  const run = String(Date.now()).slice(-6);
  const folderName = `e2e 两会 ${run}`;
  const folder = await page.request.post(`${API}/libraries/product/folders`, { headers, data: { name: folderName } });
  expect(folder.status(), await folder.text()).toBe(200);
  const folderId = ((await folder.json()) as { data: { id: string } }).data.id;
  const typhoon = await upload(page.request, token, path.join(CORPUS, "Canon_40D.jpg"), {
    libraryId: "product",
    title: `台风 登陆 ${run}`,
    caption: "Typhoon press conference",
  });
  const congress = await upload(page.request, token, path.join(CORPUS, "Nikon_D70.jpg"), {
    libraryId: "product",
    folderId,
    title: `两会 发布会 ${run}`,
  });
  const other = await upload(page.request, token, path.join(CORPUS, "Kodak_CX7530.jpg"), {
    libraryId: "product",
    title: `Harbour ${run}`,
  });
  await commitAndProcess(page.request, token, [typhoon, congress, other]);

  // The header's search box drives the search page.
  await page.goto("/frontend/search", { waitUntil: "networkidle" });
  const headerSearch = page.locator(".ant-layout-header").getByRole("searchbox");
  await headerSearch.fill(`台风 ${run}`);
  await headerSearch.press("Enter");
  await expect(page).toHaveURL(
    new RegExp(`/frontend/search\\?fulltext=${encodeURIComponent(`台风 ${run}`).replace(/%20/g, "(%20|\\+)")}`),
  );
  const card = page.locator(`[data-testid="story-card"][data-story="product/${typhoon.storyId}"]`);
  await expect(card).toBeVisible();
  await expect(card.getByRole("img", { name: typhoon.title })).toBeVisible();
  // The search is real: the harbour photo of the same run does not match 台风.
  await expect(page.locator(`[data-story="product/${other.storyId}"]`)).toBeHidden();
  await snapshot(page, testInfo, "search-grid");

  // All three photos of the run share its number; two selected download as one zip.
  await headerSearch.fill(run);
  await headerSearch.press("Enter");
  await expect(page.locator(`[data-story="product/${other.storyId}"]`)).toBeVisible();
  await card.getByRole("checkbox").check();
  await page.locator(`[data-story="product/${other.storyId}"]`).getByRole("checkbox").check();
  const bar = page.getByTestId("selection-bar");
  await expect(bar).toContainText(zh("stories.selected").replace("{{count}}", "2"));
  const zipping = page.waitForEvent("download");
  await bar.getByRole("button", { name: buttonName(zh("stories.download")) }).click();
  const zip = await zipping;
  expect(zip.suggestedFilename()).toMatch(/\.zip$/);
  const bytes = fs.readFileSync(await zip.path());
  expect(bytes.subarray(0, 4).toString("hex")).toBe("504b0304");
  await bar.getByRole("button", { name: zh("stories.clearSelection") }).click();
  await expect(bar).toBeHidden();

  // A Shift-click selects the range from the checkbox clicked before: the run's three stories.
  const cards = page.locator('[data-testid="story-card"]');
  await expect(cards).toHaveCount(3);
  await cards.nth(0).getByRole("checkbox").click();
  await cards
    .nth(2)
    .getByRole("checkbox")
    .click({ modifiers: ["Shift"] });
  await expect(bar).toContainText(zh("stories.selected").replace("{{count}}", "3"));
  for (const index of [0, 1, 2]) await expect(cards.nth(index).getByRole("checkbox")).toBeChecked();
  await bar.getByRole("button", { name: zh("stories.clearSelection") }).click();
  await expect(bar).toBeHidden();

  // The list view shows the same story.
  await page.getByTitle(zh("stories.view.list")).click();
  await expect(page).toHaveURL(/view=list/);
  await expect(card).toBeVisible();
  await snapshot(page, testInfo, "search-list");

  // Open the viewer: the URL names the story, so it can be linked to.
  await card.getByRole("button").first().click();
  await expect(page).toHaveURL(new RegExp(`story=product%2F${typhoon.storyId}`));
  const viewer = page.locator(".ant-drawer-content");
  await expect(viewer.getByTestId("story-preview").getByRole("img", { name: typhoon.title })).toBeVisible();
  await expect(viewer.getByTestId("story-metadata").getByText(typhoon.title, { exact: true })).toBeVisible();
  await expect(viewer.getByText("Canon EOS 40D").first()).toBeVisible();
  await viewer.getByRole("tab", { name: zh("stories.viewer.history") }).click();
  await expect(viewer.getByText(zh("stories.action.commit"), { exact: true })).toBeVisible();
  await viewer.getByRole("tab", { name: zh("stories.viewer.versions") }).click();
  await expect(viewer.getByText(zh("stories.viewer.versionNo").replace("{{no}}", "1"))).toBeVisible();

  // Favourite it.
  await viewer.getByTestId("favorite-toggle").click();
  await expectToast(page, zh("stories.favorited"));
  await expect(viewer.getByTestId("favorite-toggle")).toContainText(zh("stories.unfavorite").replace(/\s/g, ""));
  await snapshot(page, testInfo, "viewer");

  // A reload opens the same story from the URL.
  await page.reload({ waitUntil: "networkidle" });
  await expect(
    page.locator(".ant-drawer-content").getByTestId("story-metadata").getByText(typhoon.title, { exact: true }),
  ).toBeVisible();

  // It is among the favourites; the others are not.
  await page.goto("/upload/favorite", { waitUntil: "networkidle" });
  await expect(page.locator(`[data-story="product/${typhoon.storyId}"]`)).toBeVisible();
  await expect(page.locator(`[data-story="product/${other.storyId}"]`)).toHaveCount(0);
  await snapshot(page, testInfo, "favorites");

  // The folder: its tree, the breadcrumb, and only its story.
  await page.goto(`/frontend/product/${folderId}`, { waitUntil: "networkidle" });
  await expect(page.getByTestId("library-breadcrumb").getByText(folderName)).toBeVisible();
  await expect(page.getByTestId("folder-tree").getByText(folderName)).toBeVisible();
  await expect(page.locator(`[data-story="product/${congress.storyId}"]`)).toBeVisible();
  await expect(page.locator(`[data-story="product/${typhoon.storyId}"]`)).toHaveCount(0);
  await expect(page.getByTestId("stories-total")).toHaveText(zh("stories.total").replace("{{count}}", "1"));
  await snapshot(page, testInfo, "library-folder");

  // The types filter is kept in the URL: no video in the folder.
  await page.getByTestId("types-filter").getByText(zh("stories.type.video")).click();
  await expect(page).toHaveURL(/types=video/);
  await expect(page.getByTestId("stories-empty")).toBeVisible();

  // The story table and my stories list them too.
  await page.goto("/story/list", { waitUntil: "networkidle" });
  await expect(page.getByText(congress.title)).toBeVisible();
  await snapshot(page, testInfo, "story-list");
  await page.goto("/upload/my", { waitUntil: "networkidle" });
  await expect(page.locator(`[data-story="product/${other.storyId}"]`)).toBeVisible();
  await page.goto("/halfproduct/list", { waitUntil: "networkidle" });
  await snapshot(page, testInfo, "halfproduct-list");

  // Deleting a story from the viewer (after its confirm) removes it and lowers the header's photo count.
  const photoCount = async () => {
    const text = (await page.getByTestId("asset-counts").textContent()) ?? "";
    return Number(new RegExp(`${zh("layout.stats.photo")}\\s*(\\d+)`).exec(text)?.[1]);
  };
  await page.goto(`/frontend/search?story=product/${other.storyId}`, { waitUntil: "networkidle" });
  await expect(page.getByTestId("asset-counts")).toBeVisible();
  const photosBefore = await photoCount();
  expect(photosBefore).toBeGreaterThanOrEqual(3);
  await page
    .locator(".ant-drawer-content")
    .getByRole("button", { name: zh("stories.delete") })
    .click();
  await confirmPopconfirm(page);
  await expectToast(page, zh("crud.deleted"));
  await expect(page.locator(".ant-drawer-content")).toBeHidden();
  await expect(page.locator(`[data-story="product/${other.storyId}"]`)).toHaveCount(0);
  await expect.poll(photoCount).toBe(photosBefore - 1);

  // A phone-sized search page.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/frontend/search?fulltext=${encodeURIComponent(run)}`, { waitUntil: "networkidle" });
  await expect(page.locator(`[data-story="product/${typhoon.storyId}"]`)).toBeVisible();
  await snapshot(page, testInfo, "search-mobile");

  expect(errors).toEqual([]);
});

test("a facet refines a search to exactly the stories that match, and the URL keeps the filter", async ({
  page,
  signedIn: errors,
}, testInfo) => {
  test.setTimeout(180_000);
  const token = await seedingToken(page, "browse");
  const run = `facet${String(Date.now()).slice(-6)}`;
  const alice = `Alice ${run}`;
  const bob = `Bob ${run}`;
  const byAlice = [
    await upload(page.request, token, path.join(CORPUS, "Canon_40D.jpg"), {
      libraryId: "product",
      title: `港口 ${run} 1`,
      authors: JSON.stringify([alice]),
    }),
    await upload(page.request, token, path.join(CORPUS, "Nikon_D70.jpg"), {
      libraryId: "product",
      title: `港口 ${run} 2`,
      authors: JSON.stringify([alice]),
    }),
  ];
  const byBob = await upload(page.request, token, path.join(CORPUS, "Kodak_CX7530.jpg"), {
    libraryId: "product",
    title: `港口 ${run} 3`,
    authors: JSON.stringify([bob]),
  });
  await commitAndProcess(page.request, token, [...byAlice, byBob]);

  const total = (count: number) => zh("stories.total").replace("{{count}}", String(count));
  const shownStories = async () =>
    new Set(await page.getByTestId("story-card").evaluateAll((cards) => cards.map((card) => card.dataset.story)));

  // Search from the header: the run's three stories.
  await page.goto("/frontend/search", { waitUntil: "networkidle" });
  const headerSearch = page.locator(".ant-layout-header").getByRole("searchbox");
  await headerSearch.fill(run);
  await headerSearch.press("Enter");
  await expect(page.getByTestId("stories-total")).toHaveText(total(3));
  const facets = page.getByTestId("story-facets");
  await expect(facets.getByRole("checkbox", { name: bob })).toBeVisible();

  // One author: exactly her two stories remain, and the URL names the filter.
  await facets.getByRole("checkbox", { name: alice }).check();
  await expect(page).toHaveURL(new RegExp(`[?&]author=${encodeURIComponent(alice).replace(/%20/g, "(%20|\\+)")}(&|$)`));
  await expect(page).toHaveURL(new RegExp(`[?&]fulltext=${run}(&|$)`));
  await expect(page.getByTestId("stories-total")).toHaveText(total(2));
  await expect(page.getByTestId("story-card")).toHaveCount(2);
  expect(await shownStories()).toEqual(new Set(byAlice.map((story) => `product/${story.storyId}`)));
  await snapshot(page, testInfo, "facet-author");

  // The filter lives in the URL: a reload shows the same two.
  await page.reload({ waitUntil: "networkidle" });
  await expect(page.getByTestId("stories-total")).toHaveText(total(2));
  await expect(page.getByTestId("story-facets").getByRole("checkbox", { name: alice })).toBeChecked();

  // Unticking it gives the three back and drops the parameter.
  await page.getByTestId("story-facets").getByRole("checkbox", { name: alice }).uncheck();
  await expect(page.getByTestId("stories-total")).toHaveText(total(3));
  expect(new URL(page.url()).searchParams.has("author")).toBe(false);
  expect(errors).toEqual([]);
});

test("a video plays on its proxy with the thumbnail strip, an audio shows its waveform, the original downloads", async ({
  page,
  signedIn: errors,
}, testInfo) => {
  // Its video's proxy and the audio's waveform are media jobs: minutes on a loaded machine (as the video desk's).
  test.setTimeout(900_000);
  const token = await seedingToken(page, "browse");

  // Made here with ffmpeg: a 4 s test pattern with a tone, and a 4 s tone.
  const videoFile = testInfo.outputPath("pattern.mp4");
  const audioFile = testInfo.outputPath("tone.wav");
  const lavfi = (source: string) => ["-f", "lavfi", "-i", source];
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    ...lavfi("testsrc=duration=4:size=320x240:rate=25"),
    ...lavfi("sine=frequency=440:duration=4"),
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-shortest",
    videoFile,
  ]);
  execFileSync("ffmpeg", ["-v", "error", "-y", ...lavfi("aevalsrc=sin(330*2*PI*t)*abs(sin(PI*t)):d=4"), audioFile]);
  const run = String(Date.now()).slice(-6);
  const video = await upload(page.request, token, videoFile, { libraryId: "product", title: `发布会 视频 ${run}` });
  const audio = await upload(page.request, token, audioFile, { libraryId: "product", title: `采访 录音 ${run}` });
  await commitAndProcess(page.request, token, [video], "video", 600_000);
  await commitAndProcess(page.request, token, [audio], "audio", 600_000);

  // The viewer opens from its URL; the video plays on its proxy.
  await page.goto(`/frontend/search?story=product/${video.storyId}`, { waitUntil: "networkidle" });
  const viewer = page.locator(".ant-drawer-content");
  const player = viewer.getByTestId("story-video");
  await expect(player).toBeVisible();
  await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.duration)).toBeGreaterThan(3);
  await player.evaluate((element: HTMLVideoElement) => {
    element.muted = true;
    return element.play();
  });
  await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0);
  await player.evaluate((element: HTMLVideoElement) => element.pause());

  // Clicking the strip three quarters along seeks there.
  const strip = viewer.getByTestId("story-strip");
  await expect(strip).toBeVisible();
  const box = (await strip.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
  await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
  await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(2.5);
  await snapshot(page, testInfo, "viewer-video");

  // The original downloads under the story's title, with the original's extension and the story's metadata.
  await expectViewerDownloadsOriginal(page, videoFile, video.title);

  // The audio shows its waveform, drawn by wavesurfer.js from the waveform rendition's peaks.
  await page.goto(`/frontend/search?story=product/${audio.storyId}`, { waitUntil: "networkidle" });
  const waveform = page.locator(".ant-drawer-content").getByTestId("story-waveform");
  await expect(waveform).toBeVisible();
  await expect.poll(async () => (await waveform.boundingBox())?.height ?? 0).toBeGreaterThan(50);
  await snapshot(page, testInfo, "viewer-audio");

  // In English: the same viewer, its tabs and metadata groups in en-US.
  await page.evaluate(() => localStorage.setItem("pro__lang", "en-US"));
  await page.reload({ waitUntil: "networkidle" });
  const english = page.locator(".ant-drawer-content");
  await expect(english.getByRole("tab", { name: en("stories.viewer.history") })).toBeVisible();
  await expect(english.getByText(en("stories.meta.editorial"))).toBeVisible();
  await expect(english.getByTestId("favorite-toggle")).toContainText(en("stories.favorite"));
  await snapshot(page, testInfo, "viewer-audio-en");

  expect(errors).toEqual([]);
});
