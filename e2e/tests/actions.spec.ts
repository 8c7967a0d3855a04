import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import {
  buttonName as button,
  expectNoHorizontalOverflow,
  expectToast,
  formItem,
  LAPTOP,
  pickOption,
  snapshot,
  test,
  zh,
} from "./helpers.js";
import { API, PHOTOS, seedingHeaders, upload } from "./seed.js";

test.use({ viewport: LAPTOP });

/** Picks `option` in the select (single or multiple) of the form item labelled `label`. */
async function chooseOption(page: Page, scope: Locator, label: string, option: string): Promise<void> {
  const item = formItem(scope, label);
  await pickOption(page, item, option);
  await expect(item.locator(".ant-select-selection-item").filter({ hasText: option }).first()).toBeVisible();
  // Closes a multiple select's list (Escape would close the dialog too).
  await item.locator(".ant-form-item-label").click();
}

test("actions: a rule 'when committed in a library apply a template' runs after a commit; its run and the story's field show", async ({
  page,
  signedIn: errors,
}, testInfo) => {
  test.setTimeout(240_000);
  const run = String(Date.now()).slice(-6);
  const { token, headers: auth } = await seedingHeaders(page, "actions");

  // The template the rule applies, and the library's name as the picker shows it.
  const template = await page.request.post(`${API}/metadata-templates`, {
    headers: auth,
    data: { name: `自动模板 ${run}`, values: { source: `自动化 ${run}`, keywords: ["自动规则"] } },
  });
  expect(template.status(), await template.text()).toBe(200);
  const libraries = (await (await page.request.get(`${API}/libraries`, { headers: auth })).json()) as {
    data: { id: string; name: string }[];
  };
  const product = libraries.data.find((library) => library.id === "product")!;

  // The rule, made in the dialog: committed, in the product library, with the run's keyword; apply the template.
  await page.goto("/manage/setting/action", { waitUntil: "networkidle" });
  await page.getByRole("button", { name: button(zh("crud.add")) }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(zh("catalogue.name")).fill(`提交即套模板 ${run}`);
  await chooseOption(page, dialog, zh("actions.conditions.libraries"), product.name);
  await dialog.getByLabel(zh("actions.conditions.keyword")).fill(`规则${run}`);
  await chooseOption(page, dialog.getByTestId("action-step-0"), zh("actions.step.template"), `自动模板 ${run}`);
  await snapshot(page, testInfo, "action-add-1366");
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expectToast(page, zh("crud.saved"));
  await expect(dialog).toBeHidden();
  const row = page.locator("tr", { hasText: `提交即套模板 ${run}` });
  await expect(row).toContainText(zh("actions.trigger.committed"));
  await expect(row).toContainText(product.name);

  // A story committed in the library with the keyword in its title.
  const photo = await upload(page.request, token, path.join(PHOTOS, "Canon_40D.jpg"), {
    libraryId: "product",
    title: `规则${run} 提交的照片`,
  });
  const committed = await page.request.post(`${API}/workflow-story-create/photo/commit`, {
    headers: auth,
    data: { libraryId: "product", storyIds: [photo.storyId] },
  });
  expect(committed.status(), await committed.text()).toBe(200);

  // The run shows in the rule's drawer (it refreshes itself), with the template's fields.
  await row.getByRole("button", { name: button(zh("actions.runs")) }).click();
  const drawer = page.locator(".ant-drawer-content");
  const runItem = drawer.getByTestId("action-run").first();
  await expect(runItem).toContainText(zh("actions.run.state.succeeded"), { timeout: 60_000 });
  await expect(runItem).toContainText(`规则${run} 提交的照片`);
  await expect(runItem).toContainText("source");
  await snapshot(page, testInfo, "action-runs-1366");

  // The story's field changed.
  const story = (await (
    await page.request.get(`${API}/stories/product/${photo.storyId}`, { headers: auth })
  ).json()) as { data: { source: string | null; keywords: string[] } };
  expect(story.data.source).toBe(`自动化 ${run}`);
  expect(story.data.keywords).toContain("自动规则");
  await page.keyboard.press("Escape");

  // The list's last run now succeeded.
  await page.goto("/manage/setting/action", { waitUntil: "networkidle" });
  await expect(row).toContainText(zh("actions.run.state.succeeded"));
  await snapshot(page, testInfo, "action-list-1366");

  // The phone width (the last-run column is left out there): the list, then the runs drawer.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/manage/setting/action", { waitUntil: "networkidle" });
  await expect(row).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await snapshot(page, testInfo, "action-list-390");
  await row.getByRole("button", { name: button(zh("actions.runs")) }).click();
  await expect(drawer.getByTestId("action-run").first()).toContainText(zh("actions.run.state.succeeded"));
  await snapshot(page, testInfo, "action-runs-390");
  await page.keyboard.press("Escape");

  // Disabled, so later commits are left alone.
  await row.getByRole("switch").click();
  await expect(row.getByRole("switch")).not.toBeChecked();
  expect(errors).toEqual([]);
});
