import fs from "node:fs";
import path from "node:path";

/** The version in server/package.json, read once. */
export const version: string = (
  JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8")) as { version: string }
).version;
