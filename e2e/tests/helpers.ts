import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, type TestInfo } from "@playwright/test";
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
export async function signIn(page: Page, username = "admin", password = "e2e-admin-password"): Promise<void> {
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

/** Saves a full-page screenshot as an artefact of the test. */
export async function snapshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
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
