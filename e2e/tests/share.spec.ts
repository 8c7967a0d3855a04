import { expect, test } from "@playwright/test";
import {
  en,
  expectNoHorizontalOverflow,
  LAPTOP,
  makeTestVideo,
  openAsPhoneVisitor,
  snapshot,
  startSignedIn,
} from "./helpers.js";
import { API, commitAndProcess, seedingToken, upload } from "./seed.js";

/**
 * Issue 16: a share link from the viewer with a password, an expiry and a
 * download limit; a visitor on a phone without an account unlocks it, plays
 * the video and downloads it once (the second is refused); the owner finds it
 * on /share/netdisk, revokes it there, reads the visitor log there on a
 * phone, and the visitor sees the 410 page.
 */
test("share a video with a password; a visitor on a phone views, plays and downloads; revoked → 410", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const errors = await startSignedIn(page, LAPTOP);
  const token = await seedingToken(page, "share");
  const videoFile = testInfo.outputPath("share.mp4");
  makeTestVideo(videoFile, "testsrc2=duration=4:size=640x360:rate=25", { frequency: 440, seconds: 4 });
  const run = String(Date.now()).slice(-6);
  const title = `分享 video ${run}`;
  const video = await upload(page.request, token, videoFile, { libraryId: "product", title });
  await commitAndProcess(page.request, token, [video], "video");

  // The owner shares from the viewer: password, expiry in 3 days, one download of the preview.
  await page.goto(`/frontend/search?story=product/${video.storyId}`, { waitUntil: "networkidle" });
  await page.getByTestId("story-share").click();
  const dialog = page.getByTestId("share-dialog");
  await expect(dialog.getByTestId("share-password")).toBeVisible();
  const expiry = new Date(Date.now() + 3 * 86_400_000);
  const pad = (value: number) => String(value).padStart(2, "0");
  const expiryText = `${expiry.getFullYear()}-${pad(expiry.getMonth() + 1)}-${pad(expiry.getDate())} 18:00`;
  const expiryInput = dialog.getByTestId("share-expiry").locator("input").or(dialog.locator("#expiresAt")).first();
  await expiryInput.click();
  await expiryInput.fill(expiryText);
  await expiryInput.press("Enter");
  await dialog.getByTestId("share-password").fill("partner desk");
  await dialog.getByPlaceholder(en("share.form.downloadLimit")).or(dialog.locator("#downloadLimit")).first().fill("1");
  await snapshot(page, testInfo, "share-dialog-1366");
  const created = page.waitForResponse((response) => response.url().endsWith(`${API}/shares`));
  await dialog.getByTestId("share-create").click();
  const answer = await (await created).json();
  expect(answer.data.expiresAt.slice(0, 10)).toBe(expiryText.slice(0, 10));
  const link = ((await dialog.getByTestId("share-link").textContent()) ?? "").trim();
  expect(link).toMatch(/\/share\/storyPreview\?token=[A-Za-z0-9_-]{43}$/);
  await snapshot(page, testInfo, "share-link-1366");
  await dialog.getByRole("button", { name: /Done|完\s*成/ }).click();

  const { phone, visitor, visitorErrors } = await openAsPhoneVisitor(browser, link);
  await expect(visitor.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(visitor.getByTestId("visitor-password")).toBeVisible();
  await expect(visitor.getByText(en("share.visitor.passwordPrompt"))).toBeVisible();
  await visitor.getByTestId("visitor-password-input").fill("wrong guess");
  await visitor.getByTestId("visitor-unlock").click();
  await expect(visitor.getByTestId("visitor-password-error")).toHaveText(en("share.visitor.wrongPassword"));
  await snapshot(visitor, testInfo, "visitor-password-390");
  await visitor.getByTestId("visitor-password-input").fill("partner desk");
  await visitor.getByTestId("visitor-unlock").click();

  const player = visitor.getByTestId("visitor-video");
  await expect(player).toBeVisible();
  await expect(visitor.getByText(title).first()).toBeVisible();
  await player.evaluate((element: HTMLVideoElement) => {
    element.muted = true;
    return element.play();
  });
  await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0.5);
  await player.evaluate((element: HTMLVideoElement) => element.pause());
  await expectNoHorizontalOverflow(visitor);
  await snapshot(visitor, testInfo, "visitor-video-390");

  // One download is allowed; the limit refuses the next.
  const downloadLink = visitor.getByTestId("visitor-download");
  const href = await downloadLink.getAttribute("href");
  const downloaded = visitor.waitForEvent("download");
  await downloadLink.click();
  const file = await downloaded;
  expect(file.suggestedFilename()).toMatch(/\.mp4$/);
  expect(await file.failure()).toBeNull();
  const refused = await visitor.request.get(href!);
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error).toBe("share_download_limit");

  // The same share at desktop width.
  await visitor.setViewportSize({ width: 1366, height: 900 });
  await snapshot(visitor, testInfo, "visitor-video-1366");
  await visitor.setViewportSize({ width: 390, height: 844 });

  // The owner sees the visit in "my shares", and on /share/netdisk with what it points at, where they revoke it.
  await page.getByTestId("story-share").click();
  await page.getByRole("tab", { name: /My shares|我的分享/ }).click();
  await expect(page.getByTestId("my-share").first()).toContainText(/1\/1/);
  await page.goto("/share/netdisk", { waitUntil: "networkidle" });
  const row = page.getByTestId("share-netdisk-links").locator("tr", { hasText: title });
  await expect(row).toContainText("1 / 1");
  await expect(row).toContainText(/Active|有效/);
  await row.getByTestId("share-netdisk-link-revoke").click();
  await page
    .locator(".ant-popconfirm")
    .getByRole("button", { name: /OK|确\s*定/ })
    .click();
  await expect(row).toContainText(/Revoked|已撤销/);
  await expect(row.getByTestId("share-netdisk-link-revoke")).toHaveCount(0);
  await snapshot(page, testInfo, "share-netdisk-1366");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row).toBeVisible();
  await snapshot(page, testInfo, "share-netdisk-390");
  // The visitor log, on a phone: the password, the opening and the download, each with the address.
  await row.getByTestId("share-visits-open").click();
  const visits = page.getByTestId("share-visits");
  await expect(visits.getByTestId("share-visit").first()).toBeVisible();
  await expect(visits).toContainText(/Downloaded|下载/);
  await expect(visits).toContainText(/Password accepted|密码正确/);
  await expect(visits).toContainText("127.0.0.1");
  await expect(visits).toContainText(title);
  const drawer = await visits.locator(".ant-drawer-content").boundingBox();
  // Sub-pixel layout may report 390.000007 for a drawer exactly as wide as the phone.
  expect(Math.round(drawer?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(390);
  await snapshot(page, testInfo, "share-visits-390");
  await page.keyboard.press("Escape");
  await expect(visits.getByTestId("share-visit")).toHaveCount(0);
  await page.setViewportSize({ width: 1366, height: 900 });

  // The visitor's next visit: the 410 page, in their language.
  const gone = visitor.waitForResponse((response) => response.url().endsWith(`${API}/shared`));
  await visitor.reload();
  expect((await gone).status()).toBe(410);
  await expect(visitor.getByTestId("visitor-gone")).toBeVisible();
  await expect(visitor.getByText(en("share.visitor.goneTitle"))).toBeVisible();
  await snapshot(visitor, testInfo, "visitor-gone-390");
  await phone.close();

  const unexpected = (list: string[]) => list.filter((text) => !/status of 4(01|03|10)/.test(text));
  expect(unexpected(errors)).toEqual([]);
  expect(unexpected(visitorErrors)).toEqual([]);
});
