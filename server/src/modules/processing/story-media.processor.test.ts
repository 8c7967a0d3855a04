import os from "node:os";
import path from "node:path";
import { beforeAll, beforeEach, expect, it } from "vitest";
import { MediaError } from "../../media/index.js";
import { describeEachDialect } from "../../test/dialects.js";
import { EMPTY_IMAGE_METADATA, FakeMediaTools } from "../../test/fake-media-tools.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { type StoriesTestContext, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { useJobs } from "../jobs/test-support/jobs-harness.js";
import type { MediaType } from "../stories/story-types.js";
import { processStoriesJob } from "./process-stories.job.js";
import { StoryMediaProcessor } from "./story-media.processor.js";

/**
 * The processing rules, with the media tools faked (their own tests run the
 * real ones): which renditions each type gets, what extracted metadata may
 * fill, and how a failure reaches the story. The stories, the database and
 * the blob store are the real ones.
 */
describeEachDialect("story media processing rules", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const jobs = useJobs(() => ctx().db);
  let editor: TestPrincipal;
  let media: FakeMediaTools;
  let processor: StoryMediaProcessor;
  let progress: number[];

  beforeAll(async () => {
    editor = await createPrincipal(ctx().db, { username: "rules-editor", roleId: "editor" });
  });
  beforeEach(() => {
    media = new FakeMediaTools();
    progress = [];
    processor = processorOf(ctx(), media);
  });

  function processorOf(context: StoriesTestContext, tools: FakeMediaTools) {
    return new StoryMediaProcessor({
      stories: context.module.stories,
      blobs: context.blobs,
      media: tools,
      workDir: path.join(os.tmpdir(), "dams-processing-rules"),
    });
  }

  async function run(storyId: string) {
    return processor.process(storyId, {
      signal: new AbortController().signal,
      progress: async (percent) => void progress.push(percent),
    });
  }

  async function uploaded(type: MediaType, input: { name?: string; keywords?: string[] } = {}) {
    const { story } = await uploadStory(ctx(), editor, { type, ...input });
    return story;
  }

  const view = (story: { libraryId: string; id: string }) => ctx().module.queries.get(story.libraryId, story.id);
  const roles = (files: { role: string }[]) => files.map((file) => file.role).sort();

  it("a photo gets its thumbnail and preview in JPEG and WebP, its size and its perceptual hash", async () => {
    const story = await uploaded("photo");
    media.image = { width: 4000, height: 3000, format: "jpeg" };
    expect(await run(story.id)).toEqual({ outcome: "succeeded" });
    const after = await view(story);
    expect(after.processingState).toBe("done");
    expect(roles(after.files)).toEqual(["original", "preview", "preview-webp", "thumbnail", "thumbnail-webp"]);
    expect(after.files.find((file) => file.role === "thumbnail")).toMatchObject({ mime: "image/jpeg", width: 320 });
    expect(after.files.find((file) => file.role === "preview-webp")).toMatchObject({ mime: "image/webp" });
    expect([after.width, after.height]).toEqual([4000, 3000]);
    expect(after.perceptualHash).toBe(media.hash);
    // One decode of the original: the hash comes with the renditions.
    expect(media.operations.sort()).toEqual(["imageDerivatives", "imageMetadata"]);
    expect(progress.at(-1)).toBe(100);
    // The thumbnail is the cover until someone sets one.
    expect(after.thumbnailUrl).toBeTruthy();
  });

  it("extracted metadata fills only the fields people left empty", async () => {
    const story = await uploaded("photo", { name: "typed title.jpg", keywords: ["typed"] });
    media.metadata = {
      ...EMPTY_IMAGE_METADATA,
      title: "from the camera",
      caption: "a caption from IPTC",
      keywords: ["from", "iptc"],
      creator: "Photographer",
      cameraModel: "COOLPIX P6000",
      capturedAt: "2008-10-22T16:28:39",
    };
    await run(story.id);
    const after = await view(story);
    expect(after.title).toBe("typed title");
    expect(after.keywords).toEqual(["typed"]);
    expect(after.caption).toBe("a caption from IPTC");
    expect(after.authors).toEqual(["Photographer"]);
    expect(after.properties).toMatchObject({ cameraModel: "COOLPIX P6000" });
    expect(after.capturedAt).toMatch(/^2008-10-22T/);
  });

  it("a video gets its poster, thumbnail, scrubbing strip and proxy; its duration; progress 10 → 95 → 100", async () => {
    const story = await uploaded("video", { name: "clip.mp4" });
    await run(story.id);
    const after = await view(story);
    expect(after.processingState).toBe("done");
    expect(roles(after.files)).toEqual(["original", "poster", "proxy", "strip", "strip-index", "thumbnail"]);
    expect(after.files.find((file) => file.role === "proxy")).toMatchObject({ mime: "video/mp4", width: 320 });
    expect([after.duration, after.width, after.height]).toEqual([2, 320, 240]);
    expect(after.properties).toMatchObject({ videoCodec: "h264", audioCodec: "aac", frameRate: 25 });
    expect(progress).toEqual([10, 10, 52, 95, 100]);
    // One probe, handed to every later call.
    expect(media.operations.filter((operation) => operation === "probe")).toHaveLength(1);
  });

  it("audio gets its waveform and proxy", async () => {
    media.probeResult = { ...media.probeResult, kind: "audio", videoCodec: null, width: null, height: null };
    const audio = await uploaded("audio", { name: "tone.mp3" });
    await run(audio.id);
    const after = await view(audio);
    expect(after.processingState).toBe("done");
    expect(roles(after.files)).toEqual(["original", "proxy", "waveform"]);
    expect(after.files.find((file) => file.role === "proxy")?.mime).toBe("audio/mp4");
    expect(after.duration).toBe(2);
  });

  it("a broken file fails the story with the tool's reason, for good (no retry)", async () => {
    const story = await uploaded("photo", { name: "broken.jpg" });
    media.failing.set("imageDerivatives", new MediaError("corrupt", "the JPEG data ends early"));
    expect(await run(story.id)).toEqual({ outcome: "failed", reason: "the JPEG data ends early", retry: false });
    const after = await view(story);
    expect(after).toMatchObject({ processingState: "failed", processingError: "the JPEG data ends early" });
    expect(roles(after.files)).toEqual(["original"]);
  });

  it("a timeout fails the story with its reason and may be tried again; the next run overwrites, then succeeds", async () => {
    const story = await uploaded("video", { name: "slow.mp4" });
    media.failing.set("videoProxy", new MediaError("timeout", "ffmpeg took longer than 600 s"));
    expect(await run(story.id)).toEqual({ outcome: "failed", reason: "ffmpeg took longer than 600 s", retry: true });
    expect(await view(story)).toMatchObject({
      processingState: "failed",
      processingError: "ffmpeg took longer than 600 s",
    });
    media.failing.clear();
    expect(await run(story.id)).toEqual({ outcome: "succeeded" });
    const after = await view(story);
    expect(after).toMatchObject({ processingState: "done", processingError: null });
    expect(roles(after.files)).toEqual(["original", "poster", "proxy", "strip", "strip-index", "thumbnail"]);
  });

  it("a story deleted before its job ran, or one without a file, is left alone", async () => {
    const actor = { ...editor, admin: false, roleId: "editor", ip: null };
    const deleted = await uploaded("photo");
    await ctx().module.stories.delete(actor, deleted.libraryId, deleted.id);
    expect(await run(deleted.id)).toMatchObject({ outcome: "skipped" });
    const fileless = await ctx().module.stories.createDraft(actor, "video", { libraryId: "product", title: "to come" });
    expect(await run(fileless.id)).toEqual({
      outcome: "skipped",
      reason: `story ${fileless.id} is gone or has no file to process`,
    });
    expect(media.calls).toEqual([]);
    expect((await view(fileless)).processingState).toBe("none");
  });

  it("through the queue: a broken file's job is dead at once with the reason its story shows; a gone story's job ends", async () => {
    const broken = await uploaded("photo", { name: "broken.jpg" });
    const gone = await uploaded("photo", { name: "gone.jpg" });
    media.failing.set("imageDerivatives", new MediaError("corrupt", "the JPEG data ends early"));
    const queue = jobs.queue();
    jobs.worker(queue, [processStoriesJob(processor, { timeoutMs: 60_000 })]);
    const brokenJob = await ctx().app.jobs.enqueue("stories.process", { ids: [broken.id] }, { storyId: broken.id });
    await ctx().module.stories.delete({ ...editor, admin: false, roleId: "editor", ip: null }, "product", gone.id);
    const goneJob = await ctx().app.jobs.enqueue("stories.process", { ids: [gone.id] });
    expect(await jobs.untilState(queue, brokenJob, ["succeeded", "dead"])).toMatchObject({
      state: "dead",
      attempts: 1,
      lastError: "the JPEG data ends early",
    });
    expect((await view(broken)).processingError).toBe("the JPEG data ends early");
    expect(await jobs.untilState(queue, goneJob, ["succeeded", "dead"])).toMatchObject({
      state: "succeeded",
      lastError: null,
    });
  });
});
