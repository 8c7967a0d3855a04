import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { databaseUrl, describeEachDialect, useTestDb } from "../../test/dialects.js";
import { eventually } from "../../test/eventually.js";
import { freePort } from "../../test/ports.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { type UploadOutcome, uploadIngestKey } from "./uploads.service.js";
import {
  CORPUS,
  createUpload,
  patchHeaders,
  type RunningApp,
  sha256,
  startApp,
  storedBytes,
  temporaryDataDir,
  tusHeaders,
} from "./uploads.test-support.js";

const cli = path.resolve(import.meta.dirname, "../../cli.ts");
const canon = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));
const nokia = fs.readFileSync(path.join(CORPUS, "jpg/mobile/HMD_Nokia_8.3_5G.jpg"));
/** A `dams serve` child (tsx compiling the app) takes tens of seconds to start on a loaded 2-core machine. */
const CHILD_TEST_MS = 240_000;

/**
 * Issue 14 item 4: a server killed (SIGKILL) after an upload's last byte and
 * before its story must not leave an upload that looks complete and never
 * becomes a story. The child is `dams serve` with DAMS_TEST_CRASH_AFTER_UPLOAD_BYTES=1
 * (honoured only under NODE_ENV=test): it kills itself in onUploadFinish,
 * when the bytes are written and nothing is recorded yet.
 */
