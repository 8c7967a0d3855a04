import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import http from "node:http";
import path from "node:path";

/**
 * What the ingest benchmarks (ingest.bench.ts, upload-batch.bench.ts) share
 * about their peer, the bare node:http PUT server of ingest-bare-server.ts:
 * starting it, uploading to it, and the one HTTP client both benchmarks use
 * for it and for dams (node:http, the whole body written at once), so their
 * ratios compare the servers, not the clients.
 */

const root = path.resolve(import.meta.dirname, "..");

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Send = (url: string, method: string, headers: Record<string, string>, body?: Buffer) => Promise<Answer>;

/** One HTTP request with the whole body written at once, through `agent`. */
export function sender(agent: http.Agent): Send {
  return (url, method, headers, body) =>
    new Promise((resolve, reject) => {
      const request = http.request(url, {
        method,
        agent,
        headers: { ...headers, "content-length": String(body?.length ?? 0) },
      });
      request.on("error", reject);
      request.on("response", (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      });
      request.end(body);
    });
}

/** Starts the peer on 127.0.0.1:`port`, storing into `directory`; resolves once it listens. */
export function startBarePeer(port: number, directory: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "ingest-bare-server.ts"), String(port), directory],
      { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.split("\n").some((line) => line.startsWith("listening"))) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`ingest-bare-server.ts exited with ${code}`)));
  });
}

/** PUTs `file` to the peer at `base` under `name`; resolves with the SHA-256 the peer computed. */
export async function bareUpload(send: Send, base: string, file: Buffer, name: string): Promise<string> {
  const response = await send(
    `${base}/files/${encodeURIComponent(name)}`,
    "PUT",
    { "content-type": "application/octet-stream" },
    file,
  );
  if (response.status !== 201) throw new Error(`${response.status}: ${response.body}`);
  return (JSON.parse(response.body) as { sha256: string }).sha256;
}

/** Runs `work` on every item, at most `limit` at a time. */
export async function inParallel<T>(
  items: T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

/**
 * A tus upload to dams as the upload page's client makes it: POST with the
 * Upload-Metadata, then one PATCH with the whole file; checks the SHA-256 dams
 * computed and resolves with the story it made.
 */
export async function tusPostPatch(
  send: Send,
  base: string,
  token: string,
  file: Buffer,
  metadata: Record<string, string>,
): Promise<{ storyId: string }> {
  const auth = { authorization: `Bearer ${token}`, "tus-resumable": "1.0.0" };
  const created = await send(`${base}/dams/api/v1/uploads`, "POST", {
    ...auth,
    "upload-length": String(file.length),
    "upload-metadata": Object.entries(metadata)
      .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
      .join(","),
  });
  if (created.status !== 201) throw new Error(`POST ${created.status}: ${created.body}`);
  const patched = await send(
    new URL(created.headers.location!, base).toString(),
    "PATCH",
    { ...auth, "upload-offset": "0", "content-type": "application/offset+octet-stream" },
    file,
  );
  if (patched.status !== 200 && patched.status !== 204) throw new Error(`PATCH ${patched.status}: ${patched.body}`);
  const result = (JSON.parse(patched.body) as { data: { upload: { sha256: string }; result: { storyId: string } } })
    .data;
  if (result.upload.sha256 !== createHash("sha256").update(file).digest("hex")) throw new Error("hash mismatch");
  return { storyId: result.result.storyId };
}
