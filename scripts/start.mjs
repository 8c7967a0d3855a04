// `npm start`: set up what is missing, then serve dams on its embedded
// defaults (SQLite and blobs under DAMS_DATA_DIR, default ./data; port PORT,
// default 8080). Migrations and the first administrator happen in `dams serve`.
import { spawn } from "node:child_process";
import path from "node:path";
import { SERVER_NODE_FLAGS } from "./node-flags.mjs";
import { log, root, setup } from "./setup.mjs";

try {
  setup();
} catch (error) {
  log(`set-up failed: ${error.message}`);
  process.exit(1);
}

const port = process.env.PORT ?? "8080";
log(`starting on http://localhost:${port} (data in ${path.resolve(process.env.DAMS_DATA_DIR ?? "./data")})`);
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, "server/dist/cli.js"), "serve"], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
