import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  type Browser,
  type BrowserContext,
  test as base,
  type Download,
  expect,
  type Frame,
  type Locator,
  type Page,
  type TestInfo,
} from "@playwright/test";
import sharp from "sharp";
import enUS from "../../web/src/locales/en-US/index.js";
import zhCN from "../../web/src/locales/zh-CN/index.js";

type Text = (key: string) => string;

function lookup(locale: Record<string, string>, name: string): Text {
  return (key) => {
    const value = locale[key];
    if (value === undefined) throw new Error(`${name} has no string ${key}`);
    return value;
  };
}

/** The web app's own strings, so the journeys check what users read. */
export const zh = lookup(zhCN, "zh-CN");
export const en = lookup(enUS, "en-US");

/** Spec section 2's '{route title} - platform title'. */
export function titleOf(text: Text, key: string): string {
  return `${text(key)} - ${text("app.title")}`;
}

/**
 * Signs in through the real sign-in page, as a user would: opening the front
 * area without a session goes to the sign-in server, which shows our login
 * page (`/user/login?uid=…`); after the credentials the browser comes back
 * with a code, the app exchanges it and lands on `/frontend/search`.
 * Starts from a page without a session (a fresh browser context).
 */
/**
 * Keeps every toast (antd message) the context's pages show: they last 1 s (spec section 9), which a busy machine's
 * test can miss between two looks. Each page records the toasts' content elements as they are added (a removed
 * element keeps its text and classes).
 */
async function watchToasts(page: Page): Promise<void> {
  await page.context().addInitScript(() => {
    const seen = window as unknown as { __damsToasts?: Element[] };
    if (seen.__damsToasts) return;
    const toasts: Element[] = [];
    seen.__damsToasts = toasts;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          if (node.matches(".ant-message-custom-content")) toasts.push(node);
          toasts.push(...node.querySelectorAll(".ant-message-custom-content"));
        }
    }).observe(document, { childList: true, subtree: true });
  });
}

/**
 * Waits (bounded) until the page has shown `times` new toasts (default one) containing `text`, of `kind` when given
 * (their class ant-message-success, -error, -warning or -info), even if they have gone again. A toast counts once:
 * those a call matched are not matched again, so the same message expected twice needs two toasts. The page's
 * context must have been signed in by `signIn`, which starts watching.
 */
export async function expectToast(
  page: Page,
  text: string,
  {
    kind,
    timeout = 30_000,
    times = 1,
  }: { kind?: "success" | "error" | "warning" | "info"; timeout?: number; times?: number } = {},
): Promise<void> {
  const look = () =>
    page.evaluate(
      ({ text, kind, times }) => {
        const watched = window as unknown as { __damsToasts?: Element[]; __damsToastsMatched?: Set<Element> };
        const toasts = watched.__damsToasts;
        if (!toasts) return "not watched: sign in with signIn first";
        watched.__damsToastsMatched ??= new Set();
        const matched = watched.__damsToastsMatched;
        const fresh = toasts.filter(
          (toast) =>
            !matched.has(toast) &&
            (toast.textContent ?? "").includes(text) &&
            (!kind || toast.classList.contains(`ant-message-${kind}`)),
        );
        if (fresh.length < times) return `shown: ${JSON.stringify(toasts.map((toast) => toast.textContent))}`;
        for (const toast of fresh.slice(0, times)) matched.add(toast);
        return "matched";
      },
      { text, kind, times },
    );
  await expect
    .poll(look, { timeout, message: `${times} new toast(s)${kind ? ` (${kind})` : ""} containing "${text}"` })
    .toBe("matched");
}

export async function signIn(page: Page, username = "admin", password = "e2e-admin-password"): Promise<void> {
  await watchToasts(page);
  await page.goto("/frontend/search");
  const form = page.locator("form").filter({ has: page.locator("#password") });
  const userMenu = page.getByTestId("user-menu");
  await expect(form.or(userMenu)).toBeVisible({ timeout: 60_000 });
  if (await userMenu.isVisible()) return;
  await expect(page).toHaveURL(/\/user\/login\?uid=/);
  await page.locator("#username").fill(username);
  await page.locator("#password").fill(password);
  await form.locator('button[type="submit"]').click();
  await page.waitForURL(/\/frontend\/search/, { timeout: 60_000 });
  await expect(userMenu).toBeVisible({ timeout: 60_000 });
}

