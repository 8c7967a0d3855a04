/**
 * The video editor journeys' shared steps: their start, the video edit dialog
 * opened from the header, and stories picked in the editor's material picker.
 */
import { expect, type FrameLocator, type Locator, type Page } from "@playwright/test";
import { startSignedIn, zh } from "./helpers.js";
import { seedingHeaders } from "./seed.js";

/**
 * How a video editor journey begins: signed in in a window of `viewport`, console errors watched, with an API
 * token for seeding (`purpose` names it), its headers, and the run's number that keeps the journey's titles apart.
 */
export async function startVideoJourney(
  page: Page,
  viewport: { width: number; height: number },
  purpose: string,
): Promise<{ errors: string[]; token: string; headers: { authorization: string }; run: string }> {
  const errors = await startSignedIn(page, viewport);
  return { errors, ...(await seedingHeaders(page, purpose)), run: String(Date.now()).slice(-6) };
}

/** The video edit dialog (the modal framing the editor) and the editor's frame. */
export function videoDialog(page: Page): { dialog: Locator; frame: FrameLocator } {
  return {
    dialog: page.locator(".ant-modal-content").filter({ has: page.getByTestId("video-dialog-frame") }),
    frame: page.frameLocator('[data-testid="video-dialog-frame"]'),
  };
}

/** The header's video production (`video`) or image-to-video (`slideshow`) editor, open in its dialog. */
export async function openVideoDialogFromHeader(page: Page, kind: "video" | "slideshow") {
  await page
    .getByRole("button", { name: zh(kind === "video" ? "layout.videoProduction" : "layout.imageToVideo") })
    .click();
  const opened = videoDialog(page);
  await expect(opened.frame.getByTestId("video-tools")).toHaveAttribute("data-kind", kind);
  return opened;
}

/**
 * A story's card in a (virtualised) story grid: only the rows in view are in
 * the page, so the grid is scrolled on, a screen at a time and round again
 * from the top, until the card is there (a phone shows two or three cards).
 */
export async function storyCard(scope: Locator, story: string): Promise<Locator> {
  const grid = scope.getByTestId("story-grid");
  const card = scope.locator(`[data-testid="story-card"][data-story="${story}"]`);
  await expect(async () => {
    if ((await card.count()) === 0)
      await grid.evaluate((element) => {
        const last = element.scrollHeight - element.clientHeight;
        element.scrollTop =
          element.scrollTop >= last - 1 ? 0 : Math.min(last, element.scrollTop + element.clientHeight);
      });
    await expect(card).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  return card;
}

/**
 * The editor's "add clips": searched for `query` in the material picker, the
 * stories (`libraryId/storyId`) picked in this order and added to the timeline.
 */
export async function pickStories(frame: FrameLocator, query: string, stories: string[]): Promise<void> {
  await frame.getByTestId("video-add-clips").click();
  const picker = frame.locator('.ant-modal-content:has([data-testid="video-picker-add"])');
  const search = picker.getByPlaceholder(zh("search.placeholder"));
  await search.fill(query);
  await search.press("Enter");
  for (const story of stories) {
    const card = await storyCard(picker, story);
    await card.locator("button").first().click();
  }
  await expect(picker.getByTestId("video-picker-add")).toContainText(String(stories.length));
  await picker.getByTestId("video-picker-add").click();
  await expect(picker).toBeHidden();
}
