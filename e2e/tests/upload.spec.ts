import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { openApp, snapshot, watchConsoleErrors, zh } from "./helpers.js";

const CORPUS = path.resolve(import.meta.dirname, "../../../shared/corpus/exif-samples/jpg");
const PHOTOS = [
  "Canon_40D.jpg",
  "Canon_DIGITAL_IXUS_400.jpg",
  "Canon_PowerShot_S40.jpg",
  "Konica_Minolta_DiMAGE_Z3.jpg",
  "Nikon_D70.jpg",
  "Panasonic_DMC-FZ30.jpg",
  "Pentax_K10D.jpg",
  "Reconyx_HC500_Hyperfire.jpg",
  "Samsung_Digimax_i50_MP3.jpg",
  "Sony_HDR-HC3.jpg",
].map((name) => path.join(CORPUS, name));
/** Uploaded again after the batch: a duplicate of its first photo; with random bytes after it, the large file. */
const RELOADED = "Canon_40D.jpg";
/** Bytes after the JPEG's end that make the large file larger than the size the web app sends whole (16 MiB). */
const LARGE_PADDING = 24 * 1024 * 1024;
/** The content type of a tus request that carries bytes. */
const TUS_BYTES = "application/offset+octet-stream";
/**
 * Requests carrying a file's bytes refused while "the network is down" (each file tolerates five with its retry
 * delays). Photos this small go whole in their creation POST (tus creation-with-upload); a cut one is sent again.
 * Resuming a large file from HEAD's offset after a cut PATCH is the network disk's journey (disk.spec.ts).
 */
const ABORTED_SENDS = 3;

/**
 * An access token that has not expired: on a loaded machine this journey outlives the first one, and
 * the upload page makes no more calls once everything is processed. Another tab of the session
 * opens the front area, which refreshes it.
 */
async function freshAccessToken(page: Page): Promise<string> {
  const other = await page.context().newPage();
  await other.goto("/frontend", { waitUntil: "networkidle" });
  const raw = await other.evaluate(() => localStorage.getItem("pro__Access-Token"));
  await other.close();
  return (JSON.parse(raw ?? "{}") as { value: string }).value;
}

