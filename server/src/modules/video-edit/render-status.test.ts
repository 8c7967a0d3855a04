import { expect, it } from "vitest";
import type { JobRecord } from "../jobs/jobs.repository.js";
import type { RenderRow, VideoEditRepository } from "./video-edit.repository.js";
import { type VideoEditDependencies, VideoEditService } from "./video-edit.service.js";

const editor = { id: "u1", username: "editor", admin: false, roleId: "editor" };

function row(outputKey: string | null): RenderRow {
  return {
    id: "r1",
    user_id: "u1",
    job_id: "j1",
    project_id: null,
    output_key: outputKey,
    method: outputKey ? "encode" : null,
    reason: null,
    duration: outputKey ? 3.5 : null,
    width: null,
    height: null,
    size: null,
    story_id: null,
    story_library_id: null,
    created_at: "2026-11-27T00:00:00.000Z",
  } as unknown as RenderRow;
}

it("reports a render that finished between its row's read and its job's as done, not failed", async () => {
  // The first read of the row comes before the render's transaction, the job's read after its success.
  const reads = [row(null), row("originals/rendered")];
  const repository = { findRender: async () => reads.shift() } as unknown as VideoEditRepository;
  const job = { state: "succeeded", progress: 100, lastError: null } as JobRecord;
  const service = new VideoEditService({
    repository,
    jobs: { get: async () => job },
  } as unknown as VideoEditDependencies);

  expect(await service.render(editor, "r1")).toMatchObject({
    state: "done",
    progress: 100,
    method: "encode",
    error: null,
  });
});

it("still reports a succeeded job whose render stored no file (its story went) as failed", async () => {
  const repository = { findRender: async () => row(null) } as unknown as VideoEditRepository;
  const job = { state: "succeeded", progress: 100, lastError: null } as JobRecord;
  const service = new VideoEditService({
    repository,
    jobs: { get: async () => job },
  } as unknown as VideoEditDependencies);

  expect(await service.render(editor, "r1")).toMatchObject({ state: "failed", progress: 99 });
});
