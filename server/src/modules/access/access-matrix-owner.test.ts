import sharp from "sharp";
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, uploadStory, useStoriesApp } from "../../test/stories-app.js";

/**
 * The access matrix's owner dimension (docs/security.md, "Drafts"): every
 * story-writing endpoint × whose story it is (the caller's own draft, another
 * user's draft, another user's committed story) × caller (contributor,
 * editor, administrator). A draft is its creator's until committed; editors
 * (story.list → delete) and administrators may act on others' drafts;
 * committed stories follow the library rules. Expectations are written out
 * as data, not derived from the code under test.
 */

const OWNERSHIP = ["own draft", "other's draft", "other's committed"] as const;
type Ownership = (typeof OWNERSHIP)[number];
const CALLERS = ["contributor", "editor", "admin"] as const;
type Caller = (typeof CALLERS)[number];
type Expectation = Record<Caller, Record<Ownership, number>>;

/** Editors and administrators are answered alike in every cell here; contributors are the ones ownership limits. */
function expectation(contributor: Record<Ownership, number>, editorsAndAdmins: Record<Ownership, number>): Expectation {
  return { contributor, editor: editorsAndAdmins, admin: editorsAndAdmins };
}

/** 200 on own drafts and committed stories; a contributor is refused on someone else's draft. */
const DRAFT_RULE = expectation(
  { "own draft": 200, "other's draft": 403, "other's committed": 200 },
  { "own draft": 200, "other's draft": 200, "other's committed": 200 },
);
/** The same, where a committed story is not a draft any more (commit, consume as a new version): 409. */
const DRAFTS_ONLY = expectation(
  { "own draft": 200, "other's draft": 403, "other's committed": 409 },
  { "own draft": 200, "other's draft": 200, "other's committed": 409 },
);
/** Publishing takes committed stories only (409 for a draft), after the ownership check. */
const PUBLISH = expectation(
  { "own draft": 409, "other's draft": 403, "other's committed": 200 },
  { "own draft": 409, "other's draft": 409, "other's committed": 200 },
);
/** Withdrawing a story that went nowhere is 409, after the ownership check. */
const WITHDRAW = expectation(
  { "own draft": 409, "other's draft": 403, "other's committed": 409 },
  { "own draft": 409, "other's draft": 409, "other's committed": 409 },
);
/** Deleting needs story.list → delete, which contributors lack whoever owns the story. */
const DELETERS = expectation(
  { "own draft": 403, "other's draft": 403, "other's committed": 403 },
  { "own draft": 200, "other's draft": 200, "other's committed": 200 },
);

interface Subject {
  id: string;
}

interface Cell {
  name: string;
  expect: Expectation;
  /** The subject's type (default photo). */
  type?: "photo" | "video";
  request: (
    subject: Subject,
    mine: () => Promise<Subject>,
  ) => Promise<{ method: "POST" | "PUT" | "DELETE"; url: string; payload?: object; headers?: Record<string, string> }>;
}

/** tus's Upload-Metadata header: keys with base64 values. */
function uploadMetadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");
}