test("a batch of photos uploads with tus through a network cut, gets its metadata, is committed and found", async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const errors = watchConsoleErrors(page);
  const run = `e2eup${Date.now().toString(36)}`;
  const bytes = PHOTOS.reduce((sum, file) => sum + fs.statSync(file).size, 0);

  // The network: uploads pass until half the batch is in, then a few are cut off and sent again.
  const figures = { posts: 0, wholePosts: 0, patches: 0, sends: 0, aborted: 0, heads: 0 };
  let offline = false;
  await page.route(/\/dams\/api\/v1\/uploads(\/|$)/, async (route) => {
    const request = route.request();
    if (request.method() === "HEAD") figures.heads += 1;
    if (request.method() === "POST") figures.posts += 1;
    const carriesBytes = request.method() === "PATCH" || request.headers()["content-type"] === TUS_BYTES;
    if (!carriesBytes) return route.continue();
    figures.sends += 1;
    if (offline || (figures.sends > PHOTOS.length / 2 && figures.aborted < ABORTED_SENDS)) {
      figures.aborted += 1;
      return route.abort("internetdisconnected");
    }
    if (request.method() === "PATCH") figures.patches += 1;
    else figures.wholePosts += 1;
    return route.continue();
  });

  await openApp(page, "/upload/image");
  // The page is a lazily loaded chunk: on a loaded machine it takes a while.
  await expect(page.getByTestId("upload-page-photo")).toBeVisible({ timeout: 30_000 });
  // The limits show before anything is uploaded.
  await expect(page.getByTestId("upload-limits")).toContainText(".heic");
  await expect(page.getByTestId("upload-limits")).toContainText("GB");
  await expect(page.getByTestId("upload-library")).toContainText(/.+/);

  // The batch form: its values travel as Upload-Metadata.
  const form = page.getByTestId("upload-batch-form");
  await form.getByLabel(zh("upload.field.caption")).fill(`Camera samples ${run}`);
  const keywords = form.getByLabel(zh("upload.field.keywords"));
  await keywords.fill(run);
  await keywords.press("Enter");
  await keywords.fill("e2e-upload");
  await keywords.press("Enter");
  await expect(form.locator(".ant-select-selection-item", { hasText: run })).toBeVisible();
  // A custom property (拍摄地点, from /properties/list) for the whole batch.
  await form.getByLabel("拍摄地点").fill(`Batchplace${run}`);

  await page.locator("input.uppy-Dashboard-input[type=file]").first().setInputFiles(PHOTOS);
  await expect(page.locator(".uppy-Dashboard-Item")).toHaveCount(PHOTOS.length);
  await snapshot(page, testInfo, "upload-selected");
  await page.locator(".uppy-StatusBar-actionBtn--upload").click();

  // Every file arrives despite the cut and becomes a draft story whose processing the page follows.
  const rows = page.getByTestId("upload-row");
  await expect(rows).toHaveCount(PHOTOS.length, { timeout: 90_000 });
  await expect(page.locator(".uppy-StatusBar.is-complete")).toBeVisible();
  expect(figures.aborted).toBe(ABORTED_SENDS);
  // Each photo reached the server in one request: its creation POST with all its bytes, no PATCH.
  expect(figures).toMatchObject({ wholePosts: PHOTOS.length, patches: 0 });
  await expect(page.locator('[data-testid="upload-row"][data-state="done"]')).toHaveCount(PHOTOS.length, {
    timeout: 90_000,
  });
  await expect(page.locator('[data-testid="upload-thumbnail"] img')).toHaveCount(PHOTOS.length, { timeout: 30_000 });
  await snapshot(page, testInfo, "upload-processed");

  // One file's own caption, edited after upload.
  const first = rows.first();
  const firstStory = (await first.getAttribute("data-story")) ?? "";
  await expect(first.getByLabel(zh("upload.field.caption"))).toHaveValue(`Camera samples ${run}`);
  await first.getByLabel(zh("upload.field.caption")).fill(`Harbour at dawn ${run}`);
  await first.getByRole("button", { name: zh("upload.file.save") }).click();
  await expect(page.getByText(zh("upload.file.saved"))).toBeVisible();

  // One file's own custom property, over the batch's (sent with the commit).
  await first.getByText(zh("upload.file.properties")).click();
  await first.getByTestId("upload-own-properties").getByLabel("拍摄地点").fill(`Ownplace${run}`);
  const secondStory = (await rows.nth(1).getAttribute("data-story")) ?? "";

  // Commit: the drafts become stories everyone can find.
  const stories = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-story")));
  await page.getByTestId("upload-commit").click();
  // Ten stories in one commit, on a machine other work may load: give it time.
  await expect(page.getByTestId("upload-committed")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("upload-committed").getByRole("link")).toHaveCount(PHOTOS.length);
  await expect(rows.getByText(zh("upload.committed"), { exact: true })).toHaveCount(PHOTOS.length);
  await snapshot(page, testInfo, "upload-committed");

  // What the server holds: the batch's keywords, the edited caption, the form's custom properties, committed.
  const token = await freshAccessToken(page);
  const stored = await page.request.get(`/dams/api/v1/stories/${firstStory}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const story = ((await stored.json()) as { data: Record<string, unknown> }).data;
  expect(story.status).toBe("committed");
  expect(story.caption).toBe(`Harbour at dawn ${run}`);
  expect(story.keywords).toEqual(expect.arrayContaining([run, "e2e-upload"]));
  expect(story.properties).toMatchObject({ location: `Ownplace${run}` });
  const second = await page.request.get(`/dams/api/v1/stories/${secondStory}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(((await second.json()) as { data: { properties: object } }).data.properties).toMatchObject({
    location: `Batchplace${run}`,
  });
  // The commit records the batch's keywords in the user's keyword history, which the keyword picker offers first.
  await expect
    .poll(
      async () => {
        const history = await page.request.get("/dams/api/v1/keywordhistory?size=20", {
          headers: { authorization: `Bearer ${token}` },
        });
        return ((await history.json()) as { data: { content: { keyword: string }[] } }).data.content.map(
          (entry) => entry.keyword,
        );
      },
      { timeout: 60_000 },
    )
    .toEqual(expect.arrayContaining([run, "e2e-upload"]));

  await page.setViewportSize({ width: 390, height: 844 });
  await snapshot(page, testInfo, "upload-mobile");
  // The search grid is virtualized: tall enough to render the whole batch at once, whatever its order.
  await page.setViewportSize({ width: 1280, height: 1600 });

  await page.goto(`/frontend/search?fulltext=${encodeURIComponent(run)}`, { waitUntil: "networkidle" });
  for (const story of stories) await expect(page.locator(`[data-story="${story}"]`)).toBeVisible();
  await page.goto(`/frontend/search?fulltext=${encodeURIComponent("Harbour at dawn")}`, { waitUntil: "networkidle" });
  await expect(page.locator(`[data-story="${firstStory}"]`)).toBeVisible();
  // The per-file property is searchable text: it finds that story and not the others.
  await page.goto(`/frontend/search?fulltext=Ownplace${run}`, { waitUntil: "networkidle" });
  await expect(page.locator(`[data-story="${firstStory}"]`)).toBeVisible();
  await expect(page.locator(`[data-story="${secondStory}"]`)).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  // A reload in the middle of a large upload (past the size sent whole: created, then its bytes in a PATCH): the
  // batch comes back and tus resumes the upload it created from HEAD's offset.
  const large = testInfo.outputPath(`large-${run}.jpg`);
  fs.writeFileSync(large, Buffer.concat([fs.readFileSync(path.join(CORPUS, RELOADED)), randomBytes(LARGE_PADDING)]));
  await page.goto("/upload/image", { waitUntil: "networkidle" });
  offline = true;
  const abortedBefore = figures.aborted;
  await page.locator("input.uppy-Dashboard-input[type=file]").first().setInputFiles(large);
  await page.locator(".uppy-StatusBar-actionBtn--upload").click();
  await expect.poll(() => figures.aborted).toBeGreaterThan(abortedBefore);
  const postsBefore = figures.posts;
  const headsBefore = figures.heads;
  await page.reload({ waitUntil: "networkidle" });
  offline = false;
  await expect(page.locator(".uppy-Dashboard-Item")).toHaveCount(1);
  await snapshot(page, testInfo, "upload-restored");
  // The browser keeps files up to 10 MiB across a reload (Golden Retriever's store); a larger one comes back as a
  // ghost that asks to be picked again (重新选择). Picked again, tus resumes it from the upload it created.
  await page.locator(".uppy-Dashboard-Item-reSelect").click();
  await page.locator("input.uppy-Dashboard-input[type=file]").first().setInputFiles(large);
  await expect(page.locator(".uppy-Dashboard-Item")).toHaveCount(1);
  await expect(page.locator(".uppy-Dashboard-Item-reSelect")).toHaveCount(0);
  await page.locator(".uppy-StatusBar-actionBtn").first().click();
  await expect(rows).toHaveCount(1, { timeout: 60_000 });
  expect(figures.posts).toBe(postsBefore);
  expect(figures.heads).toBeGreaterThan(headsBefore);
  fs.rmSync(large);

  // A photo of the batch uploaded again: the same bytes, flagged with a link that opens the existing story.
  // Other journeys share this server and may have uploaded the same corpus file too: one link per copy.
  await page.locator(".uppy-DashboardContent-addMore").click();
  await page.locator("input.uppy-Dashboard-input[type=file]").first().setInputFiles(path.join(CORPUS, RELOADED));
  await page.locator(".uppy-StatusBar-actionBtn--upload").click();
  await expect(rows).toHaveCount(2, { timeout: 60_000 });
  const duplicates = rows.getByTestId("upload-duplicate").getByRole("link");
  await expect(duplicates.first()).toBeVisible();
  const hrefs = (await duplicates.evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""))).map(
    (href) => decodeURIComponent(href),
  );
  expect(hrefs.some((href) => stories.map((story) => `/frontend/search?story=${story}`).includes(href))).toBe(true);

  // The other two pages accept their own types.
  await page.goto("/upload/video", { waitUntil: "networkidle" });
  await expect(page.getByTestId("upload-limits")).toContainText(".mkv");
  await page.goto("/upload/audio", { waitUntil: "networkidle" });
  await expect(page.getByTestId("upload-limits")).toContainText(".flac");
  await snapshot(page, testInfo, "upload-audio");

  console.log(
    `upload figures: ${PHOTOS.length + 2} files, ${bytes} bytes in the batch, ${figures.posts} creations ` +
      `(${figures.wholePosts} with the whole file), ${figures.patches} PATCHes, ${figures.aborted} cut off, ` +
      `${figures.heads} resumes (HEAD), 1 across a page reload`,
  );
  // The cut-off uploads log network failures; nothing else may.
  expect(errors.filter((text) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(text))).toEqual([]);
});

