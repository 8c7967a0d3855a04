import { Readable } from "node:stream";
import type { InjectOptions } from "fastify";
import { beforeAll, expect } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import type { DialectName } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { buildSearch } from "../search/search.compose.js";
import { StoriesRepository } from "../stories/stories.repository.js";

/** The share-link tests' app: an owner, another editor and an administrator, and the visitor's side. */
export function useShareLinks(dialect: DialectName) {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  const people = {} as { owner: TestPrincipal; other: TestPrincipal; admin: TestPrincipal };
  let address = 0;

  beforeAll(async () => {
    people.owner = await createPrincipal(ctx().db, { username: "share-owner", roleId: "editor" });
    people.other = await createPrincipal(ctx().db, { username: "share-other", roleId: "editor" });
    people.admin = await createPrincipal(ctx().db, { username: "share-admin", roleId: "administrator", admin: true });
  });

  /** Each visitor comes from an address of its own, so the guessing throttle of one test leaves the others alone. */
  function visitor() {
    const remoteAddress = `10.0.${Math.floor(++address / 250)}.${(address % 250) + 1}`;
    const session: { token?: string; session?: string } = {};
    const send = (options: InjectOptions & { url: string }) =>
      ctx().app.inject({
        ...options,
        remoteAddress,
        headers: {
          ...(session.token ? { "x-share-token": session.token } : {}),
          ...(session.session ? { "x-share-session": session.session } : {}),
          ...(options.headers ?? {}),
        },
      });
    return {
      session,
      address: remoteAddress,
      open: () => send({ method: "GET", url: `${API_PREFIX}/shared` }),
      unlock: (password: string) => send({ method: "POST", url: `${API_PREFIX}/shared/unlock`, payload: { password } }),
      get: (url: string, headers: Record<string, string> = {}) => send({ method: "GET", url, headers }),
    };
  }

  /** A committed photo with a preview rendition (bytes of its own), in `libraryId`/`folderId`. */
  async function photo(who: TestPrincipal, input: { libraryId?: string; folderId?: string; title?: string } = {}) {
    const libraryId = input.libraryId ?? "product";
    const { story } = await uploadStory(ctx(), who, { libraryId, folderId: input.folderId });
    const committed = await call(who, "POST", "/workflow-story-create/photo/commit", {
      libraryId,
      storyIds: [story.id],
    });
    expect(committed.statusCode).toBe(200);
    if (input.title) {
      await call(who, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=${libraryId}`, {
        title: input.title,
        caption: `caption of ${input.title}`,
        authors: ["Li Lei"],
      });
    }
    const { db, blobs } = ctx();
    const key = `renditions/${story.id}/v1/preview.jpg`;
    const { size } = await blobs.put(key, Readable.from([Buffer.from(`preview of ${story.id}`)]));
    const repository = new StoriesRepository(db.kysely, db.adapter, buildSearch(db).index);
    await repository.putFile(
      { storyId: story.id, versionNo: 1, role: "preview", blobKey: key, mime: "image/jpeg", size, width: 4, height: 3 },
      new Date().toISOString(),
    );
    return { id: story.id, libraryId };
  }

  async function share(who: TestPrincipal, body: object) {
    const response = await call(who, "POST", "/shares", body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: string; token: string; url: string; expiresAt: string | null };
  }

  return { ctx, call, people, visitor, photo, share };
}
