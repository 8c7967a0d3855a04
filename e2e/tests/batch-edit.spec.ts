import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import sharp from "sharp";
import { buttonName, expectNoHorizontalOverflow, LAPTOP, snapshot, test, zh } from "./helpers.js";
import { API, commitAndProcess, type Seeded, seedingHeaders, upload } from "./seed.js";

test.use({ viewport: LAPTOP });

const COUNT = 20;

/** The batch dialog's content box (its data-testid sits on antd's zero-size root). */
const batchDialog = (page: Page) =>
  page.locator(".ant-modal-content").filter({ has: page.getByTestId("batch-edit-form") });

/** Picks `label` in the antd select whose input has `id` (typed, so a long list needs no scrolling). */
async function pick(page: Page, dialog: Locator, id: string, label: string) {
  // The select's shown value sits over its search input, so the click goes to the select itself — not
  // forced: a forced click does not wait for the dialog's opening animation to end, and one that landed
  // mid-zoom opened the next field's dropdown instead (seen once in CI; the option was then waited for
  // until the test's timeout).
  await dialog
    .locator(".ant-select")
    .filter({ has: page.locator(`#${id}`) })
    .click();
  await page.locator(".ant-select-dropdown:visible").getByTitle(label, { exact: true }).click();
}

/** Types a new value into a tags-mode select and keeps it. */
async function typeValue(dialog: Locator, id: string, value: string) {
  const input = dialog.locator(`#${id}`);
  await input.click({ force: true });
  await input.fill(value);
  await input.press("Enter");
  await expect(dialog.locator(".ant-select-selection-item", { hasText: value })).toBeVisible();
}

/**
 * Selects every story the grid shows: the first card's checkbox, then the
 * last one's with Shift held (the grid is virtualized and loads by pages: the
 * last card is rendered, and the layout settles, once the page is scrolled to
 * the end and every page has come).
 */
async function selectAllShown(page: Page, count: number) {
  const cards = page.getByTestId("story-card");
  await expect(page.getByTestId("stories-total")).toHaveText(zh("stories.total").replace("{{count}}", String(count)), {
    timeout: 30_000,
  });
  await cards.first().getByRole("checkbox").check();
  const last = page.locator(`[data-testid="story-card"][data-index="${count - 1}"]`);
  const box = last.getByRole("checkbox");
  // The grid scrolls in its own box and renders the rows near its view: scrolled card by card to the last one,
  // then waited for until no page is loading and its checkbox sits still in the window. Playwright's own scroll
  // before a click would move the rows under the pointer (seen: a Shift-click lost on the re-rendered row).
  let before = "";
  await expect
    .poll(
      async () => {
        if ((await last.count()) !== 1) {
          await cards.last().scrollIntoViewIfNeeded();
          return "loading";
        }
        await box.scrollIntoViewIfNeeded();
        if ((await page.getByTestId("story-placeholder").count()) > 0) return "loading";
        const now = JSON.stringify(await box.boundingBox());
        const inWindow = await box.evaluate((element) => {
          const { top, bottom } = element.getBoundingClientRect();
          return top >= 0 && bottom <= window.innerHeight;
        });
        const settled = inWindow && now === before;
        before = now;
        return settled ? "settled" : "moving";
      },
      { timeout: 60_000 },
    )
    .toBe("settled");
  await box.click({ modifiers: ["Shift"] });
  await expect(page.getByTestId("selection-bar")).toContainText(
    zh("stories.selected").replace("{{count}}", String(count)),
  );
}

/**
 * Issue 15: a photo desk tags twenty committed photos in one go. Twenty are
 * selected in the search grid, 编辑信息 appends a new tag and sets the credit,
 * 预览 says each operation changes 20, 应用 runs it and reports 20 changed; the
 * twenty are then found by the tag. On a phone every story the tag search
 * matches (编辑全部结果: the grid's search as the target, resolved by the
 * server) gets a keyword appended (the dialog's first row, filled) and is
 * found by it.
 */
