import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import zhCN from "../../web/src/locales/zh-CN/index.js";
import { openApp, snapshot, watchConsoleErrors } from "./helpers.js";

const zh = (key: keyof typeof zhCN): string => zhCN[key];
const JPEG = fs.readFileSync(
  path.resolve(import.meta.dirname, "../../../shared/corpus/exif-samples/jpg/Canon_40D.jpg"),
);

/** Stands in for the internet: a photo, and a link that redirects to the cloud metadata address. */
let origin: http.Server;
let base: string;
test.beforeAll(async () => {
  origin = http.createServer((request, response) => {
    if (request.url === "/news/canon-40d.jpg") {
      response.writeHead(200, { "content-type": "image/jpeg", "content-length": JPEG.length }).end(JPEG);
    } else if (request.url === "/innocent.jpg") {
      response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  origin.closeAllConnections();
  await new Promise((resolve) => origin.close(resolve));
});

test("a photo desk fetches a photo from a link into 素材库; private addresses are refused with their reason", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const errors = watchConsoleErrors(page);
  await openApp(page, "/upload/download");
  await expect(page.getByText(zh("urlIngest.title")).first()).toBeVisible();

  const urls = page.getByLabel(zh("urlIngest.urls"));
  await urls.fill(
    [`${base}/news/canon-40d.jpg`, "http://10.0.0.1/photo.jpg", "http://[::1]/", "file:///etc/passwd"].join("\n"),
  );
  await page.getByRole("button", { name: zh("urlIngest.start") }).click();

  // Three refused at once, each with its reason; they stay in the box to be corrected.
  const refusals = page.getByTestId("url-fetch-refusals");
  await expect(refusals).toContainText("10.0.0.1 is a private address");
  await expect(refusals).toContainText("::1 is a loopback address");
  await expect(refusals).toContainText("file: URLs are not fetched");
  await expect(urls).not.toHaveValue(/canon-40d/);

  // The photo arrives: done, 100 %, with a link that opens the story in the viewer.
  const list = page.getByTestId("url-fetch-list");
  const row = list.getByRole("row").filter({ hasText: "canon-40d.jpg" });
  await expect(row.getByText(zh("urlIngest.state.done"))).toBeVisible({ timeout: 30_000 });
  await expect(row.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  await snapshot(page, testInfo, "download-centre");
  await row.getByRole("link", { name: zh("urlIngest.openStory") }).click();
  await expect(page).toHaveURL(/\/frontend\/search\?story=material\//);

  // A public-looking link whose redirect points at the metadata service fails with the reason.
  await openApp(page, "/upload/download");
  await page.getByLabel(zh("urlIngest.urls")).fill(`${base}/innocent.jpg`);
  await page.getByRole("button", { name: zh("urlIngest.start") }).click();
  const failed = page.getByTestId("url-fetch-list").getByRole("row").filter({ hasText: "innocent.jpg" });
  await expect(failed.getByText(zh("urlIngest.state.failed"))).toBeVisible({ timeout: 30_000 });
  await expect(failed.getByTestId("url-fetch-error")).toContainText("169.254.169.254 is a link-local address");
  // The refused URLs were answered 400, which Chromium logs as a failed resource: that is the expected answer.
  expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
});
