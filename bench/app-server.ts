import { randomUUID } from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { buildApp } from "../server/src/app.js";
import { loadConfig } from "../server/src/config.js";
import { openDatabase } from "../server/src/db/database.js";
import { ApiTokensRepository } from "../server/src/modules/api-tokens/api-tokens.repository.js";
import { ApiTokensService } from "../server/src/modules/api-tokens/api-tokens.service.js";
import { buildSearch } from "../server/src/modules/search/search.compose.js";
import { UsersRepository } from "../server/src/modules/users/users.repository.js";
import { UsersService } from "../server/src/modules/users/users.service.js";

export interface BenchServer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** A personal API token of an administrator: the web app takes it from `#access_token=`. */
  token: string;
  close(): Promise<void>;
}

const TYPES = ["photo", "video", "audio", "composite"] as const;
const WORDS = ["台风", "两会", "发布会", "上海", "press", "typhoon", "election", "summit", "flood", "market"];

/**
 * The app as `dams serve` runs it (API + the built web app from web/dist, or
 * BENCH_WEB_DIR), on
 * a fresh SQLite data dir, workers off, with `stories` generated stories
 * inserted straight into the database (no media files: thumbnails are absent
 * and the grid shows each type's icon).
 */
export async function startBenchServer(stories: number): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-web-"));
  const config = loadConfig({
    DAMS_DATA_DIR: dataDir,
    DAMS_LOG_LEVEL: "silent",
    DAMS_WORKERS: "0",
    // Another build of the web app (to compare with an earlier commit's); web/dist by default.
    ...(process.env.BENCH_WEB_DIR ? { DAMS_WEB_DIR: process.env.BENCH_WEB_DIR } : {}),
  });
  const db = openDatabase(config.database);
  await db.migrateToLatest();
  const users = new UsersService(new UsersRepository(db));
  const user = await users.createUser({ username: "bench", password: "bench-password-1", admin: true });
  const { secret } = await new ApiTokensService(new ApiTokensRepository(db)).create(user.id, { name: "bench" });

  const started = performance.now();
  const batch = 500;
  for (let offset = 0; offset < stories; offset += batch) {
    const rows = [];
    for (let i = offset; i < Math.min(stories, offset + batch); i++) {
      const created = new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString();
      const word = WORDS[i % WORDS.length]!;
      rows.push({
        id: randomUUID(),
        library_id: i % 10 < 7 ? "product" : "material",
        folder_id: null,
        type: TYPES[i % TYPES.length]!,
        half_product: false,
        status: "committed" as const,
        title: `${word} ${i}`,
        caption: `${word} story number ${i}`,
        authors: JSON.stringify([i % 2 ? "张三" : "Alice Chen"]),
        source: "新华社",
        keywords: JSON.stringify([word]),
        tags: JSON.stringify([]),
        theme: null,
        category: null,
        properties: JSON.stringify({}),
        oid: randomUUID(),
        version_no: 1,
        cover_key: null,
        content_sha256: null,
        perceptual_hash: null,
        width: 4000,
        height: 3000,
        duration: null,
        size: 1_000_000 + i,
        mime: "image/jpeg",
        original_name: `IMG_${i}.jpg`,
        captured_at: created,
        gps: null,
        processing_state: "done" as const,
        processing_error: null,
        created_by: user.id,
        created_at: created,
        updated_by: user.id,
        updated_at: created,
      });
    }
    await db.kysely.insertInto("stories").values(rows).execute();
  }
  if (stories > 0) {
    await buildSearch(db).service.rebuild(1000);
    console.log(`  seeded ${stories} stories in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }

  const app = await buildApp({ config, db, logger: false });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    base,
    token: secret,
    async close() {
      await app.close();
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
