// `npm test`: the start command's set-up, then every check and test suite:
// lint, type-check, generated-file freshness, server tests on SQLite and
// PostgreSQL (and Ceph RGW, started here), web unit tests, the multi-node
// test, and the end-to-end journeys in Chromium.
// Ends with one line `N passed, N failed` summing all suites.
//
// The server suite and the journeys wait on PostgreSQL, fsync, media tools and
// the browser far more than they compute (the machine's load stayed at 1.2–2.1
// on 2 cores during the server suite when it ran alone), so after the quick
// checks they run side by side in lanes: the server suite and then the web unit
// tests in one, the journeys in the other — or split by their recorded lengths
// over several Playwright processes (DAMS_E2E_LANES), each with its own server. The multi-node test, which starts a whole topology, runs alone after
// them. Each lane's output lines carry its name.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { killRgwNow, startRgw, stopRgw } from "./ceph-rgw.mjs";
import { log, root, setup } from "./setup.mjs";

const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-test-report-"));
const results = [];

function record(name, started, status, options) {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const counts = options.counts?.() ?? (status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 });
  // A runner that crashed before reporting still counts as a failure.
  if (status !== 0 && counts.failed === 0) counts.failed = 1;
  results.push({ name, seconds, ...counts });
}

function step(name, command, args, options = {}) {
  log(`── ${name}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...options.env } });
  record(name, started, result.status, options);
}

/** A step whose output lines are written as they come, each prefixed with `[lane]`. */
function laneStep(lane, name, command, args, options = {}) {
  log(`── [${lane}] ${name}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: "0", ...options.env },
    });
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let pending = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk) => {
        const lines = (pending + chunk).split("\n");
        pending = lines.pop();
        for (const line of lines) out.write(`[${lane}] ${line}\n`);
      });
      stream.on("end", () => {
        if (pending) out.write(`[${lane}] ${pending}\n`);
      });
    }
    child.on("close", (status) => {
      record(name, started, status ?? 1, options);
      log(`── [${lane}] ${name} ended (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      resolve();
    });
  });
}

function vitestCounts(file) {
  return () => {
    if (!fs.existsSync(file)) return { passed: 0, failed: 0 };
    const report = JSON.parse(fs.readFileSync(file, "utf8"));
    const failures = report.testResults.flatMap((fileResult) =>
      fileResult.assertionResults
        .filter((test) => test.status === "failed")
        .map((test) => ({
          title: `${path.relative(root, fileResult.name)} › ${test.fullName}`,
          message: test.failureMessages?.[0] ?? fileResult.message ?? "",
        })),
    );
    // A file that failed to load has no failed test but a message.
    for (const fileResult of report.testResults) {
      if (fileResult.status === "failed" && fileResult.assertionResults.every((test) => test.status !== "failed")) {
        failures.push({ title: path.relative(root, fileResult.name), message: fileResult.message ?? "" });
      }
    }
    return {
      passed: report.numPassedTests,
      failed: report.numFailedTests,
      skipped: report.numPendingTests,
      failures,
    };
  };
}

function playwrightCounts(file) {
  return () => {
    if (!fs.existsSync(file)) return { passed: 0, failed: 0 };
    const { stats, suites } = JSON.parse(fs.readFileSync(file, "utf8"));
    const failures = [];
    const visit = (suite, titles) => {
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          if (test.status !== "unexpected") continue;
          const error = test.results?.at(-1)?.error?.message ?? "";
          failures.push({ title: [...titles, spec.title].join(" › "), message: error });
        }
      }
      for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
    };
    for (const suite of suites ?? []) visit(suite, [suite.title]);
    return {
      failures,
      passed: stats.expected + stats.flaky,
      failed: stats.unexpected,
      skipped: stats.skipped,
      flaky: stats.flaky,
    };
  };
}

try {
  setup({ browser: true, testServers: true });
} catch (error) {
  log(`set-up failed: ${error.message}`);
  process.stdout.write("0 passed, 1 failed\n");
  process.exit(1);
}

// A real S3 server (Ceph RGW) for the tests that need one; stopped at the end, however the run ends.
log("── Ceph RGW (S3) for the storage tests");
let rgw;
try {
  const started = Date.now();
  // 3 GiB of memory store: the multi-node test's 200 MB upload and video go to this RGW too.
  rgw = await startRgw({ memoryMiB: 3072 });
  process.on("exit", () => killRgwNow(rgw.dir));
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));
  Object.assign(process.env, {
    DAMS_TEST_S3_ENDPOINT: rgw.endpoint,
    DAMS_TEST_S3_ACCESS_KEY_ID: rgw.accessKeyId,
    DAMS_TEST_S3_SECRET_ACCESS_KEY: rgw.secretAccessKey,
    DAMS_TEST_RGW_DIR: rgw.dir,
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  log(`RGW answers at ${rgw.endpoint} (${seconds} s)`);
  results.push({ name: "Ceph RGW started", seconds, passed: 1, failed: 0 });
} catch (error) {
  log(`Ceph RGW did not start: ${error.message}`);
  results.push({ name: "Ceph RGW started", seconds: "0", passed: 0, failed: 1 });
}

step("lint and format (biome)", "npx", ["biome", "check", "."]);
step("type-check (tsc --noEmit, every workspace)", "npm", ["run", "typecheck", "--workspaces", "--if-present"]);
step("OpenAPI document and web client types are current", "node", ["scripts/check-generated.mjs"]);

/** Whether something can listen on `port` now. */
function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A port nothing listens on now, nor on the port 1000 above it (the embed journey's host page), so a
 * journeys' server never meets another one.
 */
async function freeJourneyPort(taken) {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    if (taken.has(port) || taken.has(port + 1000) || taken.has(port - 1000)) continue;
    if ((await portIsFree(port)) && (await portIsFree(port + 1000))) return port;
  }
}

/**
 * The journeys' spec files split into `count` groups of about equal length, by the seconds each took in a
 * recorded run (e2e/journey-seconds.json; a file not in it counts as the median). Each group runs in its own
 * Playwright process with its own server, data dir and port, so no journey sees another group's settings.
 */
function journeyGroups(count) {
  const recorded = JSON.parse(fs.readFileSync(path.join(root, "e2e/journey-seconds.json"), "utf8"));
  const known = Object.values(recorded).sort((a, b) => a - b);
  const median = known[Math.floor(known.length / 2)] ?? 60;
  const files = fs
    .readdirSync(path.join(root, "e2e/tests"))
    .filter((file) => file.endsWith(".spec.ts"))
    .map((file) => ({ file, seconds: recorded[file] ?? median }))
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
  const groups = Array.from({ length: count }, () => ({ files: [], seconds: 0 }));
  for (const spec of files) {
    const lightest = groups.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    lightest.files.push(spec.file);
    lightest.seconds += spec.seconds;
  }
  return groups.filter((group) => group.files.length > 0);
}

const serverReport = path.join(reportDir, "server.json");
const webReport = path.join(reportDir, "web.json");
// One journey process unless DAMS_E2E_LANES asks for more (always one when E2E_PORT names the port): two
// have not yet been measured on a quiet machine (docs/decisions.md).
const journeyLaneCount = process.env.E2E_PORT ? 1 : Number(process.env.DAMS_E2E_LANES ?? 1);
const takenPorts = new Set();
const journeyLanes = [];
for (const [index, group] of journeyGroups(journeyLaneCount).entries()) {
  const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freeJourneyPort(takenPorts);
  takenPorts.add(port);
  const lane = journeyLaneCount === 1 ? "e2e" : `e2e${index + 1}`;
  const report = path.join(reportDir, `${lane}.json`);
  journeyLanes.push(
    laneStep(
      lane,
      `end-to-end journeys in Chromium (${group.files.length} files, ~${Math.round(group.seconds)} s recorded)`,
      "npx",
      ["playwright", "test", "--config", "e2e/playwright.config.ts", ...group.files.map((file) => `e2e/tests/${file}`)],
      {
        env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report, E2E_PORT: String(port), E2E_OUTPUT_DIR: `test-results/${lane}` },
        counts: playwrightCounts(report),
      },
    ),
  );
}

// The journeys are the longest lanes, so they start at once; the web unit tests follow the server suite.
await Promise.all([
  (async () => {
    await laneStep(
      "server",
      "server unit and integration tests (SQLite and PostgreSQL)",
      "npx",
      [
        "vitest",
        "run",
        "--root",
        "server",
        "--reporter=default",
        "--reporter=json",
        `--outputFile.json=${serverReport}`,
      ],
      { counts: vitestCounts(serverReport) },
    );
    await laneStep(
      "web",
      "web unit tests",
      "npx",
      ["vitest", "run", "--root", "web", "--reporter=default", "--reporter=json", `--outputFile.json=${webReport}`],
      { counts: vitestCounts(webReport) },
    );
  })(),
  ...journeyLanes,
]);

const scaleOutReport = path.join(reportDir, "scale-out.json");
step(
  "multi-node test (PostgreSQL, Ceph RGW, 2 API nodes and 2 workers behind HAProxy)",
  "npx",
  [
    "vitest",
    "run",
    "--config",
    "vitest.scale-out.config.ts",
    "--root",
    "server",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${scaleOutReport}`,
  ],
  { counts: vitestCounts(scaleOutReport) },
);

if (rgw) await stopRgw(rgw.dir);

let passed = 0;
let failed = 0;
log("── summary");
for (const result of results) {
  passed += result.passed;
  failed += result.failed;
  const skipped =
    (result.skipped ? `, ${result.skipped} skipped` : "") +
    (result.flaky ? `, ${result.flaky} flaky (passed on the second try)` : "");
  log(
    `${result.failed ? "FAIL" : "ok  "} ${result.name}: ${result.passed} passed, ${result.failed} failed${skipped} (${result.seconds} s)`,
  );
}
// The failed tests again at the very end, so that a log read from its tail names them.
const failures = results.flatMap((result) => result.failures ?? []);
if (failures.length > 0) {
  log("── failed tests");
  for (const failure of failures.slice(0, 30)) {
    const message = stripVTControlCharacters(failure.message).split("\n").slice(0, 6).join("\n      ");
    log(`FAIL ${failure.title}\n      ${message}`);
  }
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