async function hasSession(page: Page): Promise<boolean> {
  // about:blank has no storage of ours (and throws): no session yet.
  return page.evaluate(() => localStorage.getItem("pro__refresh_token") !== null).catch(() => false);
}

/** Opens a page of the product as the signed-in administrator (signing in first in a fresh context). */
export async function openApp(page: Page, path: string): Promise<void> {
  if (!(await hasSession(page))) await signIn(page);
  await openPublic(page, path);
}

/** Opens a page that needs no session (the routes spec section 2 exempts from login). */
export async function openPublic(page: Page, path: string): Promise<void> {
  // Wait for the menus and the page chunk, so the shell has recorded the visit (tabs) before the next step.
  await page.goto(path, { waitUntil: "networkidle" });
}

/** Saves a screenshot as an artefact of the test: the full page (Chromium resizes the page for it), or the window only. */
export async function snapshot(
  page: Page,
  testInfo: TestInfo,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

/**
 * The page (or a frame) is no wider than its window: a horizontal scrollbar on a phone is a layout bug. Waits, bounded,
 * for the layout to settle after a resize (antd re-renders for a breakpoint from a media-query listener, a frame or
 * more later, and later still on a busy machine); on failure names the widest elements that stick out.
 */
export async function expectNoHorizontalOverflow(target: Page | Frame, slack = 0): Promise<void> {
  const overflow = () => target.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  try {
    await expect.poll(overflow, { timeout: 30_000 }).toBeLessThanOrEqual(slack);
  } catch (error) {
    const culprits = await target.evaluate(() =>
      [...document.body.querySelectorAll("*")]
        .map((element) => ({ element, right: element.getBoundingClientRect().right }))
        .filter(({ right }) => right > window.innerWidth + 1)
        .sort((a, b) => b.right - a.right)
        .slice(0, 5)
        .map(({ element, right }) => {
          const classes = typeof element.className === "string" ? element.className.split(" ").slice(0, 2) : [];
          const text = (element.textContent ?? "").trim().slice(0, 40);
          return `${element.tagName.toLowerCase()}${classes.map((name) => `.${name}`).join("")} right ${Math.round(right)} px "${text}"`;
        }),
    );
    throw new Error(`${target.url()} overflows its window; widest: ${culprits.join("; ")}\n${String(error)}`);
  }
}

/** A button's accessible name: antd puts a space between two Chinese characters (确 定). */
export const buttonName = (text: string): RegExp =>
  new RegExp([...text].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s*"));

/**
 * Confirms the open popconfirm, then waits until it has closed. Its OK button stays (loading) until the
 * confirmed call ends, and the popover fades out after that: the next popconfirm opened before then would be
 * a second one on the page.
 */
export async function confirmPopconfirm(page: Page): Promise<void> {
  const open = page.locator(".ant-popconfirm:visible");
  await expect(open).toHaveCount(1);
  await open.getByRole("button", { name: buttonName(zh("crud.ok")) }).click();
  await expect(open).toHaveCount(0, { timeout: 60_000 });
}

/** The windows journeys run in: a desktop's, a laptop's and a phone's. */
export const DESKTOP = { width: 1440, height: 900 };
export const LAPTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * A share's visitor: a phone in a fresh context without any session, reading English, opening `link`. Returns
 * the context (the journey closes it), the page and its console errors.
 */
export async function openAsPhoneVisitor(
  browser: Browser,
  link: string,
): Promise<{ phone: BrowserContext; visitor: Page; visitorErrors: string[] }> {
  const phone = await browser.newContext({ viewport: PHONE, locale: "en-US", isMobile: true, hasTouch: true });
  const visitor = await phone.newPage();
  const visitorErrors = watchConsoleErrors(visitor);
  await visitor.goto(link, { waitUntil: "networkidle" });
  return { phone, visitor, visitorErrors };
}

/**
 * How most journeys begin: a window of the given size, console errors watched from then on, signed in as the
 * administrator. Returns the errors, which the journey expects empty at its end.
 */
export async function startSignedIn(page: Page, viewport: { width: number; height: number }): Promise<string[]> {
  await page.setViewportSize(viewport);
  const errors = watchConsoleErrors(page);
  await signIn(page);
  return errors;
}

/**
 * The journeys' test: `signedIn` is the page's console errors, watched from its start, with the page signed in as
 * the administrator in the window the spec chose (`test.use({ viewport: LAPTOP })`, before the sign-in as
 * `startSignedIn` did). A journey asks for it as `async ({ page, signedIn: errors }) => …` and expects the errors
 * it does not expect empty at its end.
 */
export const test = base.extend<{ signedIn: string[] }>({
  // Its own bound (a fixture's time otherwise counts against the test's default, before the journey's own
  // test.setTimeout): the sign-in's two waits of at most 60 s each, on a loaded machine.
  signedIn: [
    async ({ page }, use) => {
      const errors = watchConsoleErrors(page);
      await signIn(page);
      await use(errors);
    },
    { timeout: 180_000 },
  ],
});

/** The item of a form (in `scope`: a page, a drawer, a dialog) whose label contains `label`. */
export function formItem(scope: Page | Locator, label: string): Locator {
  const page = "page" in scope ? scope.page() : scope;
  return scope
    .locator(".ant-form-item")
    .filter({ has: page.locator(".ant-form-item-label", { hasText: label }) })
    .first();
}

/**
 * Opens a select (or the form item holding one) and clicks the option containing `option` in its drop-down, until
 * the select shows it chosen. On a loaded machine a click can land while the dialog or the drop-down is still
 * animating and choose nothing; it is tried again, but never on an option already chosen (a multiple select would
 * take it away again).
 */
export async function pickOption(page: Page, select: Locator, option: string | RegExp): Promise<void> {
  const selector = select.locator(".ant-select-selector");
  const chosen = select.locator(".ant-select-selection-item").filter({ hasText: option }).first();
  const offered = page
    .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")
    .filter({ hasText: option })
    .first();
  await expect(async () => {
    if (await chosen.isVisible()) return;
    if (!(await offered.isVisible())) {
      await selector.scrollIntoViewIfNeeded();
      await selector.click();
    }
    await offered.click({ timeout: 10_000 });
    await expect(chosen).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}

/**
 * Opens the drop-down menu behind `opener` and chooses its item `name`, then sees the menu closed. On a loaded
 * machine a click can land while the menu is still animating open and choose nothing (the menu stays open):
 * the item is clicked again, the menu opened again first if it closed.
 */
export async function chooseMenuItem(page: Page, opener: Locator, name: string): Promise<void> {
  const item = page.locator(".ant-dropdown:not(.ant-dropdown-hidden)").getByRole("menuitem", { name });
  await expect(async () => {
    if (!(await item.isVisible())) await opener.click();
    await item.click({ timeout: 10_000 });
    await expect(item).toBeHidden({ timeout: 10_000 });
  }).toPass({ timeout: 60_000 });
}

/** Picks `option` in the single select of the form item labelled `label`, and sees it chosen. */
export async function chooseOption(page: Page, scope: Page | Locator, label: string, option: string): Promise<void> {
  const item = formItem(scope, label);
  await pickOption(page, item, option);
  await expect(item.locator(".ant-select-selection-item")).toHaveText(option);
}

/**
 * A test video made here with ffmpeg (the corpus has no video): `source` is a lavfi video source
 * (`testsrc2=duration=4:size=640x360:rate=25`…), encoded as H.264; with `tone`, a sine of that frequency and
 * length as its AAC sound.
 */
export function makeTestVideo(file: string, source: string, tone?: { frequency: number; seconds: number }): void {
  const sound = tone ? ["-f", "lavfi", "-i", `sine=frequency=${tone.frequency}:duration=${tone.seconds}`] : [];
  const soundCodec = tone ? ["-c:a", "aac", "-shortest"] : [];
  execFileSync("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", source, ...sound],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", ...soundCodec, file],
  ]);
}

/**
 * A download the page prepares first (a preset's rendition: its job, then a blob saved by script): `start` clicks,
 * the page must then show `preparing` (so a click that chose nothing fails here, named, not after `timeout`), and
 * the file must come before the page shows `failure` (which fails at once, with the page's words, instead of
 * waiting out the bound for a download that will not come).
 */
export async function downloadPrepared(
  page: Page,
  start: () => Promise<void>,
  { preparing, failure, timeout }: { preparing: string; failure: string; timeout: number },
): Promise<Download> {
  const downloaded = page.waitForEvent("download", { timeout });
  await start();
  await expectToast(page, preparing, { timeout: 60_000 });
  const failed = page
    .waitForFunction(
      (text) =>
        ((window as unknown as { __damsToasts?: Element[] }).__damsToasts ?? []).some((toast) =>
          (toast.textContent ?? "").includes(text),
        ),
      failure,
      { timeout, polling: 500 },
    )
    .then(() => {
      throw new Error(`the page said "${failure}" instead of downloading`);
    });
  // Whichever loses is let go: the download's wait, or the failure's (which ends with the page).
  failed.catch(() => undefined);
  downloaded.catch(() => undefined);
  return Promise.race([downloaded, failed]);
}

/** The open story viewer's download menu, its preset `presetName` chosen: the rendition, once the page has it. */
export async function downloadViewerPreset(page: Page, presetName: string, timeout: number): Promise<Download> {
  await page.locator(".ant-drawer-content").locator(".ant-dropdown-trigger").first().click();
  return downloadPrepared(
    page,
    () => page.locator(".ant-dropdown:visible").getByText(presetName, { exact: true }).click(),
    { preparing: zh("presets.download.preparing"), failure: zh("presets.download.failed"), timeout },
  );
}

/** Collects console errors and uncaught page errors. */
export function watchConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/**
 * A downloaded original is the stored file with the story's metadata written in on the way out (XMP in an MP4,
 * docs/media.md), so it is compared with its source by what it plays: each stream's packets, hashed by
 * ffmpeg's streamhash muxer, are the source's, and its XMP title is the story's.
 */
export function expectSameMediaWithTitle(downloaded: string, source: string, title: string): void {
  const streams = (file: string) =>
    execFileSync("ffmpeg", ["-v", "error", "-i", file, "-map", "0", "-c", "copy", "-f", "streamhash", "-"], {
      encoding: "utf8",
    });
  expect(streams(downloaded)).toBe(streams(source));
  expect(xmpTitle(downloaded)).toBe(title);
}

/** The open story viewer's download button: the original, named by the story's title, is `source` with that title. */
export async function expectViewerDownloadsOriginal(page: Page, source: string, title: string): Promise<void> {
  const downloading = page.waitForEvent("download");
  await page
    .locator(".ant-drawer-content")
    .getByRole("button", { name: buttonName(zh("stories.download")) })
    .first()
    .click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${title}${path.extname(source)}`);
  expectSameMediaWithTitle(await download.path(), source, title);
}

/** The same for a downloaded photo (its bytes as received): the source's pixels, and the story's XMP title. */
export async function expectSamePhotoWithTitle(downloaded: Buffer, source: string, title: string): Promise<void> {
  const pixels = (input: Buffer | string) => sharp(input).raw().toBuffer();
  expect((await pixels(downloaded)).equals(await pixels(source))).toBe(true);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dams-e2e-download-")), "photo");
  try {
    fs.writeFileSync(file, downloaded);
    expect(xmpTitle(file)).toBe(title);
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

function xmpTitle(file: string): string | undefined {
  const [tags] = JSON.parse(execFileSync("exiftool", ["-j", "-XMP:Title", file], { encoding: "utf8" })) as {
    Title?: string;
  }[];
  return tags?.Title;
}
