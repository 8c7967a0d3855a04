import { describe, expect, it } from "vitest";
import type { StoryProperty } from "../../api/catalogue";
import {
  ACCEPTED,
  batchChanges,
  commitRequests,
  defaultOf,
  encodeUploadMetadata,
  fieldsFromProperties,
  formatBytes,
  isSettled,
  parseUploadResult,
  prefillFromStory,
  processingView,
  propertyValues,
  viewerLink,
} from "./upload-logic";

function property(overrides: Partial<StoryProperty>): StoryProperty {
  return {
    id: overrides.name ?? "p",
    storyType: "photo",
    libraryId: null,
    name: "p",
    label: "P",
    kind: "text",
    required: false,
    defaultValue: null,
    codelistId: null,
    codelistName: null,
    options: [],
    sortOrder: 0,
    isquick: false,
    createTime: "",
    updateTime: "",
    ...overrides,
  };
}

describe("encodeUploadMetadata", () => {
  it("sends target, trimmed texts and lists as JSON arrays, leaving empty values out", () => {
    expect(
      encodeUploadMetadata({
        libraryId: "product",
        folderId: undefined,
        title: "  Flood  ",
        caption: "",
        source: "Xinhua",
        keywords: ["rain, heavy", " river ", "", "river"],
        tags: [],
        authors: ["Li Wei"],
      }),
    ).toEqual({
      libraryId: "product",
      title: "Flood",
      source: "Xinhua",
      keywords: JSON.stringify(["rain, heavy", "river"]),
      authors: JSON.stringify(["Li Wei"]),
    });
  });

  it("sends nothing for an empty form", () => {
    expect(encodeUploadMetadata({})).toEqual({});
  });
});

describe("fieldsFromProperties", () => {
  it("puts quick properties first, then by sort order, one field per name", () => {
    const fields = fieldsFromProperties([
      property({ name: "b", label: "B", sortOrder: 1 }),
      property({ name: "q2", label: "Q2", isquick: true, sortOrder: 5 }),
      property({ name: "a", label: "A", sortOrder: 0 }),
      property({ name: "q1", label: "Q1", isquick: true, sortOrder: 2 }),
      property({ name: "a", label: "A (library)", sortOrder: 9 }),
    ]);
    expect(fields.map((field) => field.name)).toEqual(["q1", "q2", "a", "b"]);
    expect(fields[0]?.quick).toBe(true);
  });

  it("turns text defaults into the input's value", () => {
    expect(defaultOf({ kind: "number", defaultValue: "3" })).toBe(3);
    expect(defaultOf({ kind: "number", defaultValue: "x" })).toBeUndefined();
    expect(defaultOf({ kind: "switch", defaultValue: "true" })).toBe(true);
    expect(defaultOf({ kind: "multiselect", defaultValue: "a, b" })).toEqual(["a", "b"]);
    expect(defaultOf({ kind: "multiselect", defaultValue: null })).toEqual([]);
    expect(defaultOf({ kind: "select", defaultValue: "x" })).toBe("x");
    expect(defaultOf({ kind: "text", defaultValue: "" })).toBeUndefined();
  });

  it("keeps the code list options and the required flag", () => {
    const [field] = fieldsFromProperties([
      property({ kind: "select", required: true, options: [{ value: "n", label: "News" }] }),
    ]);
    expect(field?.required).toBe(true);
    expect(field?.options).toEqual([{ value: "n", label: "News" }]);
  });
});

describe("propertyValues", () => {
  it("keeps filled values, dates as YYYY-MM-DD", () => {
    const fields = fieldsFromProperties([
      property({ name: "n", kind: "number" }),
      property({ name: "d", kind: "date" }),
      property({ name: "m", kind: "multiselect" }),
      property({ name: "s", kind: "switch" }),
      property({ name: "t" }),
    ]);
    const date = { format: (pattern: string) => (pattern === "YYYY-MM-DD" ? "2024-05-01" : "?") };
    expect(propertyValues(fields, { n: 0, d: date, m: [], s: false, t: "", other: "x" })).toEqual({
      n: 0,
      d: "2024-05-01",
      s: false,
    });
  });
});

