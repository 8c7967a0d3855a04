import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import type { Readable } from "node:stream";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import pg from "pg";
import type { DamsProcess, Topology } from "../../../../scripts/scale-out.mjs";

export const API = "/dams/api/v1";
const cli = path.resolve(import.meta.dirname, "../../../dist/cli.js");

/** How the scale-out tests poll: processes over HTTP, whose reads may fail while a node restarts. */
export const acrossProcesses = { limitMs: 120_000, intervalMs: 200, retryErrors: true } as const;

/** The cluster as the test sees it: its database, its bucket, its processes' logs. */
export class Cluster {
  readonly pool: pg.Pool;
  readonly s3: S3Client;

  constructor(readonly topology: Topology) {
    this.pool = new pg.Pool({ connectionString: topology.postgres.url, max: 2 });
    // The test's own connections die with a PostgreSQL restart too: a dropped idle one is not an error here.
    this.pool.on("error", () => {});
    this.s3 = new S3Client({
      region: topology.rgw.region,
      endpoint: topology.rgw.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: topology.rgw.accessKeyId, secretAccessKey: topology.rgw.secretAccessKey },
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  get lb(): string {
    return this.topology.url;
  }

  node(name: string): DamsProcess & { url: string } {
    const node = [...this.topology.api, ...this.topology.workers].find((candidate) => candidate.name === name);
    if (!node) throw new Error(`no process ${name}`);
    return node as DamsProcess & { url: string };
  }

  async query<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
    return (await this.pool.query<Row>(text, values)).rows;
  }

  /** An API token for the administrator, made with the CLI against the cluster's database. */
  adminToken(): string {
    const result = spawnSync(process.execPath, [cli, "token", "create", "admin", "--name", "multi-node test"], {
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: this.topology.postgres.url, DAMS_LOG_LEVEL: "silent" },
    });
    if (result.status !== 0) throw new Error(`dams token create: ${result.stderr}`);
    return result.stdout.trim();
  }

  /** SHA-256 of an object in the bucket, streamed. */
  async objectSha256(key: string): Promise<string> {
    const object = await this.s3.send(new GetObjectCommand({ Bucket: this.topology.bucket, Key: key }));
    const hash = createHash("sha256");
    for await (const chunk of object.Body as Readable) hash.update(chunk as Buffer);
    return hash.digest("hex");
  }

  async keys(prefix: string): Promise<string[]> {
    const page = await this.s3.send(new ListObjectsV2Command({ Bucket: this.topology.bucket, Prefix: prefix }));
    return (page.Contents ?? []).map((object) => object.Key!).sort();
  }

  /** Requests each API node logged (pino's "incoming request"), by method and path pattern. */
  requestsPerNode(method: string, pathPattern: RegExp): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const node of this.topology.api) {
      counts[node.name] = 0;
      for (const line of node.log().split("\n")) {
        if (!line.includes('"incoming request"')) continue;
        const { req } = JSON.parse(line) as { req?: { method?: string; url?: string } };
        if (req?.method === method && pathPattern.test(req.url ?? "")) counts[node.name]! += 1;
      }
    }
    return counts;
  }

  /** Jobs each worker finished, from their logs ("job succeeded"). */
  jobsPerWorker(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const worker of this.topology.workers) {
      counts[worker.name] = worker
        .log()
        .split("\n")
        .filter((line) => line.includes('"job succeeded"')).length;
    }
    return counts;
  }

  /** The errors (pino level 50 and up) each API node and worker logged, for a failed scenario's report. */
  errorLines(): string[] {
    return [...this.topology.api, ...this.topology.workers].flatMap((process) =>
      process
        .log()
        .split("\n")
        .filter((line) => /"level":(50|60)/.test(line))
        .map((line) => `${process.name}: ${line}`),
    );
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
    this.s3.destroy();
  }
}

/** fetch with the bearer token and JSON body, answering the parsed envelope. */
export async function call<T = unknown>(
  base: string,
  token: string,
  route: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: { code: number; msg: string; data: T; error?: string; msgCode?: string } }> {
  const response = await fetch(`${base}${API}${route}`, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

/** tus headers with the token. */
export function tusHeaders(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, "tus-resumable": "1.0.0", ...extra };
}

/** One whole upload in a single POST (creation-with-upload); answers the sink's result. */
export async function uploadWhole(
  base: string,
  token: string,
  bytes: Buffer,
  metadata: Record<string, string>,
): Promise<{
  status: number;
  body: { data?: { upload: { blobKey: string }; result: { libraryId: string; storyId: string } } };
}> {
  const encoded = Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");
  const response = await fetch(`${base}${API}/uploads`, {
    method: "POST",
    headers: tusHeaders(token, {
      "upload-length": String(bytes.length),
      "upload-metadata": encoded,
      "content-type": "application/offset+octet-stream",
    }),
    body: new Uint8Array(bytes),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}
