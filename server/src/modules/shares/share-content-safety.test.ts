import { Readable } from "node:stream";
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import type { TestPrincipal } from "../../test/principals.js";
import { useShareLinks } from "./shares.test-support.js";

/**
 * Issue 16, "Bad input and security": HTML, SVG and files of unknown type
 * reach visitors only as attachments under the sandbox CSP — through the
 * share's own file route, even where the page would show the file inline
 * (a preview), so a hostile file stored as a rendition cannot run in the
 * site's origin.
 */
describeEachDialect("share links: active content to visitors", (dialect) => {
  const { ctx, people, visitor, photo, share } = useShareLinks(dialect);
  let owner: TestPrincipal;

  beforeAll(() => {
    ({ owner } = people);
  });

  const HOSTILE: Record<string, string> = {
    "image/svg+xml": `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>`,
    "text/html": "<!doctype html><script>fetch('/dams/api/v1/users')</script>",
    "application/octet-stream": "MZ\u0000\u0001 not a picture",
  };

  for (const [mime, content] of Object.entries(HOSTILE)) {
    it(`serves a ${mime} preview to visitors as an attachment under the sandbox CSP, never inline`, async () => {
      const story = await photo(owner, { title: `hostile ${mime}` });
      const { db, blobs } = ctx();
      const key = `renditions/${story.id}/v1/hostile-preview`;
      const { size } = await blobs.put(key, Readable.from([Buffer.from(content)]));
      await db.kysely
        .updateTable("story_files")
        .set({ blob_key: key, mime, size })
        .where("story_id", "=", story.id)
        .where("role", "=", "preview")
        .execute();
      const created = await share(owner, {
        target: { kind: "story", libraryId: story.libraryId, storyId: story.id },
        downloadPolicy: "preview",
      });
      const guest = visitor();
      guest.session.token = created.token;
      const opened = await guest.open();
      expect(opened.statusCode, opened.body).toBe(200);
      const shown = opened.json().data.stories[0];
      const urls = [shown.preview?.url, shown.downloadUrl].filter((url): url is string => typeof url === "string");
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) {
        const response = await guest.get(url);
        expect(response.statusCode, url).toBe(200);
        expect(response.headers["content-disposition"], url).toMatch(/^attachment/);
        expect(response.headers["content-security-policy"], url).toContain("sandbox");
        expect(response.headers["x-content-type-options"], url).toBe("nosniff");
      }
    });
  }
});