test("batch edit: twenty photos selected in the grid get a tag and a credit, and are found by the tag", async ({
  page,
  signedIn: errors,
}, testInfo) => {
  test.setTimeout(600_000);
  const { token, headers } = await seedingHeaders(page, "batch edit");
  const run = String(Date.now()).slice(-6);
  // Letters only, so the search tokenises each as one word.
  const letters = [...run].map((digit) => "abcdefghij"[Number(digit)]).join("");
  const title = `批量 ${letters}`;
  const tag = `批量标签${run}`;
  const credit = `供稿 ${run}`;
  const keyword = `batchword${letters}`;

  // Twenty distinct photos (each its own colour: no two are duplicates), committed and processed.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-batch-edit-"));
  const photos: Seeded[] = [];
  for (let index = 0; index < COUNT; index++) {
    const file = path.join(dir, `batch-${index + 1}.jpg`);
    await sharp({
      create: { width: 320, height: 240, channels: 3, background: { r: 10 * index, g: 200 - 5 * index, b: 90 } },
    })
      .jpeg()
      .toFile(file);
    photos.push(await upload(page.request, token, file, { libraryId: "product", title: `${title} ${index + 1}` }));
  }
  fs.rmSync(dir, { recursive: true, force: true });
  await commitAndProcess(page.request, token, photos);
  const ids = photos.map((photo) => `product/${photo.storyId}`).sort();

  // The grid: the twenty found by their title, all selected, 编辑信息.
  await page.goto(`/frontend/search?fulltext=${encodeURIComponent(title)}`, { waitUntil: "networkidle" });
  await selectAllShown(page, COUNT);
  await page.getByTestId("selection-edit-info").click();
  const dialog = batchDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.locator(".ant-modal-title")).toHaveText(
    zh("batchEdit.title").replace("{{count}}", String(COUNT)),
  );
  // Row 1: append a new tag (the row opens as "append keywords").
  await pick(page, dialog, "operations_0_field", zh("editInfo.field.tags"));
  await typeValue(dialog, "operations_0_values", tag);
  // Row 2: set the credit.
  await dialog.getByTestId("batch-edit-add-operation").click();
  await pick(page, dialog, "operations_1_field", zh("editInfo.field.credit"));
  await dialog.locator("#operations_1_value").fill(credit);

  await dialog.getByTestId("batch-edit-preview").click();
  await expect(dialog.getByTestId("batch-edit-preview-result")).toContainText(
    zh("batchEdit.previewSummary")
      .replace("{{changed}}", String(COUNT))
      .replace("{{unchanged}}", "0")
      .replace("{{refused}}", "0"),
    { timeout: 60_000 },
  );
  await expect(dialog.getByTestId("batch-edit-touches")).toHaveText([
    zh("batchEdit.touches").replace("{{count}}", String(COUNT)),
    zh("batchEdit.touches").replace("{{count}}", String(COUNT)),
  ]);
  await snapshot(page, testInfo, "batch-edit-preview-1366");

  await dialog
    .getByRole("button", { name: buttonName(zh("batchEdit.apply").replace("{{count}}", String(COUNT))) })
    .click();
  const result = page.getByTestId("batch-edit-result");
  await expect(result.getByTestId("batch-edit-progress")).toBeVisible({ timeout: 60_000 });
  const summary = result.getByTestId("batch-edit-summary");
  await expect(summary).toBeVisible({ timeout: 120_000 });
  await expect(summary.locator(".ant-descriptions-item-content").first()).toHaveText(String(COUNT));
  await snapshot(page, testInfo, "batch-edit-result-1366");
  await page.getByTestId("batch-edit-close").click();
  await expect(result).toBeHidden();

  // Found by the tag: the twenty, each with the credit.
  await page.goto(`/frontend/search?tag=${encodeURIComponent(tag)}`, { waitUntil: "networkidle" });
  await expect(page.getByTestId("stories-total")).toHaveText(zh("stories.total").replace("{{count}}", String(COUNT)), {
    timeout: 30_000,
  });
  const found = await page.request.get(`${API}/stories?tag=${encodeURIComponent(tag)}&size=50`, { headers });
  const stories = (
    (await found.json()) as {
      data: { content: { libraryId: string; storyId: string; properties: Record<string, unknown> }[] };
    }
  ).data.content;
  expect(stories.map((story) => `${story.libraryId}/${story.storyId}`).sort()).toEqual(ids);
  expect(stories.every((story) => story.properties.credit === credit)).toBe(true);
  await snapshot(page, testInfo, "batch-edit-found-1366");

  // On a phone: every story the tag search matches (not a selection: 编辑全部结果), the dialog's first row
  // filled (a keyword appended), previewed with the search's count, applied; found by the keyword.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/frontend/search?tag=${encodeURIComponent(tag)}`, { waitUntil: "networkidle" });
  await expect(page.getByTestId("stories-total")).toHaveText(zh("stories.total").replace("{{count}}", String(COUNT)), {
    timeout: 30_000,
  });
  await page.getByTestId("batch-edit-all").click();
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByRole("radio", { name: zh("batchEdit.target.search").replace("{{count}}", String(COUNT)) }),
  ).toBeChecked();
  await typeValue(dialog, "operations_0_values", keyword);
  await expectNoHorizontalOverflow(page);
  await dialog.getByTestId("batch-edit-preview").click();
  await expect(dialog.getByTestId("batch-edit-preview-result")).toContainText(
    zh("batchEdit.previewMatched").replace("{{total}}", String(COUNT)),
    { timeout: 60_000 },
  );
  await expect(dialog.getByTestId("batch-edit-preview-result")).toContainText(
    zh("batchEdit.previewSummary")
      .replace("{{changed}}", String(COUNT))
      .replace("{{unchanged}}", "0")
      .replace("{{refused}}", "0"),
  );
  await snapshot(page, testInfo, "batch-edit-preview-390");
  await dialog.getByTestId("batch-edit-apply").click();
  await expect(summary).toBeVisible({ timeout: 120_000 });
  await expect(summary.locator(".ant-descriptions-item-content").first()).toHaveText(String(COUNT));
  await expectNoHorizontalOverflow(page);
  await snapshot(page, testInfo, "batch-edit-result-390");
  await page.getByTestId("batch-edit-close").click();
  await page.goto(`/frontend/search?fulltext=${keyword}`, { waitUntil: "networkidle" });
  await expect(page.getByTestId("stories-total")).toHaveText(zh("stories.total").replace("{{count}}", String(COUNT)), {
    timeout: 30_000,
  });

  expect(errors).toEqual([]);
});