describeEachDialect("uploads across a crash after the last byte", (dialect) => {
  const db = useTestDb(dialect);
  const dataDir = temporaryDataDir();
  const children: ChildProcess[] = [];
  let alice: TestPrincipal;
  let running: RunningApp | undefined;

  beforeAll(async () => {
    alice = await createPrincipal(db(), { username: "alice", roleId: "contributor" });
  });
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    await running?.app.close();
    running = undefined;
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  /**
   * `dams serve` (no workers) on the test's database and data dir, ready when it says so; by default it
   * kills itself after an upload's last byte.
   */
  async function startDoomedServer({ crashAfterLastByte = true } = {}): Promise<{ child: ChildProcess; base: string }> {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "test",
      DATABASE_URL: await databaseUrl(db()),
      DAMS_DATA_DIR: dataDir,
      DAMS_WEB_DIR: path.join(dataDir, "web"),
      DAMS_LOG_LEVEL: "info",
      DAMS_TEST_CRASH_AFTER_UPLOAD_BYTES: crashAfterLastByte ? "1" : "0",
      PORT: String(port),
      HOST: "127.0.0.1",
    };
    const child = spawn(process.execPath, ["--import", "tsx", cli, "serve", "--no-workers"], {
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    let output = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("job workers off")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`dams serve exited with ${code} before it was ready:\n${output}`)));
    });
    return { child, base: `http://127.0.0.1:${port}` };
  }

  /** Creates an upload on the doomed server and sends all its bytes; the server dies before answering. */
  async function uploadIntoCrash(file: Buffer, filename: string): Promise<{ url: string; id: string }> {
    const { child, base } = await startDoomedServer();
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once("exit", (_code, signal) => resolve(signal)),
    );
    const url = await createUpload(base, alice.token, file.length, { filename, libraryId: "product" });
    const patch = await fetch(url, {
      method: "PATCH",
      headers: patchHeaders(alice.token, 0),
      body: new Uint8Array(file),
    }).then(
      (response) => response.status,
      () => "no answer",
    );
    expect(patch).toBe("no answer");
    expect(await exited).toBe("SIGKILL");
    const id = new URL(url).pathname.split("/").pop()!;
    // The crash left every byte staged and nothing recorded.
    expect(fs.statSync(path.join(dataDir, "uploads", id)).size).toBe(file.length);
    expect(await storiesOf(id)).toEqual([]);
    return { url: new URL(url).pathname, id };
  }

  /** The stories the upload `id` made (by its ingest key), and every story holding a file with its bytes. */
  async function storiesOf(id: string): Promise<string[]> {
    const keyed = await db()
      .kysely.selectFrom("ingest_keys")
      .select("story_id")
      .where("key", "=", uploadIngestKey(alice.id, id))
      .execute();
    return keyed.map((row) => row.story_id);
  }

  async function storiesWithBytes(file: Buffer): Promise<string[]> {
    const rows = await db()
      .kysely.selectFrom("story_files")
      .innerJoin("blobs", "blobs.key", "story_files.blob_key")
      .select("story_files.story_id")
      .distinct()
      .where("blobs.sha256", "=", sha256(file))
      .execute();
    return rows.map((row) => row.story_id);
  }

  async function head(base: string, url: string): Promise<Response> {
    return fetch(`${base}${url}`, { method: "HEAD", headers: tusHeaders(alice.token) });
  }

  it(
    "on restart the finished upload becomes exactly one story; HEAD then says complete; maintenance adds none",
    async () => {
      const { url, id } = await uploadIntoCrash(canon, "crash.jpg");

      running = await startApp(db(), dataDir);
      const made = await eventually(
        () => storiesOf(id),
        (stories) => stories.length > 0,
        { limitMs: 60_000 },
      );
      expect(made).toHaveLength(1);
      expect(await storiesWithBytes(canon)).toEqual(made);
      // The staged bytes go once the story is recorded (just after it: waited for, not assumed).
      const staged = path.join(dataDir, "uploads", id);
      expect(
        await eventually(
          async () => fs.existsSync(staged),
          (exists) => !exists,
          { limitMs: 60_000 },
        ),
      ).toBe(false);

      // The client resuming asks HEAD: complete, with the length it sent, and it sends nothing again.
      const answer = await head(running.base, url);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("upload-offset")).toBe(String(canon.length));
      expect(answer.headers.get("upload-length")).toBe(String(canon.length));
      // Another user asking about it learns nothing.
      const bob = await createPrincipal(db(), { username: `bob-${dialect}`, roleId: "contributor" });
      const foreign = await fetch(`${running.base}${url}`, { method: "HEAD", headers: tusHeaders(bob.token) });
      expect(foreign.status).toBe(404);

      // The periodic pass (maintenance) and a second HEAD make no second story.
      expect(await running.app.uploads.service.completeStranded()).toEqual({ completed: [], failed: [] });
      expect((await head(running.base, url)).status).toBe(200);
      expect(await storiesWithBytes(canon)).toEqual(made);
    },
    CHILD_TEST_MS,
  );

  it(
    "a HEAD that finds every byte but no story completes the upload before it answers complete",
    async () => {
      const { url, id } = await uploadIntoCrash(nokia, "crash-head.jpg");

      running = await startApp(db(), dataDir);
      // At once after the restart: whether the start-up pass or this HEAD gets there first, the answer
      // "complete" is only given once the story is recorded.
      const answer = await head(running.base, url);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("upload-offset")).toBe(String(nokia.length));
      expect(await storiesOf(id)).toHaveLength(1);
      await eventually(
        () => running!.app.uploads.service.completeStranded(),
        (result) => result.completed.length === 0 && result.failed.length === 0,
      );
      expect(await storiesWithBytes(nokia)).toEqual(await storiesOf(id));
    },
    CHILD_TEST_MS,
  );

  it(
    "an upload answered 201 survives a kill -9 right after the answer: its story, its bytes, nothing left staged",
    async () => {
      const { child, base } = await startDoomedServer({ crashAfterLastByte: false });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.once("exit", (_code, signal) => resolve(signal)),
      );
      const bytes = Buffer.concat([nokia, Buffer.from("acknowledged")]);
      const answer = await fetch(`${base}/dams/api/v1/uploads`, {
        method: "POST",
        headers: tusHeaders(alice.token, {
          "upload-length": String(bytes.length),
          "upload-metadata": `filename ${Buffer.from("acked.jpg").toString("base64")}`,
          "content-type": "application/offset+octet-stream",
        }),
        body: new Uint8Array(bytes),
      });
      expect(answer.status).toBe(201);
      const { upload, result } = ((await answer.json()) as { data: UploadOutcome }).data;
      // Killed the moment the client has its answer: nothing the server did after it may be needed.
      child.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");

      running = await startApp(db(), dataDir);
      expect(await storiesOf(upload.id)).toEqual([result.storyId]);
      expect(await storiesWithBytes(bytes)).toEqual([result.storyId]);
      expect(sha256(await storedBytes(running, upload.blobKey))).toBe(sha256(bytes));
      expect(fs.existsSync(path.join(dataDir, "uploads", upload.id))).toBe(false);
      expect(await running.app.uploads.service.completeStranded()).toEqual({ completed: [], failed: [] });
    },
    CHILD_TEST_MS,
  );

  it("completing the same staged upload twice (a crash after the story, before the staged bytes went) gives one story", async () => {
    running = await startApp(db(), dataDir);
    const { service, staging } = running.app.uploads;
    const bytes = Buffer.concat([canon, Buffer.from("twice")]);
    const url = await createUpload(running.base, alice.token, bytes.length, { filename: "twice.jpg" });
    const id = new URL(url).pathname.split("/").pop()!;
    // Every byte staged, as tus writes them, and no completion yet (the datastore directly, not the hook).
    const { Readable } = await import("node:stream");
    await staging.datastore.write(Readable.from([bytes]), id, 0);
    const finished = await staging.finishedUpload(id);
    expect(finished).toBeDefined();
    // The staged bytes survive a completion whose clean-up a crash prevented: copy them aside and put them back.
    const staged = path.join(dataDir, "uploads", id);
    const info = `${staged}.json`;
    const saved = { bytes: fs.readFileSync(staged), info: fs.readFileSync(info) };
    const first = await service.completeStaged(id);
    expect(first).toBeDefined();
    fs.writeFileSync(staged, saved.bytes);
    fs.writeFileSync(info, saved.info);
    const second = await service.completeStaged(id);
    expect(second).toMatchObject({ result: (first as { result: unknown }).result });
    expect(fs.existsSync(staged)).toBe(false);
    expect(await storiesWithBytes(bytes)).toHaveLength(1);
  });
});
