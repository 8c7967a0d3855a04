import { performance } from "node:perf_hooks";
import Sqlite from "better-sqlite3";
import pg from "pg";

/**
 * Generated operation-log rows for bench/audit-log.bench.ts, written straight
 * into a migrated `audit_log` by set-based SQL (no row crosses from Node):
 * PostgreSQL `INSERT … SELECT` over `generate_series`, SQLite a recursive CTE,
 * in slices of a million rows, the table's secondary indexes dropped first
 * and re-created from their own definitions afterwards (as a bulk load does),
 * then statistics. Small lookup tables (users, actions, labels, routes) are
 * made first; each generated row picks from them by multiplicative hashes of
 * its number, so both dialects hold the same rows (ids 1…n).
 *
 * The mix: 5 000 users, 50 of them busy (a fifth of all rows); 24 actions
 * with a realistic weight (downloads and edits most, deletes 2.5 %, sign-in
 * failures 1.5 %); results ok / denied (a third of the refused `http.*`
 * calls, 0.4 % elsewhere) / failed (sign-in failures, 0.8 % elsewhere);
 * targets from 2 000 000 stories, 50 000 shares, 20 000 folders, the users,
 * 10 routes (one of them takes 60 % of the `http.*` rows: a hot target);
 * Chinese titles; before/after on edits, details on downloads; `at` spread
 * evenly over the two years before `end`, growing with the id as an
 * append-only log's does.
 */

export const BUSY_USERS = 50;
export const USERS = 5000;
export const STORIES = 2_000_000;
const SPAN_MS = 730 * 86_400_000;

const SURNAMES = ["wang", "li", "zhang", "liu", "chen", "yang", "zhao", "huang", "zhou", "wu"];
const HAN_SURNAMES = ["王", "李", "张", "刘", "陈", "杨", "赵", "黄", "周", "吴"];
const GIVEN = ["wei", "fang", "na", "min", "jing", "lei", "qiang", "yan", "jun", "tao"];
const HAN_GIVEN = ["伟", "芳", "娜", "敏", "静", "磊", "强", "艳", "军", "涛"];
const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  "dams-cli/1.4 (+api token)",
];
const TOPICS = [
  "台风“山竹”登陆",
  "两会开幕",
  "新闻发布会",
  "上海外滩夜景",
  "北京冬奥会",
  "暴雨预警",
  "春运返乡",
  "航天员出舱",
];
const PLACES = ["现场", "航拍", "特写", "全景", "采访", "花絮", "资料", "组图", "视频", "专题"];
const TAILS = ["（一）", "（二）", "最新", "精选", "原片", "通稿"];
const CHANNELS = ["新华社客户端", "人民日报图片", "微博官方号", "微信公众号", "合作媒体FTP"];
const LIBRARIES: [string, string][] = [
  ["product", "成品库"],
  ["material", "素材库"],
  ["publish", "发布库"],
];
const ROUTES = [
  "POST /workflow-story-favorite",
  "POST /workflow-story-move",
  "DELETE /workflow-story-delete/:libraryId/:storyId",
  "PUT /stories/:libraryId/:storyId",
  "POST /share/create",
  "POST /disk/folders",
  "PUT /libraries/:libraryId",
  "POST /publish",
  "DELETE /disk/files/:id",
  "POST /export/table_0",
];
/** [action, target type, weight ‰, flags: e = before/after, s = system (no actor), d = download details] */
const ACTIONS: [string, string, number, string][] = [
  ["story.download", "story", 206, "d"],
  ["story.edit", "story", 180, "e"],
  ["story.create", "story", 120, ""],
  ["story.commit", "story", 80, ""],
  ["signin.success", "self", 100, ""],
  ["signin.failure", "self", 15, "s"],
  ["share.open", "share", 60, ""],
  ["share.download", "share", 30, "d"],
  ["story.delete", "story", 25, ""],
  ["story.withdraw", "story", 5, ""],
  ["folder.rename", "folder", 10, "e"],
  ["folder.create", "folder", 15, ""],
  ["story.publish", "channel", 40, ""],
  ["disk.file-create", "disk-file", 30, ""],
  ["disk.download", "disk-file", 20, "d"],
  ["export.table", "table", 5, ""],
  ["http.post", "route", 40, ""],
  ["http.delete", "route", 5, ""],
  ["user.update", "user", 5, "e"],
  ["storage.move", "library", 1, ""],
  ["audit.settings", "setting", 1, "e"],
  ["audit.prune", "setting", 2, "s"],
  ["library.edit", "library", 2, "e"],
  ["channel.update", "channel", 3, "e"],
];

