import { randomUUID } from "node:crypto";
import { serializerCompiler as zodSerializerCompiler } from "fastify-type-provider-zod";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { storyListResponse } from "../modules/stories/stories.routes.js";
import { storySchema } from "../modules/stories/stories.schema.js";
import { describeEachDialect } from "../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../test/principals.js";
import { api, committedPhoto, useStoriesApp } from "../test/stories-app.js";
import { envelope, errorEnvelope, ok } from "./envelope.js";
import { compileCopier, compileSerializer } from "./response-serializer.js";

/** What the API answered before: zod's parse, then JSON.stringify of what it gave. */
function zodPath(schema: z.ZodType): (data: unknown) => string {
  return zodSerializerCompiler({ schema, method: "GET", url: "/test", httpStatus: "200" } as never) as (
    data: unknown,
  ) => string;
}

/** The compiled serialiser alone: its fallback fails the test, so the value was written by the fast path. */
function fastOnly(schema: z.ZodType): (data: unknown) => string {
  return compileSerializer(schema, () => {
    throw new Error("the compiled serialiser gave the value to zod");
  });
}

/** The old path's answer or its error, as text, to compare with the new one's. */
function outcome(serialize: (data: unknown) => string, data: unknown): string {
  try {
    return serialize(data);
  } catch (error) {
    return `error: ${error instanceof Error ? `${error.message} ${JSON.stringify((error.cause as Error)?.message)}` : String(error)}`;
  }
}

const storyEnvelope = envelope(storySchema);

/** A story view with every kind of field storySchema has, and what stays inside the server beside it. */
function everyFieldStory(): Record<string, unknown> {
  const id = randomUUID();
  return {
    coverKey: "secret/blob/key",
    id,
    storyId: id,
    libraryId: "product",
    folderId: null,
    type: "photo",
    halfProduct: false,
    status: "committed",
    title: 'Quote " backslash \\ newline \n tab \t 台风 emoji 🌀',
    caption: "control \u0001 and \u2028 line separator",
    authors: ["Ann", "Bo"],
    source: null,
    keywords: [],
    tags: ["storm"],
    theme: "weather",
    category: null,
    properties: {
      level: "a",
      count: 3.5,
      flag: true,
      many: ["x", null, 2],
      nested: { deep: [{ more: "yes" }] },
      10: "index-like key",
      gone: undefined,
    },
    oid: randomUUID(),
    versionNo: 2,
    contentSha256: "ab".repeat(32),
    perceptualHash: null,
    width: 4000,
    height: 3000,
    duration: 1.25,
    size: 123_456_789,
    mime: "image/jpeg",
    originalName: "IMG_0001.JPG",
    capturedAt: "2024-05-06T07:08:09.000Z",
    gps: { latitude: 22.3, longitude: -114.2, altitude: -3 },
    processingState: "done",
    processingError: null,
    createdBy: randomUUID(),
    createdAt: "2024-05-06T07:08:09.000Z",
    updatedBy: null,
    updatedAt: "2024-05-07T07:08:09.000Z",
    revision: 7,
    coverUrl: "/dams/api/v1/stories/download/product/x?rendition=cover&v=abc",
    thumbnailUrl: null,
    coverMediaUrl: "/dams/api/v1/media/a.b?v=abc",
    thumbnailMediaUrl: null,
    files: [
      {
        versionNo: 2,
        role: "original",
        mime: "image/jpeg",
        size: 10,
        width: null,
        height: 3,
        url: "/u",
        mediaUrl: "/m",
        blobKey: "secret/too",
      },
    ],
    members: [],
    extra: "not in the schema",
  };
}

