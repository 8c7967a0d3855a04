import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import type { StoryType } from "../../db/schema.js";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { seededRandom } from "../../test/random.js";
import { storyRow } from "../../test/stories-app.js";
import { StoriesRepository } from "../stories/stories.repository.js";
import { buildSearch, type SearchModule } from "./search.compose.js";
import type { SearchFilter } from "./search.schema.js";

/**
 * Recall and precision of full-text search on mixed Chinese/English newsroom
 * text, against the exact set computed from the texts themselves: Chinese
 * matches a substring of one run of Han characters within one field; English
 * a whole word, a prefix, or a phrase of words separated by spaces only, within
 * one field. The generated texts put the traps where they occur in real
 * captions: Latin letters and digits touching Han (5G手机, iPhone发布会现场),
 * Han words side by side with and without spaces or punctuation (电视台风险 holds
 * 台风, 电视台 风险 and 舞台，风景 do not), field boundaries (a title ending in 平台,
 * a caption starting with 风险), and English words across punctuation.
 */

const COUNT = 4000;
const HAN = [
  "台风",
  "电视台",
  "风险",
  "舞台",
  "风景",
  "平台",
  "发布会",
  "现场",
  "手机",
  "峰会",
  "记者",
  "会议",
  "新闻",
];
const LATIN = ["press", "conference", "typhoon", "summit", "iPhone", "G20", "5G", "live", "news", "Pressure", "phone"];
/** Pieces as they come in real captions, whole. */
const COMPOUNDS = [
  "iPhone发布会现场",
  "发布会iPhone现场",
  "5G手机",
  "G20峰会",
  "live news press",
  "电视台 风险",
  "舞台，风景",
];
const TYPES: StoryType[] = ["photo", "video", "audio"];
const LIBRARIES = ["product", "material"] as const;

interface Story {
  id: string;
  type: StoryType;
  library: string;
  captured: string;
  created: string;
  /** Title, caption, then each keyword and tag: the fields a match must stay within. */
  fields: string[];
}

function generate(): Story[] {
  const next = seededRandom(20_240_501);
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]!;
  const latin = (word: string) => (next() < 0.3 ? word.toUpperCase() : next() < 0.5 ? word.toLowerCase() : word);
  const field = (pieces: number) => {
    let text = "";
    let lastHan: boolean | undefined;
    for (let i = 0; i < pieces; i++) {
      const compound = next() < 0.04 ? pick(COMPOUNDS) : undefined;
      const hanWord = next() < 0.55;
      const piece = compound ?? (hanWord ? pick(HAN) : latin(pick(LATIN)));
      const startsHan = /^\p{Script=Han}/u.test(piece);
      if (lastHan !== undefined) {
        // Two Latin words never touch (they would be one word); anything next to Han may.
        const separators =
          !startsHan && !lastHan ? [" ", " ", " ", ", ", ". ", " - "] : ["", "", "", " ", "，", "。", "、", ", "];
        text += pick(separators);
      }
      text += piece;
      lastHan = /\p{Script=Han}$/u.test(piece);
    }
    return text;
  };
  const stories: Story[] = [];
  for (let i = 0; i < COUNT; i++) {
    const keywords = next() < 0.5 ? [field(1 + Math.floor(next() * 2))] : [];
    const tags = next() < 0.3 ? [field(1)] : [];
    stories.push({
      id: randomUUID(),
      type: pick(TYPES),
      library: pick(LIBRARIES),
      captured: new Date(Date.UTC(2023, Math.floor(next() * 12), 1 + Math.floor(next() * 28))).toISOString(),
      created: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
      fields: [field(1 + Math.floor(next() * 3)), field(2 + Math.floor(next() * 5)), ...keywords, ...tags],
    });
  }
  return stories;
}

// The expected sets, from the texts: each matcher looks at one field at a time.
const lower = (field: string) => field.toLowerCase();
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
type Matcher = (field: string) => boolean;
/** A substring of one run of Han characters. */
const han =
  (text: string): Matcher =>
  (field) =>
    (field.match(/\p{Script=Han}+/gu) ?? []).some((run) => run.includes(text));
/** A whole word (Latin words are runs of ASCII letters and digits; Han around them ends them). */
const word =
  (text: string): Matcher =>
  (field) =>
    (lower(field).match(/[a-z0-9]+/g) ?? ([] as string[])).includes(text.toLowerCase());
const prefix =
  (text: string): Matcher =>
  (field) =>
    (lower(field).match(/[a-z0-9]+/g) ?? []).some((found) => found.startsWith(text.toLowerCase()));
/** Words separated by spaces only; the last one a prefix when `last` is "prefix". */
const phrase =
  (words: string[], last: "word" | "prefix" = "word"): Matcher =>
  (field) =>
    new RegExp(`(?<![a-z0-9])${words.map(literal).join(" +")}${last === "word" ? "(?![a-z0-9])" : ""}`).test(
      lower(field),
    );
/** Latin touching Han (`5g手机`, `发布会iphone`): a Latin end of the text is a word's end, a Han end may go on. */
const touching =
  (text: string): Matcher =>
  (field) =>
    new RegExp(
      `${/^[a-z0-9]/.test(text) ? "(?<![a-z0-9])" : ""}${literal(text)}${/[a-z0-9]$/.test(text) ? "(?![a-z0-9])" : ""}`,
    ).test(lower(field));

