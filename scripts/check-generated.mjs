// Fails when the committed OpenAPI document or the web client types generated
// from it are stale. `npm run openapi` regenerates both.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { root } from "./setup.mjs";

const openapi = spawnSync("npx", ["tsx", "server/src/scripts/write-openapi.ts", "--check"], {
  cwd: root,
  stdio: "inherit",
});
if (openapi.status !== 0) process.exit(1);

const generated = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dams-api-types-")), "schema.d.ts");
const types = spawnSync("npx", ["openapi-typescript", "server/openapi.json", "-o", generated], {
  cwd: root,
  stdio: "ignore",
});
const committed = path.join(root, "web/src/api/schema.d.ts");
if (
  types.status !== 0 ||
  !fs.existsSync(committed) ||
  fs.readFileSync(generated, "utf8") !== fs.readFileSync(committed, "utf8")
) {
  process.stderr.write("web/src/api/schema.d.ts is stale: run `npm run openapi` and commit the result\n");
  process.exit(1);
}
process.stdout.write("web/src/api/schema.d.ts is up to date\n");
