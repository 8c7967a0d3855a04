import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import sharp from "sharp";
import { type HttpReceiver, startHttpReceiver } from "../../server/src/modules/channels/test-support/http-receiver.js";
import { newsmlSchemaErrors } from "../../server/src/modules/channels/test-support/newsml-schema.js";
import { startSshd, type TestSshd } from "../../server/src/modules/channels/test-support/sshd.js";
import channelsZh from "../../web/src/locales/channels/zh-CN.js";
import monitorZh from "../../web/src/locales/monitor/zh-CN.js";
import {
  buttonName as button,
  chooseOption,
  confirmPopconfirm,
  downloadViewerPreset,
  expectNoHorizontalOverflow,
  expectToast,
  LAPTOP,
  snapshot,
  test,
  watchConsoleErrors,
  zh,
} from "./helpers.js";
import { API, commitAndProcess, PHOTOS, type Seeded, seedingToken, upload } from "./seed.js";

/**
 * Issue 17's "done when", as a picture desk does it: photos go to an agency over SFTP as NewsML-G2 (the JPEG
 * with its IPTC) and to the website over HTTP as ninjs (a watermarked 1200 px WebP through a download preset),
 * one of them under an embargo; the desk watches each delivery succeed in the publish monitor; the same
 * download preset gives a watermarked 1200 px WebP from the viewer. The receivers are real: Debian's OpenSSH
 * server and an HTTP endpoint that checks each body's HMAC and each ninjs item against IPTC's schema, both
 * started here with the server tests' own helpers.
 */

const cz = (key: keyof typeof channelsZh): string => channelsZh[key];
const mz = (key: keyof typeof monitorZh): string => monitorZh[key];
const SECRET = "picture-desk-hmac-secret";
/** A 3264 × 2448 phone photo of the corpus (the 1200 px preset makes 1200 × 900 of it). */
const BIG_PHOTO = path.join(PHOTOS, "hdr/iphone_hdr_NO.jpg");
const BIG_PHOTO_2 = path.join(PHOTOS, "mobile/jolla.jpg");

test.use({ viewport: LAPTOP });

let sshd: TestSshd;
let receiver: HttpReceiver;
test.beforeAll(async () => {
  sshd = await startSshd();
  receiver = await startHttpReceiver(SECRET);
});
test.afterAll(async () => {
  await receiver?.close();
  await sshd?.close();
});

/** Opens the channels page's add dialog with the kind and format chosen. */
async function openChannelDialog(page: Page, name: string, kind: string, format: string): Promise<Locator> {
  await page.getByRole("button", { name: button(zh("crud.add")) }).click();
  const dialog = page.locator(".ant-modal-content").filter({ hasText: cz("channels.kind") });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(zh("catalogue.name")).fill(name);
  await chooseOption(page, dialog, cz("channels.kind"), kind);
  await chooseOption(page, dialog, cz("channels.format"), format);
  return dialog;
}

async function saveChannel(page: Page, dialog: Locator): Promise<void> {
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expectToast(page, zh("crud.saved"));
  await expect(dialog).toBeHidden();
}

/** "Test connection" on a channel's row: the result dialog's title and reason. */
async function testConnection(page: Page, name: string): Promise<string> {
  await page
    .locator("tr", { hasText: name })
    .getByRole("button", { name: button(cz("channels.test")) })
    .click();
  const result = page.getByTestId("channel-test-result");
  await expect(result).toBeVisible({ timeout: 60_000 });
  const confirm = page.locator(".ant-modal-confirm");
  const text = `${await confirm.locator(".ant-modal-confirm-title").textContent()}|${await result.textContent()}`;
  await confirm.locator(".ant-modal-confirm-btns .ant-btn").click();
  await expect(result).toHaveCount(0);
  return text;
}

/** The fraction of near-black and near-white pixels in a rectangle of raw RGB(A) pixels. */
function tones(
  raw: { data: Buffer; info: { width: number; channels: number } },
  left: number,
  top: number,
  width: number,
  height: number,
) {
  let black = 0;
  let white = 0;
  for (let y = top; y < top + height; y++)
    for (let x = left; x < left + width; x++) {
      const at = (y * raw.info.width + x) * raw.info.channels;
      const rgb = [raw.data[at]!, raw.data[at + 1]!, raw.data[at + 2]!];
      if (Math.max(...rgb) < 40) black++;
      if (Math.min(...rgb) > 200) white++;
    }
  return { black: black / (width * height), white: white / (width * height) };
}

