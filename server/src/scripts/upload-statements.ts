import fs from "node:fs";
import http from "node:http";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { buildApp } from "../app.js";
import { loadConfig } from "../config.js";
import { type Db, openDatabase } from "../db/database.js";
import { ApiTokensRepository } from "../modules/api-tokens/api-tokens.repository.js";
import { ApiTokensService } from "../modules/api-tokens/api-tokens.service.js";
import { UsersRepository } from "../modules/users/users.repository.js";
import { UsersService } from "../modules/users/users.service.js";

/**
 * The SQL statements and the time of one small tus upload (creation-with-upload,
 * a corpus JPEG) through the whole app on SQLite: the statements of the fifth
 * upload are printed, and the mean time over the next ones.
 *
 *   tsx server/src/scripts/upload-statements.ts [count]
 */
const count = Number(process.argv[2] ?? 50);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-upload-statements-"));
const config = loadConfig({ DAMS_DATA_DIR: dataDir, DAMS_LOG_LEVEL: "warn", DAMS_WORKERS: "0", HOST: "127.0.0.1" });
let capturing: string[] | undefined;
/** Milliseconds per SQL text over the timed uploads. */
let timing: Map<string, { count: number; ms: number }> | undefined;
const db: Db = openDatabase(config.database, {
  log(event) {
    if (event.level === "query" && capturing) capturing.push(event.query.sql);
    if (timing) {
      const entry = timing.get(event.query.sql) ?? { count: 0, ms: 0 };
      entry.count++;
      entry.ms += event.queryDurationMillis;
      timing.set(event.query.sql, entry);
    }
  },
});
await db.migrateToLatest();
const app = await buildApp({ config, db, logger: false });
const user = await new UsersService(new UsersRepository(db)).createUser({
  username: "counter",
  password: "counter-password-1",
  roleId: "contributor",
});
const { secret } = await new ApiTokensService(new ApiTokensRepository(db)).create(user.id, { name: "counter" });
await app.listen({ port: 0, host: "127.0.0.1" });
const port = (app.server.address() as { port: number }).port;
// The corpus JPEGs in turn, as the ingest bench sends them (one photo over and over would make every upload
// a duplicate of all the earlier ones, and the duplicates' lookup the cost).
const corpus = path.resolve(import.meta.dirname, "../../../../shared/corpus/exif-samples/jpg");
const photos = fs
  .readdirSync(corpus, { recursive: true, encoding: "utf8" })
  .filter((name) => /\.jpe?g$/i.test(name))
  .sort()
  .map((name) => fs.readFileSync(path.join(corpus, name)))
  .filter((bytes) => bytes[0] === 0xff && bytes[1] === 0xd8);
let sent = 0;
const agent = new http.Agent({ keepAlive: true });

function upload(name: string): Promise<number> {
  const photo = photos[sent++ % photos.length]!;
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/dams/api/v1/uploads",
        method: "POST",
        agent,
        headers: {
          authorization: `Bearer ${secret}`,
          "tus-resumable": "1.0.0",
          "upload-length": String(photo.length),
          "upload-metadata": `filename ${Buffer.from(name).toString("base64")}`,
          "content-type": "application/offset+octet-stream",
          "content-length": String(photo.length),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end(photo);
  });
}

try {
  for (let i = 0; i < 5; i++) {
    capturing = [];
    const status = await upload(`warm${i}.jpg`);
    if (status !== 201) throw new Error(`upload answered ${status}`);
  }
  const statements = capturing ?? [];
  capturing = undefined;
  process.stdout.write(`${statements.length} statements for one upload:\n`);
  for (const sql of statements) process.stdout.write(`  ${sql.slice(0, 160)}\n`);
  const profileTo = process.env.PROFILE_TO;
  const session = new Session();
  if (profileTo) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  }
  timing = new Map();
  const started = performance.now();
  for (let i = 0; i < count; i++) await upload(`p${i}.jpg`);
  process.stdout.write(
    `${count} uploads one at a time: ${((performance.now() - started) / count).toFixed(2)} ms each\n`,
  );
  const started4 = performance.now();
  const queue = Array.from({ length: count }, (_, i) => i);
  await Promise.all(
    [0, 1, 2, 3].map(async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) await upload(`q${i}.jpg`);
    }),
  );
  process.stdout.write(
    `${count} uploads 4 at a time: ${((performance.now() - started4) / count).toFixed(2)} ms each\n`,
  );
  const sqlMs = [...timing.values()].reduce((sum, entry) => sum + entry.ms, 0);
  process.stdout.write(`SQL: ${(sqlMs / (2 * count)).toFixed(2)} ms per upload; the costliest statements:\n`);
  for (const [sql, entry] of [...timing].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12))
    process.stdout.write(`  ${(entry.ms / (2 * count)).toFixed(3)} ms/upload ${entry.count}x ${sql.slice(0, 110)}\n`);
  timing = undefined;
  if (profileTo) {
    const { profile } = await session.post("Profiler.stop");
    fs.writeFileSync(profileTo, JSON.stringify(profile));
  }
} finally {
  agent.destroy();
  await app.close();
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
