import { randomUUID } from "node:crypto";
import { beforeAll, expect } from "vitest";
import type { StoryType } from "../../db/schema.js";
import type { DialectName } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { seededRandom } from "../../test/random.js";
import { useStoriesApp } from "../../test/stories-app.js";
import type { StoriesModule } from "../stories/stories.compose.js";
import { StoriesRepository, type StoryInsert } from "../stories/stories.repository.js";
import type { Actor } from "../stories/story-types.js";
import { createSearchIndex } from "./search.compose.js";
import type { StoryListQuery } from "./search.schema.js";
import type { SearchIndex } from "./search-index.js";

/** The search tests' library: 5 000 generated stories, half Chinese, half English, with a seeded mix of fields. */
export const COUNT = 5000;
export const LIBRARIES = ["product", "material", "department"] as const;
const TYPES: StoryType[] = ["photo", "video", "audio"];
const ZH = [
  "台风“山竹”登陆广东沿海",
  "全国两会新闻发布会在北京举行",
  "台湾海峡今日天气晴朗",
  "两会代表抵达人民大会堂",
  "舞台上的发布会彩排",
  "西湖风景如画",
];
const EN = [
  "Press conference on the typhoon",
  "Pressure builds before the summit",
  "The press gathers in the capital",
  "A conference on climate",
  "Reporters at the press conference",
  "Sunset over the harbour",
  "Conference hall and press room",
];
const AUTHORS = ["张伟", "李娜", "John Smith", "Mary Lee"];
const SOURCES = ["新华社", "Reuters", null];

export interface Generated {
  row: StoryInsert;
  text: string;
  authors: string[];
  tags: string[];
  month: string;
  orientation: string | null;
}

function generate(creatorId: string, otherId: string): Generated[] {
  const next = seededRandom(42);
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]!;
  const stories: Generated[] = [];
  for (let i = 0; i < COUNT; i++) {
    const chinese = i % 2 === 0;
    const caption = chinese ? ZH[(i / 2) % ZH.length]! : EN[((i - 1) / 2) % EN.length]!;
    const title = chinese ? `稿件 ${i}` : `Item ${i}`;
    const authors = i % 10 === 0 ? [pick(AUTHORS), "王芳"] : [pick(AUTHORS)];
    const source = pick(SOURCES);
    const tags = i % 6 === 0 ? ["突发", "news"] : ["news"];
    const camera = i % 5 === 0 ? "Canon EOS R5" : "Nikon Z9";
    const city = i % 3 === 0 ? "上海" : "Beijing";
    const created = new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString();
    const captured = next() < 0.8 ? new Date(Date.UTC(2023, Math.floor(next() * 12), 15)).toISOString() : null;
    const shape = pick(["landscape", "portrait", "square", null] as const);
    const [width, height] =
      shape === "landscape"
        ? [1600, 900]
        : shape === "portrait"
          ? [900, 1600]
          : shape === "square"
            ? [1000, 1000]
            : [null, null];
    const draft = i % 97 === 0;
    const id = randomUUID();
    stories.push({
      row: {
        id,
        library_id: pick(LIBRARIES),
        folder_id: null,
        type: i % 40 === 0 ? "composite" : pick(TYPES),
        half_product: false,
        status: draft ? "draft" : "committed",
        title,
        caption,
        authors: JSON.stringify(authors),
        source,
        keywords: JSON.stringify([`k${i % 5}`]),
        tags: JSON.stringify(tags),
        theme: null,
        category: null,
        properties: JSON.stringify({ camera, city }),
        oid: randomUUID(),
        version_no: 1,
        cover_key: null,
        content_sha256: null,
        perceptual_hash: null,
        width,
        height,
        duration: null,
        size: 1000 + i,
        mime: "image/jpeg",
        original_name: `IMG_${i}.jpg`,
        captured_at: captured,
        gps: next() < 0.3 ? JSON.stringify({ latitude: 31.2, longitude: 121.5 }) : null,
        processing_state: "done",
        processing_error: null,
        created_by: draft ? otherId : creatorId,
        created_at: created,
        updated_by: creatorId,
        updated_at: created,
      },
      text: [title, caption, ...authors, source ?? "", ...tags, `k${i % 5}`, camera, city, `IMG_${i}.jpg`].join(" | "),
      authors,
      tags,
      month: (captured ?? created).slice(0, 7),
      orientation: shape,
    });
  }
  return stories;
}

