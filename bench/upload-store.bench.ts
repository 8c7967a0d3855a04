/**
 * The S3 upload store alone (issue 20), without HTTP, tus or a second
 * process: a file written in 50 MiB writes alternating between two store
 * instances (two nodes behind a balancer), then its SHA-256 as the completion
 * asks for it. Compares `@tus/s3-store`'s own write path (each part through a
 * temporary file) with HashingS3Store (parts from memory, unsigned); both
 * keep node:crypto's running hash in the process, which the alternation
 * loses, so the upload is read back. CPU seconds of this process
 * and of Ceph, per round, alternated.
 *
 *   npx tsx upload-store.bench.ts      (BENCH_STORE_MIB=512, BENCH_STORE_ROUNDS=2, BENCH_STORE_WRITE_MIB=50)
 */
import { createHash, randomFillSync } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CreateBucketCommand, GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { S3Store } from "@tus/s3-store";
import { Upload } from "@tus/utils";
import { startRgw, stopRgw } from "../scripts/ceph-rgw.mjs";
import { HashingS3Store } from "../server/src/modules/uploads/hashing-s3-store.js";
import { RunningHashes } from "../server/src/modules/uploads/running-hashes.js";
import { LoadSampler, processCpuSeconds, spread } from "./machine.js";

const MiB = 1024 * 1024;
const size = Number(process.env.BENCH_STORE_MIB ?? 512) * MiB;
const rounds = Number(process.env.BENCH_STORE_ROUNDS ?? 2);
const WRITE = Number(process.env.BENCH_STORE_WRITE_MIB ?? 50) * MiB;

/** `@tus/s3-store` as shipped, with the running hash the server had before issue 20. */
class ShippedStore extends S3Store {
  readonly hashes = new RunningHashes();

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const { source, settle } = this.hashes.tap(id, offset, readable);
    const newOffset = await super.write(source, id, offset);
    settle(newOffset);
    return newOffset;
  }
}

function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

async function main(): Promise<void> {
  const rgw = await startRgw({ memoryMiB: Math.ceil((size / MiB) * 3) + 1024 });
  const cephCpu = () =>
    [rgw.pids.rgw, rgw.pids.osd, rgw.pids.mon].reduce<number>(
      (total, pid) => total + (pid ? processCpuSeconds(pid) : 0),
      0,
    );
  const s3ClientConfig = {
    region: rgw.region,
    endpoint: rgw.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
    requestChecksumCalculation: "WHEN_REQUIRED" as const,
    responseChecksumValidation: "WHEN_REQUIRED" as const,
  };
  const client = new S3Client(s3ClientConfig);
  const bucket = "upload-store-bench";
  const sampler = new LoadSampler();
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    const file = Buffer.allocUnsafe(size);
    randomFillSync(file);
    const expected = createHash("sha256").update(file).digest("hex");
    const options = { partSize: 16 * MiB, maxConcurrentPartUploads: 4, s3ClientConfig: { ...s3ClientConfig, bucket } };
    // The bytes of one write as a request brings them: 64 KiB chunks.
    const bytes = (from: number, to: number) => {
      const chunks: Buffer[] = [];
      for (let at = from; at < to; at += 64 * 1024) chunks.push(file.subarray(at, Math.min(to, at + 64 * 1024)));
      return Readable.from(chunks);
    };
    const upload = async (name: string, nodes: (ShippedStore | HashingS3Store)[]) => {
      const id = `uploads/${name}-${Date.now()}`;
      await nodes[0]!.create(new Upload({ id, size, offset: 0, metadata: {} }));
      const [ceph, own] = [cephCpu(), ownCpuSeconds()];
      let offset = 0;
      let last = nodes[0]!;
      for (let write = 0; offset < size; write++) {
        last = nodes[write % 2]!;
        offset = await last.write(bytes(offset, Math.min(size, offset + WRITE)), id, offset);
      }
      let sha256 = last.hashes.take(id, size);
      if (!sha256) {
        const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key: id }));
        const hash = createHash("sha256");
        await pipeline(Body as Readable, hash);
        sha256 = hash.digest("hex");
      }
      if (sha256 !== expected) throw new Error(`${name}: the SHA-256 differs from the file's`);
      return { own: ownCpuSeconds() - own, ceph: cephCpu() - ceph };
    };
    const runs = { shipped: [] as { own: number; ceph: number }[], hashing: [] as { own: number; ceph: number }[] };
    for (let round = 0; round < rounds; round++) {
      runs.shipped.push(await upload("shipped", [new ShippedStore(options), new ShippedStore(options)]));
      runs.hashing.push(await upload("hashing", [new HashingS3Store(options), new HashingS3Store(options)]));
    }
    console.log(
      `\nupload store, ${size / MiB} MiB in ${WRITE / MiB} MiB writes alternating between two stores, ${rounds} round(s); ${sampler.stop()}`,
    );
    console.log("  | store | CPU s, the stores' process | CPU s, Ceph |");
    console.log("  |---|---|---|");
    for (const [name, label] of [
      ["shipped", "@tus/s3-store (temporary files, node:crypto hash, read back)"],
      ["hashing", "HashingS3Store (parts from memory, unsigned; node:crypto hash, read back)"],
    ] as const) {
      const list = runs[name];
      console.log(`  | ${label} | ${spread(list.map((run) => run.own))} | ${spread(list.map((run) => run.ceph))} |`);
    }
  } finally {
    client.destroy();
    await stopRgw(rgw.dir);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
