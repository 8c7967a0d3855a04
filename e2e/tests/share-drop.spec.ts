import path from "node:path";
import { expect, test } from "@playwright/test";
import { en, expectNoHorizontalOverflow, LAPTOP, openAsPhoneVisitor, snapshot, startSignedIn } from "./helpers.js";
import { API, PHOTOS, seedingHeaders } from "./seed.js";

/**
 * Issue 16, the upload drop: an owner shares a folder with a password and an
 * upload drop; a visitor on a phone, without an account, unlocks it, gives
 * their name and drops two photos of the corpus (tus, resumable); a file that
 * is not a photo, video or audio is refused with a message naming it. The
 * owner finds the two drafts in the folder with the visitor as author, and
 * the visitor log names the visitor.
 */
test("a visitor on a phone drops two photos into a shared folder; a wrong type is refused; the owner sees the drafts", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const errors = await startSignedIn(page, LAPTOP);
  const { headers: auth } = await seedingHeaders(page, "share-drop");
  const run = String(Date.now()).slice(-6);
  const folderName = `读者来稿 ${run}`;
  const made = await page.request.post(`${API}/libraries/product/folders`, {
    headers: auth,
    data: { name: folderName },
  });
  expect(made.status(), await made.text()).toBe(200);
  const folderId = ((await made.json()) as { data: { id: string } }).data.id;

  // The owner shares the folder from its page: a password and an upload drop into it.
  await page.goto(`/frontend/product/${folderId}`, { waitUntil: "networkidle" });
  await page.getByTestId("folder-share").click();
  const dialog = page.getByTestId("share-dialog");
  await dialog.getByTestId("share-password").fill("drop desk");
  await dialog.getByTestId("share-drop-on").check();
  await snapshot(page, testInfo, "share-drop-dialog-1366");
  const created = page.waitForResponse(
    (response) => response.url().endsWith(`${API}/shares`) && response.request().method() === "POST",
  );
  await dialog.getByTestId("share-create").click();
  const answer = (await (await created).json()) as { data: { id: string } };
  const shareId = answer.data.id;
  const link = ((await dialog.getByTestId("share-link").textContent()) ?? "").trim();
  expect(link).toMatch(/\/share\/storyPreview\?token=[A-Za-z0-9_-]{43}$/);
  await dialog.getByRole("button", { name: /Done|完\s*成/ }).click();

  const { phone, visitor, visitorErrors } = await openAsPhoneVisitor(browser, link);
  await expect(visitor.getByTestId("visitor-password")).toBeVisible();
  await visitor.getByTestId("visitor-password-input").fill("drop desk");
  await visitor.getByTestId("visitor-unlock").click();
  const drop = visitor.getByTestId("share-drop");
  await expect(drop).toBeVisible();
  await expect(drop.getByText(en("share.visitor.dropTitle"))).toBeVisible();
  await visitor.getByTestId("share-drop-name").fill("Wang Fang");

  // Two photos of the corpus and a text file: the text file is refused by name, with why.
  const photos = ["Canon_40D.jpg", "Nikon_D70.jpg"].map((name) => path.join(PHOTOS, name));
  const notMedia = path.join(PHOTOS, "README");
  await drop
    .locator("input.uppy-Dashboard-input[type=file]")
    .first()
    .setInputFiles([...photos, notMedia]);
  const refused = visitor.getByTestId("share-drop-refused");
  await expect(refused).toBeVisible();
  await expect(refused).toContainText(en("share.visitor.dropRefusedTitle"));
  await expect(refused).toContainText("“README” is not a photo, video or audio file");
  await snapshot(visitor, testInfo, "share-drop-refused-390");
  const sending = visitor.waitForResponse(
    (response) => response.url().includes(`${API}/shared/uploads`) && response.request().method() === "POST",
  );
  await drop.locator(".uppy-StatusBar-actionBtn--upload").click();
  // Resumable: the files go through the tus creation endpoint of share drops.
  expect((await sending).status()).toBe(201);
  await expect(visitor.getByTestId("share-drop-done")).toContainText(/2 files sent/, { timeout: 120_000 });
  await expectNoHorizontalOverflow(visitor);
  await snapshot(visitor, testInfo, "share-drop-sent-390");
  await visitor.setViewportSize({ width: 1366, height: 900 });
  await snapshot(visitor, testInfo, "share-drop-sent-1366");
  await phone.close();

  // The owner: two uploads in the visitor log, each a draft in the folder with the visitor as author.
  const visits = await page.request.get(`${API}/shares/${shareId}/visits?page=0&size=50`, { headers: auth });
  expect(visits.status()).toBe(200);
  const log = (await visits.json()) as {
    data: { content: { action: string; storyId: string | null; visitorName: string | null }[] };
  };
  const uploads = log.data.content.filter((visit) => visit.action === "upload");
  expect(uploads).toHaveLength(2);
  for (const visit of uploads) {
    expect(visit.visitorName).toBe("Wang Fang");
    const story = await page.request.get(`${API}/stories/product/${visit.storyId}`, { headers: auth });
    const body = (await story.json()) as { data: { authors: string[]; status: string; folderId: string } };
    expect(body.data).toMatchObject({ authors: ["Wang Fang"], status: "draft", folderId });
  }
  await page.goto(`/frontend/product/${folderId}`, { waitUntil: "networkidle" });
  for (const name of ["Canon_40D", "Nikon_D70"]) {
    await expect(page.getByText(new RegExp(name)).first()).toBeVisible({ timeout: 120_000 });
  }
  await snapshot(page, testInfo, "share-drop-folder-1366");
  await page.goto(`/frontend/search?story=product/${uploads[0]!.storyId}`, { waitUntil: "networkidle" });
  await expect(page.getByText("Wang Fang").first()).toBeVisible();
  await snapshot(page, testInfo, "share-drop-draft-viewer-1366");

  // The visitor log on /share/netdisk names the visitor.
  await page.goto("/share/netdisk", { waitUntil: "networkidle" });
  const row = page.getByTestId("share-netdisk-links").locator("tr", { hasText: folderName }).first();
  await expect(row.getByTestId("share-netdisk-drop")).toContainText("2");
  await row.getByTestId("share-visits-open").click();
  const drawer = page.getByTestId("share-visits");
  await expect(drawer.getByTestId("share-visit-name").first()).toContainText("Wang Fang");
  await expect(drawer).toContainText(/Uploaded a file|上传/);
  await snapshot(page, testInfo, "share-drop-visits-1366");
  await page.keyboard.press("Escape");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row).toBeVisible();
  await snapshot(page, testInfo, "share-drop-netdisk-390");

  const unexpected = (list: string[]) => list.filter((text) => !/status of 4(01|03|10)/.test(text));
  expect(unexpected(errors)).toEqual([]);
  expect(unexpected(visitorErrors)).toEqual([]);
});
