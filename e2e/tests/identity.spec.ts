import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import zhCN from "../../web/src/locales/zh-CN/index.js";
import { ACCESS_TOKEN_TTL_SECONDS } from "../playwright.config.js";
import { signIn } from "./helpers.js";

const zh = (key: keyof typeof zhCN): string => zhCN[key];
/** A button's accessible name: antd puts a space between two Chinese characters (登 录, 确 定). */
const button = (key: keyof typeof zhCN): RegExp =>
  new RegExp([...zh(key)].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s*"));

/** What the app keeps in localStorage (spec section 3: the `pro__` namespace). */
async function stored(page: Page, key: string): Promise<string | null> {
  return page.evaluate((name) => {
    const raw = localStorage.getItem(`pro__${name}`);
    return raw == null ? null : (JSON.parse(raw) as { value: string }).value;
  }, key);
}

async function adminApi(page: Page, request: APIRequestContext) {
  const token = await stored(page, "Access-Token");
  const headers = { authorization: `Bearer ${token}` };
  return {
    get: async <T>(path: string): Promise<T> => {
      const response = await request.get(`/dams/api/v1${path}`, { headers });
      expect(response.status(), path).toBe(200);
      return ((await response.json()) as { data: T }).data;
    },
    post: async <T>(path: string, body: unknown): Promise<T> => {
      const response = await request.post(`/dams/api/v1${path}`, { headers, data: body });
      expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
      return ((await response.json()) as { data: T }).data;
    },
  };
}

/** Creates a user through the API as the signed-in administrator (once per run). */
async function ensureUser(
  page: Page,
  request: APIRequestContext,
  user: { username: string; name: string; password: string; roleName: string },
): Promise<void> {
  const api = await adminApi(page, request);
  const existing = await api.get<{ content: { username: string }[] }>(`/users?keyword=${user.username}`);
  if (existing.content.some((u) => u.username === user.username)) return;
  const roles = await api.get<{ content: { id: string; name: string }[] }>("/roles?size=100");
  const role = roles.content.find((r) => r.name.toLowerCase() === user.roleName.toLowerCase());
  expect(role, `role ${user.roleName}`).toBeTruthy();
  await api.post("/users", { username: user.username, name: user.name, password: user.password, roleId: role?.id });
}

const viewer = { username: "viewer.e2e", name: "Viewer E2E", password: "viewer-password-1", roleName: "viewer" };
const auditor = { username: "auditor.e2e", name: "Auditor E2E", password: "auditor-password-1", roleName: "auditor" };

test.describe("identity", () => {
  test("signs in through the login page, lands on /frontend/search and stays signed in after a reload", async ({
    page,
  }) => {
    await page.goto("/frontend/search");
    await expect(page).toHaveURL(/\/user\/login\?uid=/);
    await expect(page.getByRole("heading", { name: zh("user.login.title") })).toBeVisible();

    // Wrong password first: the page says so and stays.
    await page.locator("#username").fill("admin");
    await page.locator("#password").fill("not-the-password");
    await page.getByRole("button", { name: button("user.login.submit") }).click();
    await expect(page.getByTestId("login-error")).toHaveText(zh("user.login.invalidCredentials"));

    await signIn(page);
    await expect(page).toHaveURL(/\/frontend\/search$/);
    await expect(page.getByTestId("user-name")).toHaveText(/admin|Administrator|管理员/);
    expect(await stored(page, "Access-Token")).toBeTruthy();
    expect(await stored(page, "refresh_token")).toBeTruthy();
    expect(await stored(page, "expires_in")).toBe(String(ACCESS_TOKEN_TTL_SECONDS));
    const raw = await page.evaluate(() => JSON.parse(localStorage.getItem("pro__Access-Token") ?? "{}"));
    expect(raw.expire - Date.now()).toBeGreaterThan(604_800_000 - 60_000);

    await page.reload();
    await expect(page.getByTestId("user-menu")).toBeVisible();
    await expect(page).toHaveURL(/\/frontend\/search$/);
  });

  test("registers through the register page, waits for approval, then signs in with the new account", async ({
    page,
    browser,
  }, testInfo) => {
    // Two sessions (the new user's and an administrator's) in one journey.
    test.setTimeout(180_000);
    await page.goto("/frontend/search");
    await expect(page.locator("#password")).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("login.png") });
    await page.getByRole("link", { name: zh("user.login.register") }).click();
    await expect(page).toHaveURL(/\/user\/register\?uid=/);

    // Validation first: a short password and a mismatched confirmation are named.
    await page.locator("#username").fill("reporter.e2e");
    await page.locator("#name").fill("Reporter E2E");
    await page.locator("#password").fill("short");
    await page.locator("#confirm").fill("different");
    await page.getByRole("button", { name: button("user.register.submit") }).click();
    await expect(page.getByText(zh("user.field.confirm.mismatch"))).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("register.png") });

    await page.locator("#password").fill("reporter-password-1");
    await page.locator("#confirm").fill("reporter-password-1");
    await page.getByRole("button", { name: button("user.register.submit") }).click();
    await expect(page).toHaveURL(/\/user\/register-result\?/);
    // A new installation asks for approval: the account waits, disabled, until an administrator enables it.
    await expect(page.getByText(zh("user.registerResult.pendingTitle"))).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("register-pending.png") });

    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    await signIn(adminPage);
    await adminPage.goto("/manage/userrole/user");
    await adminPage.getByRole("button", { name: button("admin.registration.button") }).click();
    const dialog = adminPage.getByRole("dialog");
    await expect(dialog.getByRole("radio", { name: new RegExp(zh("admin.registration.mode.approval")) })).toBeChecked();
    await adminPage.screenshot({ path: testInfo.outputPath("registration-settings.png") });
    await adminPage.keyboard.press("Escape");
    const api = await adminApi(adminPage, adminPage.request);
    const found = await api.get<{ content: { id: string; username: string; status: number }[] }>(
      "/users?keyword=reporter.e2e",
    );
    const account = found.content.find((user) => user.username === "reporter.e2e");
    expect(account?.status).toBe(0);
    await api.post(`/users/${account?.id}/enable`, {});
    await adminContext.close();

    await page.getByRole("button", { name: button("user.registerResult.signIn") }).click();

    // The pending sign-in is still there: the new account finishes it.
    await expect(page).toHaveURL(/\/user\/login\?uid=/);
    await page.locator("#username").fill("reporter.e2e");
    await page.locator("#password").fill("reporter-password-1");
    await page.getByRole("button", { name: button("user.login.submit") }).click();
    await expect(page).toHaveURL(/\/frontend\/search$/, { timeout: 60_000 });
    await expect(page.getByTestId("user-name")).toHaveText("Reporter E2E");
  });

  test("returns to the intended page after sign-in", async ({ page }) => {
    await page.goto("/manage/userrole/user");
    await expect(page).toHaveURL(/\/user\/login\?uid=/);
    await page.locator("#username").fill("admin");
    await page.locator("#password").fill("e2e-admin-password");
    await page.getByRole("button", { name: button("user.login.submit") }).click();
    await expect(page).toHaveURL(/\/manage\/userrole\/user$/, { timeout: 60_000 });
    await expect(page.getByRole("cell", { name: "admin", exact: true })).toBeVisible();
  });

  test("refreshes the access token silently once it has expired", async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page);
    const firstToken = await stored(page, "Access-Token");
    const firstRefresh = await stored(page, "refresh_token");
    const expiry = Number(await stored(page, "expiry_time"));
    const refreshes: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/uuas/api/oauth/token") && request.postData()?.includes("grant_type=refresh_token")) {
        refreshes.push(request.url());
      }
    });
    await page.waitForTimeout(Math.max(0, expiry - Date.now()) + 1_000);

    await page.reload();
    await expect(page.getByTestId("user-menu")).toBeVisible();
    await expect(page).toHaveURL(/\/frontend\/search$/);
    await expect.poll(() => stored(page, "Access-Token")).not.toBe(firstToken);
    expect(await stored(page, "refresh_token")).not.toBe(firstRefresh);
    expect(Number(await stored(page, "expiry_time"))).toBeGreaterThan(Date.now());
    expect(refreshes).toHaveLength(1);

    // The renewed token works: a back-area screen loads its data.
    await page.goto("/manage/userrole/user");
    await expect(page.getByRole("cell", { name: "admin", exact: true })).toBeVisible();
  });

  test("an administrator opens /backend, lists users and roles, and sees the token dialog", async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page);
    await page.getByTestId("user-menu").hover();
    await expect(page.getByRole("menuitem", { name: zh("layout.user.settings") })).toBeVisible();
    await page.getByRole("menuitem", { name: zh("layout.user.openBackend") }).click();
    await expect(page).toHaveURL(/\/backend\/monitor\/storage$/);

    await page.goto("/manage/userrole/user");
    await expect(page.getByRole("cell", { name: "admin", exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: button("crud.add") })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("users.png"), fullPage: true });

    await page.goto("/manage/userrole/role");
    await expect(page.getByRole("cell", { name: "Viewer", exact: true })).toBeVisible();
    await page.getByRole("button", { name: button("crud.add") }).click();
    await expect(page.getByTestId("permission-matrix")).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("role-form.png") });
    // Closed the way a user does; Escape only reaches the modal when focus is inside it.
    const roleForm = page.getByRole("dialog");
    await roleForm.getByRole("button", { name: button("crud.cancel") }).click();
    await expect(roleForm).toBeHidden();

    await page.getByRole("button", { name: button("layout.getToken") }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByPlaceholder(zh("layout.getToken.name")).fill("e2e script");
    await dialog.getByPlaceholder(zh("layout.getToken.days")).fill("30");
    await dialog.getByRole("button", { name: button("layout.getToken.create") }).click();
    const secret = dialog.getByTestId("api-token-secret");
    await expect(secret).toHaveValue(/^dams_/);
    await expect(dialog.getByRole("cell", { name: "e2e script" })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("token-modal.png") });

    // The secret works as a bearer token.
    const response = await page.request.get("/dams/api/v1/users/login/user", {
      headers: { authorization: `Bearer ${await secret.inputValue()}` },
    });
    expect(response.status()).toBe(200);
  });

  test("a viewer sees no back area, no system settings and no administration buttons", async ({
    page,
    request,
    browser,
  }) => {
    test.setTimeout(120_000);
    await signIn(page);
    await ensureUser(page, request, viewer);
    // A role that may only list users: the screen shows, its buttons do not.
    const api = await adminApi(page, request);
    const roles = await api.get<{ content: { name: string }[] }>("/roles?size=100");
    if (!roles.content.some((role) => role.name.toLowerCase() === auditor.roleName)) {
      await api.post("/roles", {
        name: auditor.roleName,
        describe: "lists users, changes nothing",
        permissions: [
          { permissionId: "search", actions: ["query", "get"] },
          { permissionId: "manage.userrole.user", actions: ["query"] },
        ],
      });
    }
    await ensureUser(page, request, auditor);

    const viewerContext = await browser.newContext();
    const viewerPage = await viewerContext.newPage();
    await signIn(viewerPage, viewer.username, viewer.password);
    await expect(viewerPage.getByTestId("user-name")).toHaveText(viewer.name);
    await viewerPage.getByTestId("user-menu").hover();
    await expect(viewerPage.getByRole("menuitem", { name: zh("layout.user.logout") })).toBeVisible();
    await expect(viewerPage.getByRole("menuitem", { name: zh("layout.user.settings") })).toHaveCount(0);
    await viewerPage.goto("/backend");
    await expect(viewerPage).toHaveURL(/\/403$/);
    await viewerPage.goto("/manage/userrole/user");
    await expect(viewerPage).toHaveURL(/\/403$/);
    await viewerContext.close();

    const auditorContext = await browser.newContext();
    const auditorPage = await auditorContext.newPage();
    await signIn(auditorPage, auditor.username, auditor.password);
    await auditorPage.goto("/manage/userrole/user");
    await expect(auditorPage.getByRole("cell", { name: "admin", exact: true })).toBeVisible();
    await expect(auditorPage.getByRole("button", { name: button("crud.add") })).toHaveCount(0);
    await expect(auditorPage.getByRole("button", { name: button("crud.edit") })).toHaveCount(0);
    await expect(auditorPage.getByRole("button", { name: button("admin.user.resetPassword") })).toHaveCount(0);
    await expect(auditorPage.getByRole("button", { name: button("admin.user.disable") })).toHaveCount(0);
    // The side menu holds only what the role allows.
    await expect(auditorPage.getByRole("menuitem", { name: zh("menu.manage.userrole.role") })).toHaveCount(0);
    await auditorContext.close();
  });

  test("logging out asks first, then returns to sign-in", async ({ page }) => {
    await signIn(page);
    await page.getByTestId("user-menu").hover();
    await page.getByRole("menuitem", { name: zh("layout.user.logout") }).click();
    const confirm = page.getByRole("dialog");
    await expect(confirm).toContainText(zh("layout.logout.title"));
    await expect(confirm).toContainText(zh("layout.logout.content"));
    await confirm.getByRole("button", { name: button("layout.ok") }).click();
    await expect(page).toHaveURL(/\/user\/login\?uid=/, { timeout: 60_000 });
    await expect(page.locator("#password")).toBeVisible();
    expect(await stored(page, "Access-Token")).toBeNull();
    expect(await stored(page, "refresh_token")).toBeNull();
  });
});