export const word = (w: string) => new RegExp(`\\b${w}\\b`, "i");

/** Each query type with what it must find, as a predicate over the generated text. */
export const QUERIES: { query: string; matches: (text: string) => boolean }[] = [
  { query: "台", matches: (text) => text.includes("台") },
  { query: "台风", matches: (text) => text.includes("台风") },
  { query: "两会", matches: (text) => text.includes("两会") },
  { query: "发布会", matches: (text) => text.includes("发布会") },
  { query: "press", matches: (text) => word("press").test(text) },
  { query: "PRESS conf*", matches: (text) => word("press").test(text) && /\bconf\w*/i.test(text) },
  { query: "pres*", matches: (text) => /\bpres\w*/i.test(text) },
  { query: '"press conference"', matches: (text) => /\bpress conference\b/i.test(text) },
  { query: "canon", matches: (text) => word("canon").test(text) },
  { query: "上海 两会", matches: (text) => text.includes("上海") && text.includes("两会") },
  { query: "img_42.jpg", matches: (text) => text.endsWith("| IMG_42.jpg") },
];

/** What the search tests share once the generated library is stored. */
export interface SearchData {
  module: StoriesModule;
  index: SearchIndex;
  admin: TestPrincipal;
  contributor: TestPrincipal;
  adminActor: Actor;
  stories: Generated[];
}

/** A stories app on the dialect with the generated library inserted, and the expectations computed from it. */
export function useSearchData(dialect: DialectName) {
  const ctx = useStoriesApp(dialect);
  const data = {} as SearchData;

  const readable = (libraries: readonly string[]) => (story: Generated) =>
    libraries.includes(story.row.library_id) &&
    (story.row.status !== "draft" || story.row.created_by === data.admin.id);

  async function findAll(query: Partial<StoryListQuery>, who: "admin" | "contributor" = "admin"): Promise<string[]> {
    const user =
      who === "admin"
        ? { id: data.admin.id, admin: true, roleId: "administrator" }
        : { id: data.contributor.id, admin: false, roleId: "contributor" };
    const ids: string[] = [];
    for (let page = 0; ; page++) {
      const found = await data.module.queries.list(user, { page, size: 1000, ...query });
      ids.push(...found.content.map((story) => story.id));
      if (ids.length >= found.total || found.content.length === 0) {
        expect(ids).toHaveLength(found.total);
        return ids;
      }
    }
  }

  const expected = (predicate: (story: Generated) => boolean, libraries: readonly string[] = LIBRARIES) =>
    data.stories
      .filter(readable(libraries))
      .filter(predicate)
      .map((story) => story.row.id)
      .sort();

  beforeAll(async () => {
    const { db } = ctx();
    data.module = ctx().module;
    data.index = createSearchIndex(db.kysely, db.adapter);
    data.admin = await createPrincipal(db, { username: "search-admin", admin: true });
    data.contributor = await createPrincipal(db, { username: "search-contributor", roleId: "contributor" });
    const other = await createPrincipal(db, { username: "search-other", roleId: "editor" });
    data.adminActor = {
      id: data.admin.id,
      username: data.admin.username,
      admin: true,
      roleId: "administrator",
      ip: null,
    };
    data.stories = generate(data.admin.id, other.id);
    const started = performance.now();
    // Through the stories repository, as every write path goes: it keeps the index in step.
    await db.kysely.transaction().execute(async (trx) => {
      const repository = new StoriesRepository(trx, db.adapter, data.index);
      for (const story of data.stories) await repository.insertStory(story.row);
    });
    console.log(`[${dialect}] inserted ${COUNT} stories in ${Math.round(performance.now() - started)} ms`);
  }, 600_000);

  return { ctx, data, findAll, expected, readable };
}
