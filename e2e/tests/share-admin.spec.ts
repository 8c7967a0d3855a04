import { expect } from "@playwright/test";
import { en, expectNoHorizontalOverflow, LAPTOP, pickOption, snapshot, test } from "./helpers.js";
import { API, seedingHeaders } from "./seed.js";

test.use({ viewport: LAPTOP });

/**
 * Issue 16: an administrator's "All shares" tab on /share/netdisk with its
 * owner, state and keyword filters; the network disk's WebDAV addresses
 * (Finder, Windows Explorer, Linux) and the credentials to use.
 */
test("administrators filter all shares; the disk page shows how to connect over WebDAV", async ({
  page,
  signedIn: errors,
}, testInfo) => {
  test.setTimeout(180_000);
  const { headers: auth } = await seedingHeaders(page, "share-admin");
  const run = String(Date.now()).slice(-6);
  const made = await page.request.post(`${API}/libraries/product/folders`, {
    headers: auth,
    data: { name: `all shares ${run}` },
  });
  expect(made.status(), await made.text()).toBe(200);
  const folderId = ((await made.json()) as { data: { id: string } }).data.id;
  const shareOf = async (title: string) => {
    const response = await page.request.post(`${API}/shares`, {
      headers: auth,
      data: { target: { kind: "folder", libraryId: "product", folderId }, title },
    });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { data: { id: string } }).data.id;
  };
  await shareOf(`Harbour ${run}`);
  const revoked = await shareOf(`Budget ${run}`);
  expect((await page.request.delete(`${API}/shares/${revoked}`, { headers: auth })).status()).toBe(200);

  await page.goto("/share/netdisk", { waitUntil: "networkidle" });
  await page.getByRole("tab", { name: /All shares|全部分享/ }).click();
  const all = page.getByTestId("share-all-links");
  await expect(all).toBeVisible();
  const filters = page.getByTestId("share-all-filters");
  await filters.getByTestId("share-filter-keyword").fill(run);
  await filters.getByTestId("share-filter-keyword").press("Enter");
  await expect(all.locator("tbody tr.ant-table-row")).toHaveCount(2);
  await expect(all.getByTestId("share-all-owner").first()).toContainText(/Administrator|admin/);
  await pickOption(page, filters.getByTestId("share-filter-state"), /^(Revoked|已撤销)$/);
  await expect(all.locator("tbody tr.ant-table-row")).toHaveCount(1);
  await expect(all).toContainText(`Budget ${run}`);
  // The owner select offers the users as the search finds them: typed, then the administrator picked.
  const owner = filters.getByTestId("share-filter-owner");
  await owner.click();
  await page.keyboard.type("admin");
  await pickOption(page, owner, /^(.+ \(admin\)|admin)$/);
  await expect(all.locator("tbody tr.ant-table-row")).toHaveCount(1);
  await snapshot(page, testInfo, "share-all-1366");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(all).toContainText(`Budget ${run}`);
  await expectNoHorizontalOverflow(page);
  await snapshot(page, testInfo, "share-all-390");

  // The network disk: the WebDAV addresses of this site and the credentials.
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/source/ismpnetdisk", { waitUntil: "networkidle" });
  await page.getByTestId("dav-connect-open").click();
  const dav = page.getByTestId("dav-connect");
  const origin = new URL(page.url()).origin;
  await expect(dav.getByTestId("dav-address-disk").first()).toHaveText(`${origin}/dav/`);
  await expect(dav.getByTestId("dav-address-libraries").first()).toHaveText(`${origin}/dav-libraries/`);
  await expect(dav.getByTestId("dav-username")).toHaveText("admin");
  await expect(dav).toContainText(/personal API token|个人 API 令牌/);
  await snapshot(page, testInfo, "dav-connect-mac-1366");
  await dav
    .getByRole("tab", { name: en("disk.dav.system.windows") })
    .or(dav.getByRole("tab", { name: /Windows/ }))
    .first()
    .click();
  const port = new URL(origin).port;
  await expect(dav.getByTestId("dav-windows").getByTestId("dav-address-disk")).toHaveText(
    `\\\\${new URL(origin).hostname}${port ? `@${port}` : ""}\\dav`,
  );
  await snapshot(page, testInfo, "dav-connect-windows-1366");
  await page.setViewportSize({ width: 390, height: 844 });
  await dav.getByRole("tab", { name: /Linux/ }).click();
  await expect(dav.getByTestId("dav-linux").getByTestId("dav-address-disk")).toHaveText(/^dav:\/\/.*\/dav\/$/);
  await snapshot(page, testInfo, "dav-connect-linux-390");
  await dav.getByTestId("dav-make-token").click();
  await expect(page.getByRole("dialog").last()).toBeVisible();

  const unexpected = (list: string[]) => list.filter((text) => !/status of 4(01|03|10)/.test(text));
  expect(unexpected(errors)).toEqual([]);
});