describe("compiled response serialiser", () => {
  it("writes a story with every field kind as zod's path did: schema order, undeclared keys (blob keys) left out", () => {
    const payload = ok(everyFieldStory());
    const written = fastOnly(storyEnvelope)(payload);
    expect(written).toBe(zodPath(storyEnvelope)(payload));
    expect(written).not.toContain("secret");
    expect(written).not.toContain("not in the schema");
  });

  it("writes a page of stories with and without its optional parts as zod's path did", () => {
    const content = [everyFieldStory(), { ...everyFieldStory(), gps: null, properties: {} }];
    const pages = [
      { content, totalElements: 2, size: 50, number: 0 },
      {
        content,
        totalElements: 10_001,
        size: 50,
        number: 0,
        totalCapped: true,
        totalEstimated: undefined,
        facets: {
          type: [{ value: "photo", count: 2 }],
          library: [],
          month: [],
          author: [{ value: "Ann", count: 1 }],
          source: [],
          tag: [],
        },
      },
    ];
    for (const page of pages) expect(fastOnly(storyListResponse)(ok(page))).toBe(zodPath(storyListResponse)(ok(page)));
  });

  it("answers as zod's path did (the same text or the same error) for values zod refuses or that are unusual", () => {
    const story = everyFieldStory;
    const withProto = JSON.parse('{"__proto__": {"polluted": true}, "kept": 1}');
    const values: unknown[] = [
      ok({ ...story(), type: "spreadsheet" }),
      ok({ ...story(), versionNo: 2.5 }),
      ok({ ...story(), width: Number.NaN }),
      ok({ ...story(), duration: Number.POSITIVE_INFINITY }),
      ok({ ...story(), title: null }),
      ok({ ...story(), title: undefined }),
      ok({ ...story(), gps: { latitude: 91, longitude: 0 } }),
      ok({ ...story(), gps: { latitude: 1, longitude: 2, altitude: undefined } }),
      ok({ ...story(), authors: ["a", 1] }),
      ok({ ...story(), files: "none" }),
      ok({ ...story(), properties: withProto }),
      ok({ ...story(), properties: { [Symbol("s")]: 1, a: 2 } }),
      ok({ ...story(), properties: { when: new Date(0), fn: () => 1 } }),
      ok({ ...story(), properties: [1, 2] }),
      { code: 1, msg: "ok", data: story() },
      ok(null),
      null,
      undefined,
      "text",
    ];
    for (const value of values) {
      const compiled = compileSerializer(storyEnvelope, zodPath(storyEnvelope));
      expect(outcome(compiled, value)).toBe(outcome(zodPath(storyEnvelope), value));
    }
  });

  it("gives a value already in the schema's shape as it is, and copies one that is not", () => {
    const { coverKey: _coverKey, extra: _extra, ...inShape } = everyFieldStory();
    const files = inShape.files as Record<string, unknown>[];
    inShape.files = files.map(({ blobKey: _blobKey, ...file }) => file);
    const payload = ok(inShape);
    const copy = compileCopier(storyEnvelope);
    expect(copy(payload)).toBe(payload);
    const page = ok({ content: [inShape, inShape], totalElements: 2, size: 50, number: 0 });
    expect(compileCopier(storyListResponse)(page)).toBe(page);
    // Undeclared keys (a blob key), keys out of the schema's order: a copy, written as zod's path wrote them.
    for (const story of [everyFieldStory(), { storyId: inShape.storyId, ...inShape }]) {
      const given = ok(story);
      expect(copy(given)).not.toBe(given);
      expect(fastOnly(storyEnvelope)(given)).toBe(zodPath(storyEnvelope)(given));
    }
  });

  it("writes values that look like the schema's shape but are not plain as zod's path did", () => {
    const schema = z.object({ a: z.string(), b: z.number().optional(), list: z.array(z.object({ c: z.string() })) });
    class Shaped {
      a = "x";
      list = [{ c: "y" }];
      toJSON() {
        return "written by toJSON";
      }
    }
    class ShapedList extends Array<{ c: string }> {
      toJSON() {
        return "written by toJSON";
      }
    }
    const hidden = { a: "x", list: [] };
    Object.defineProperty(hidden, "b", { value: 2, enumerable: false });
    const values: unknown[] = [
      { a: "x", b: undefined, list: [] },
      { a: "x", list: [], b: 1 },
      { a: "x", b: 1, list: [], other: undefined },
      { a: "x", list: [{ c: "y", d: 1 }, { c: "z" }] },
      { a: "x", list: ShapedList.from([{ c: "y" }]) },
      new Shaped(),
      Object.assign(Object.create(null), { a: "x", list: [] }),
      hidden,
    ];
    for (const value of values) expect(fastOnly(schema)(value)).toBe(zodPath(schema)(value));
  });

  it("writes a schema that holds itself (a menu tree) as zod's path did", () => {
    const menu = z.object({
      name: z.string(),
      get children() {
        return z.array(menu);
      },
    });
    const tree = {
      name: "a",
      extra: 1,
      children: [
        { name: "b", children: [] },
        { name: "c", children: [] },
      ],
    };
    expect(fastOnly(menu)(tree)).toBe(zodPath(menu)(tree));
    expect(outcome(compileSerializer(menu, zodPath(menu)), { name: "a", children: [{ name: 1, children: [] }] })).toBe(
      outcome(zodPath(menu), { name: "a", children: [{ name: 1, children: [] }] }),
    );
  });

  it("leaves kinds it does not write to zod (defaults, transforms, checked strings, unions), with zod's answer", () => {
    const schema = z.object({
      b: z.string().trim(),
      a: z.number().default(4),
      when: z.iso.datetime(),
      either: z.union([z.string(), z.number()]),
      9: z.string(),
      1: z.literal("one"),
    });
    const values = [
      { b: "  padded  ", when: "2024-01-02T03:04:05Z", either: 3, 9: "nine", 1: "one", extra: true },
      { b: "x", a: 1, when: "yesterday", either: 3, 9: "nine", 1: "one" },
      { b: "x", when: "2024-01-02T03:04:05Z", either: [], 9: "nine", 1: "one" },
    ];
    for (const value of values) {
      const compiled = compileSerializer(schema, zodPath(schema));
      expect(outcome(compiled, value)).toBe(outcome(zodPath(schema), value));
    }
    expect(outcome(compileSerializer(errorEnvelope, zodPath(errorEnvelope)), { code: 404, msg: "x", error: "y" })).toBe(
      '{"code":404,"msg":"x","error":"y"}',
    );
  });
});