export function userName(k: number): string {
  const serial = String(k).padStart(4, "0");
  return k % 4 === 0
    ? `${HAN_SURNAMES[k % 10]}${HAN_GIVEN[Math.floor(k / 10) % 10]}${serial}`
    : `${SURNAMES[k % 10]}.${GIVEN[Math.floor(k / 10) % 10]}${serial}`;
}

/** The title of story `n` as its rows label it. */
export function storyLabel(n: number): string {
  return `${labelRow(n % 500).title} #${n}`;
}

function labelRow(k: number) {
  return {
    k,
    title: `${TOPICS[k % TOPICS.length]} ${PLACES[Math.floor(k / 8) % PLACES.length]}${TAILS[Math.floor(k / 80) % TAILS.length]}`,
    folder: `${2019 + (k % 7)}年/${TOPICS[k % TOPICS.length]}`,
    file: `${PLACES[k % PLACES.length]}_${String(k).padStart(4, "0")}.jpg`,
    channel: CHANNELS[k % CHANNELS.length]!,
    library: LIBRARIES[k % LIBRARIES.length]![0],
    library_name: LIBRARIES[k % LIBRARIES.length]![1],
  };
}

/** The number of the actor of row `i` (the same arithmetic as the SQL's). */
export function actorOfRow(i: number): number {
  const hu = (BigInt(i) * 2654435761n) % 4294967296n;
  return Number(hu % 100n < 20n ? (hu / 100n) % BigInt(BUSY_USERS) : BigInt(BUSY_USERS) + ((hu / 100n) % 4950n));
}

type Dialect = "sqlite" | "postgres";

/** Text of a UUID made from a kind and a number (the kind keeps stories, shares, users… apart). */
function uuidOf(dialect: Dialect, kind: number, n: string): string {
  return dialect === "sqlite"
    ? `printf('00000000-0000-4000-%04x-%012x', ${kind}, ${n})`
    : `('00000000-0000-4000-' || lpad(to_hex(${kind}), 4, '0') || '-' || lpad(to_hex(${n}), 12, '0'))`;
}

