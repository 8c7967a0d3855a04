import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, processingJobsFor, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { fileNameOf } from "../../test/zip.js";

describeEachDialect("story versions and pixel sizes", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let editor: TestPrincipal;

  beforeAll(async () => {
    editor = await createPrincipal(ctx().db, { username: "life-editor", roleId: "editor" });
  });

  it("keeps every version's files; lastVersion points at the previous version's oid", async () => {
    const first = (
      await uploadStory(ctx(), editor, {
        type: "video",
        libraryId: "material",
        bytes: "version one",
        name: "clip.mp4",
        mime: "video/mp4",
      })
    ).story;
    await call(editor, "POST", "/workflow-story-create/video/commit", { libraryId: "material", storyIds: [first.id] });
    await ctx().module.stories.addRendition({
      storyId: first.id,
      role: "poster",
      blobKey: "renditions/p1",
      mime: "image/jpeg",
      size: 10,
    });
    const draft = (
      await uploadStory(ctx(), editor, {
        type: "video",
        libraryId: "material",
        bytes: "version two",
        name: "clip-edit.mp4",
        mime: "video/mp4",
      })
    ).story;
    expect(await processingJobsFor(ctx(), first.id)).toHaveLength(1);

    const response = await call(editor, "POST", "/workflow-story-create/newversion/video", {
      libraryId: "material",
      storyId: first.id,
      fromLibraryId: "material",
      fromStoryId: draft.id,
      note: "cut",
    });
    expect(response.statusCode).toBe(200);
    const story = response.json().data;
    expect(story).toMatchObject({
      versionNo: 2,
      properties: { lastVersion: first.oid },
      originalName: "clip-edit.mp4",
      processingState: "queued",
    });
    expect(story.oid).not.toBe(first.oid);
    const jobs = await processingJobsFor(ctx(), first.id);
    expect(jobs).toHaveLength(2);
    expect(jobs[1]).toMatchObject({ state: "queued", ids: [first.id] });

    const versions = (await call(editor, "GET", `/stories/material/${first.id}/versions`)).json().data as {
      versionNo: number;
      oid: string;
      current: boolean;
      files: { role: string }[];
    }[];
    expect(
      versions.map((version) => [version.versionNo, version.current, version.files.map((file) => file.role).sort()]),
    ).toEqual([
      [1, false, ["original", "poster"]],
      [2, true, ["original"]],
    ]);
    expect(versions[0]!.oid).toBe(first.oid);
    const one = await call(editor, "GET", `/stories/material/${first.id}/versions/1`);
    expect(one.json().data).toMatchObject({ versionNo: 1, oid: first.oid });
    expect((await call(editor, "GET", `/stories/material/${first.id}/versions/3`)).statusCode).toBe(404);
    expect((await call(editor, "GET", `/stories/material/${draft.id}`)).statusCode).toBe(404);

    const current = await call(editor, "GET", `/workflow-story-download/material/${first.id}`);
    expect(current.statusCode).toBe(200);
    expect(current.body).toBe("version two");
    // Named after the story's title, with the extension of the version's file.
    expect(fileNameOf(current.headers["content-disposition"])).toBe("clip.mp4");
    expect(current.headers["x-content-type-options"]).toBe("nosniff");
    const old = await call(editor, "GET", `/workflow-story-download/material/${first.id}?versionNo=1`);
    expect(old.body).toBe("version one");
    expect(
      (await call(editor, "GET", `/workflow-story-download/material/${first.id}?rendition=proxy`)).statusCode,
    ).toBe(404);

    const third = await ctx().module.stories.addVersionFromUpload({
      userId: editor.id,
      libraryId: "material",
      storyId: first.id,
      blobKey: "originals/third",
      sha256: "a".repeat(64),
      size: 3,
      mime: "video/mp4",
      originalName: "third.mp4",
    });
    expect(third).toMatchObject({ versionNo: 3, properties: { lastVersion: story.oid } });
  });

  it("keeps the story's pixel size that of its current version, whichever media job ends last", async () => {
    const { story } = await uploadStory(ctx(), editor, { name: "resized.jpg" });
    const stories = ctx().module.stories;
    /** The story's size, and each version's original's. */
    const sizes = async () => {
      const view = (await call(editor, "GET", `/stories/product/${story.id}`)).json().data as {
        width: number | null;
        height: number | null;
      };
      const versions = (await call(editor, "GET", `/stories/product/${story.id}/versions`)).json().data as {
        versionNo: number;
        files: { role: string; width: number | null; height: number | null }[];
      }[];
      return {
        story: [view.width, view.height],
        originals: versions.map(({ versionNo, files }) => {
          const original = files.find((file) => file.role === "original");
          return [versionNo, original?.width, original?.height];
        }),
      };
    };
    expect((await stories.applyExtractedMetadata(story.id, { width: 4000, height: 3000 }, 1)).width).toBe(4000);

    const second = await stories.addVersionFromUpload({
      userId: editor.id,
      libraryId: "product",
      storyId: story.id,
      blobKey: "originals/resized-v2",
      sha256: "b".repeat(64),
      size: 3,
      mime: "image/jpeg",
      originalName: "resized-v2.jpg",
    });
    expect(second.versionNo).toBe(2);
    // Version 1's job ends after version 2 was added: it describes version 1 only.
    await stories.applyExtractedMetadata(story.id, { width: 4000, height: 3000, perceptualHash: "0".repeat(16) }, 1);
    const afterStale = await sizes();
    expect(afterStale.story).toEqual([null, null]);
    expect((await call(editor, "GET", `/stories/product/${story.id}`)).json().data.perceptualHash).toBeNull();
    // Version 2's job: the story follows it, though its width and height were filled before.
    await stories.applyExtractedMetadata(story.id, { width: 1280, height: 720 }, 2);
    expect(await sizes()).toEqual({
      story: [1280, 720],
      originals: [
        [1, 4000, 3000],
        [2, 1280, 720],
      ],
    });

    // The image editor's save after that, processed (the job names no version: the current one).
    await stories.addVersionFromUpload({
      userId: editor.id,
      libraryId: "product",
      storyId: story.id,
      blobKey: "originals/resized-v3",
      sha256: "c".repeat(64),
      size: 3,
      mime: "image/jpeg",
      originalName: "resized-v3.jpg",
    });
    await stories.applyExtractedMetadata(story.id, { width: 720, height: 1280 });
    expect((await sizes()).story).toEqual([720, 1280]);
    // Processed again (a re-transcode): the size it recorded first stays the version's and the story's.
    await stories.applyExtractedMetadata(story.id, { width: 720, height: 1280 }, 3);
    expect((await sizes()).originals).toEqual([
      [1, 4000, 3000],
      [2, 1280, 720],
      [3, 720, 1280],
    ]);
  });

  it("gives a new version from a processed draft the draft's pixel size at once", async () => {
    const first = (await uploadStory(ctx(), editor, { name: "first.jpg" })).story;
    await ctx().module.stories.applyExtractedMetadata(first.id, { width: 4000, height: 3000 });
    const draft = (await uploadStory(ctx(), editor, { name: "cropped.jpg", bytes: "cropped" })).story;
    await ctx().module.stories.applyExtractedMetadata(draft.id, { width: 1600, height: 900 });
    const response = await call(editor, "POST", "/workflow-story-create/newversion/photo", {
      libraryId: "product",
      storyId: first.id,
      fromLibraryId: "product",
      fromStoryId: draft.id,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ versionNo: 2, width: 1600, height: 900 });
  });
});
