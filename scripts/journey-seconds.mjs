// Rewrites e2e/journey-seconds.json — the seconds each journey file took — from Playwright JSON reports
// (`npm test` writes one per journey lane and prints where). `npm test` splits the journeys over its lanes by
// these figures, so refresh them when journeys are added or grow: node scripts/journey-seconds.mjs <report.json>…
import fs from "node:fs";
import path from "node:path";
import { root } from "./setup.mjs";

const reports = process.argv.slice(2);
if (reports.length === 0) {
  process.stderr.write("usage: node scripts/journey-seconds.mjs <playwright-report.json>…\n");
  process.exit(2);
}
const target = path.join(root, "e2e/journey-seconds.json");
const seconds = JSON.parse(fs.readFileSync(target, "utf8"));
const measured = {};
const visit = (suite) => {
  for (const spec of suite.specs ?? []) {
    const file = path.basename(spec.file ?? suite.file);
    for (const test of spec.tests ?? []) {
      for (const result of test.results ?? []) measured[file] = (measured[file] ?? 0) + result.duration / 1000;
    }
  }
  for (const child of suite.suites ?? []) visit(child);
};
for (const report of reports)
  for (const suite of JSON.parse(fs.readFileSync(report, "utf8")).suites ?? []) visit(suite);
for (const [file, value] of Object.entries(measured)) seconds[file] = Math.max(1, Math.round(value));
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`);
process.stdout.write(`${Object.keys(measured).length} files measured, written to ${path.relative(root, target)}\n`);