interface Case {
  query: string;
  /** Every term must match, each in some field. */
  terms: Matcher[];
  filter?: Omit<SearchFilter, "libraryIds" | "viewerId" | "fulltext">;
  keep?: (story: Story) => boolean;
}

const CASES: Case[] = [
  ...["台", "风", "会", "险"].map((text) => ({ query: text, terms: [han(text)] })),
  ...["台风", "风险", "风景", "手机", "峰会", "现场", "台平"].map((text) => ({ query: text, terms: [han(text)] })),
  ...["发布会", "电视台", "台风险", "会现场", "风景平台"].map((text) => ({ query: text, terms: [han(text)] })),
  ...["press", "conference", "TYPHOON", "g20", "5G", "iphone", "phone"].map((text) => ({
    query: text,
    terms: [word(text)],
  })),
  ...["conf*", "pre*", "iph*", "g2*", "p*"].map((text) => ({ query: text, terms: [prefix(text.slice(0, -1))] })),
  { query: '"press conference"', terms: [phrase(["press", "conference"])] },
  { query: '"typhoon summit"', terms: [phrase(["typhoon", "summit"])] },
  { query: '"live news press"', terms: [phrase(["live", "news", "press"])] },
  { query: '"press conf"*', terms: [phrase(["press", "conf"], "prefix")] },
  { query: "press conf*", terms: [word("press"), prefix("conf")] },
  { query: "5G手机", terms: [touching("5g手机")] },
  { query: "G20峰会", terms: [touching("g20峰会")] },
  { query: "iPhone发布会", terms: [touching("iphone发布会")] },
  { query: "iPhone发布会现场", terms: [touching("iphone发布会现场")] },
  { query: "发布会iPhone", terms: [touching("发布会iphone")] },
  { query: "台风 press", terms: [han("台风"), word("press")] },
  { query: "手机 conf* 记者", terms: [han("手机"), prefix("conf"), han("记者")] },
  {
    query: "台风",
    terms: [han("台风")],
    filter: { types: ["photo"], capturedFrom: "2023-06-01T00:00:00.000Z" },
    keep: (story) => story.type === "photo" && story.captured >= "2023-06-01T00:00:00.000Z",
  },
  {
    query: '"press conference"',
    terms: [phrase(["press", "conference"])],
    filter: { types: ["video", "audio"], capturedTo: "2023-09-01T00:00:00.000Z" },
    keep: (story) => story.type !== "photo" && story.captured < "2023-09-01T00:00:00.000Z",
  },
  {
    query: "5G手机 峰会",
    terms: [touching("5g手机"), han("峰会")],
    filter: { types: ["photo", "video"] },
    keep: (story) => story.type !== "audio",
  },
];

describeEachDialect("search recall on mixed Chinese and English text", (dialect) => {
  const db = useTestDb(dialect);
  let stories: Story[];
  let search: SearchModule;

  beforeAll(async () => {
    const { kysely, adapter } = db();
    stories = generate();
    // The window holds every story: the expected sets are compared whole.
    search = buildSearch(db(), COUNT + 1);
    // Through the stories repository, as every write goes: it tells the index.
    await kysely.transaction().execute(async (trx) => {
      const repository = new StoriesRepository(trx, adapter, search.index);
      for (const story of stories) {
        const [title, caption, ...keywords] = story.fields;
        await repository.insertStory(
          storyRow({
            id: story.id,
            library_id: story.library,
            type: story.type,
            title,
            caption,
            keywords: JSON.stringify(keywords),
            captured_at: story.captured,
            created_at: story.created,
            updated_at: story.created,
          }),
        );
      }
    });
  }, 300_000);

  it("finds exactly the stories whose texts hold the query, for every kind of query", async () => {
    const report: string[] = [];
    const failures: string[] = [];
    for (const { query, terms, filter, keep } of CASES) {
      const want = new Set(
        stories
          .filter((story) => terms.every((term) => story.fields.some(term)))
          .filter((story) => keep?.(story) ?? true)
          .map((story) => story.id),
      );
      const found = await search.service.search(
        { libraryIds: [...LIBRARIES], viewerId: randomUUID(), fulltext: query, ...filter },
        { page: 0, size: COUNT },
        false,
      );
      const got = new Set(found.rows.map((row) => row.id));
      const hits = [...got].filter((id) => want.has(id)).length;
      const precision = got.size === 0 ? 1 : hits / got.size;
      const recall = want.size === 0 ? 1 : hits / want.size;
      const label = `${query}${filter ? ` + ${JSON.stringify(filter)}` : ""}`;
      report.push(
        `${label}: expected ${want.size}, found ${got.size}, P ${precision.toFixed(3)} R ${recall.toFixed(3)}`,
      );
      if (want.size === 0) failures.push(`${label}: the corpus holds no match (a query that tests nothing)`);
      if (precision !== 1 || recall !== 1) {
        const missed = stories.find((story) => want.has(story.id) && !got.has(story.id));
        const extra = stories.find((story) => got.has(story.id) && !want.has(story.id));
        failures.push(
          `${label}: P ${precision.toFixed(3)} R ${recall.toFixed(3)}` +
            (missed ? `; missed ${JSON.stringify(missed.fields)}` : "") +
            (extra ? `; wrongly found ${JSON.stringify(extra.fields)}` : ""),
        );
      }
    }
    console.log(`[${dialect}] ${COUNT} stories, ${CASES.length} queries:\n${report.join("\n")}`);
    expect(failures).toEqual([]);
  });
});
