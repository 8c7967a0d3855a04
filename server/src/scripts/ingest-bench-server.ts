import fs from "node:fs";
import path from "node:path";
import { buildApp } from "../app.js";
import { loadConfig } from "../config.js";
import { openDatabase } from "../db/database.js";
import { ApiTokensRepository } from "../modules/api-tokens/api-tokens.repository.js";
import { ApiTokensService } from "../modules/api-tokens/api-tokens.service.js";
import { UsersRepository } from "../modules/users/users.repository.js";
import { UsersService } from "../modules/users/users.service.js";

/**
 * The dams side of bench/ingest.bench.ts: the whole app on a fresh data dir
 * (SQLite, local blobs), a user with an API token, listening on the given
 * port. Prints `{ "token": … }` once it listens.
 *
 *   tsx server/src/scripts/ingest-bench-server.ts <port> <data dir>
 */
const [port, dataDir] = process.argv.slice(2);
if (!port || !dataDir) throw new Error("usage: ingest-bench-server.ts <port> <data dir>");
fs.mkdirSync(dataDir, { recursive: true });
const config = loadConfig({
  PORT: port,
  HOST: "127.0.0.1",
  DAMS_DATA_DIR: dataDir,
  DAMS_WEB_DIR: path.join(dataDir, "no-web"),
  DAMS_LOG_LEVEL: "warn",
  DAMS_UPLOAD_MAX_BYTES: String(4 * 1024 ** 3),
});
const db = openDatabase(config.database);
await db.migrateToLatest();
const app = await buildApp({ config, db });
const user = await new UsersService(new UsersRepository(db)).createUser({
  username: "bench",
  password: "bench-password-1",
  roleId: "contributor",
});
const { secret } = await new ApiTokensService(new ApiTokensRepository(db)).create(user.id, { name: "bench" });
await app.listen({ port: config.port, host: config.host });
process.stdout.write(`${JSON.stringify({ token: secret })}\n`);
process.on("SIGTERM", () => {
  void app.close().then(() => db.close().then(() => process.exit(0)));
});