describe("commitRequests", () => {
  const fields = fieldsFromProperties([property({ name: "desk" }), property({ name: "shift", kind: "number" })]);
  const row = (fileId: string, libraryId: string) => ({ fileId, libraryId, storyId: `story-${fileId}` });

  it("commits each library's drafts once, with the batch's properties and each file's own over them", () => {
    const own: Record<string, Record<string, unknown>> = { b: { desk: "体育", shift: "" }, c: { other: "x" } };
    const requests = commitRequests(
      [row("a", "product"), row("b", "material"), row("c", "product")],
      fields,
      { desk: "国内", shift: 2, unknown: "dropped" },
      (fileId) => own[fileId] ?? {},
    );
    expect(requests).toEqual([
      {
        libraryId: "product",
        storyIds: ["story-a", "story-c"],
        extra: { metadata: { properties: { desk: "国内", shift: 2 } } },
      },
      {
        libraryId: "material",
        storyIds: ["story-b"],
        extra: { metadata: { properties: { desk: "国内", shift: 2 } }, properties: { "story-b": { desk: "体育" } } },
      },
    ]);
  });

  it("commits nothing when every story is committed already", () => {
    expect(commitRequests([], fields, { desk: "国内" }, () => ({}))).toEqual([]);
  });
});

describe("parseUploadResult", () => {
  it("reads the story of the last PATCH answer", () => {
    const body = JSON.stringify({
      code: 0,
      data: {
        upload: {},
        result: {
          libraryId: "product",
          storyId: "s1",
          versionNo: 1,
          duplicates: [{ libraryId: "product", storyId: "s0", title: "Old" }],
        },
      },
    });
    expect(parseUploadResult(body)).toEqual({
      libraryId: "product",
      storyId: "s1",
      versionNo: 1,
      duplicates: [{ libraryId: "product", storyId: "s0", title: "Old" }],
    });
  });

  it("answers null for an empty or foreign body", () => {
    expect(parseUploadResult("")).toBeNull();
    expect(parseUploadResult("not json")).toBeNull();
    expect(parseUploadResult(JSON.stringify({ code: 0, data: { upload: {} } }))).toBeNull();
  });
});

describe("processing state", () => {
  it("maps the story's state and knows when to stop polling", () => {
    expect(processingView(undefined)).toBe("waiting");
    expect(processingView({ processingState: "none" })).toBe("waiting");
    expect(processingView({ processingState: "running" })).toBe("running");
    expect(isSettled({ processingState: "queued" })).toBe(false);
    expect(isSettled({ processingState: "done" })).toBe(true);
    expect(isSettled({ processingState: "failed" })).toBe(true);
    expect(isSettled(undefined)).toBe(false);
  });

  it("pre-fills a file's row from what extraction found", () => {
    expect(
      prefillFromStory({
        title: "IMG_1",
        caption: "A bridge",
        keywords: ["bridge"],
        capturedAt: "2020-01-01T00:00:00Z",
      }),
    ).toEqual({ title: "IMG_1", caption: "A bridge", keywords: ["bridge"], capturedAt: "2020-01-01T00:00:00Z" });
  });
});

describe("helpers", () => {
  it("links to the viewer and formats sizes", () => {
    expect(viewerLink({ libraryId: "product", storyId: "a b" })).toBe("/frontend/search?story=product/a%20b");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(50 * 1024 * 1024)).toBe("50 MB");
    expect(formatBytes(1536)).toBe("1.5 KB");
  });

  it("accepts the page's types only", () => {
    expect(ACCEPTED.photo).toContain(".heic");
    expect(ACCEPTED.video).toContain(".mkv");
    expect(ACCEPTED.audio).toContain(".flac");
    expect(ACCEPTED.photo).not.toContain(".mp4");
  });
});

describe("batch changes made after the upload", () => {
  it("are what the form changed since the file was sent, cleared fields included", () => {
    const sent = encodeUploadMetadata({ title: "台风", keywords: ["风"], source: "新华社" });
    const now = encodeUploadMetadata({ title: "台风", caption: "山竹过境", keywords: ["风", "雨"] });
    expect(batchChanges(sent, now)).toEqual({ caption: "山竹过境", keywords: ["风", "雨"], source: null });
    expect(batchChanges(now, now)).toEqual({});
  });

  it("go with the commit, one request per library and set of changes", () => {
    const rows = [
      { fileId: "a", libraryId: "product", storyId: "sa" },
      { fileId: "b", libraryId: "product", storyId: "sb" },
      { fileId: "c", libraryId: "product", storyId: "sc" },
    ];
    const changes: Record<string, object> = { a: { caption: "新" }, b: { caption: "新" }, c: {} };
    const requests = commitRequests(
      rows,
      [],
      {},
      () => ({}),
      (fileId) => changes[fileId] ?? {},
    );
    expect(requests).toEqual([
      { libraryId: "product", storyIds: ["sa", "sb"], extra: { metadata: { caption: "新", properties: {} } } },
      { libraryId: "product", storyIds: ["sc"], extra: { metadata: { properties: {} } } },
    ]);
  });
});