/** The SELECT producing rows `from`…`to`, over a series/CTE named `seq(i)`. */
function rowsSelect(dialect: Dialect, count: number, end: number): string {
  const start = end - SPAN_MS;
  const step = Math.floor(SPAN_MS / count);
  const json = dialect === "sqlite" ? "json_object" : "jsonb_build_object";
  const at =
    dialect === "sqlite"
      ? `strftime('%Y-%m-%dT%H:%M:%fZ', (${start} + i * ${step} + ht % ${step}) / 1000.0, 'unixepoch')`
      : `to_timestamp((${start} + i * ${step} + ht % ${step}) / 1000.0)`;
  const actorId = dialect === "sqlite" ? "u.id" : "u.id::uuid";
  const story = "ht % 2000000";
  return `select i as id, ${at} as at,
      case when a.flags like '%s%' then null else ${actorId} end as actor_id,
      case when a.flags like '%s%' then null else u.name end as actor_name,
      '10.' || (u.k / 250) || '.' || (u.k % 250) || '.' || (1 + i % 7) as ip,
      u.ua as user_agent,
      a.action, case a.target_type when 'self' then 'user' else a.target_type end as target_type,
      case a.target_type
        when 'story' then ${uuidOf(dialect, 1, story)}
        when 'share' then ${uuidOf(dialect, 2, "ht % 50000")}
        when 'folder' then ${uuidOf(dialect, 3, "ht % 20000")}
        when 'disk-file' then ${uuidOf(dialect, 4, "ht % 500000")}
        when 'self' then case when a.action = 'signin.failure' then null else u.id end
        when 'user' then u2.id
        when 'route' then r.route
        when 'channel' then 'channel-' || (ht % 20)
        when 'table' then 'log'
        when 'setting' then 'audit.retention'
        else l.library end as target_id,
      case a.target_type
        when 'story' then l.title || ' #' || (${story})
        when 'share' then '分享：' || l.title
        when 'folder' then l.folder
        when 'disk-file' then l.file
        when 'self' then u.name
        when 'user' then u2.name
        when 'route' then r.path
        when 'channel' then l.channel
        when 'table' then 'log'
        when 'setting' then 'retention'
        else l.library_name end as target_label,
      case when a.action = 'signin.failure' then 'failed'
        when a.action like 'http.%' then case when hr % 3 = 0 then 'denied' else 'ok' end
        when hr % 1000 < 8 then 'failed' when hr % 1000 < 12 then 'denied' else 'ok' end as result,
      case when a.flags like '%e%' then ${json}('title', '旧：' || l.title) end as before,
      case when a.flags like '%e%' then ${json}('title', l.title || ' ' || (i % 97)) end as after,
      case when a.flags like '%d%' then ${json}('preset', 'original', 'bytes', ht % 50000000)
        when a.action = 'signin.failure' then ${json}('reason', 'invalid_credentials') end as details
    from (select i, (i * 2654435761) % 4294967296 as hu, (i * 2246822519) % 4294967296 as ht,
            ((i * 3266489917) % 4294967296) / 7 as hr, (i * 40503 + 7) % 1000003 as ha from seq) s
      join bench_users u on u.k = case when hu % 100 < 20 then (hu / 100) % ${BUSY_USERS}
        else ${BUSY_USERS} + (hu / 100) % ${USERS - BUSY_USERS} end
      join bench_actions a on a.slot = ha % 1000
      join bench_labels l on l.k = ht % 500
      join bench_users u2 on u2.k = (ht / 500) % ${USERS}
      join bench_routes r on r.k = case when (ht / 7) % 10 < 6 then 0 else (ht / 7) % 10 end`;
}

function lookups(): { name: string; columns: string[]; rows: (string | number)[][] }[] {
  const slots: (string | number)[][] = [];
  for (const [action, targetType, weight, flags] of ACTIONS) {
    for (let w = 0; w < weight; w++) slots.push([slots.length, action, targetType, flags]);
  }
  if (slots.length !== 1000) throw new Error(`the action weights add up to ${slots.length}, not 1000`);
  const users = Array.from({ length: USERS }, (_, k) => [
    k,
    `00000000-0000-4000-0005-${k.toString(16).padStart(12, "0")}`,
    userName(k),
    AGENTS[k % AGENTS.length]!,
  ]);
  const labels = Array.from({ length: 500 }, (_, k) => Object.values(labelRow(k)));
  const routes = ROUTES.map((route, k) => [k, route, `/dams/api/v1${route.split(" ")[1]!.replace(/:(\w+)/g, "x-$1")}`]);
  return [
    { name: "bench_users", columns: ["k", "id", "name", "ua"], rows: users },
    { name: "bench_actions", columns: ["slot", "action", "target_type", "flags"], rows: slots },
    {
      name: "bench_labels",
      columns: ["k", "title", "folder", "file", "channel", "library", "library_name"],
      rows: labels,
    },
    { name: "bench_routes", columns: ["k", "route", "path"], rows: routes },
  ];
}

const COLUMNS =
  "id, at, actor_id, actor_name, ip, user_agent, action, target_type, target_id, target_label, result, before, after, details";
const SLICE = 1_000_000;