/**
 * The preset's text mark (40 px white on black, lower-right, 2 % margin): the bottom of its box, right of the
 * text, is black where the photo resized alone is not; its glyphs put white pixels in the box.
 */
async function expectWatermarked1200Webp(file: Buffer, source: string): Promise<void> {
  const meta = await sharp(file).metadata();
  expect(meta.format).toBe("webp");
  expect([meta.width, meta.height]).toEqual([1200, 900]);
  const marked = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const plain = await sharp(source)
    .rotate()
    .resize(1200, 1200, { fit: "inside" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const margin = Math.round(900 * 0.02);
  const patch = [1200 - margin - 60, 900 - margin - 8, 40, 5] as const;
  expect(tones(marked, ...patch).black).toBeGreaterThan(0.9);
  expect(tones(plain, ...patch).black).toBeLessThan(0.1);
  const box = [1200 - margin - 300, 900 - margin - 60, 300, 60] as const;
  expect(tones(marked, ...box).white).toBeGreaterThan(0.01);
}

/** exiftool's reading of a file's IPTC title and caption. */
function iptcOf(file: string): { ObjectName?: string; "Caption-Abstract"?: string } {
  const [tags] = JSON.parse(
    execFileSync("exiftool", ["-j", "-charset", "iptc=UTF8", "-IPTC:ObjectName", "-IPTC:Caption-Abstract", file], {
      encoding: "utf8",
    }),
  ) as { ObjectName?: string; "Caption-Abstract"?: string }[];
  return tags ?? {};
}

/** "YYYY-MM-DD HH:mm" of the browser's (this machine's) local time, as the date picker takes it. */
const pickerTime = (date: Date): string => {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
};

test("picture desk: photos to an agency over SFTP as NewsML-G2 with IPTC and to the website over HTTP as ninjs, one embargoed, each delivery watched in the monitor; a preset's watermarked 1200 px WebP", async ({
  page,
  signedIn: errors,
}, testInfo) => {
  test.setTimeout(720_000);
  const run = String(Date.now()).slice(-6);
  const token = await seedingToken(page);
  const auth = { authorization: `Bearer ${token}` };

  // The website's rendition: a 1200 px WebP with the desk's text mark (created on their pages in presets.spec).
  const mark = await page.request.post(`${API}/watermark-presets`, {
    headers: auth,
    data: {
      name: `图片台 水印 ${run}`,
      settings: {
        type: 2,
        position: "lower-right",
        opacity: 100,
        x: 0,
        y: 0,
        sizePercent: 100,
        text: "新华社 图片",
        textWidth: 300,
        fontSize: 40,
        fontFamily: "Microsoft YaHei",
        color: "#ffffff",
        background: "#000000",
      },
    },
  });
  expect(mark.status(), await mark.text()).toBe(200);
  const markId = ((await mark.json()) as { data: { id: string } }).data.id;
  const presetName = `网站 1200 WebP ${run}`;
  const preset = await page.request.post(`${API}/download-presets`, {
    headers: auth,
    data: {
      name: presetName,
      storyType: "photo",
      settings: {
        format: "webp",
        maxWidth: 1200,
        maxHeight: 1200,
        quality: 82,
        srgb: true,
        metadata: "rights",
        videoBitrateKbps: 2500,
        audioBitrateKbps: 128,
      },
      watermarkPresetId: markId,
      roleIds: [],
      enabled: true,
    },
  });
  expect(preset.status(), await preset.text()).toBe(200);

  // Three photos with Chinese titles and captions that look like XML (markup, an entity): they must arrive as typed.
  const photos: Seeded[] = [];
  const captions: string[] = [];
  for (const [index, file] of [BIG_PHOTO, BIG_PHOTO_2, path.join(PHOTOS, "Canon_40D.jpg")].entries()) {
    captions.push(`台风“海葵”登陆 第 ${index + 1} 张 <b>&amp; ${run}`);
    photos.push(
      await upload(page.request, token, file, {
        libraryId: "product",
        title: `图片台 ${run} 第${index + 1}张`,
        caption: captions[index]!,
      }),
    );
  }
  await commitAndProcess(page.request, token, photos);
  const [first, second, embargoed] = photos as [Seeded, Seeded, Seeded];

  // The channels page: the agency over SFTP (NewsML-G2, key login, host key pinned), the website over HTTP
  // (ninjs, HMAC secret, photos through the 1200 px preset); each tested.
  const agency = `通讯社 SFTP ${run}`;
  const website = `网站 HTTP ${run}`;
  await page.goto("/manage/setting/tunnel", { waitUntil: "networkidle" });
  let dialog = await openChannelDialog(page, agency, cz("channels.kind.sftp"), cz("channels.format.newsml"));
  // The settings by their form ids: "主机" (host) is also the start of "主机密钥指纹" (host key).
  await dialog.locator("#settings_host").fill(sshd.host);
  await dialog.locator("#settings_port").fill(String(sshd.port));
  await dialog.locator("#settings_username").fill(sshd.username);
  await dialog.locator("#settings_directory").fill(sshd.directory);
  await dialog.locator("#settings_hostKeySha256").fill(sshd.hostKeySha256);
  await dialog.locator("#credentials_privateKey").fill(sshd.privateKey);
  await saveChannel(page, dialog);
  dialog = await openChannelDialog(page, website, cz("channels.kind.http"), cz("channels.format.ninjs"));
  await dialog.locator("#settings_url").fill(receiver.url);
  await dialog.locator("#credentials_secret").fill(SECRET);
  await dialog.getByText(cz("channels.presets")).click();
  const photoPreset = cz("channels.preset").replace("{{type}}", zh("presets.download.storyType.photo"));
  const presetItem = dialog
    .locator(".ant-form-item")
    .filter({ has: page.locator(".ant-form-item-label", { hasText: photoPreset }) })
    .first();
  await presetItem.locator(".ant-select-selector").click();
  await page
    .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")
    .filter({ hasText: presetName })
    .first()
    .click();
  await snapshot(page, testInfo, "picture-desk-http-channel-1366");
  await saveChannel(page, dialog);
  expect(await testConnection(page, agency)).toContain(cz("channels.test.ok").replace("{{name}}", agency));
  expect(await testConnection(page, website)).toContain(cz("channels.test.ok").replace("{{name}}", website));
  await snapshot(page, testInfo, "picture-desk-channels-1366");

  // The publish monitor in a second tab, filtered to this run: connecting, then live — never "interrupted".
  const monitor = await page.context().newPage();
  await monitor.setViewportSize({ width: 1366, height: 900 });
  const monitorErrors = watchConsoleErrors(monitor);
  await monitor.goto("/manage/monitor/publish");
  const live = monitor.getByTestId("monitor-live");
  await expect(live).toBeVisible();
  expect(await live.getAttribute("data-state")).not.toBe("down");
  await expect(live).toHaveAttribute("data-state", "live", { timeout: 30_000 });
  await monitor.getByPlaceholder(mz("monitor.publish.filterKeyword")).fill(`图片台 ${run}`);
  await monitor.getByPlaceholder(mz("monitor.publish.filterKeyword")).press("Enter");

  // The grid: the first two photos to both channels.
  await page.goto(`/frontend/search?fulltext=${encodeURIComponent(`图片台 ${run}`)}`, { waitUntil: "networkidle" });
  for (const photo of [first, second]) {
    const card = page.locator(`[data-testid="story-card"][data-story="product/${photo.storyId}"]`);
    await expect(card).toBeVisible({ timeout: 30_000 });
    await card.getByRole("checkbox").check();
  }
  await page.getByTestId("selection-bar").getByTestId("selection-publish").click();
  const batch = page.locator(".ant-modal-content").filter({ has: page.getByTestId("batch-publish-body") });
  await batch.locator("label.ant-checkbox-wrapper").filter({ hasText: agency }).click();
  await batch.locator("label.ant-checkbox-wrapper").filter({ hasText: website }).click();
  await batch.locator(".ant-modal-footer .ant-btn-primary").click();
  await expect(batch.locator('[data-testid="batch-publish-result"][data-ok="true"]')).toHaveCount(2, {
    timeout: 30_000,
  });
  await batch.locator(".ant-modal-footer .ant-btn-primary").click();
  await expect(batch).toBeHidden();

  // The viewer: the third photo to both, under an embargo until a minute at least 60 s from now.
  const embargoEnd = new Date(Math.ceil((Date.now() + 60_000) / 60_000) * 60_000);
  await page.goto(`/frontend/search?story=product/${embargoed.storyId}`, { waitUntil: "networkidle" });
  await page.getByTestId("story-publish").click();
  const publish = page.locator(".ant-modal-content").filter({ hasText: zh("publish.title") });
  await expect(publish).toBeVisible();
  await publish.locator("label.ant-checkbox-wrapper").filter({ hasText: agency }).click();
  await publish.locator("label.ant-checkbox-wrapper").filter({ hasText: website }).click();
  const embargoInput = publish
    .locator(".ant-form-item")
    .filter({ has: page.locator(".ant-form-item-label", { hasText: zh("publish.embargo") }) })
    .locator("input");
  await embargoInput.click();
  await embargoInput.fill(pickerTime(embargoEnd));
  await embargoInput.press("Enter");
  await expect(embargoInput).toHaveValue(pickerTime(embargoEnd));
  await snapshot(page, testInfo, "picture-desk-publish-embargo-1366");
  await publish.locator(".ant-modal-footer .ant-btn-primary").click();
  await expect(publish).toBeHidden();

  // The monitor (not reloaded): six deliveries; the embargoed photo's two wait for the embargo's end, the
  // others succeed; then those two succeed too.
  const rows = monitor.locator("tr", { hasText: `图片台 ${run}` });
  await expect(rows).toHaveCount(6, { timeout: 60_000 });
  const rowOf = (story: Seeded, channel: string) =>
    monitor.locator("tr", { hasText: story.title }).filter({ hasText: channel });
  for (const channel of [agency, website]) {
    await expect(rowOf(embargoed, channel).getByTestId("delivery-not-before")).toContainText(
      `${pickerTime(embargoEnd)}:00`,
      { timeout: 60_000 },
    );
    for (const photo of [first, second])
      await expect(rowOf(photo, channel).getByTestId("delivery-state")).toHaveText(zh("publish.state.succeeded"), {
        timeout: 90_000,
      });
  }
  await snapshot(monitor, testInfo, "picture-desk-monitor-embargo-1366");
  for (const channel of [agency, website])
    await expect(rowOf(embargoed, channel).getByTestId("delivery-state")).toHaveText(zh("publish.state.succeeded"), {
      timeout: 180_000,
    });
  await expect(live).toHaveAttribute("data-state", "live");
  await snapshot(monitor, testInfo, "picture-desk-monitor-1366");
  await monitor.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(monitor);
  await snapshot(monitor, testInfo, "picture-desk-monitor-390");
  await monitor.close();

  // The agency's SFTP folder: per photo the JPEG with its IPTC title and caption (Chinese intact) and a
  // NewsML-G2 item that Chromium's XML parser reads; the embargoed photo's arrived after the embargo.
  const inbox = fs.readdirSync(sshd.directory).sort();
  expect(inbox).toEqual(photos.flatMap((photo) => [`${photo.storyId}.jpg`, `${photo.storyId}.xml`]).sort());
  for (const [index, photo] of photos.entries()) {
    expect(iptcOf(path.join(sshd.directory, `${photo.storyId}.jpg`))).toMatchObject({
      ObjectName: photo.title,
      "Caption-Abstract": captions[index],
    });
    const xml = fs.readFileSync(path.join(sshd.directory, `${photo.storyId}.xml`), "utf8");
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, "application/xml");
      return {
        error: doc.getElementsByTagName("parsererror").length > 0,
        root: doc.documentElement.localName,
        headline: doc.getElementsByTagName("headline")[0]?.textContent ?? null,
        description: doc.getElementsByTagName("description")[0]?.textContent ?? null,
        embargoed: doc.getElementsByTagName("embargoed")[0]?.textContent ?? null,
      };
    }, xml);
    expect(parsed).toMatchObject({ error: false, root: "newsItem", headline: photo.title });
    expect(await newsmlSchemaErrors(xml)).toEqual([]);
    expect(parsed.description).toContain(captions[index]);
    if (photo === embargoed) {
      expect(Date.parse(parsed.embargoed ?? "")).toBe(embargoEnd.getTime());
      expect(fs.statSync(path.join(sshd.directory, `${photo.storyId}.xml`)).mtimeMs).toBeGreaterThanOrEqual(
        embargoEnd.getTime() - 1000,
      );
    } else expect(parsed.embargoed).toBeNull();
  }

  // The website: every body signed, three ninjs items valid against IPTC's schema, each photo a watermarked
  // 1200 × 900 WebP (the small one is not enlarged); the embargoed item came after its end.
  expect(receiver.schemaErrors).toEqual([]);
  expect(receiver.parts.every((part) => part.signatureValid)).toBe(true);
  const items = [...receiver.items.values()] as { uri?: string; headline?: string; embargoed?: string }[];
  expect(items.map((item) => item.headline).sort()).toEqual(photos.map((photo) => photo.title).sort());
  const renditions = receiver.parts.filter((part) => part.part === "rendition");
  expect(renditions.map((part) => part.mime)).toEqual(["image/webp", "image/webp", "image/webp"]);
  await expectWatermarked1200Webp(renditions.find((part) => part.filename.startsWith(first.storyId))!.body, BIG_PHOTO);
  const late = items.find((item) => item.headline === embargoed.title)!;
  expect(Date.parse(late.embargoed ?? "")).toBe(embargoEnd.getTime());
  const lateCalls = receiver.calls.filter((call) =>
    receiver.parts.some((part) => part.delivery === call.delivery && part.filename.startsWith(embargoed.storyId)),
  );
  expect(lateCalls.length).toBeGreaterThan(0);
  for (const call of lateCalls) expect(call.at).toBeGreaterThanOrEqual(embargoEnd.getTime() - 1000);

  // Withdraw the first photo from the viewer: the kill reaches both, the agency's JPEG is deleted.
  await page.goto(`/frontend/search?story=product/${first.storyId}`, { waitUntil: "networkidle" });
  await page.getByTestId("story-withdraw").click();
  await confirmPopconfirm(page);
  await expectToast(page, zh("publish.withdrawn").replace("{{count}}", "2"), { timeout: 60_000 });
  await expect
    .poll(() => fs.existsSync(path.join(sshd.directory, `${first.storyId}.jpg`)), { timeout: 90_000 })
    .toBe(false);
  await expect
    .poll(() => fs.readFileSync(path.join(sshd.directory, `${first.storyId}.xml`), "utf8"), { timeout: 90_000 })
    .toContain("stat:canceled");
  await expect
    .poll(
      () => [...receiver.items.values()].some((item) => item.headline === first.title && item.pubstatus === "canceled"),
      { timeout: 90_000 },
    )
    .toBe(true);
  expect(receiver.schemaErrors).toEqual([]);

  // The story shows where and when it went: the viewer's 发布记录 tab lists both channels' publish and kill,
  // each succeeded, with its time and attempts — at both widths.
  await page.getByRole("tab", { name: zh("stories.viewer.publications") }).click();
  const publications = page.getByTestId("story-publications");
  await expect(publications.getByTestId("publication-state")).toHaveText(Array(4).fill(zh("publish.state.succeeded")), {
    timeout: 90_000,
  });
  for (const channel of [agency, website]) {
    const channelRows = publications.locator("tr", { hasText: channel });
    await expect(channelRows).toHaveCount(2);
    await expect(channelRows.filter({ hasText: mz("monitor.publish.kill") })).toHaveCount(1);
  }
  // The drawer's body scrolls by itself: the list is brought into view for the pictures.
  await publications.locator("tr").last().scrollIntoViewIfNeeded();
  await snapshot(page, testInfo, "picture-desk-viewer-publications-1366");
  await page.setViewportSize({ width: 390, height: 844 });
  // The phone layout (one column carrying channel, state, time and attempts) has replaced the table's columns.
  await expect(publications.locator("thead th")).toHaveCount(1);
  await publications.locator("tr").last().scrollIntoViewIfNeeded();
  await expect(publications.locator("tr", { hasText: agency }).first()).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await snapshot(page, testInfo, "picture-desk-viewer-publications-390");
  // The page picture shows the drawer's top; the list itself, as a phone shows it:
  const listPicture = testInfo.outputPath("picture-desk-viewer-publications-list-390.png");
  await publications.screenshot({ path: listPicture });
  await testInfo.attach("picture-desk-viewer-publications-list-390", { path: listPicture, contentType: "image/png" });
  await page.setViewportSize({ width: 1366, height: 900 });

  // The same download preset from the viewer's menu: a watermarked 1200 px WebP.
  await page.goto(`/frontend/search?story=product/${first.storyId}`, { waitUntil: "networkidle" });
  const file = await downloadViewerPreset(page, presetName, 90_000);
  expect(file.suggestedFilename()).toMatch(/\.webp$/);
  await expectWatermarked1200Webp(fs.readFileSync((await file.path())!), BIG_PHOTO);

  // The settings pages at both widths.
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const [route, name] of [
      ["/manage/setting/tunnel", "channels"],
      ["/manage/setting/download", "download-presets"],
      ["/manage/setting/watermark", "watermarks"],
      ["/manage/setting/template", "templates"],
      ["/manage/setting/action", "actions"],
    ] as const) {
      await page.goto(route, { waitUntil: "networkidle" });
      // Its rows, or its empty state (no templates or rules were made in this journey).
      await expect(page.locator(".ant-table-row, .ant-table-placeholder .ant-empty").first()).toBeVisible();
      await expectNoHorizontalOverflow(page);
      await snapshot(page, testInfo, `picture-desk-${name}-${width}`);
    }
  }
  expect([...errors, ...monitorErrors]).toEqual([]);
});