describeEachDialect("compiled response serialiser on stored stories", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let admin: TestPrincipal;
  let storyId: string;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "serialiser-admin", admin: true });
    storyId = await committedPhoto(ctx, admin, {
      title: 'Serialised "typhoon" 台风',
      properties: { level: "a", count: 3, flag: false, many: ["x", "y"], nested: { deep: [1, "two"] } },
    });
    const { db } = ctx();
    await db.kysely
      .updateTable("stories")
      .set({
        caption: "line\nbreak \\ and \u0007",
        authors: JSON.stringify(["Ann", "Bo"]),
        keywords: JSON.stringify(["storm", "harbour"]),
        tags: JSON.stringify(["weather"]),
        source: "Agency",
        theme: "Climate",
        category: "News",
        width: 4000,
        height: 3000,
        duration: 2.5,
        size: 123_456,
        mime: "image/jpeg",
        original_name: "IMG_0001.JPG",
        content_sha256: "cd".repeat(32),
        perceptual_hash: "0123456789abcdef",
        captured_at: "2024-05-06T07:08:09.000Z",
        gps: JSON.stringify({ latitude: 22.3, longitude: 114.2, altitude: 5 }),
        cover_key: "covers/secret-key",
        processing_error: "a failure's text",
      })
      .where("id", "=", storyId)
      .execute();
    const file = (role: string, width: number | null) => ({
      id: randomUUID(),
      story_id: storyId,
      version_no: 1,
      role,
      blob_key: `secret/${randomUUID()}`,
      mime: "image/jpeg",
      size: 100,
      width,
      height: width,
      created_at: new Date().toISOString(),
    });
    await db.kysely
      .insertInto("story_files")
      .values([file("original", 4000), file("thumbnail", 256), file("preview", null)])
      .execute();
  });

  it("writes one stored story as zod's path wrote it, on the fast path", async () => {
    const view = await ctx().module.queries.get("product", storyId);
    expect(view.files).toHaveLength(3);
    const payload = ok(view);
    expect(fastOnly(storyEnvelope)(payload)).toBe(zodPath(storyEnvelope)(payload));
    // Built in the schema's shape (the position too, which PostgreSQL's jsonb keeps in another order): not copied.
    expect(compileCopier(storyEnvelope)(payload)).toBe(payload);
  });

  it("answers GET story and a search with the text zod's path gives for the same content, no blob key in it", async () => {
    const one = await call(admin, "GET", `/stories/product/${storyId}`);
    expect(one.statusCode).toBe(200);
    expect(one.body).toBe(zodPath(storyEnvelope)(JSON.parse(one.body)));
    expect(Object.keys(JSON.parse(one.body).data)).toEqual(Object.keys(storySchema.shape));
    const found = await call(admin, "GET", "/stories?fulltext=typhoon&size=50");
    expect(found.statusCode).toBe(200);
    expect(found.body).toBe(zodPath(storyListResponse)(JSON.parse(found.body)));
    expect(found.json().data.content.map((story: { id: string }) => story.id)).toContain(storyId);
    for (const body of [one.body, found.body]) expect(body).not.toContain("secret");
  });
});
