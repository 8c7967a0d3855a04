import fs from "node:fs";

/** Removes the run's temporary data dir (the config made it; a dir given through E2E_DATA_DIR is kept). */
export default function globalTeardown(): void {
  const dir = process.env.E2E_DATA_DIR;
  if (dir && process.env.E2E_DATA_DIR_TEMPORARY === "1") fs.rmSync(dir, { recursive: true, force: true });
}
