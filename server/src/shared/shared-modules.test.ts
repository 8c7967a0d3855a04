import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The web app bundles these modules (`@shared/<topic>`, docs/architecture.md):
 * one that imports a package, node:* or server code would carry it into the
 * browser, so they import nothing but each other.
 */
const folder = path.dirname(fileURLToPath(import.meta.url));
const modules = fs.readdirSync(folder).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));
const importFrom = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g;

describe("shared modules", () => {
  it("exist", () => {
    expect(modules.length).toBeGreaterThan(0);
  });

  it.each(modules)("%s imports only its siblings", (name) => {
    const source = fs.readFileSync(path.join(folder, name), "utf8");
    const specifiers = [...source.matchAll(importFrom)].map((match) => match[1] ?? match[2]);
    expect(specifiers.filter((specifier) => !/^\.\/[\w-]+\.js$/.test(specifier ?? ""))).toEqual([]);
  });
});
