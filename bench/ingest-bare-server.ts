import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { PassThrough } from "node:stream";
import { pipeline } from "node:stream/promises";

/**
 * The peer of the ingest benchmark: a bare node:http PUT handler that pipes
 * the body through SHA-256 into a file, fsyncs it and renames it into place
 * (the file fsync dams does too; dams also fsyncs the directory), and answers the hash.
 *
 *   tsx ingest-bare-server.ts <port> <directory>
 */
const [port, directory] = process.argv.slice(2) as [string, string];
fs.mkdirSync(directory, { recursive: true });

const server = http.createServer(async (request, response) => {
  if (request.method !== "PUT") return response.writeHead(405).end();
  const temporary = path.join(directory, `.${randomUUID()}`);
  const hash = createHash("sha256");
  const tap = new PassThrough();
  tap.on("data", (chunk: Buffer) => hash.update(chunk));
  try {
    await pipeline(request, tap, fs.createWriteStream(temporary));
    const handle = await fs.promises.open(temporary, "r+");
    await handle.sync();
    const { size } = await handle.stat();
    await handle.close();
    await fs.promises.rename(temporary, path.join(directory, randomUUID()));
    response.writeHead(201, { "content-type": "application/json" });
    response.end(JSON.stringify({ sha256: hash.digest("hex"), size }));
  } catch {
    await fs.promises.rm(temporary, { force: true });
    if (!response.headersSent) response.writeHead(500);
    response.end();
  }
});
server.requestTimeout = 0;
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("listening\n"));