test("a folder of photos goes into one batch, every file with its relative path", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  // A folder with a subfolder, built outside the repository from corpus files.
  const run = `e2efolder${Date.now().toString(36)}`;
  const folder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), `${run}-`)), "Harbour");
  const files = {
    "Harbour/DSCN0010.jpg": "gps/DSCN0010.jpg",
    "Harbour/DSCN0012.jpg": "gps/DSCN0012.jpg",
    "Harbour/dawn/DSCN0021.jpg": "gps/DSCN0021.jpg",
  };
  for (const [relative, source] of Object.entries(files)) {
    const target = path.join(path.dirname(folder), relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(CORPUS, source), target);
  }
  // What each tus creation carries: the file's name and its place in the folder.
  const created: { name: string; relativePath: string }[] = [];
  page.on("request", (request) => {
    if (request.method() !== "POST" || new URL(request.url()).pathname !== "/dams/api/v1/uploads") return;
    const metadata = Object.fromEntries(
      (request.headers()["upload-metadata"] ?? "").split(",").map((pair) => {
        const [key, value = ""] = pair.trim().split(" ");
        return [key, Buffer.from(value, "base64").toString("utf8")];
      }),
    );
    created.push({ name: metadata.filename ?? "", relativePath: metadata.relativePath ?? "" });
  });

  try {
    await openApp(page, "/upload/image");
    await page.getByTestId("upload-batch-form").getByLabel(zh("upload.field.caption")).fill(`Folder ${run}`);
    // The Dashboard's folder input (webkitdirectory), as "选择文件夹" opens it.
    await page.locator("input.uppy-Dashboard-input[webkitdirectory]").setInputFiles(folder);
    await expect(page.locator(".uppy-Dashboard-Item")).toHaveCount(Object.keys(files).length);
    await snapshot(page, testInfo, "upload-folder-selected");
    await page.locator(".uppy-StatusBar-actionBtn--upload").click();
    const rows = page.getByTestId("upload-row");
    await expect(rows).toHaveCount(Object.keys(files).length, { timeout: 90_000 });
    expect(created.map((file) => file.relativePath).sort()).toEqual(Object.keys(files).sort());
    expect(created.map((file) => file.name).sort()).toEqual(
      Object.keys(files)
        .map((relative) => path.basename(relative))
        .sort(),
    );
    await page.getByTestId("upload-commit").click();
    await expect(page.getByTestId("upload-committed").getByRole("link")).toHaveCount(Object.keys(files).length);
  } finally {
    fs.rmSync(path.dirname(folder), { recursive: true, force: true });
  }
});

test("files added and the page reloaded at once: the batch comes back", async ({ page }) => {
  await openApp(page, "/upload/image");
  await page
    .locator("input.uppy-Dashboard-input[type=file]")
    .first()
    .setInputFiles([path.join(CORPUS, "Nikon_D70.jpg"), path.join(CORPUS, "Pentax_K10D.jpg")]);
  // At once: within Golden Retriever's 500 ms between writes of the batch's state.
  await page.reload({ waitUntil: "networkidle" });
  await expect(page.locator(".uppy-Dashboard-Item")).toHaveCount(2);
  await expect(page.getByText(zh("upload.dashboard.sessionRestored"))).toBeVisible();
  // A file whose bytes the reload cut off before they were kept asks to be chosen again, in the UI's language.
  const reSelect = page.getByText(zh("upload.dashboard.reSelect"), { exact: true });
  if ((await reSelect.count()) > 0) await expect(reSelect.first()).toBeVisible();
  await expect(page.getByText("Re-select", { exact: true })).toHaveCount(0);
});
