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

/** Stands in for the internet: a photo, a link that redirects to the cloud metadata address, and a slow video. */
let origin: http.Server;
let base: string;
test.beforeAll(async () => {
  origin = http.createServer((request, response) => {
    if (request.url === "/news/canon-40d.jpg") {
      response.writeHead(200, { "content-type": "image/jpeg", "content-length": JPEG.length }).end(JPEG);
    } else if (request.url === "/innocent.jpg") {
      response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    } else if (request.url === "/slow/interview.mp4") {
      // Trickles until the fetch is cancelled.
      response.writeHead(200, { "content-type": "video/mp4" });
      const timer = setInterval(() => response.write(Buffer.alloc(2048, 1)), 100);
      response.on("close", () => clearInterval(timer));
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
  test.setTimeout(240_000);
  const errors = watchConsoleErrors(page);
  await openApp(page, "/upload/download");
  // The page's code loads on demand; a busy machine may take a while.
  await expect(page.getByText(zh("urlIngest.title")).first()).toBeVisible({ timeout: 60_000 });

  const urls = page.getByLabel(zh("urlIngest.urls"));
  await urls.fill(
    [`${base}/news/canon-40d.jpg`, "http://10.0.0.1/photo.jpg", "http://[::1]/", "file:///etc/passwd"].join("\n"),
  );
  await page.getByRole("button", { name: zh("urlIngest.start") }).click();

  // Three refused at once, each with its reason in the UI's language; they stay in the box to be corrected.
  const refusals = page.getByTestId("url-fetch-refusals");
  const reason = (key: keyof typeof zhCN, params: Record<string, string>) =>
    zh(key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? "");
  await expect(refusals).toContainText(
    reason("server.fetch.address", { address: "10.0.0.1", range: zh("server.range.private") }),
  );
  await expect(refusals).toContainText(
    reason("server.fetch.address", { address: "::1", range: zh("server.range.loopback") }),
  );
  await expect(refusals).toContainText(reason("server.fetch.scheme", { scheme: "file" }));
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
  await expect(failed.getByTestId("url-fetch-error")).toContainText(
    reason("server.fetch.address", { address: "169.254.169.254", range: zh("server.range.metadata") }),
  );

  // A slow video is cancelled while it arrives, then fetched again and cancelled once more.
  await page.getByLabel(zh("urlIngest.urls")).fill(`${base}/slow/interview.mp4`);
  await page.getByRole("button", { name: zh("urlIngest.start") }).click();
  const slow = page.getByTestId("url-fetch-list").getByRole("row").filter({ hasText: "interview.mp4" }).first();
  await expect(slow.getByText(zh("urlIngest.state.running"))).toBeVisible({ timeout: 30_000 });
  await slow.getByRole("button", { name: zh("urlIngest.cancel") }).click();
  await expect(slow.getByText(zh("urlIngest.state.cancelled"))).toBeVisible();
  await expect(slow.getByRole("button", { name: zh("urlIngest.cancel") })).toHaveCount(0);
  await slow.getByRole("button", { name: zh("urlIngest.retry") }).click();
  await expect(slow.getByText(zh("urlIngest.state.running"))).toBeVisible({ timeout: 30_000 });
  await slow.getByRole("button", { name: zh("urlIngest.cancel") }).click();
  await expect(slow.getByText(zh("urlIngest.state.cancelled"))).toBeVisible();
  await expect(slow.getByRole("link", { name: zh("urlIngest.openStory") })).toHaveCount(0);
  // The refused URLs were answered 400, which Chromium logs as a failed resource: that is the expected answer.
  expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
});
