import { createHash } from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import * as tus from "tus-js-client";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../../app.js";
import { type Config, loadConfig } from "../../config.js";
import type { Db } from "../../db/database.js";
import { API_PREFIX } from "../../http/error-handler.js";
import { type DialectName, useTestDb } from "../../test/dialects.js";
import { until } from "../../test/eventually.js";
import { buildBlobStore } from "../blobs/build-blob-store.js";

export const UPLOADS = `${API_PREFIX}/uploads`;
export const CORPUS = path.resolve(import.meta.dirname, "../../../../../shared/corpus/exif-samples");

export function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export interface RunningApp {
  app: FastifyInstance;
  base: string;
  config: Config;
}

/** The whole app on an ephemeral loopback port, on a data dir and database that outlive it (restarts). */
export async function startApp(db: Db, dataDir: string, env: Record<string, string> = {}) {
  const config = loadConfig({
    DAMS_DATA_DIR: dataDir,
    DAMS_WEB_DIR: path.join(dataDir, "web"),
    DAMS_LOG_LEVEL: "silent",
    ...env,
  });
  const app = await buildApp({ config, db, logger: false });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  return { app, config, base: `http://127.0.0.1:${port}` } satisfies RunningApp;
}

/** The bytes of a blob, read from the store the app is configured with. */
export async function storedBytes(running: RunningApp, key: string): Promise<Buffer> {
  const store = buildBlobStore(running.config.storage);
  const chunks: Buffer[] = [];
  for await (const chunk of await store.get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function temporaryDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "dams-uploads-"));
}

/** The whole app, started once for a describe block on a fresh database and data dir; closed and removed after it. */
export function useRunningApp(
  dialect: DialectName,
  env: Record<string, string> = {},
): { db: () => Db; running: () => RunningApp } {
  const db = useTestDb(dialect);
  const dataDir = temporaryDataDir();
  let running: RunningApp | undefined;
  beforeAll(async () => {
    running = await startApp(db(), dataDir, env);
  });
  afterAll(async () => {
    await running?.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { db, running: () => running! };
}

export interface UploadResult {
  url: string;
  status: number;
  body: {
    code: number;
    data: {
      upload: {
        blobKey: string;
        sha256: string;
        size: number;
        mime: string;
        kind: string;
        originalName: string | null;
      };
      result: unknown;
    };
  };
}

/** Uploads (or resumes, with `uploadUrl`) through tus-js-client; resolves on success, rejects with the DetailedError. */
export function tusUpload(
  base: string,
  token: string,
  file: Buffer,
  options: { metadata?: Record<string, string>; uploadUrl?: string; chunkSize?: number } = {},
): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(file, {
      endpoint: `${base}${UPLOADS}`,
      headers: { authorization: `Bearer ${token}` },
      metadata: options.metadata ?? {},
      // Only when given: an explicit undefined would replace tus-js-client's defaults.
      ...(options.uploadUrl ? { uploadUrl: options.uploadUrl } : {}),
      ...(options.chunkSize ? { chunkSize: options.chunkSize } : {}),
      retryDelays: null,
      onError: reject,
      onSuccess: ({ lastResponse }) =>
        resolve({
          url: upload.url!,
          status: lastResponse.getStatus(),
          body: JSON.parse(lastResponse.getBody()) as UploadResult["body"],
        }),
    });
    upload.start();
  });
}

export function encodedMetadata(metadata: Record<string, string | Buffer>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");
}

/** A creation-with-upload POST carrying the whole file, as tus clients send a small file. */
export async function postWhole(
  base: string,
  token: string,
  file: Buffer,
  metadata: Record<string, string | Buffer> = {},
) {
  const response = await fetch(`${base}${UPLOADS}`, {
    method: "POST",
    headers: tusHeaders(token, {
      "upload-length": String(file.length),
      "content-type": "application/offset+octet-stream",
      ...(Object.keys(metadata).length ? { "upload-metadata": encodedMetadata(metadata) } : {}),
    }),
    body: new Uint8Array(file),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) };
}

/** Creates an upload with a plain POST; returns its URL. */
export async function createUpload(
  base: string,
  token: string,
  length: number,
  metadata: Record<string, string> = {},
): Promise<string> {
  const encoded = Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");
  const response = await fetch(`${base}${UPLOADS}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "tus-resumable": "1.0.0",
      "upload-length": String(length),
      ...(encoded ? { "upload-metadata": encoded } : {}),
    },
  });
  if (response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
  return new URL(response.headers.get("location")!, base).toString();
}

export function tusHeaders(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, "tus-resumable": "1.0.0", ...extra };
}

/** A PATCH's headers: tus's, and where its bytes go and what they are. */
export function patchHeaders(token: string, offset: number | string): Record<string, string> {
  return tusHeaders(token, { "upload-offset": String(offset), "content-type": "application/offset+octet-stream" });
}

export async function offsetOf(url: string, token: string): Promise<number> {
  const response = await fetch(url, { method: "HEAD", headers: tusHeaders(token) });
  if (response.status !== 200) throw new Error(`HEAD ${url}: ${response.status}`);
  return Number(response.headers.get("upload-offset"));
}

/**
 * A PATCH that dies after `bytes` bytes: it announces the whole rest in
 * Content-Length, sends a part of it and closes the socket, like a phone
 * losing its network mid-request.
 */
/**
 * A PATCH of `bytes` from `from` whose connection is cut mid-body. With `received`, the cut waits until it says
 * the server has stored some of the bytes (the local store writes them as they come: see `stagedBeyond`); a busy
 * machine can take seconds to read the first. Without it (S3: the part is in the server's memory, nothing to
 * look at), the cut comes a moment after the bytes were handed to the socket, and the server may have kept any
 * number of them: the caller accepts every outcome.
 */
export async function interruptedPatch(
  url: string,
  token: string,
  file: Buffer,
  from: number,
  bytes: number,
  received?: () => boolean,
) {
  const { request } = await import("node:http");
  await new Promise<void>((resolve, reject) => {
    const req = request(url, {
      method: "PATCH",
      headers: tusHeaders(token, {
        "upload-offset": String(from),
        "content-type": "application/offset+octet-stream",
        "content-length": String(file.length - from),
      }),
    });
    req.on("error", () => resolve());
    req.on("response", (response) => {
      response.resume();
      resolve();
    });
    req.write(file.subarray(from, from + bytes), () => {
      if (!received) return void setTimeout(() => req.destroy(), 50);
      until(received, "the server to store the first bytes of the PATCH", 120_000).then(() => req.destroy(), reject);
    });
  });
}

/** Whether the local store's staged file of the upload at `url` holds more than `offset` bytes. */
export function stagedBeyond(running: RunningApp, url: string, offset: number): () => boolean {
  const file = path.join(running.config.uploads.directory, new URL(url).pathname.split("/").pop()!);
  return () => fs.existsSync(file) && fs.statSync(file).size > offset;
}
