import fs from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect } from "../../test/dialects.js";
import { until } from "../../test/eventually.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { CHUNK_SIZE_HEADER } from "./uploads.routes.js";
import {
  CORPUS,
  createUpload,
  offsetOf,
  patchHeaders,
  type RunningApp,
  sha256,
  stagedBeyond,
  storedBytes,
  tusHeaders,
  tusUpload,
  UPLOADS,
  useRunningApp,
} from "./uploads.test-support.js";

/** Every body must be whole within 1 s, except an upload's, which must bring a byte a second. */
const DEADLINE_MS = 1000;
const canon = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));

interface Answer {
  status: number;
  body: string;
}

/**
 * A request whose body comes like over a slow link: `trickle` bytes every 100 ms until `slowFor` ms have gone
 * (twice the deadline: longer than any body may take but an upload's), then the rest; or, with `stopAfter`,
 * that many bytes and then nothing, the connection left open. Resolves with the answer, or status 0 when the
 * server closed the connection without one.
 */
function slowRequest(
  url: string,
  init: { method: string; headers: Record<string, string>; body: Buffer; trickle?: number; stopAfter?: number },
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(url, {
      method: init.method,
      headers: { ...init.headers, "content-length": String(init.body.length) },
    });
    let settled = false;
    const settle = (answer: Answer) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      resolve(answer);
    };
    req.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => settle({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      response.on("error", () => settle({ status: response.statusCode ?? 0, body: "" }));
    });
    req.on("error", () => settle({ status: 0, body: "" }));
    const started = Date.now();
    let sent = 0;
    const trickle = init.trickle ?? 512;
    const timer = setInterval(() => {
      if (init.stopAfter !== undefined) {
        if (sent < init.stopAfter) req.write(init.body.subarray(0, init.stopAfter));
        sent = init.stopAfter;
        return;
      }
      const last = Date.now() - started > 2 * DEADLINE_MS;
      const next = last ? init.body.length : Math.min(sent + trickle, init.body.length);
      req.write(init.body.subarray(sent, next));
      sent = next;
      if (sent === init.body.length) {
        clearInterval(timer);
        req.end();
      }
    }, 100);
  });
}

describeEachDialect("how long a request's body may take", (dialect) => {
  const app = useRunningApp(dialect, {
    DAMS_REQUEST_TIMEOUT_MS: String(DEADLINE_MS),
    DAMS_UPLOAD_MIN_BYTES: "1",
    DAMS_UPLOAD_WINDOW_MS: "1000",
    DAMS_UPLOAD_CHUNK_MIB: "90",
  });
  let running: RunningApp;
  let alice: TestPrincipal;

  beforeAll(async () => {
    running = app.running();
    alice = await createPrincipal(app.db(), { username: `deadline-alice-${dialect}`, roleId: "contributor" });
  });

  it("answers 408 in the envelope when a JSON body is not whole within the deadline", async () => {
    const answer = await slowRequest(`${running.base}${API_PREFIX}/workflow-story-create/photo/commit`, {
      method: "POST",
      headers: { authorization: `Bearer ${alice.token}`, "content-type": "application/json" },
      body: Buffer.from(JSON.stringify({ storyIds: ["x"] }).padEnd(4000, " ")),
      stopAfter: 10,
    });
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 408, error: "request_timeout" });
  });

  it("keeps a tus PATCH that takes longer than the deadline while its bytes keep coming, and makes its story", async () => {
    const url = await createUpload(running.base, alice.token, canon.length, {
      filename: "slow.jpg",
      libraryId: "product",
    });
    const answer = await slowRequest(url, {
      method: "PATCH",
      headers: patchHeaders(alice.token, 0),
      body: canon,
    });
    expect(answer.status, answer.body).toBe(200);
    const upload = JSON.parse(answer.body).data.upload;
    expect(upload.sha256).toBe(sha256(canon));
    expect(sha256(await storedBytes(running, upload.blobKey))).toBe(sha256(canon));
  });

  it("cuts an upload whose bytes stop coming, keeps what came, and lets the client resume", async () => {
    const url = await createUpload(running.base, alice.token, canon.length, { filename: "stalled.jpg" });
    const half = Math.floor(canon.length / 2);
    const answer = await slowRequest(url, {
      method: "PATCH",
      headers: patchHeaders(alice.token, 0),
      body: canon,
      stopAfter: half,
    });
    // Cut with a 408, or closed before tus could answer: either way the request ends and the bytes stay.
    expect([0, 408]).toContain(answer.status);
    await until(stagedBeyond(running, url, 0), "the stalled PATCH's bytes to be kept", 120_000);
    const offset = await offsetOf(url, alice.token);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(half);
    const done = await tusUpload(running.base, alice.token, canon, { uploadUrl: url });
    expect(done.body.data.upload.sha256).toBe(sha256(canon));
  });

  it("lets a WebDAV PUT take longer than the deadline while its bytes keep coming", async () => {
    const answer = await slowRequest(`${running.base}/dav/slow-put.jpg`, {
      method: "PUT",
      headers: {
        authorization: `Basic ${Buffer.from(`${alice.username}:${alice.token}`).toString("base64")}`,
        "content-type": "image/jpeg",
      },
      body: canon,
    });
    expect(answer.status, answer.body).toBe(201);
    const back = await fetch(`${running.base}/dav/slow-put.jpg`, {
      headers: { authorization: `Basic ${Buffer.from(`${alice.username}:${alice.token}`).toString("base64")}` },
    });
    expect(sha256(Buffer.from(await back.arrayBuffer()))).toBe(sha256(canon));
  });

  it("tells the web app the PATCH size a proxy's body limit needs, when one is configured", async () => {
    const options = await fetch(`${running.base}${UPLOADS}`, { method: "OPTIONS", headers: tusHeaders(alice.token) });
    expect(options.headers.get(CHUNK_SIZE_HEADER)).toBe(String(90 * 1024 * 1024));
  });
});
