import { createHash, randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import Sqlite from "better-sqlite3";
import pg from "pg";
import { facetTermsOf, searchBody, termRows } from "../server/src/modules/search/search-index.js";
import { tsvectorLiteral } from "../server/src/modules/search/search-text.js";

/**
 * Generated stories for the search benchmark: Chinese and English captions
 * from a small common vocabulary (a word matches 5–20 % of the stories) plus
 * one selective English word and one selective pair of rare Chinese characters
 * per story (each matches about 50 stories at any size), loaded in bulk
 * straight into the tables the application reads, with the index text built
 * by the application's own code (searchBody, termRows).
 */
const CHINESE = ["台风", "两会", "发布会", "上海", "北京", "暴雨", "记者会", "春运", "航天", "足球", "新冠", "选举"];
const ENGLISH = ["press", "conference", "typhoon", "election", "budget", "flood", "football", "summit", "market"];
const AUTHORS = ["张三", "李四", "王五", "Alice Chen", "Bob Smith", "赵六"];
const TAGS = ["要闻", "体育", "财经", "world", "local", "feature"];
const TYPES = ["photo", "video", "audio", "composite"] as const;
const CAMERAS = ["Canon EOS R5", "Nikon Z9", "Sony A1"];
const SYLLABLES = ["ka", "lo", "mi", "ru", "te", "zo", "ne", "vi", "sa", "po"];
/** Characters that appear nowhere else in the generated text: 200 of CJK Extension A (40 000 pairs). */
const RARE_HAN = Array.from({ length: 200 }, (_, index) => String.fromCodePoint(0x3400 + index));
/** Matches per selective word or pair (expected value). */
const SELECTIVE = 50;

export interface GeneratedStory {
  id: string;
  library_id: string;
  type: (typeof TYPES)[number];
  title: string;
  caption: string;
  authors: string[];
  keywords: string[];
  tags: string[];
  camera: string;
  height: number;
  size: number;
  original_name: string;
  created_at: string;
}

/** A deterministic generator (both dialects get the same stories, except their ids). */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

export function selectiveWord(index: number): string {
  return `q${String(index)
    .split("")
    .map((digit) => SYLLABLES[Number(digit)])
    .join("")}`;
}

export function selectivePair(index: number): string {
  const size = RARE_HAN.length;
  return `${RARE_HAN[index % size]}${RARE_HAN[Math.floor(index / size) % size]}`;
}

/** The stories in batches; `batch` of them at a time. */
export function* generateStories(count: number, batch: number): Generator<GeneratedStory[]> {
  const next = random(42);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const words = Math.max(1, Math.round(count / SELECTIVE));
  const pairs = Math.min(RARE_HAN.length ** 2, words);
  const start = Date.UTC(2020, 0, 1);
  for (let offset = 0; offset < count; offset += batch) {
    const rows: GeneratedStory[] = [];
    for (let i = offset; i < Math.min(count, offset + batch); i++) {
      const zh = [pick(CHINESE), pick(CHINESE)];
      const en = [pick(ENGLISH), pick(ENGLISH)];
      const pressConference = next() < 0.05 ? " press conference" : "";
      // Upload dates grow with the insert order, as uploads do (with jitter of a few days).
      const created = start + ((i + next() * 20) / count) * 5 * 365 * 86_400_000;
      rows.push({
        id: randomUUID(),
        library_id: next() < 0.7 ? "product" : "material",
        type: pick(TYPES),
        title: `${zh[0]}${en[0]} ${i}`,
        caption: `${zh[0]}现场 ${zh[1]}消息 ${en[0]} ${en[1]}${pressConference} ${selectiveWord(i % words)} ${selectivePair(i % pairs)}`,
        authors: [pick(AUTHORS)],
        keywords: [zh[1]!],
        tags: [pick(TAGS)],
        camera: pick(CAMERAS),
        height: next() < 0.7 ? 3000 : 5000,
        size: Math.floor(next() * 10_000_000),
        original_name: `IMG_${i}.jpg`,
        created_at: new Date(created).toISOString(),
      });
    }
    yield rows;
  }
}

/** A file hash per story, as every uploaded story has (the uploads' duplicate check reads it). */
function fileHash(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

function indexed(story: GeneratedStory) {
  const source = {
    id: story.id,
    title: story.title,
    caption: story.caption,
    authors: story.authors,
    source: "新华社",
    keywords: story.keywords,
    tags: story.tags,
    theme: null,
    category: null,
    originalName: story.original_name,
    properties: { camera: story.camera },
  };
  return { body: searchBody(source), terms: termRows(source), facetTerms: facetTermsOf(source) };
}

/** Loads into a migrated SQLite file (its own connection, one transaction per 20 000 stories). */
export function loadSqlite(file: string, count: number, creatorId: string): void {
  const db = new Sqlite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  const story = db.prepare(`insert into stories (id, library_id, folder_id, type, half_product, status, title, caption,
    authors, source, keywords, tags, theme, category, properties, oid, version_no, cover_key, content_sha256,
    perceptual_hash, width, height, duration, size, mime, original_name, captured_at, gps, processing_state,
    processing_error, created_by, created_at, updated_by, updated_at)
    values (?, ?, null, ?, 0, 'committed', ?, ?, ?, '新华社', ?, ?, null, null, ?, ?, 1, null, ?, null, 4000, ?, null,
    ?, 'image/jpeg', ?, ?, null, 'done', null, ?, ?, ?, ?)`);
  // The index's copy of the window columns (migration 0013) and facet terms (0014), as SearchIndex writes them.
  const key = db.prepare(`insert into story_search_keys (story_id, library_id, folder_id, type, status, created_by,
    created_at, captured_at, facet_terms) values (?, ?, null, ?, 'committed', ?, ?, ?, ?)`);
  const body = db.prepare("insert into story_search (rowid, body) values (?, ?)");
  const term = db.prepare("insert into story_terms (story_id, kind, value) values (?, ?, ?)");
  const load = db.transaction((rows: GeneratedStory[]) => {
    for (const row of rows) {
      story.run(
        row.id,
        row.library_id,
        row.type,
        row.title,
        row.caption,
        JSON.stringify(row.authors),
        JSON.stringify(row.keywords),
        JSON.stringify(row.tags),
        JSON.stringify({ camera: row.camera }),
        randomUUID(),
        fileHash(row.id),
        row.height,
        row.size,
        row.original_name,
        row.created_at,
        creatorId,
        row.created_at,
        creatorId,
        row.created_at,
      );
      const entry = indexed(row);
      const { lastInsertRowid } = key.run(
        row.id,
        row.library_id,
        row.type,
        creatorId,
        row.created_at,
        row.created_at,
        entry.facetTerms,
      );
      body.run(lastInsertRowid, entry.body);
      for (const t of entry.terms) term.run(t.story_id, t.kind, t.value);
    }
  });
  for (const rows of generateStories(count, 20_000)) load(rows);
  db.exec("insert into story_search(story_search) values ('optimize')");
  // What the product's own statistics upkeep runs (no full ANALYZE, which production never does).
  db.pragma("optimize");
  db.close();
}

/** Loads into a migrated PostgreSQL database: unnest() batches, the GIN index built after the load. */
export async function loadPostgres(url: string, count: number, creatorId: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("drop index story_search_tsv_idx");
    for (const rows of generateStories(count, 10_000)) {
      const column = <K extends keyof GeneratedStory>(name: K) => rows.map((row) => row[name]);
      const json = (name: "authors" | "keywords" | "tags") => rows.map((row) => JSON.stringify(row[name]));
      const entries = rows.map(indexed);
      await client.query("begin");
      await client.query(
        `insert into stories (id, library_id, type, half_product, status, title, caption, authors, source, keywords, tags,
          properties, oid, version_no, width, height, size, mime, content_sha256, original_name, captured_at,
          processing_state, created_by, created_at, updated_by, updated_at)
         select id, library_id, type, false, 'committed', title, caption, authors::jsonb, '新华社', keywords::jsonb,
           tags::jsonb, jsonb_build_object('camera', camera), gen_random_uuid(), 1, 4000, height, size, 'image/jpeg',
           encode(sha256(convert_to(id::text, 'UTF8')), 'hex'),
           original_name, created_at, 'done', $1, created_at, $1, created_at
         from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
           $10::text[], $11::int[], $12::bigint[], $13::text[], $14::timestamptz[])
           as v(id, library_id, type, title, caption, authors, keywords, tags, camera, height, size, original_name, created_at)`,
        [
          creatorId,
          column("id"),
          column("library_id"),
          column("type"),
          column("title"),
          column("caption"),
          json("authors"),
          json("keywords"),
          json("tags"),
          column("camera"),
          column("height"),
          column("size"),
          column("original_name"),
          column("created_at"),
        ],
      );
      await client.query(
        `insert into story_search (story_id, body, tsv, facet_terms, library_id, folder_id, type, status, created_by,
           created_at, captured_at)
         select v.id, v.body, v.tsv::tsvector, v.facet_terms, s.library_id, s.folder_id, s.type, s.status,
           s.created_by, s.created_at, s.captured_at
         from unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) as v(id, body, facet_terms, tsv)
           join stories s on s.id = v.id`,
        [
          column("id"),
          entries.map((entry) => entry.body),
          entries.map((entry) => entry.facetTerms),
          entries.map((entry) => tsvectorLiteral(entry.body)),
        ],
      );
      const terms = entries.flatMap((entry) => entry.terms);
      await client.query(
        `insert into story_terms (story_id, kind, value)
         select * from unnest($1::uuid[], $2::text[], $3::text[])`,
        [terms.map((t) => t.story_id), terms.map((t) => t.kind), terms.map((t) => t.value)],
      );
      await client.query("commit");
    }
    const started = performance.now();
    await client.query("set maintenance_work_mem = '256MB'");
    await client.query("create index story_search_tsv_idx on story_search using gin (tsv)");
    console.log(`  GIN index built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // What autovacuum does after a bulk load (docs/operations.md); the GIN index's pending list flushed.
    await client.query("vacuum analyze");
  } finally {
    await client.end();
  }
}
