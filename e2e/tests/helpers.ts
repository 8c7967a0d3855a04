import { expect, type Page } from "@playwright/test";

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
  await expect(form.or(userMenu)).toBeVisible({ timeout: 20_000 });
  if (await userMenu.isVisible()) return;
  await expect(page).toHaveURL(/\/user\/login\?uid=/);
  await page.locator("#username").fill(username);
  await page.locator("#password").fill(password);
  await form.locator('button[type="submit"]').click();
  await page.waitForURL(/\/frontend\/search/, { timeout: 20_000 });
  await expect(userMenu).toBeVisible({ timeout: 20_000 });
}
