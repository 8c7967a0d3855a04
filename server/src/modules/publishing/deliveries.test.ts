import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { z } from "zod";
import { describeEachDialect } from "../../test/dialects.js";
import { until } from "../../test/eventually.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, FAST_JOBS_ENV, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { type HttpReceiver, startHttpReceiver } from "../channels/test-support/http-receiver.js";
import { newsmlSchemaErrors } from "../channels/test-support/newsml-schema.js";
import type { deliverySchema } from "./publishing.schema.js";

const SECRET = "delivery-test-secret";
/** The test hooks and receivers listen on loopback. */
const FAST_JOBS = { ...FAST_JOBS_ENV, DAMS_CHANNEL_ALLOW_PRIVATE: "127.0.0.1/32" };

/** A delivery as the API answers it. */
type DeliveryRow = z.infer<typeof deliverySchema>;

describeEachDialect("deliveries", (dialect) => {
  const ctx = useStoriesApp(dialect, { env: FAST_JOBS });
  const call = api(ctx);
  let admin: TestPrincipal;
  let editor: TestPrincipal;
  let receiver: HttpReceiver;
  let web: string;
  let hotFolder: string;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "dams-deliveries-"));

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "deliveries-admin", roleId: "administrator", admin: true });
    editor = await createPrincipal(ctx().db, { username: "deliveries-editor", roleId: "editor" });
    receiver = await startHttpReceiver(SECRET);
    const channel = async (body: object) => {
      const response = await call(admin, "POST", "/channels", body);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.id as string;
    };
    web = await channel({
      name: "website",
      kind: "http",
      format: "ninjs",
      settings: { url: receiver.url, timeoutMs: 5000 },
      credentials: { secret: SECRET },
      fieldMapping: { usageterms: "properties.usage" },
    });
    hotFolder = await channel({ name: "agency folder", kind: "folder", format: "newsml", settings: { path: folder } });
    ctx().app.jobs.worker.start();
  });
  afterAll(async () => {
    await receiver.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  async function committed(title: string, bytes?: Buffer, libraryId = "product") {
    const { story } = await uploadStory(ctx(), editor, {
      libraryId,
      bytes: bytes ?? `jpeg bytes of ${title}`,
      name: "原图.jpg",
    });
    const response = await call(editor, "POST", "/workflow-story-create/photo/commit", {
      libraryId,
      storyIds: [story.id],
    });
    expect(response.statusCode, response.body).toBe(200);
    await call(editor, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=${libraryId}`, {
      title,
      caption: `图片说明 <b>&"caption"</b> of ${title}`,
      authors: ["王小明"],
      keywords: ["台风", "typhoon"],
    });
    return story.id as string;
  }

  const deliveriesOf = async (storyId: string) =>
    (await call(editor, "GET", `/publishing/product/${storyId}/deliveries`)).json().data as {
      embargoUntil: string | null;
      deliveries: DeliveryRow[];
    };
  const settled = (storyId: string, count: number) =>
    until(async () => {
      const { deliveries } = await deliveriesOf(storyId);
      return deliveries.length >= count &&
        deliveries.every((d) => ["succeeded", "failed", "cancelled"].includes(d.state))
        ? deliveries
        : undefined;
    }, `the deliveries of ${storyId} to settle`);

  it("publishes to HTTP as signed ninjs and to a folder as NewsML-G2", async () => {
    const storyId = await committed("山竹台风登陆");
    const published = await call(editor, "POST", `/workflow-story-publish/product/${storyId}`, {
      channels: [web, hotFolder],
    });
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().data.deliveries).toHaveLength(2);
    const deliveries = await settled(storyId, 2);
    expect(deliveries.map((d) => d.state)).toEqual(["succeeded", "succeeded"]);
    expect(deliveries.every((d) => d.attempts === 1 && d.durationMs !== null)).toBe(true);

    const toWeb = deliveries.find((d) => d.channelId === web)!;
    const parts = receiver.parts.filter((part) => part.delivery === toWeb.id);
    expect(parts.map((part) => part.part)).toEqual(["rendition", "item"]);
    expect(parts.every((part) => part.signatureValid)).toBe(true);
    expect(parts[0]!.body.toString()).toBe("jpeg bytes of 山竹台风登陆");
    expect(receiver.schemaErrors).toEqual([]);
    expect(receiver.items.get(toWeb.id)).toMatchObject({
      uri: `urn:dams:story:${storyId}`,
      type: "picture",
      pubstatus: "usable",
      headline: "山竹台风登陆",
      description_text: '图片说明 <b>&"caption"</b> of 山竹台风登陆',
      byline: "王小明",
      subject: expect.arrayContaining([{ name: "台风", rel: "keyword" }]),
    });

    const names = fs.readdirSync(folder).sort();
    expect(names).toEqual([`${storyId}.jpg`, `${storyId}.xml`]);
    const xml = fs.readFileSync(path.join(folder, `${storyId}.xml`), "utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(await newsmlSchemaErrors(xml)).toEqual([]);
    const item = new XMLParser({ ignoreAttributes: false }).parse(xml).newsItem;
    expect(item["@_guid"]).toBe(`urn:dams:story:${storyId}`);
    expect(item.contentMeta.headline).toBe("山竹台风登陆");
    expect(item.contentMeta.description["#text"]).toBe('图片说明 <b>&"caption"</b> of 山竹台风登陆');
    expect(item.itemMeta.pubStatus["@_qcode"]).toBe("stat:usable");
    expect(fs.readFileSync(path.join(folder, `${storyId}.jpg`), "utf8")).toBe("jpeg bytes of 山竹台风登陆");
  });

  it("retries a receiver that fails twice: one item, three attempts, same delivery id", async () => {
    const storyId = await committed("retry story");
    const before = receiver.items.size;
    receiver.failNextRequests(2);
    await call(editor, "POST", `/workflow-story-publish/product/${storyId}`, { channels: [web] });
    const [delivery] = await settled(storyId, 1);
    expect(delivery).toMatchObject({ state: "succeeded", attempts: 3 });
    // The last error stays on a delivery that succeeded after retries: the monitor shows what happened.
    expect(delivery!.lastError).toContain("HTTP 503");
    expect(receiver.items.size).toBe(before + 1);
    expect([...receiver.items.keys()].filter((id) => id === delivery!.id)).toHaveLength(1);
  });

  it("honours a 429's Retry-After: waits at least that long, then one item; the wait is recorded", async () => {
    const storyId = await committed("retry-after story");
    receiver.failNextRequests(1, 429, "2");
    await call(editor, "POST", `/workflow-story-publish/product/${storyId}`, { channels: [web] });
    const [delivery] = await settled(storyId, 1);
    expect(delivery).toMatchObject({ state: "succeeded", attempts: 2 });
    expect(delivery!.lastError).toMatch(/HTTP 429: busy, try later \(Retry-After: waiting 2 s, next attempt at \S+\)/);
    const calls = receiver.calls.filter((c) => c.delivery === delivery!.id);
    // The rendition's POST was refused; the second attempt sent the rendition and the item.
    expect(calls.map((c) => c.status)).toEqual([429, 202, 202]);
    // The queue's backoff here is 20–100 ms: only the Retry-After explains the wait.
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(2000);
    expect([...receiver.items.keys()].filter((id) => id === delivery!.id)).toHaveLength(1);
  });

  it("publishes a grid selection: counts per channel, one delivery per (story, channel), embargo and permission refused", async () => {
    const contributor = await createPrincipal(ctx().db, { username: "deliveries-contributor", roleId: "contributor" });
    const viewer = await createPrincipal(ctx().db, { username: "deliveries-viewer", roleId: "viewer" });
    const [first, second, embargoed] = [
      await committed("选集一"),
      await committed("选集二"),
      await committed("选集禁发"),
    ];
    const elsewhere = await committed("another library", undefined, "publish");
    const refs = [first, second, embargoed].map((storyId) => ({ libraryId: "product", storyId }));
    // The first already went to the folder.
    await call(editor, "POST", `/workflow-story-publish/product/${first}`, { channels: [hotFolder] });
    await settled(first!, 1);
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await call(editor, "POST", `/workflow-story-publish/product/${embargoed}`, { embargoUntil: until });

    const counts = await call(contributor, "POST", "/publishing/delivered-counts", {
      stories: [...refs, { libraryId: "publish", storyId: elsewhere }],
    });
    expect(counts.statusCode, counts.body).toBe(200);
    expect(counts.json().data).toEqual([{ channelId: hotFolder, stories: 1 }]);

    const published = await call(contributor, "POST", "/publishing/batch", {
      stories: [...refs, { libraryId: "publish", storyId: elsewhere }],
      channels: [web, hotFolder],
    });
    expect(published.statusCode, published.body).toBe(200);
    const results = published.json().data as {
      storyId: string;
      ok: boolean;
      code: string | null;
      embargoUntil: string | null;
      deliveryIds: string[];
      title: string | null;
    }[];
    expect(results.map((r) => [r.storyId, r.ok, r.code])).toEqual([
      [first, true, null],
      [second, true, null],
      [embargoed, false, "embargoed"],
      [elsewhere, false, "not_found"],
    ]);
    expect(results[2]).toMatchObject({ title: "选集禁发", embargoUntil: until, deliveryIds: [] });
    // A story the contributor may not change says nothing about itself.
    expect(results[3]!.title).toBeNull();
    expect(results.slice(0, 2).every((r) => r.deliveryIds.length === 2)).toBe(true);
    for (const storyId of [first!, second!]) {
      const done = await settled(storyId, storyId === first ? 3 : 2);
      expect(done.every((d) => d.state === "succeeded")).toBe(true);
    }
    expect((await deliveriesOf(embargoed!)).deliveries).toEqual([]);
    const again = await call(contributor, "POST", "/publishing/delivered-counts", { stories: refs });
    expect(
      (again.json().data as { channelId: string; stories: number }[]).sort((a, b) =>
        a.channelId.localeCompare(b.channelId),
      ),
    ).toEqual(
      [
        { channelId: web, stories: 2 },
        { channelId: hotFolder, stories: 2 },
      ].sort((a, b) => a.channelId.localeCompare(b.channelId)),
    );

    // Without the publish permission: refused as a whole; bad input names the field.
    expect((await call(viewer, "POST", "/publishing/batch", { stories: refs, channels: [web] })).statusCode).toBe(403);
    const empty = await call(editor, "POST", "/publishing/batch", { stories: refs, channels: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toContain("channels");
  });

  it("streams delivery changes to the monitor (Server-Sent Events), refused without its permission", async () => {
    const contributor = await createPrincipal(ctx().db, {
      username: "deliveries-sse-contributor",
      roleId: "contributor",
    });
    const refused = await call(contributor, "GET", "/publishing/events");
    expect(refused.statusCode).toBe(403);
    expect((await ctx().app.inject({ method: "GET", url: "/dams/api/v1/publishing/events" })).statusCode).toBe(401);

    const address = await ctx().app.listen({ port: 0, host: "127.0.0.1" });
    const abort = new AbortController();
    const response = await fetch(`${address}/dams/api/v1/publishing/events`, {
      headers: editor.headers,
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events: { event: string; data: { id?: string; state?: string } }[] = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for await (const chunk of response.body!) {
          buffer += decoder.decode(chunk as Uint8Array, { stream: true });
          let end = buffer.indexOf("\n\n");
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.+)$/m.exec(block)?.[1];
            const data = /^data: (.+)$/m.exec(block)?.[1];
            if (event && data) events.push({ event, data: JSON.parse(data) });
            end = buffer.indexOf("\n\n");
          }
        }
      } catch {
        // aborted by the test
      }
    })();
    try {
      await until(() => events.some((e) => e.event === "ready"), "the stream to be ready");
      const storyId = await committed("live monitor story");
      const published = await call(editor, "POST", `/workflow-story-publish/product/${storyId}`, { channels: [web] });
      const id = published.json().data.deliveries[0].id as string;
      // Each change arrives as it happens, without asking: created (pending), in progress, succeeded.
      await until(
        () => events.some((e) => e.event === "delivery" && e.data.id === id && e.data.state === "succeeded"),
        "the delivery's success on the stream",
      );
      const states = events.filter((e) => e.data.id === id).map((e) => e.data.state);
      expect(states).toEqual(["pending", "in_progress", "succeeded"]);
    } finally {
      abort.abort();
      await reading;
    }
  });

  it("refuses a file over the channel's size limit with its size, at once; the limit is checked on input", async () => {
    const small = fs.mkdtempSync(path.join(os.tmpdir(), "dams-deliveries-small-"));
    try {
      const refused = await call(admin, "POST", "/channels", {
        name: "no limit at all",
        kind: "folder",
        format: "newsml",
        settings: { path: small, maxFileMb: 0 },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().msg).toContain("settings.maxFileMb");
      const created = await call(admin, "POST", "/channels", {
        name: "one megabyte",
        kind: "folder",
        format: "newsml",
        settings: { path: small, maxFileMb: 1 },
      });
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json().data.settings).toMatchObject({ maxFileMb: 1 });
      const storyId = await committed("too large", Buffer.alloc(1_500_000, 0x61));
      await call(editor, "POST", `/workflow-story-publish/product/${storyId}`, { channels: [created.json().data.id] });
      const [delivery] = await settled(storyId, 1);
      expect(delivery).toMatchObject({
        state: "failed",
        attempts: 1,
        lastError: `the original ${storyId}.jpg is 1.5 MB (1500000 bytes), over the channel's limit of 1 MB`,
      });
      expect(fs.readdirSync(small)).toEqual([]);
    } finally {
      fs.rmSync(small, { recursive: true, force: true });
    }
  });

  it("holds deliveries until the embargo ends", async () => {
    const storyId = await committed("embargoed story");
    const embargoUntil = new Date(Date.now() + 4000).toISOString();
    const published = await call(editor, "POST", `/workflow-story-publish/product/${storyId}`, {
      channels: [web],
      embargoUntil,
    });
    expect(published.json().data.embargoUntil).toBe(embargoUntil);
    const firstJob = published.json().data.deliveries[0].jobId as string;
    // The job ran, found the embargo and put itself back for its end.
    const waiting = await until(async () => {
      const [delivery] = (await deliveriesOf(storyId)).deliveries;
      return delivery && delivery.jobId !== firstJob ? delivery : undefined;
    }, "the embargoed delivery to wait");
    expect(waiting.state).toBe("pending");
    expect(Date.now()).toBeLessThan(Date.parse(embargoUntil));
    expect(receiver.items.has(waiting.id)).toBe(false);
    const [delivered] = await settled(storyId, 1);
    expect(delivered!.state).toBe("succeeded");
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(embargoUntil));
    expect(receiver.items.get(delivered!.id)).toMatchObject({ embargoed: embargoUntil });
  });

  it("withdraws: a kill reaches every channel the story went to", async () => {
    const storyId = await committed("withdrawn story");
    await call(editor, "POST", `/workflow-story-publish/product/${storyId}`, { channels: [web, hotFolder] });
    await settled(storyId, 2);
    const withdrawn = await call(editor, "POST", `/workflow-story-withdraw/product/${storyId}`, {});
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json().data.map((d: DeliveryRow) => d.action)).toEqual(["kill", "kill"]);
    const deliveries = await settled(storyId, 4);
    const kills = deliveries.filter((d) => d.action === "kill");
    expect(kills.map((d) => d.state)).toEqual(["succeeded", "succeeded"]);
    const killToWeb = kills.find((d) => d.channelId === web)!;
    expect(receiver.items.get(killToWeb.id)).toMatchObject({ uri: `urn:dams:story:${storyId}`, pubstatus: "canceled" });
    expect(receiver.parts.filter((part) => part.delivery === killToWeb.id).map((part) => part.part)).toEqual(["item"]);
    expect(fs.readdirSync(folder).filter((name) => name.startsWith(storyId))).toEqual([`${storyId}.xml`]);
    const xml = fs.readFileSync(path.join(folder, `${storyId}.xml`), "utf8");
    expect(xml).toContain('qcode="stat:canceled"');
    expect(await newsmlSchemaErrors(xml)).toEqual([]);
  });

  it("fails a refused delivery with its reason; the monitor retries it", async () => {
    const storyId = await committed("refused story");
    receiver.answer(403);
    await call(editor, "POST", `/workflow-story-publish/product/${storyId}`, { channels: [web] });
    const [failed] = await settled(storyId, 1);
    expect(failed).toMatchObject({ state: "failed", attempts: 1 });
    expect(failed!.lastError).toContain("answered HTTP 403");
    receiver.answer(null);

    expect((await call(editor, "POST", `/publishing/deliveries/${failed!.id}/retry`)).statusCode).toBe(403);
    const retried = await call(admin, "POST", `/publishing/deliveries/${failed!.id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    const [again] = await settled(storyId, 1);
    expect(again).toMatchObject({ id: failed!.id, state: "succeeded", attempts: 2 });
    expect(receiver.items.has(failed!.id)).toBe(true);

    const list = (await call(admin, "GET", `/publishing/deliveries?storyId=${storyId}`)).json().data;
    expect(list).toMatchObject({ totalElements: 1, content: [{ id: failed!.id, channelName: "website" }] });
    const failedOnly = (await call(admin, "GET", "/publishing/deliveries?state=failed")).json().data;
    expect(failedOnly.content.every((d: DeliveryRow) => d.state === "failed")).toBe(true);
    const stats = (await call(admin, "GET", "/publishing/channel-stats")).json().data as {
      channelId: string;
      succeeded: number;
      lastError: string | null;
      successRate: number | null;
    }[];
    const webStats = stats.find((row) => row.channelId === web)!;
    expect(webStats.succeeded).toBeGreaterThanOrEqual(4);
    expect(webStats.lastError).toContain("HTTP");
    expect(webStats.successRate).toBeGreaterThan(0);

    const resent = await call(admin, "POST", `/publishing/deliveries/${failed!.id}/resend`);
    expect(resent.statusCode).toBe(200);
    expect(resent.json().data.id).not.toBe(failed!.id);
    await settled(storyId, 2);
    const cancelDone = await call(admin, "POST", `/publishing/deliveries/${failed!.id}/cancel`);
    expect(cancelDone.statusCode).toBe(409);
  });

  it("refuses unknown channels and drafts", async () => {
    const storyId = await committed("checks");
    const unknown = await call(editor, "POST", `/workflow-story-publish/product/${storyId}`, {
      channels: ["00000000-0000-4000-8000-000000000000"],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toContain("channels");
    const { story: draft } = await uploadStory(ctx(), editor, { libraryId: "product" });
    const refused = await call(editor, "POST", `/workflow-story-publish/product/${draft.id}`, { channels: [web] });
    expect(refused.statusCode).toBe(409);
  });
});