describeEachDialect("access matrix: whose story it is", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  const callers = {} as Record<Caller, TestPrincipal>;
  let owner: TestPrincipal;
  let editedJpeg: string;
  let coverJpeg: string;

  beforeAll(async () => {
    callers.contributor = await createPrincipal(ctx().db, { username: "owner-contributor", roleId: "contributor" });
    callers.editor = await createPrincipal(ctx().db, { username: "owner-editor", roleId: "editor" });
    callers.admin = await createPrincipal(ctx().db, { username: "owner-admin", roleId: "administrator", admin: true });
    // The other user: a contributor, who creates drafts and commits them.
    owner = await createPrincipal(ctx().db, { username: "owner-other", roleId: "contributor" });
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3366aa" } })
      .jpeg()
      .toBuffer();
    editedJpeg = `data:image/jpeg;base64,${jpeg.toString("base64")}`;
    const cover = await sharp({ create: { width: 64, height: 36, channels: 3, background: "#aa6633" } })
      .jpeg()
      .toBuffer();
    coverJpeg = `data:image/jpeg;base64,${cover.toString("base64")}`;
  });

  async function draftOf(who: TestPrincipal, type: "photo" | "video" = "photo"): Promise<Subject> {
    const { story } =
      type === "photo"
        ? await uploadStory(ctx(), who, { name: "owner-matrix.jpg" })
        : await uploadStory(ctx(), who, { name: "owner-matrix.mp4", type, mime: "video/mp4" });
    return { id: story.id };
  }

  async function subjectFor(
    caller: TestPrincipal,
    ownership: Ownership,
    type: "photo" | "video" = "photo",
  ): Promise<Subject> {
    if (ownership === "own draft") return draftOf(caller, type);
    const draft = await draftOf(owner, type);
    if (ownership === "other's committed") {
      const committed = await call(owner, "POST", `/workflow-story-create/${type}/commit`, {
        libraryId: "product",
        storyIds: [draft.id],
      });
      expect(committed.statusCode, committed.body).toBe(200);
      // The commit queued its media job, which no worker runs here: ended, so re-transcoding may start another.
      await ctx().db.kysely.updateTable("jobs").set({ state: "succeeded" }).where("story_id", "=", draft.id).execute();
    }
    return draft;
  }

  /** A relation from one story to another, made by an administrator (who may act on anyone's draft). */
  async function relationBetween(from: Subject, to: Subject): Promise<string> {
    const made = await call(callers.admin, "POST", `/stories/relation/product/${from.id}`, {
      relatedLibraryId: "product",
      relatedStoryId: to.id,
    });
    expect(made.statusCode, made.body).toBe(200);
    const relation = (made.json().data as { id: string; story: { id: string } }[]).find(
      (candidate) => candidate.story.id === to.id,
    );
    return relation!.id;
  }

  const cells: Cell[] = [
    {
      name: "PUT /workflow-story-edit/photo/{id}",
      expect: DRAFT_RULE,
      request: async (subject) => ({
        method: "PUT",
        url: `/workflow-story-edit/photo/${subject.id}?libraryId=product`,
        payload: { title: "changed by the matrix" },
      }),
    },
    {
      name: "POST /workflow-story-create/photo/commit",
      expect: DRAFTS_ONLY,
      request: async (subject) => ({
        method: "POST",
        url: "/workflow-story-create/photo/commit",
        payload: { libraryId: "product", storyIds: [subject.id] },
      }),
    },
    {
      name: "POST /workflow-story-create/newversion/photo (the story gets the version)",
      expect: DRAFT_RULE,
      request: async (subject, mine) => ({
        method: "POST",
        url: "/workflow-story-create/newversion/photo",
        payload: {
          libraryId: "product",
          storyId: subject.id,
          fromLibraryId: "product",
          fromStoryId: (await mine()).id,
        },
      }),
    },
    {
      name: "POST /workflow-story-create/newversion/photo (the draft consumed)",
      expect: DRAFTS_ONLY,
      request: async (subject, mine) => ({
        method: "POST",
        url: "/workflow-story-create/newversion/photo",
        payload: {
          libraryId: "product",
          storyId: (await mine()).id,
          fromLibraryId: "product",
          fromStoryId: subject.id,
        },
      }),
    },
    {
      name: "POST /upload-images/base64image",
      expect: DRAFT_RULE,
      request: async (subject) => ({
        method: "POST",
        url: "/upload-images/base64image",
        payload: { base64String: editedJpeg, libraryId: "product", storyId: subject.id },
      }),
    },
    {
      // A tus upload as a new version: refused when it is created, before any byte is sent.
      name: "POST /uploads (tus, Upload-Metadata storyId)",
      expect: DRAFT_RULE,
      request: async (subject) => ({
        method: "POST",
        url: "/uploads",
        headers: {
          "tus-resumable": "1.0.0",
          "upload-length": "1024",
          "upload-metadata": uploadMetadata({ filename: "v2.jpg", libraryId: "product", storyId: subject.id }),
        },
      }),
    },
    {
      name: "POST /upload-files/re-transcode",
      expect: DRAFT_RULE,
      request: async (subject) => ({
        method: "POST",
        url: "/upload-files/re-transcode",
        payload: { libraryId: "product", storyId: subject.id },
      }),
    },
    {
      name: "POST /stories/relation/{library}/{id} (from the story)",
      expect: DRAFT_RULE,
      request: async (subject, mine) => ({
        method: "POST",
        url: `/stories/relation/product/${subject.id}`,
        payload: { relatedLibraryId: "product", relatedStoryId: (await mine()).id },
      }),
    },
    {
      name: "POST /stories/relation/{library}/{id} (to the story)",
      expect: DRAFT_RULE,
      request: async (subject, mine) => ({
        method: "POST",
        url: `/stories/relation/product/${(await mine()).id}`,
        payload: { relatedLibraryId: "product", relatedStoryId: subject.id },
      }),
    },
    {
      name: "POST /upload-images/cover (with storyId)",
      type: "video",
      expect: DRAFT_RULE,
      request: async (subject) => ({
        method: "POST",
        url: "/upload-images/cover",
        payload: { base64String: coverJpeg, ratio: "16:9", libraryId: "product", storyId: subject.id },
      }),
    },
    {
      name: "DELETE /stories/relation/{library}/{id}/{relation} (from the story)",
      expect: DRAFT_RULE,
      request: async (subject, mine) => {
        const relationId = await relationBetween(subject, await mine());
        return { method: "DELETE", url: `/stories/relation/product/${subject.id}/${relationId}` };
      },
    },
    {
      name: "DELETE /stories/relation/{library}/{id}/{relation} (to the story)",
      expect: DRAFT_RULE,
      request: async (subject, mine) => {
        const own = await mine();
        const relationId = await relationBetween(own, subject);
        return { method: "DELETE", url: `/stories/relation/product/${own.id}/${relationId}` };
      },
    },
    {
      name: "POST /workflow-story-publish/{library}/{id}",
      expect: PUBLISH,
      request: async (subject) => ({
        method: "POST",
        url: `/workflow-story-publish/product/${subject.id}`,
        payload: { note: "published by the matrix" },
      }),
    },
    {
      name: "POST /workflow-story-withdraw/{library}/{id}",
      expect: WITHDRAW,
      request: async (subject) => ({
        method: "POST",
        url: `/workflow-story-withdraw/product/${subject.id}`,
        payload: {},
      }),
    },
    {
      name: "DELETE /workflow-story-delete/{library}/{id}",
      expect: DELETERS,
      request: async (subject) => ({ method: "DELETE", url: `/workflow-story-delete/product/${subject.id}` }),
    },
  ];

  it("answers every story-writing endpoint by whose story it is, as the matrix says", async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const cell of cells) {
      for (const caller of CALLERS) {
        for (const ownership of OWNERSHIP) {
          const who = callers[caller];
          const subject = await subjectFor(who, ownership, cell.type);
          const request = await cell.request(subject, () => draftOf(who));
          const response = await call(who, request.method, request.url, request.payload, request.headers);
          const wanted = cell.expect[caller][ownership];
          const status = response.statusCode;
          const ok = wanted === 200 ? status >= 200 && status < 300 : status === wanted;
          checked++;
          if (!ok)
            failures.push(
              `${caller} × ${ownership} × ${cell.name}: expected ${wanted}, got ${status} ${response.body}`,
            );
          if (
            wanted === 403 &&
            status === 403 &&
            cell.expect !== DELETERS &&
            response.json().error !== "draft_of_another_user"
          ) {
            failures.push(`${caller} × ${ownership} × ${cell.name}: refused for another reason: ${response.body}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBe(cells.length * CALLERS.length * OWNERSHIP.length);
    console.log(`access matrix, owner dimension [${dialect}]: ${checked} cells`);
  });

  it("leaves a refused draft as it was", async () => {
    const draft = await draftOf(owner);
    const edit = await call(callers.contributor, "PUT", `/workflow-story-edit/photo/${draft.id}?libraryId=product`, {
      title: "hijacked",
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().msg).toContain("another user's draft");
    const got = await call(owner, "GET", `/stories/product/${draft.id}`);
    expect(got.json().data).toMatchObject({ status: "draft", title: "owner-matrix" });
    const consumed = await call(callers.contributor, "POST", "/workflow-story-create/newversion/photo", {
      libraryId: "product",
      storyId: (await draftOf(callers.contributor)).id,
      fromLibraryId: "product",
      fromStoryId: draft.id,
    });
    expect(consumed.statusCode).toBe(403);
    expect((await call(owner, "GET", `/stories/product/${draft.id}`)).statusCode).toBe(200);
  });
});
