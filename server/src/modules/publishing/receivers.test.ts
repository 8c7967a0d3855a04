import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { z } from "zod";
import { describeEachDialect } from "../../test/dialects.js";
import { until } from "../../test/eventually.js";
import { jpegPhotoPreset } from "../../test/preset-bodies.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { startTestS3Server, type TestS3Server } from "../../test/s3-servers.js";
import { api, FAST_JOBS_ENV, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { newsmlSchemaErrors } from "../channels/test-support/newsml-schema.js";
import { startSmtpReceiver } from "../channels/test-support/smtp-receiver.js";
import { sshdMissing, startSshd, type TestSshd } from "../channels/test-support/sshd.js";
import type { deliverySchema } from "./publishing.schema.js";

const SMTP_LOGIN = { user: "dams-sender", pass: "smtp-pass 密码" };
const noSshd = sshdMissing();

/** A delivery as the API answers it. */
type DeliveryRow = z.infer<typeof deliverySchema>;

/**
 * Deliveries to real receivers started by the test: Debian's OpenSSH sshd (SFTP, NewsML-G2), a local SMTP
 * server (smtp-server: attachments and the item), an S3 server (s3rver) and a folder through a download
 * preset; a channel with deliveries still to send is not deleted.
 */
describeEachDialect("deliveries to real receivers", (dialect) => {
  const ctx = useStoriesApp(dialect, { env: FAST_JOBS_ENV });
  const call = api(ctx);
  let admin: TestPrincipal;
  let editor: TestPrincipal;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let s3: TestS3Server;
  let sshd: TestSshd | undefined;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "dams-receivers-"));

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "receivers-admin", roleId: "administrator", admin: true });
    editor = await createPrincipal(ctx().db, { username: "receivers-editor", roleId: "editor" });
    smtp = await startSmtpReceiver(SMTP_LOGIN);
    s3 = await startTestS3Server();
    if (!noSshd) sshd = await startSshd();
    ctx().app.jobs.worker.start();
  }, 60_000);
  afterAll(async () => {
    await smtp?.close();
    await s3?.close();
    await sshd?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  async function channel(body: object): Promise<string> {
    const response = await call(admin, "POST", "/channels", body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).not.toMatch(/BEGIN OPENSSH|smtp-pass|S3RVER/);
    return response.json().data.id as string;
  }

  async function committed(title: string, bytes?: Buffer) {
    const { story } = await uploadStory(ctx(), editor, {
      libraryId: "product",
      bytes: bytes ?? `jpeg bytes of ${title}`,
      name: "原图.jpg",
    });
    const response = await call(editor, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [story.id],
    });
    expect(response.statusCode, response.body).toBe(200);
    const edited = await call(editor, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=product`, {
      title,
      caption: `图片说明 <b>&"caption"</b> of ${title}`,
      authors: ["王小明"],
      keywords: ["台风"],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    return story.id as string;
  }

  const deliveriesOf = async (storyId: string) =>
    (await call(editor, "GET", `/publishing/product/${storyId}/deliveries`)).json().data.deliveries as DeliveryRow[];
  const settled = (storyId: string, count: number) =>
    until(async () => {
      const deliveries = await deliveriesOf(storyId);
      return deliveries.length >= count &&
        deliveries.every((d) => ["succeeded", "failed", "cancelled"].includes(d.state))
        ? deliveries
        : undefined;
    }, `the deliveries of ${storyId} to settle`);
  const publish = async (storyId: string, channels: string[], extra: object = {}) => {
    const response = await call(editor, "POST", `/workflow-story-publish/product/${storyId}`, {
      channels,
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const test = async (id: string) =>
    (await call(admin, "POST", `/channels/${id}/test`)).json().data as {
      ok: boolean;
      reason: string;
    };

  it.skipIf(noSshd)(
    "SFTP to OpenSSH's sshd: NewsML-G2 and the original, host key pinned; withdraw deletes",
    async () => {
      const server = sshd!;
      const agency = await channel({
        name: "agency sftp",
        kind: "sftp",
        format: "newsml",
        settings: {
          host: server.host,
          port: server.port,
          username: server.username,
          directory: server.directory,
          hostKeySha256: server.hostKeySha256,
          timeoutMs: 10_000,
        },
        credentials: { privateKey: server.privateKey },
      });
      const tested = await test(agency);
      expect(tested, tested.reason).toMatchObject({ ok: true });
      expect(tested.reason).toContain(`accepted the login and a write to ${server.directory}`);
      expect(fs.readdirSync(server.directory)).toEqual([]);

      const storyId = await committed("台风山竹 SFTP");
      await publish(storyId, [agency]);
      const [delivery] = await settled(storyId, 1);
      expect(delivery).toMatchObject({ state: "succeeded", attempts: 1, lastError: null });
      expect(fs.readdirSync(server.directory).sort()).toEqual([`${storyId}.jpg`, `${storyId}.xml`]);
      expect(fs.readFileSync(path.join(server.directory, `${storyId}.jpg`), "utf8")).toBe(
        "jpeg bytes of 台风山竹 SFTP",
      );
      const xml = fs.readFileSync(path.join(server.directory, `${storyId}.xml`), "utf8");
      expect(XMLValidator.validate(xml)).toBe(true);
      expect(await newsmlSchemaErrors(xml)).toEqual([]);
      const item = new XMLParser({ ignoreAttributes: false }).parse(xml).newsItem;
      expect(item.contentMeta.headline).toBe("台风山竹 SFTP");
      expect(item.contentMeta.description["#text"]).toBe('图片说明 <b>&"caption"</b> of 台风山竹 SFTP');
      expect(xml).toContain(delivery!.id);

      await call(editor, "POST", `/workflow-story-withdraw/product/${storyId}`, {});
      const all = await settled(storyId, 2);
      expect(all.find((d) => d.action === "kill")).toMatchObject({ state: "succeeded" });
      expect(fs.readdirSync(server.directory)).toEqual([`${storyId}.xml`]);
      expect(fs.readFileSync(path.join(server.directory, `${storyId}.xml`), "utf8")).toContain('qcode="stat:canceled"');
    },
  );

  it.skipIf(noSshd)("SFTP refusals end with their reason: another host key, a key not authorized", async () => {
    const server = sshd!;
    const settings = {
      host: server.host,
      port: server.port,
      username: server.username,
      directory: server.directory,
      timeoutMs: 10_000,
    };
    const pinnedWrong = await channel({
      name: "sftp wrong pin",
      kind: "sftp",
      format: "ninjs",
      settings: { ...settings, hostKeySha256: "A".repeat(43) },
      credentials: { privateKey: server.privateKey },
    });
    const wrongPin = await test(pinnedWrong);
    expect(wrongPin.ok).toBe(false);
    expect(wrongPin.reason).toContain(`presented host key SHA256:${server.hostKeySha256}, not the pinned one`);
    const stranger = await channel({
      name: "sftp stranger",
      kind: "sftp",
      format: "ninjs",
      settings,
      credentials: { password: "not a key sshd takes" },
    });
    const refused = await test(stranger);
    expect(refused.ok).toBe(false);
    expect(refused.reason).toContain(`${server.host}:${server.port} refused the login`);

    const storyId = await committed("refused over sftp");
    await publish(storyId, [stranger]);
    const [failed] = await settled(storyId, 1);
    // A refused login will not pass by trying again: failed at once, with the reason.
    expect(failed).toMatchObject({ state: "failed", attempts: 1 });
    expect(failed!.lastError).toContain("refused the login");
  });

  it("e-mail to a local SMTP server: one mail with the original and the ninjs item attached, the login used", async () => {
    const mail = await channel({
      name: "picture desk mail",
      kind: "email",
      format: "ninjs",
      settings: {
        host: "127.0.0.1",
        port: smtp.port,
        from: "dams@example.com",
        to: ["desk@example.com", "night@example.com"],
        timeoutMs: 10_000,
      },
      credentials: { username: SMTP_LOGIN.user, password: SMTP_LOGIN.pass },
    });
    const tested = await test(mail);
    expect(tested, tested.reason).toMatchObject({ ok: true });
    expect(tested.reason).toBe(`127.0.0.1:${smtp.port} accepted the connection and the login`);

    const storyId = await committed("邮件 台风");
    const before = smtp.mails.length;
    await publish(storyId, [mail]);
    const [delivery] = await settled(storyId, 1);
    expect(delivery).toMatchObject({ state: "succeeded", attempts: 1 });
    const mails = smtp.mails.slice(before);
    expect(mails).toHaveLength(1);
    const [received] = mails;
    expect(received!.from).toBe("dams@example.com");
    expect(received!.to.sort()).toEqual(["desk@example.com", "night@example.com"]);
    expect(received!.headers["message-id"]).toBe(`<${delivery!.id}@dams>`);
    expect(received!.headers["x-dams-delivery"]).toBe(delivery!.id);
    expect(received!.text).toContain("邮件 台风");
    expect(received!.attachments.map((a) => a.filename)).toEqual([`${storyId}.jpg`, `${storyId}.json`]);
    expect(received!.attachments[0]!.content.toString()).toBe("jpeg bytes of 邮件 台风");
    const item = JSON.parse(received!.attachments[1]!.content.toString("utf8"));
    expect(item).toMatchObject({
      uri: `urn:dams:story:${storyId}`,
      headline: "邮件 台风",
      description_text: '图片说明 <b>&"caption"</b> of 邮件 台风',
      pubstatus: "usable",
    });

    const wrongLogin = await channel({
      name: "mail wrong login",
      kind: "email",
      format: "ninjs",
      settings: { host: "127.0.0.1", port: smtp.port, from: "dams@example.com", to: ["desk@example.com"] },
      credentials: { username: SMTP_LOGIN.user, password: "wrong" },
    });
    const refused = await test(wrongLogin);
    expect(refused.ok).toBe(false);
    expect(refused.reason).toContain(`127.0.0.1:${smtp.port} refused the login`);
  });

  it("S3: the original and the item under the prefix; a kill deletes the original", async () => {
    const bucket = await channel({
      name: "website bucket",
      kind: "s3",
      format: "ninjs",
      settings: {
        endpoint: s3.config.endpoint,
        region: "us-east-1",
        bucket: s3.config.bucket,
        prefix: "outbox/photos",
        forcePathStyle: true,
      },
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    expect((await test(bucket)).ok).toBe(true);
    const missing = await channel({
      name: "no such bucket",
      kind: "s3",
      format: "ninjs",
      settings: { endpoint: s3.config.endpoint, bucket: "not-there", forcePathStyle: true },
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    const refused = await test(missing);
    expect(refused.ok).toBe(false);
    expect(refused.reason).toContain("the bucket not-there does not exist");

    const storyId = await committed("bucket story");
    await publish(storyId, [bucket]);
    const [delivery] = await settled(storyId, 1);
    expect(delivery).toMatchObject({ state: "succeeded" });
    const client = new S3Client({
      region: "us-east-1",
      endpoint: s3.config.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    const keys = async () =>
      (
        (await client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket, Prefix: "outbox/photos/" })))
          .Contents ?? []
      )
        .map((object) => object.Key)
        .filter((key) => key?.includes(storyId))
        .sort();
    expect(await keys()).toEqual([`outbox/photos/${storyId}.jpg`, `outbox/photos/${storyId}.json`]);
    const object = await client.send(
      new GetObjectCommand({ Bucket: s3.config.bucket, Key: `outbox/photos/${storyId}.json` }),
    );
    expect(JSON.parse(await object.Body!.transformToString("utf-8"))).toMatchObject({
      headline: "bucket story",
      altids: expect.objectContaining({ delivery: delivery!.id }),
    });

    await call(editor, "POST", `/workflow-story-withdraw/product/${storyId}`, {});
    await settled(storyId, 2);
    expect(await keys()).toEqual([`outbox/photos/${storyId}.json`]);
    const kill = await client.send(
      new GetObjectCommand({ Bucket: s3.config.bucket, Key: `outbox/photos/${storyId}.json` }),
    );
    expect(JSON.parse(await kill.Body!.transformToString("utf-8"))).toMatchObject({ pubstatus: "canceled" });
    client.destroy();
  });

  it("a folder channel delivers its photo preset's rendition, not the original; presets are checked by type", async () => {
    const preset = await call(
      admin,
      "POST",
      "/download-presets",
      jpegPhotoPreset("channel 320 jpeg", { maxWidth: 320, metadata: "none" }),
    );
    expect(preset.statusCode, preset.body).toBe(200);
    const presetId = preset.json().data.id as string;
    const base = { name: "preset folder", kind: "folder", format: "original", settings: { path: folder } };
    const wrongType = await call(admin, "POST", "/channels", { ...base, presets: { video: presetId } });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().msg).toContain(`presets.video: the preset ${presetId} is a photo preset`);
    const unknown = await call(admin, "POST", "/channels", {
      ...base,
      presets: { photo: "00000000-0000-4000-8000-000000000000" },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toContain("presets.photo: no download preset");
    const hot = await channel({ ...base, presets: { photo: presetId, video: null } });
    expect((await call(admin, "GET", `/channels/${hot}`)).json().data.presets).toEqual({ photo: presetId });

    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#3060a0" } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const storyId = await committed("preset story", photo);
    await publish(storyId, [hot]);
    const [delivery] = await settled(storyId, 1);
    expect(delivery, delivery?.lastError ?? "").toMatchObject({ state: "succeeded" });
    expect(
      fs
        .readdirSync(folder)
        .filter((name) => name.startsWith(storyId))
        .sort(),
    ).toEqual([`${storyId}.jpg`, `${storyId}.xmp`]);
    const delivered = await sharp(path.join(folder, `${storyId}.jpg`)).metadata();
    expect(delivered).toMatchObject({ format: "jpeg", width: 320, height: 240 });
  });

  it("a channel with deliveries still to send is not deleted; once they are cancelled it is", async () => {
    const later = await channel({ name: "later folder", kind: "folder", format: "ninjs", settings: { path: folder } });
    const storyId = await committed("publish later");
    await publish(storyId, [later], { publishAt: new Date(Date.now() + 3_600_000).toISOString() });
    const [pending] = await deliveriesOf(storyId);
    expect(pending).toMatchObject({ state: "pending" });
    const refused = await call(admin, "DELETE", `/channels/${later}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: "channel_busy" });
    expect(refused.json().msg).toContain("1 deliveries to later folder are still to be sent");
    expect((await call(admin, "POST", `/publishing/deliveries/${pending!.id}/cancel`)).statusCode).toBe(200);
    expect((await call(admin, "DELETE", `/channels/${later}`)).statusCode).toBe(200);
    expect((await call(admin, "GET", `/channels/${later}`)).statusCode).toBe(404);
  });

  it("the channel stats name each channel's newest delivery state", async () => {
    const used = await channel({ name: "stats used", kind: "folder", format: "ninjs", settings: { path: folder } });
    const idle = await channel({ name: "stats idle", kind: "folder", format: "ninjs", settings: { path: folder } });
    const storyId = await committed("stats story");
    await publish(storyId, [used]);
    await settled(storyId, 1);
    const stats = (await call(admin, "GET", "/publishing/channel-stats")).json().data as {
      channelId: string;
      lastState: string | null;
      lastAt: string | null;
    }[];
    const row = stats.find((candidate) => candidate.channelId === used);
    expect(row).toMatchObject({ lastState: "succeeded" });
    expect(row!.lastAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(stats.find((candidate) => candidate.channelId === idle)).toMatchObject({ lastState: null, lastAt: null });
  });
});
