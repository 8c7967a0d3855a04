import type { Page, TestInfo } from "@playwright/test";
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
 * Opens a page of the product as a user. Today the shell needs no session;
 * once sign-in lands, this is where the journeys sign in first.
 */
export async function openApp(page: Page, path: string): Promise<void> {
  // Wait for the menus and the page chunk, so the shell has recorded the visit (tabs) before the next step.
  await page.goto(path, { waitUntil: "networkidle" });
}

/** Saves a full-page screenshot as an artefact of the test. */
export async function snapshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

/** Collects console errors, ignoring the asset-count call whose endpoint arrives with the stories issue. */
export function watchConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    // Chromium names the failed resource as the message's location.
    if (message.location().url.includes("/statistics/usedInfo") || message.text().includes("usedInfo")) return;
    errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}