const seconds = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** Seeds `count` rows into a migrated SQLite file; returns what each phase took. */
export function seedSqlite(file: string, count: number, end: number, say: (line: string) => void): void {
  const db = new Sqlite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -262144");
  try {
    for (const table of lookups()) {
      db.exec(
        `create temp table ${table.name} (${table.columns.map((c, i) => `${c}${i === 0 ? " integer primary key" : ""}`).join(", ")})`,
      );
      const insert = db.prepare(`insert into ${table.name} values (${table.columns.map(() => "?").join(", ")})`);
      db.transaction(() => {
        for (const row of table.rows) insert.run(...row);
      })();
    }
    const indexes = db
      .prepare(
        "select name, sql from sqlite_master where type = 'index' and tbl_name = 'audit_log' and sql is not null",
      )
      .all() as { name: string; sql: string }[];
    for (const index of indexes) db.exec(`drop index ${index.name}`);
    let started = performance.now();
    const select = rowsSelect("sqlite", count, end);
    const slice = db.prepare(
      `with recursive seq(i) as (select cast(? as integer) union all select i + 1 from seq where i < cast(? as integer))
       insert into audit_log (${COLUMNS}) ${select}`,
    );
    for (let from = 1; from <= count; from += SLICE) {
      const to = Math.min(count, from + SLICE - 1);
      db.transaction(() => slice.run(from, to))();
      say(`    rows ${from}–${to} inserted (${seconds(started)})`);
    }
    say(`  ${count} rows inserted in ${seconds(started)}`);
    started = performance.now();
    for (const index of indexes) db.exec(index.sql);
    say(`  ${indexes.length} indexes built in ${seconds(started)}`);
    started = performance.now();
    // What the product's maintenance does (DialectAdapter.refreshStatistics): analyse the tables that need it.
    db.exec("pragma optimize=0x10002");
    say(`  statistics (pragma optimize) in ${seconds(started)}`);
  } finally {
    db.close();
  }
}

/** Seeds `count` rows into a migrated PostgreSQL database. */
export async function seedPostgres(url: string, count: number, end: number, say: (line: string) => void) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const table of lookups()) {
      await client.query(
        `create temp table ${table.name} (${table.columns.map((c, i) => `${c} ${i === 0 ? "integer primary key" : "text"}`).join(", ")})`,
      );
      for (let offset = 0; offset < table.rows.length; offset += 1000) {
        const chunk = table.rows.slice(offset, offset + 1000);
        const placeholders = chunk.map(
          (row, r) => `(${row.map((_, c) => `$${r * row.length + c + 1}${c === 0 ? "::integer" : ""}`).join(", ")})`,
        );
        await client.query(`insert into ${table.name} values ${placeholders.join(", ")}`, chunk.flat());
      }
      await client.query(`analyze ${table.name}`);
    }
    const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
      "select indexname, indexdef from pg_indexes where tablename = 'audit_log' and indexname not like '%pkey'",
    );
    for (const index of indexes) await client.query(`drop index ${index.indexname}`);
    let started = performance.now();
    const select = rowsSelect("postgres", count, end).replace(
      "from seq",
      "from generate_series($1::bigint, $2::bigint) as seq(i)",
    );
    for (let from = 1; from <= count; from += SLICE) {
      const to = Math.min(count, from + SLICE - 1);
      await client.query(`insert into audit_log (${COLUMNS}) overriding system value ${select}`, [from, to]);
      say(`    rows ${from}–${to} inserted (${seconds(started)})`);
    }
    await client.query("select setval(pg_get_serial_sequence('audit_log', 'id'), (select max(id) from audit_log))");
    say(`  ${count} rows inserted in ${seconds(started)}`);
    started = performance.now();
    await client.query("set maintenance_work_mem = '512MB'");
    for (const index of indexes) await client.query(index.indexdef);
    say(`  ${indexes.length} indexes built in ${seconds(started)}`);
    started = performance.now();
    await client.query("vacuum analyze audit_log");
    say(`  vacuum analyze in ${seconds(started)}`);
  } finally {
    await client.end();
  }
}
