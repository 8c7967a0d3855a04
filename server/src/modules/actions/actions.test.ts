import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditSince, lastAuditId } from "../../test/audit.js";
import { describeEachDialect } from "../../test/dialects.js";
import { until } from "../../test/eventually.js";
import { jpegPhotoPreset } from "../../test/preset-bodies.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, FAST_JOBS_ENV, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { type HttpReceiver, startHttpReceiver } from "../channels/test-support/http-receiver.js";

const SECRET = "action-webhook-secret";
/** The test hooks and receivers listen on loopback. */
const FAST_JOBS = { ...FAST_JOBS_ENV, DAMS_CHANNEL_ALLOW_PRIVATE: "127.0.0.1/32" };

interface RunRow {
  id: string;
  state: string;
  storyId: string;
  trigger: string;
  steps: { kind: string; ok: boolean; detail: string; attempts?: number }[];
  error: string | null;
  durationMs: number | null;
}

describeEachDialect("automation actions", (dialect) => {
  const ctx = useStoriesApp(dialect, { env: FAST_JOBS });
  const call = api(ctx);
  let admin: TestPrincipal;
  let editor: TestPrincipal;
  let receiver: HttpReceiver;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "dams-actions-"));

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "actions-admin", roleId: "administrator", admin: true });
    editor = await createPrincipal(ctx().db, { username: "actions-editor", roleId: "editor" });
    receiver = await startHttpReceiver(SECRET);
  });
  afterAll(async () => {
    await receiver.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  async function created(path: string, body: object): Promise<string> {
    const response = await call(admin, "POST", path, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.id as string;
  }

  async function draft(title: string, options: { libraryId?: string; bytes?: Buffer } = {}) {
    const { story } = await uploadStory(ctx(), editor, {
      libraryId: options.libraryId ?? "product",
      bytes: options.bytes ?? `bytes of ${title}`,
      name: `${title}.jpg`,
    });
    return story.id as string;
  }

  /** Idempotent: the first test starts it itself, after checking a commit does not run rules inline. */
  const startWorker = () => ctx().app.jobs.worker.start();

  async function commit(storyId: string, metadata: object, libraryId = "product") {
    const response = await call(editor, "POST", "/workflow-story-create/photo/commit", {
      libraryId,
      storyIds: [storyId],
      metadata,
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  const runsOf = async (ruleId: string): Promise<RunRow[]> => {
    const response = await call(admin, "GET", `/action-rules/${ruleId}/runs?size=100`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.content;
  };
  const finishedRun = (ruleId: string, storyId: string) =>
    until(
      async () => {
        const run = (await runsOf(ruleId)).find((one) => one.storyId === storyId);
        return run && ["succeeded", "failed"].includes(run.state) ? run : undefined;
      },
      `the run of rule ${ruleId} on story ${storyId}`,
      60_000,
    );
  const storyOf = async (storyId: string) => (await ctx().module.queries.findMany([storyId]))[0]!;

  it("a commit only enqueues the evaluation: the rule runs in a worker afterwards and applies its template", async () => {
    const before = await lastAuditId(ctx().db);
    const templateId = await created("/metadata-templates", {
      name: "desk template",
      values: { source: "{user} desk", tags: ["auto-tagged"], keywords: ["自动"] },
    });
    const ruleId = await created("/action-rules", {
      name: "template on product commits",
      trigger: "committed",
      conditions: { libraryIds: ["product"] },
      steps: [{ kind: "template", templateId }],
    });
    const otherLibrary = await created("/action-rules", {
      name: "material commits only",
      trigger: "committed",
      conditions: { libraryIds: ["material"] },
      steps: [{ kind: "template", templateId }],
    });
    const audited = await auditSince(ctx().db, before);
    expect(audited.filter((row) => row.action === "action-rule.create").map((row) => row.targetId)).toEqual([
      ruleId,
      otherLibrary,
    ]);

    // The worker is not running yet: the commit returns with the rule not run.
    const storyId = await draft("inline check");
    await commit(storyId, { title: "提交后自动模板" });
    const story = await storyOf(storyId);
    expect(story.status).toBe("committed");
    expect(story.source).toBeNull();
    expect(await runsOf(ruleId)).toEqual([]);
    const queued = await ctx()
      .db.kysely.selectFrom("jobs")
      .select(["payload", "state"])
      .where("name", "=", "actions.evaluate")
      .execute();
    expect(queued.some((job) => JSON.stringify(job.payload).includes(storyId))).toBe(true);

    ctx().app.jobs.worker.start();
    const run = await finishedRun(ruleId, storyId);
    expect(run, run.error ?? "").toMatchObject({ state: "succeeded", trigger: "committed" });
    expect(run.steps).toEqual([{ kind: "template", ok: true, detail: expect.stringContaining("source") }]);
    expect(run.durationMs).toBeGreaterThanOrEqual(0);
    const applied = await storyOf(storyId);
    expect(applied.source).toBe("actions-admin desk");
    expect(applied.tags).toContain("auto-tagged");
    expect(applied.keywords).toContain("自动");
    expect(applied.title).toBe("提交后自动模板");
    // The other library's rule did not match.
    expect(await runsOf(otherLibrary)).toEqual([]);
    const list = (await call(admin, "GET", "/action-rules?keyword=template on")).json().data.content;
    expect(list.find((rule: { id: string }) => rule.id === ruleId).lastRun.state).toBe("succeeded");
    await call(admin, "POST", `/action-rules/${otherLibrary}/disable`);
    await call(admin, "POST", `/action-rules/${ruleId}/disable`);
  });

  it("published: a webhook receives the story signed with HMAC; the secret never comes back", async () => {
    startWorker();
    const ruleId = await created("/action-rules", {
      name: "webhook on publish",
      trigger: "published",
      conditions: { keyword: "webhook-ok", types: ["photo"] },
      steps: [{ kind: "webhook", url: receiver.url, secret: SECRET, timeoutMs: 5000 }],
    });
    const rule = (await call(admin, "GET", `/action-rules/${ruleId}`)).json().data;
    expect(rule.steps[0]).toEqual({ kind: "webhook", url: receiver.url, timeoutMs: 5000, secretSet: true });
    expect(JSON.stringify(rule)).not.toContain(SECRET);
    // Edited without the secret: it is kept.
    const edited = await call(admin, "PUT", `/action-rules/${ruleId}`, {
      name: "webhook on publish",
      trigger: "published",
      conditions: { keyword: "webhook-ok", types: ["photo"] },
      steps: [{ kind: "webhook", url: receiver.url, timeoutMs: 5000 }],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data.steps[0].secretSet).toBe(true);
    const audit = (await auditSince(ctx().db, 0)).filter((row) => row.targetId === ruleId);
    expect(audit.map((row) => row.action)).toEqual(["action-rule.create", "action-rule.edit"]);
    expect(JSON.stringify(audit)).not.toContain(SECRET);

    const storyId = await draft("webhook story");
    await commit(storyId, { title: "webhook-ok 发布" });
    const published = await call(editor, "POST", `/workflow-story-publish/product/${storyId}`, { channels: [] });
    expect(published.statusCode, published.body).toBe(200);
    const run = await finishedRun(ruleId, storyId);
    expect(run, run.error ?? "").toMatchObject({ state: "succeeded", trigger: "published" });
    const part = receiver.parts.find((one) => one.delivery === run.id)!;
    expect(part.signatureValid).toBe(true);
    const body = JSON.parse(part.body.toString("utf8"));
    expect(body).toMatchObject({
      event: "published",
      rule: { id: ruleId, name: "webhook on publish" },
      run: run.id,
      story: { id: storyId, libraryId: "product", title: "webhook-ok 发布", status: "published" },
    });

    // A story without the keyword: no run.
    const other = await draft("no keyword");
    await commit(other, { title: "something else" });
    await call(editor, "POST", `/workflow-story-publish/product/${other}`, { channels: [] });
    const evaluated = () =>
      ctx()
        .db.kysely.selectFrom("jobs")
        .select(["payload", "state"])
        .where("name", "=", "actions.evaluate")
        .execute()
        .then((jobs) => jobs.filter((job) => JSON.stringify(job.payload).includes(other)));
    await until(async () => {
      const jobs = await evaluated();
      return jobs.length > 0 && jobs.every((job) => job.state === "succeeded");
    }, "the evaluation of the story without the keyword");
    expect((await runsOf(ruleId)).some((one) => one.storyId === other)).toBe(false);
    await call(admin, "POST", `/action-rules/${ruleId}/disable`);
  });

  it("a failing webhook is a failed run with its reason; the commit is not affected", async () => {
    startWorker();
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refusing = await created("/action-rules", {
      name: "webhook refused",
      trigger: "committed",
      conditions: { keyword: "webhook-fails" },
      steps: [{ kind: "webhook", url: `http://127.0.0.1:${port}/nobody`, timeoutMs: 2000 }],
    });
    const unsigned = await created("/action-rules", {
      name: "webhook without the secret",
      trigger: "committed",
      conditions: { keyword: "webhook-fails" },
      steps: [{ kind: "webhook", url: receiver.url, timeoutMs: 2000 }],
    });
    const storyId = await draft("failing webhook");
    await commit(storyId, { title: "webhook-fails story" });
    expect((await storyOf(storyId)).status).toBe("committed");
    const refused = await finishedRun(refusing, storyId);
    expect(refused.state).toBe("failed");
    expect(refused.error).toMatch(
      /^step 1 \(webhook\): 127\.0\.0\.1:\d+ refused the connection \(gave up after 4 attempts\)$/,
    );
    expect(refused.steps).toEqual([
      { kind: "webhook", ok: false, detail: expect.stringContaining("refused"), attempts: 4 },
    ]);
    // A 4xx other than 429 will not pass by calling again: one call, failed at once.
    const rejected = await finishedRun(unsigned, storyId);
    expect(rejected.state).toBe("failed");
    expect(rejected.error).toMatch(/answered HTTP 401: bad signature$/);
    expect(rejected.steps[0]).toMatchObject({ ok: false, attempts: 1 });
    expect(receiver.calls.filter((one) => one.delivery === rejected.id)).toMatchObject([
      { delivery: rejected.id, status: 401 },
    ]);
    for (const id of [refusing, unsigned]) await call(admin, "POST", `/action-rules/${id}/disable`);
  });

  it("a webhook answered 503, then 429 is called again with the same delivery id and succeeds on the third call", async () => {
    startWorker();
    const ruleId = await created("/action-rules", {
      name: "webhook retried",
      trigger: "committed",
      conditions: { keyword: "webhook-retried" },
      steps: [{ kind: "webhook", url: receiver.url, secret: SECRET, timeoutMs: 5000 }],
    });
    receiver.failNextRequests(1, 503);
    receiver.failNextRequests(1, 429, "1");
    const storyId = await draft("retried webhook");
    await commit(storyId, { title: "webhook-retried 稿件" });
    const run = await finishedRun(ruleId, storyId);
    expect(run, run.error ?? "").toMatchObject({ state: "succeeded", error: null });
    expect(run.steps).toEqual([
      {
        kind: "webhook",
        ok: true,
        attempts: 3,
        detail: expect.stringMatching(/accepted the call on attempt 3 \(before: .*HTTP 503.*; .*HTTP 429/),
      },
    ]);
    // Every attempt carried the run id as its delivery id; the receiver kept exactly one item.
    expect(receiver.calls.filter((one) => one.delivery === run.id).map((one) => one.status)).toEqual([503, 429, 202]);
    const delivered = receiver.parts.filter((one) => one.delivery === run.id);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.signatureValid).toBe(true);
    expect(JSON.parse(delivered[0]!.body.toString("utf8"))).toMatchObject({ run: run.id, story: { id: storyId } });
    await call(admin, "POST", `/action-rules/${ruleId}/disable`);
  });

  it("committed with a keyword: publishes to a folder channel", async () => {
    startWorker();
    const channelId = await created("/channels", {
      name: "actions hot folder",
      kind: "folder",
      format: "ninjs",
      settings: { path: folder },
    });
    const ruleId = await created("/action-rules", {
      name: "typhoon to the hot folder",
      trigger: "committed",
      conditions: { keyword: "台风", authors: ["王小明"] },
      steps: [{ kind: "publish", channelIds: [channelId] }],
    });
    const wrongAuthor = await draft("wrong author");
    await commit(wrongAuthor, { title: "台风 other", authors: ["李雷"] });
    const storyId = await draft("typhoon");
    await commit(storyId, { title: "山竹台风登陆", authors: ["王小明"] });
    const run = await finishedRun(ruleId, storyId);
    expect(run, run.error ?? "").toMatchObject({ state: "succeeded" });
    await until(() => fs.existsSync(path.join(folder, `${storyId}.json`)), "the item in the hot folder");
    const item = JSON.parse(fs.readFileSync(path.join(folder, `${storyId}.json`), "utf8"));
    expect(item).toMatchObject({ uri: `urn:dams:story:${storyId}`, headline: "山竹台风登陆" });
    expect((await storyOf(storyId)).status).toBe("published");
    expect(fs.existsSync(path.join(folder, `${wrongAuthor}.json`))).toBe(false);
    expect((await runsOf(ruleId)).map((one) => one.storyId)).toEqual([storyId]);
    await call(admin, "POST", `/action-rules/${ruleId}/disable`);
  });

  it("tagged with a tag: makes the preset rendition", async () => {
    startWorker();
    const presetId = await created("/download-presets", jpegPhotoPreset("actions 200 jpeg", { maxWidth: 200 }));
    const ruleId = await created("/action-rules", {
      name: "web tag renders",
      trigger: "tagged",
      conditions: { tags: ["web"], libraryIds: ["material"] },
      steps: [{ kind: "rendition", presetId }],
    });
    const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#336699" } })
      .jpeg()
      .toBuffer();
    const storyId = await draft("tagged photo", { libraryId: "material", bytes: photo });
    await commit(storyId, { title: "to be tagged", tags: ["web"] }, "material");
    // Committed with the tag is not "tagged"; adding it later is.
    const other = await call(editor, "PUT", `/workflow-story-edit/photo/${storyId}?libraryId=material`, {
      tags: ["web", "sport"],
    });
    expect(other.statusCode, other.body).toBe(200);
    const second = await draft("tagged later", { libraryId: "material", bytes: photo });
    await commit(second, { title: "tagged later" }, "material");
    const edit = await call(editor, "PUT", `/workflow-story-edit/photo/${second}?libraryId=material`, {
      tags: ["Web"],
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const run = await finishedRun(ruleId, second);
    expect(run, run.error ?? "").toMatchObject({ state: "succeeded", trigger: "tagged" });
    const rendition = await until(async () => {
      const response = await call(admin, "POST", `/download-presets/${presetId}/renditions/material`, {
        storyIds: [second],
      });
      const state = response.json().data[0];
      return state.state === "done" || state.state === "failed" ? state : undefined;
    }, "the preset rendition");
    expect(rendition, rendition.error ?? "").toMatchObject({ state: "done", width: 200, height: 150 });
    expect((await runsOf(ruleId)).map((one) => one.storyId)).toEqual([second]);
    await call(admin, "POST", `/action-rules/${ruleId}/disable`);
  }, 120_000);

  it("bad input names the field", async () => {
    const post = (body: object) => call(admin, "POST", "/action-rules", body);
    const cases: [object, string][] = [
      [{ name: "no steps", trigger: "committed", steps: [] }, "steps"],
      [
        { name: "bad trigger", trigger: "deleted", steps: [{ kind: "rendition", presetId: crypto.randomUUID() }] },
        "trigger",
      ],
      [
        { name: "bad url", trigger: "committed", steps: [{ kind: "webhook", url: "ftp://example.com/x" }] },
        "steps.0.url",
      ],
      [
        { name: "no template", trigger: "committed", steps: [{ kind: "template", templateId: crypto.randomUUID() }] },
        "steps.0.templateId",
      ],
      [
        {
          name: "no channel",
          trigger: "committed",
          steps: [{ kind: "publish", channelIds: [crypto.randomUUID()] }],
        },
        "steps.0.channelIds.0",
      ],
      [
        {
          name: "no library",
          trigger: "committed",
          conditions: { libraryIds: ["nowhere"] },
          steps: [{ kind: "webhook", url: "https://example.com/" }],
        },
        "conditions.libraryIds.0",
      ],
    ];
    for (const [body, field] of cases) {
      const response = await post(body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().msg, response.body).toContain(field);
    }
    const first = await post({
      name: "twice",
      trigger: "committed",
      steps: [{ kind: "webhook", url: "https://example.com/" }],
    });
    expect(first.statusCode).toBe(200);
    const again = await post({
      name: "twice",
      trigger: "committed",
      steps: [{ kind: "webhook", url: "https://example.com/" }],
    });
    expect(again.statusCode).toBe(409);
    const id = first.json().data.id;
    expect((await call(admin, "DELETE", `/action-rules/${id}`)).statusCode).toBe(200);
    expect((await call(admin, "GET", `/action-rules/${id}`)).statusCode).toBe(404);
  });
});
