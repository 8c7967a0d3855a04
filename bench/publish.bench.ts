import { createHmac, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { buildApp } from "../server/src/app.js";
import { loadConfig } from "../server/src/config.js";
import { openDatabase } from "../server/src/db/database.js";
import { ApiTokensRepository } from "../server/src/modules/api-tokens/api-tokens.repository.js";
import { ApiTokensService } from "../server/src/modules/api-tokens/api-tokens.service.js";
import { UsersRepository } from "../server/src/modules/users/users.repository.js";
import { UsersService } from "../server/src/modules/users/users.service.js";
import { inParallel, sender, tusPostPatch } from "./bare-peer.js";
import { LoadSampler, median } from "./machine.js";
import { benchPhotos, ensureDebianPackages, inLanes, vipsPreviewsCopied } from "./media-tools.js";

/**
 * Publishing (issue 17): 200 photos published through the API to a folder
 * channel whose photo preset is a 1600 px JPEG (q82, sRGB, metadata
 * stripped), the whole path — the publish request, one `publishing.deliver`
 * job per story run by the app's workers, the preset's rendition made on
 * first use (`ensureRendered`), the rendition and the NewsML-G2 item written
 * into the folder — timed from the first request until every delivery has
 * succeeded; against the same resize by `vipsthumbnail` (Debian
 * libvips-tools) plus `cp` into a folder, one process per lane over its
 * share of the files (so process start-up costs the peer nothing). Lanes:
 * the app's workers = the peer's processes = the machine's cores. Each round
 * uses a new preset and channel (a rendition is cached per story version and
 * preset), rounds alternated; the medians are compared (issue 17's target:
 * ≥ 0.7). Then the delivery throughput to an HTTP receiver (node:http in
 * this process, checking each body's HMAC): the same 200 stories as ninjs
 * with their (cached) renditions, items per second and per minute.
 *
 *   npm run bench:publish -w bench      (BENCH_FILES=200, BENCH_ROUNDS=3, BENCH_SIZE=3000x2000)
 */
const fileCount = Number(process.env.BENCH_FILES ?? 200);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const [width, height] = (process.env.BENCH_SIZE ?? "3000x2000").split("x").map(Number) as [number, number];
const lanes = Number(process.env.BENCH_PARALLELISM ?? Math.max(1, os.availableParallelism()));
const API = "/dams/api/v1";
const SECRET = "bench-hmac-secret";

const PRESET_SETTINGS = {
  format: "jpeg",
  maxWidth: 1600,
  maxHeight: 1600,
  quality: 82,
  srgb: true,
  metadata: "none",
  videoBitrateKbps: 2000,
  audioBitrateKbps: 128,
};

const agent = new http.Agent({ keepAlive: true });
const send = sender(agent);

/** An HTTP receiver that checks every body's signature and counts the items (X-Dams-Part: item). */
async function startReceiver(): Promise<{ url: string; items: () => number; close(): Promise<void> }> {
  let items = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const expected = Buffer.from(`sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`);
      const got = Buffer.from(String(request.headers["x-dams-signature"] ?? ""));
      if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
        response.writeHead(401).end("bad signature");
        return;
      }
      if (request.headers["x-dams-part"] === "item") items++;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/items`,
    items: () => items,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  ensureDebianPackages([{ command: "vipsthumbnail", package: "libvips-tools" }]);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-publish-"));
  const config = loadConfig({
    DAMS_DATA_DIR: path.join(work, "data"),
    DAMS_WEB_DIR: path.join(work, "no-web"),
    DAMS_LOG_LEVEL: "warn",
    DAMS_WORKERS: String(lanes),
    DAMS_CHANNEL_ALLOW_PRIVATE: "127.0.0.1/32",
  });
  fs.mkdirSync(config.dataDir, { recursive: true });
  const db = openDatabase(config.database);
  await db.migrateToLatest();
  const user = await new UsersService(new UsersRepository(db)).createUser({
    username: "bench",
    password: "bench-password-1",
    admin: true,
  });
  const { secret: token } = await new ApiTokensService(new ApiTokensRepository(db)).create(user.id, { name: "bench" });
  const app = await buildApp({ config, db, logger: false });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const receiver = await startReceiver();
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const call = async <T>(method: string, route: string, body?: object): Promise<T> => {
    const answer = await send(
      `${base}${API}${route}`,
      method,
      auth,
      body ? Buffer.from(JSON.stringify(body)) : undefined,
    );
    if (answer.status !== 200) throw new Error(`${method} ${route}: ${answer.status} ${answer.body}`);
    return (JSON.parse(answer.body) as { data: T }).data;
  };
  /** The media jobs of the uploads still to run. */
  const jobsLeft = async () =>
    Number(
      (
        await db.kysely
          .selectFrom("jobs")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("name", "=", "stories.process")
          .where("state", "in", ["queued", "running"])
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Polls the deliveries table (lightly: every 100 ms) until every delivery to `channelId` succeeded. */
  const delivered = async (channelId: string): Promise<void> => {
    for (;;) {
      const rows = await db.kysely
        .selectFrom("deliveries")
        .select(["state", "last_error"])
        .where("channel_id", "=", channelId)
        .execute();
      const failed = rows.find((row) => row.state === "failed");
      if (failed) throw new Error(`a delivery failed: ${failed.last_error}`);
      if (rows.length === fileCount && rows.every((row) => row.state === "succeeded")) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  let load: LoadSampler | undefined;
  try {
    const files = await benchPhotos(path.join(work, "in"), fileCount, width, height);
    app.jobs.worker.start();

    // The stories: uploaded through tus, processed by the workers (thumbnails, previews), committed.
    let started = performance.now();
    const storyIds: string[] = new Array(files.length);
    await inParallel(files, 4, async (file, index) => {
      const name = path.basename(file);
      const metadata = { filename: name, name, filetype: "image/jpeg", libraryId: "product" };
      storyIds[index] = (await tusPostPatch(send, base, token, fs.readFileSync(file), metadata)).storyId;
    });
    while ((await jobsLeft()) > 0) await new Promise((resolve) => setTimeout(resolve, 500));
    for (let offset = 0; offset < storyIds.length; offset += 100)
      await call("POST", "/workflow-story-create/photo/commit", {
        libraryId: "product",
        storyIds: storyIds.slice(offset, offset + 100),
      });
    process.stdout.write(
      `${files.length} photos ${width}×${height} uploaded, processed and committed in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
    );

    const publishAll = (channelId: string) =>
      inParallel(storyIds, 4, async (storyId) => {
        await call("POST", `/workflow-story-publish/product/${storyId}`, { channels: [channelId] });
      });
    const shares = inLanes(files, lanes);
    let lastPreset = "";

    const dams = async (round: number): Promise<number> => {
      const dest = path.join(work, `dams-dest-${round}`);
      fs.mkdirSync(dest);
      const preset = await call<{ id: string }>("POST", "/download-presets", {
        name: `bench 1600 px JPEG ${round}`,
        storyType: "photo",
        settings: PRESET_SETTINGS,
        watermarkPresetId: null,
        roleIds: [],
        enabled: true,
      });
      const channel = await call<{ id: string }>("POST", "/channels", {
        name: `bench folder ${round}`,
        kind: "folder",
        format: "newsml",
        settings: { path: dest },
        presets: { photo: preset.id },
      });
      lastPreset = preset.id;
      const begun = performance.now();
      await publishAll(channel.id);
      await delivered(channel.id);
      const ms = performance.now() - begun;
      if (fs.readdirSync(dest).filter((name) => name.endsWith(".jpg")).length !== fileCount)
        throw new Error(`the folder ${dest} does not hold ${fileCount} renditions`);
      return ms;
    };
    const vips = (round: number): Promise<number> =>
      vipsPreviewsCopied(shares, path.join(work, `vips-${round}`), path.join(work, `vips-dest-${round}`));

    load = new LoadSampler();
    const damsMs: number[] = [];
    const vipsMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      damsMs.push(await dams(round));
      vipsMs.push(await vips(round));
      process.stdout.write(
        `round ${round + 1}: dams ${damsMs.at(-1)!.toFixed(0)} ms, vipsthumbnail+cp ${vipsMs.at(-1)!.toFixed(0)} ms\n`,
      );
    }

    // Delivery throughput over HTTP: the renditions are cached by now, so this times the deliveries themselves.
    const website = await call<{ id: string }>("POST", "/channels", {
      name: "bench website",
      kind: "http",
      format: "ninjs",
      settings: { url: receiver.url, timeoutMs: 15_000, sendFiles: true },
      credentials: { secret: SECRET },
      presets: { photo: lastPreset },
    });
    started = performance.now();
    await publishAll(website.id);
    await delivered(website.id);
    const httpMs = performance.now() - started;
    if (receiver.items() !== fileCount) throw new Error(`the receiver counted ${receiver.items()} items`);

    const perSecond = (ms: number) => (fileCount / ms) * 1000;
    const damsRate = perSecond(median(damsMs));
    const vipsRate = perSecond(median(vipsMs));
    const ratio = damsRate / vipsRate;
    console.log(
      [
        `publish: ${fileCount} photos ${width}×${height} → 1600 px JPEG q82 sRGB stripped, ${lanes} lanes, ${rounds} rounds (median), ${load.stop()}`,
        `  dams (publish API → delivery jobs → preset rendition → folder channel, NewsML-G2): ${damsRate.toFixed(1)} photos/s (${(damsRate * 60).toFixed(0)}/min)`,
        `  vipsthumbnail + cp:                                                             ${vipsRate.toFixed(1)} photos/s (${(vipsRate * 60).toFixed(0)}/min)`,
        `  ratio dams / peer: ${ratio.toFixed(2)} (target ≥ 0.7)${ratio >= 0.7 ? "" : "  BELOW TARGET"}`,
        `  HTTP channel (ninjs + the cached rendition, HMAC checked by the receiver): ${perSecond(httpMs).toFixed(1)} items/s (${(perSecond(httpMs) * 60).toFixed(0)}/min)`,
      ].join("\n"),
    );
  } finally {
    load?.stop();
    await app.close();
    await db.close();
    await receiver.close();
    agent.destroy();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
