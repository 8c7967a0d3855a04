import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { fileNameOf, readZip } from "../../test/zip.js";

/** Download names and zips of many stories, through the routes (issue 14, items 9 and 10). */
describeEachDialect("story downloads: names and large zips", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let editor: TestPrincipal;

  beforeAll(async () => {
    editor = await createPrincipal(ctx().db, { username: "names-editor", roleId: "editor" });
  });

  it("names a JPEG uploaded as poly.html .jpg, and takes bidi, control characters, ; and separators out", async () => {
    const poly = (await uploadStory(ctx(), editor, { bytes: "jpeg one", name: "poly.html", mime: "image/jpeg" })).story;
    const single = await call(editor, "GET", `/workflow-story-download/product/${poly.id}`);
    expect(single.statusCode).toBe(200);
    expect(fileNameOf(single.headers["content-disposition"])).toBe("poly.jpg");

    const tricky = (await uploadStory(ctx(), editor, { bytes: "jpeg two", name: "IMG_1.JPG" })).story;
    const edited = await call(editor, "PUT", `/workflow-story-edit/photo/${tricky.id}?libraryId=product`, {
      title: "invoice\u202egpj.exe; a/b\\c\u2066",
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const download = await call(editor, "GET", `/workflow-story-download/product/${tricky.id}`);
    const header = String(download.headers["content-disposition"]);
    expect(fileNameOf(header)).toBe("invoicegpj.exe_ a_b_c.JPG");
    expect(header).not.toMatch(/%E2%80%AE|%E2%81%A6|%00/i);

    const zip = await call(editor, "GET", `/workflow-story-download/product?storyIds=${poly.id},${tricky.id}`);
    expect(zip.statusCode).toBe(200);
    expect([...(await readZip(zip.rawPayload)).keys()]).toEqual(["poly.jpg", "invoicegpj.exe_ a_b_c.JPG"]);
  });

  it("zips 100 stories named in the query; a path holds 13 at most and answers 414 beyond, in the envelope", async () => {
    const stories = [];
    for (let index = 0; index < 101; index++) {
      stories.push((await uploadStory(ctx(), editor, { bytes: `photo ${index}`, name: `p${index}.jpg` })).story);
    }
    const ids = stories.map((story) => story.id);
    const hundred = await call(
      editor,
      "GET",
      `/workflow-story-download/product?storyIds=${ids.slice(0, 100).join(",")}`,
    );
    expect(hundred.statusCode, hundred.body.slice(0, 200)).toBe(200);
    const entries = await readZip(hundred.rawPayload);
    expect(entries.size).toBe(100);
    expect(entries.get("p99.jpg")?.toString()).toBe("photo 99");

    const tooMany = await call(editor, "GET", `/workflow-story-download/product?storyIds=${ids.join(",")}`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().msg).toContain("querystring.storyIds");

    expect(
      (await call(editor, "GET", `/workflow-story-download/product/${ids.slice(0, 13).join(",")}`)).statusCode,
    ).toBe(200);
    const longPath = await call(editor, "GET", `/workflow-story-download/product/${ids.slice(0, 14).join(",")}`);
    expect(longPath.statusCode).toBe(414);
    expect(longPath.json()).toMatchObject({ code: 414, error: "uri_too_long" });
    expect(longPath.body).not.toContain(ids[0]);
    expect(longPath.headers["x-content-type-options"]).toBe("nosniff");
  });
});
