import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { usePrincipals } from "../../test/principals.js";
import { api, putThumbnail, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { fileNameOf, readZip } from "../../test/zip.js";
import { USER_CONTENT_HEADERS } from "../blobs/send-blob.js";

describeEachDialect("story file serving: ranges, names, zips", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  const { editor, viewer, contributor } = usePrincipals(ctx, "life", ["editor", "viewer", "contributor"]);

  it("serves byte ranges for players and records only the start of a download", async () => {
    const { story } = await uploadStory(ctx(), editor, {
      bytes: "0123456789",
      name: "台风登陆 现场.mp4",
      type: "video",
      mime: "video/mp4",
    });
    const url = `/stories/download/product/${story.id}`;
    const get = (range?: string) => call(viewer, "GET", url, undefined, range ? { range } : {});
    const whole = await get();
    expect(whole.statusCode).toBe(200);
    expect(whole.body).toBe("0123456789");
    expect(whole.headers).toMatchObject({
      "accept-ranges": "bytes",
      "content-type": "video/mp4",
      "content-length": "10",
      "x-content-type-options": "nosniff",
      "content-security-policy": USER_CONTENT_HEADERS["content-security-policy"],
    });
    expect(whole.headers["content-disposition"]).toMatch(/^inline; /);
    expect(fileNameOf(whole.headers["content-disposition"])).toBe("台风登陆 现场.mp4");
    expect(whole.headers.etag).toBeTruthy();

    const middle = await get("bytes=2-5");
    expect(middle.statusCode).toBe(206);
    expect(middle.body).toBe("2345");
    expect(middle.headers["content-range"]).toBe("bytes 2-5/10");
    expect(middle.headers["content-length"]).toBe("4");
    const suffix = await get("bytes=-3");
    expect(suffix.statusCode).toBe(206);
    expect(suffix.body).toBe("789");
    expect(suffix.headers["content-range"]).toBe("bytes 7-9/10");
    expect((await get("bytes=7-")).body).toBe("789");
    const outside = await get("bytes=10-");
    expect(outside.statusCode).toBe(416);
    expect(outside.headers["content-range"]).toBe("bytes */10");
    const unchanged = await call(viewer, "GET", url, undefined, { "if-none-match": String(whole.headers.etag) });
    expect(unchanged.statusCode).toBe(304);
    expect((await call(viewer, "HEAD", url)).headers["content-length"]).toBe("10");

    // The attachment: the same bytes and ranges, saved under the title.
    const attachment = await call(viewer, "GET", `/workflow-story-download/product/${story.id}`, undefined, {
      range: "bytes=0-3",
    });
    expect(attachment.statusCode).toBe(206);
    expect(attachment.body).toBe("0123");
    expect(attachment.headers["content-disposition"]).toMatch(/^attachment; /);
    expect(fileNameOf(attachment.headers["content-disposition"])).toBe("台风登陆 现场.mp4");
    expect(attachment.headers["content-security-policy"]).toBe(USER_CONTENT_HEADERS["content-security-policy"]);
    expect(attachment.headers["x-content-type-options"]).toBe("nosniff");

    // Two downloads from byte 0 (the inline original and the attachment); the seeks, the 304 and HEAD are not.
    const actions = (await call(editor, "GET", `/story-actions?libraryId=product&storyId=${story.id}`)).json().data;
    expect(actions.content.map((action: { action: string }) => action.action)).toEqual([
      "download",
      "download",
      "download",
      "create",
    ]);
    expect(actions.content[0].details).toEqual({
      rendition: "original",
      versionNo: null,
      fileName: "台风登陆 现场.mp4",
    });
  });

  it("names files <title>.<ext> with a Chinese title intact; renditions shown inline are not recorded", async () => {
    const { story } = await uploadStory(ctx(), editor, { bytes: "jpeg bytes", name: "IMG_0001.JPG" });
    const edited = await call(editor, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=product`, {
      title: "“山竹”过境: 深圳/香港",
    });
    expect(edited.statusCode).toBe(200);
    const download = await call(viewer, "GET", `/workflow-story-download/product/${story.id}`);
    expect(download.statusCode).toBe(200);
    const header = String(download.headers["content-disposition"]);
    expect(fileNameOf(header)).toBe("“山竹”过境_ 深圳_香港.JPG");
    expect(header).toContain(`filename*=UTF-8''${encodeURIComponent("“山竹”过境_ 深圳_香港.JPG")}`);
    expect(header).toMatch(/^attachment; filename="[\x20-\x7e]+"/);

    await putThumbnail(ctx(), story.id, `renditions/${story.id}/v1/thumbnail.webp`, "webp bytes");
    for (const rendition of ["thumbnail", "cover"]) {
      const shown = await call(viewer, "GET", `/stories/download/product/${story.id}?rendition=${rendition}`);
      expect(shown.statusCode).toBe(200);
      expect(shown.body).toBe("webp bytes");
      expect(shown.headers).toMatchObject({
        "content-type": "image/webp",
        "x-content-type-options": "nosniff",
        "content-security-policy": USER_CONTENT_HEADERS["content-security-policy"],
      });
      expect(shown.headers["content-disposition"]).toMatch(/^inline; /);
      expect(fileNameOf(shown.headers["content-disposition"])).toBe(`“山竹”过境_ 深圳_香港-${rendition}.webp`);
    }
    const actions = (await call(editor, "GET", `/story-actions?libraryId=product&storyId=${story.id}`)).json().data;
    expect(actions.content.map((action: { action: string }) => action.action)).toEqual([
      "rendition",
      "download",
      "edit",
      "create",
    ]);
  });

  it("downloads several stories at once as a zip of the originals, each recorded", async () => {
    const first = randomBytes(70_000);
    const second = randomBytes(1234);
    const third = randomBytes(10);
    const a = (await uploadStory(ctx(), editor, { bytes: first, name: "现场.jpg" })).story;
    const b = (await uploadStory(ctx(), editor, { bytes: second, name: "现场.jpg" })).story;
    const c = (await uploadStory(ctx(), editor, { bytes: third, name: "采访.m4a", type: "audio", mime: "audio/mp4" }))
      .story;
    const response = await call(viewer, "GET", `/workflow-story-download/product/${a.id},${b.id},${c.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      "content-type": "application/zip",
      "x-content-type-options": "nosniff",
      "content-security-policy": USER_CONTENT_HEADERS["content-security-policy"],
      "content-length": String(response.rawPayload.length),
    });
    expect(fileNameOf(response.headers["content-disposition"])).toBe("product-3-stories.zip");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; /);
    expect(await readZip(response.rawPayload)).toEqual(
      new Map([
        ["现场.jpg", first],
        ["现场 (2).jpg", second],
        ["采访.m4a", third],
      ]),
    );
    for (const story of [a, b, c]) {
      const actions = (await call(editor, "GET", `/story-actions?libraryId=product&storyId=${story.id}`)).json().data;
      expect(actions.content[0]).toMatchObject({ action: "download", username: "life-viewer" });
    }
    const elsewhere = await call(viewer, "GET", `/workflow-story-download/material/${a.id},${b.id}`);
    expect(elsewhere.statusCode).toBe(404);
    const noRendition = await call(viewer, "GET", `/workflow-story-download/product/${a.id},${b.id}?rendition=proxy`);
    expect(noRendition.statusCode).toBe(404);
    const withVersion = await call(viewer, "GET", `/workflow-story-download/product/${a.id},${b.id}?versionNo=1`);
    expect(withVersion.statusCode).toBe(400);
    expect(withVersion.json().msg).toContain("versionNo");
    const bad = await call(viewer, "GET", `/workflow-story-download/product/${a.id},nope`);
    expect(bad.json().msg).toContain("params.storyIds");
  });

  it("answers 404 to a download from a library the user cannot read, and records nothing", async () => {
    const { story } = await uploadStory(ctx(), editor, { libraryId: "personal", bytes: "private" });
    const other = (await uploadStory(ctx(), editor, { libraryId: "personal" })).story;
    for (const url of [
      `/stories/download/personal/${story.id}`,
      `/stories/download/personal/${story.id}?rendition=thumbnail`,
      `/workflow-story-download/personal/${story.id}`,
      `/workflow-story-download/personal/${story.id},${other.id}`,
      // Through a library the user can read: the story is not there.
      `/stories/download/product/${story.id}`,
      `/workflow-story-download/product/${story.id},${other.id}`,
    ]) {
      const response = await call(contributor, "GET", url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain("private");
    }
    const actions = (await call(editor, "GET", `/story-actions?libraryId=personal&storyId=${story.id}`)).json().data;
    expect(actions.content.map((action: { action: string }) => action.action)).toEqual(["create"]);
  });
});
