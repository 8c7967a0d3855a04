// @vitest-environment jsdom
import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Story } from "../../api/stories";
import type { StoryProcessing } from "../../api/story-detail";
import { StoryProcessingProgress } from "./story-processing";

// The server's answers to the processing route, through the real typed client.
const answers: StoryProcessing[] = [];
const asked: string[] = [];
vi.stubGlobal("fetch", async (request: Request) => {
  asked.push(new URL(request.url).pathname);
  const data = answers.shift() ?? answers.at(-1);
  return new Response(JSON.stringify({ code: 0, msg: "ok", data }), {
    headers: { "content-type": "application/json" },
  });
});

import { renderInApp } from "../../test-render";
import { stubMatchMedia, until } from "../../test-support";

beforeAll(() => {
  stubMatchMedia();
});

const job = (overrides: Partial<StoryProcessing["jobs"][number]>): StoryProcessing["jobs"][number] => ({
  id: "job-1",
  kind: "stories.process",
  state: "running",
  progress: 0,
  error: null,
  attempts: 1,
  maxAttempts: 3,
  createdAt: "2026-01-01T00:00:00Z",
  startedAt: "2026-01-01T00:00:01Z",
  finishedAt: null,
  updatedAt: "2026-01-01T00:00:02Z",
  ...overrides,
});

const story = (processingState: Story["processingState"]) =>
  ({ libraryId: "product", storyId: "s1", processingState, processingError: null }) as unknown as Story;

let container: HTMLDivElement;
afterEach(() => {
  answers.length = 0;
  asked.length = 0;
});

async function render(element: React.ReactNode, client: QueryClient) {
  container = await renderInApp(element, { client });
}

describe("the viewer's processing progress", () => {
  it("shows the running job's percent and the reason of a failed attempt", async () => {
    answers.push({
      processingState: "running",
      processingError: null,
      versionNo: 1,
      jobs: [job({ progress: 42, attempts: 2, error: "ffmpeg exited with code 1" })],
    });
    await render(<StoryProcessingProgress story={story("running")} />, new QueryClient());
    await until(() => container.textContent?.includes("42%") ?? false);
    expect(container.querySelector("[data-testid=processing-progress]")?.textContent).toContain("42%");
    expect(container.textContent).toContain("Attempt 2 of 3");
    expect(container.textContent).toContain("ffmpeg exited with code 1");
    expect(asked[0]).toBe("/dams/api/v1/stories/product/s1/processing");
  });

  it("reloads the story when its job has ended", async () => {
    answers.push({ processingState: "done", processingError: null, versionNo: 1, jobs: [job({ state: "succeeded" })] });
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, "invalidateQueries");
    await render(<StoryProcessingProgress story={story("running")} />, client);
    await until(() => invalidate.mock.calls.length > 0);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ["stories", "detail", "product", "s1"], exact: true });
  });

  it("shows nothing for a story that is done", async () => {
    await render(<StoryProcessingProgress story={story("done")} />, new QueryClient());
    expect(container.textContent).toBe("");
  });
});
