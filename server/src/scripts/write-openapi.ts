import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp } from "../app.js";
import { loadConfig } from "../config.js";
import { openDatabase } from "../db/database.js";

/**
 * Writes server/openapi.json from the route schemas (or, with --check,
 * fails when the committed copy is stale). The app reads its shared keys
 * from the database when it is built, so a throw-away SQLite file is migrated
 * and serves.
 */
const check = process.argv.includes("--check");
const target = path.resolve(import.meta.dirname, "../../openapi.json");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-openapi-"));
const config = loadConfig({ DAMS_DATA_DIR: dataDir, DAMS_WEB_DIR: path.join(dataDir, "no-web") });
const db = openDatabase(config.database);
await db.migrateToLatest();
const app = await buildApp({ config, db, logger: false });
await app.ready();
const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
await app.close();
await db.close();
fs.rmSync(dataDir, { recursive: true, force: true });

if (check) {
  const committed = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : "";
  if (committed !== document) {
    process.stderr.write("server/openapi.json is stale: run `npm run openapi` and commit the result\n");
    process.exit(1);
  }
  process.stdout.write("server/openapi.json is up to date\n");
} else {
  fs.writeFileSync(target, document);
  process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
}
