import { randomUUID } from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import contentDisposition from "content-disposition";
import { Forbidden } from "../../http/errors.js";
import type { Actor } from "../auth/actor.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { inlineSafe, parseRange, USER_CONTENT_HEADERS } from "../blobs/send-blob.js";
import { DiskQuotaExceeded } from "../disk/disk.service.js";
import { fileBytes, spoolStream } from "../ingest/ingest-source.js";
import { DavLocks, lockTimeout, parseIf } from "./dav-locks.js";
import { fromFirstByte, segmentsUnder } from "./dav-paths.js";
import { DavProperties } from "./dav-properties.js";
import {
  activeLockXml,
  type DavAnswer,
  type DavRequest,
  DavStatus,
  etagOf,
  isFolder,
  keyOf,
  lockAnswer,
  multistatus,
  parsePropfind,
  parseProppatch,
  proppatchXml,
  type ResponseContext,
  responseXml,
} from "./dav-responses.js";
import type { DavEntry, DavTree, Found } from "./dav-tree.js";
import { DAV_NS, is, parseXml, propertyKey } from "./dav-xml.js";

export interface DavDependencies {
  /** What this mount serves (dav-tree.ts). */
  tree: DavTree;
  blobs: BlobStore;
  /** Where a PUT's or a COPY's bytes are spooled before the disk stores them. */
  workDir: string;
  /** Where the routes are (for hrefs and Destination headers). */
  prefix: string;
  /** The other mounts that take no changes: a COPY or MOVE into one answers 403 (another mount's: 502). */
  readOnlyPrefixes?: readonly string[];
  locks?: DavLocks;
}

/** The methods that change something: a read-only mount answers them 403. */
const CHANGES = new Set(["PUT", "DELETE", "MKCOL", "PROPPATCH", "COPY", "MOVE", "LOCK", "UNLOCK"]);

/**
 * WebDAV class 1 and 2 (RFC 4918) over one mount (a DavTree): the caller's
 * own disk, what colleagues shared with them, or the libraries they may read
 * (read-only: every change answers 403). Every change is a DiskService call
 * with the caller as actor (names, access, quota, type by content, the
 * operation log are the disk's). Dead properties and locks are kept in this
 * process's memory, per mount, user and path.
 */
export class DavService {
  readonly #locks: DavLocks;
  readonly #properties = new DavProperties();

  readonly #context: ResponseContext;

  constructor(private readonly deps: DavDependencies) {
    this.#locks = deps.locks ?? new DavLocks();
    this.#context = {
      href: (segments, folder) => this.href(segments, folder),
      readOnly: deps.tree.readOnly,
      locks: this.#locks,
      properties: this.#properties,
    };
  }

  href(segments: readonly string[], folder: boolean): string {
    const path = segments.map((segment) => encodeURIComponent(segment)).join("/");
    return `${this.deps.prefix}/${path}${folder && segments.length > 0 ? "/" : ""}`;
  }

  /** The segments of a path under the prefix; `.` and `..` are refused, never resolved. */
  segmentsOf(rawPath: string): string[] {
    return segmentsUnder(this.deps.prefix, this.deps.readOnlyPrefixes ?? [], rawPath);
  }

  async handle(actor: Actor, request: DavRequest): Promise<DavAnswer> {
    const { readOnly } = this.deps.tree;
    // The API's error envelope (403 dav_read_only), like every refusal of the auth hook.
    if (readOnly && CHANGES.has(request.method)) throw new Forbidden(readOnly, "dav_read_only");
    switch (request.method) {
      case "OPTIONS":
        return {
          status: 200,
          headers: readOnly
            ? { dav: "1", "ms-author-via": "DAV", allow: "OPTIONS, GET, HEAD, PROPFIND" }
            : {
                dav: "1, 2",
                "ms-author-via": "DAV",
                allow: "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK",
              },
        };
      case "GET":
      case "HEAD":
        return this.#get(actor, request);
      case "PUT":
        return this.#put(actor, request);
      case "DELETE":
        return this.#delete(actor, request);
      case "MKCOL":
        return this.#mkcol(actor, request);
      case "PROPFIND":
        return this.#propfind(actor, request);
      case "PROPPATCH":
        return this.#proppatch(actor, request);
      case "COPY":
      case "MOVE":
        return this.#copyOrMove(actor, request);
      case "LOCK":
        return this.#lock(actor, request);
      case "UNLOCK":
        return this.#unlock(actor, request);
      default:
        throw new DavStatus(405);
    }
  }

  #find(actor: Actor, segments: readonly string[]): Promise<Found> {
    return this.deps.tree.find(actor, segments);
  }

  #list(actor: Actor, segments: readonly string[], folder: DavEntry | null): Promise<DavEntry[]> {
    return this.deps.tree.list(actor, segments, folder);
  }

  /** The folder a new item at `segments` goes into (its id; null for the root), or 409; 403 at a fixed root. */
  async #parentOf(actor: Actor, segments: readonly string[]): Promise<string | null> {
    if (segments.length === 0) throw new DavStatus(405);
    const parent = await this.#find(actor, segments.slice(0, -1));
    if (parent === undefined || !isFolder(parent)) throw new DavStatus(409, "the parent folder does not exist");
    if (parent === null && this.deps.tree.fixedRoot) throw new DavStatus(403, this.deps.tree.fixedRoot);
    return parent?.id ?? null;
  }

  // ── If header and locks ────────────────────────────────────────────────

  /**
   * Evaluates the If header (412 when no list holds) and answers the lock
   * tokens it submits. Each path in `guarded` must then be free of locks, or
   * one of the locks covering it must be submitted (423 otherwise).
   */
  async #preconditions(
    actor: Actor,
    request: DavRequest,
    guarded: { segments: readonly string[]; deep?: boolean }[],
  ): Promise<Set<string>> {
    const submitted = new Set<string>();
    const header = request.header("if");
    if (header) {
      const lists = parseIf(header);
      if (!lists) throw new DavStatus(400, "the If header cannot be read");
      let holds = false;
      for (const list of lists) {
        const segments = list.resource ? this.#resourceSegments(list.resource) : request.segments;
        if (!segments) continue;
        const found = await this.#find(actor, segments);
        const etag = etagOf(found);
        const covering = new Set(this.#locks.covering(actor.id, keyOf(segments)).map((lock) => lock.token));
        const all = list.conditions.every((condition) => {
          const matched =
            condition.token !== undefined
              ? covering.has(condition.token)
              : etag !== undefined && condition.etag?.replace(/^W\//, "") === etag;
          return condition.not ? !matched : matched;
        });
        if (all) {
          holds = true;
          for (const condition of list.conditions)
            if (condition.token && !condition.not) submitted.add(condition.token);
        }
      }
      if (!holds) throw new DavStatus(412, "the If header's conditions do not hold");
    }
    for (const target of guarded) {
      const key = keyOf(target.segments);
      const locks = [
        ...this.#locks.covering(actor.id, key),
        ...(target.deep ? this.#locks.below(actor.id, key).filter((lock) => lock.path !== key) : []),
      ];
      if (locks.length > 0 && !locks.some((lock) => submitted.has(lock.token))) {
        throw new DavStatus(423, "the resource is locked: submit its lock token in the If header");
      }
    }
    return submitted;
  }

  #resourceSegments(href: string): string[] | undefined {
    try {
      const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(href) ? new URL(href).pathname : href;
      return this.segmentsOf(path);
    } catch {
      return undefined;
    }
  }

  // ── GET, HEAD, PUT, DELETE, MKCOL ──────────────────────────────────────

  async #get(actor: Actor, request: DavRequest): Promise<DavAnswer> {
    const found = await this.#find(actor, request.segments);
    if (found === undefined) throw new DavStatus(404);
    if (found === null || found.kind === "folder") {
      const items = await this.#list(actor, request.segments, found);
      const text = items.map((item) => `${item.name}${item.kind === "folder" ? "/" : ""}`).join("\n");
      return {
        status: 200,
        headers: { "content-type": "text/plain; charset=utf-8", ...USER_CONTENT_HEADERS },
        body: text,
      };
    }
    const counted = request.method === "GET" && fromFirstByte(request.header("range"));
    const { key, fileName, contentType } = await this.deps.tree.open(actor, request.segments, found, counted);
    const headers: Record<string, string | number> = {
      ...USER_CONTENT_HEADERS,
      "content-type": contentType,
      "content-disposition": contentDisposition(fileName, { type: inlineSafe(contentType) ? "inline" : "attachment" }),
      etag: etagOf(found) ?? "",
      ...(found.updatedAt ? { "last-modified": new Date(found.updatedAt).toUTCString() } : {}),
      "accept-ranges": "bytes",
    };
    const range = parseRange(request.header("range"), found.size);
    if (range.kind === "unsatisfiable") {
      return { status: 416, headers: { "content-range": `bytes */${found.size}` } };
    }
    if (range.kind === "partial") {
      const { start, end } = range.range;
      headers["content-range"] = `bytes ${start}-${end}/${found.size}`;
      headers["content-length"] = end - start + 1;
      return {
        status: 206,
        headers,
        body: request.method === "HEAD" ? undefined : await this.deps.blobs.get(key, range.range),
      };
    }
    headers["content-length"] = found.size;
    return { status: 200, headers, body: request.method === "HEAD" ? undefined : await this.deps.blobs.get(key) };
  }

  async #put(actor: Actor, request: DavRequest): Promise<DavAnswer> {
    if (request.header("content-range")) throw new DavStatus(400, "a PUT with Content-Range is not supported");
    const found = await this.#find(actor, request.segments);
    if (isFolder(found) && found !== undefined) throw new DavStatus(405, "a folder cannot be written");
    const parentId = await this.#parentOf(actor, request.segments);
    await this.#preconditions(actor, request, [
      { segments: request.segments },
      { segments: request.segments.slice(0, -1) },
    ]);
    // The space is the folder's owner's: a colleague's when it is a folder shared with the caller as edit.
    const { ownerId, usedBytes, quotaBytes } = await this.deps.tree.room(actor, parentId);
    const length = Number(request.header("content-length") ?? -1);
    if (length > 0) await this.deps.tree.checkQuota(ownerId, length - (found?.size ?? 0));
    // A body without a length is counted as it comes: past the room left, 507 and nothing kept.
    const spooled = await spoolStream(
      withinRoom(request.stream, usedBytes, quotaBytes, quotaBytes - usedBytes + (found?.size ?? 0)),
      this.deps.workDir,
    );
    await this.#store(actor, parentId, request.segments.at(-1) ?? "", spooled.file);
    const etag = etagOf(await this.#find(actor, request.segments));
    return { status: found ? 204 : 201, headers: etag ? { etag } : {} };
  }

  /** Stores a local file at a name of a folder (replacing a file of that name); the file is gone afterwards. */
  async #store(actor: Actor, parentId: string | null, name: string, file: string): Promise<void> {
    try {
      await this.deps.tree.storeFile(actor, parentId, name, fileBytes(file, this.deps.blobs));
    } finally {
      await fsp.rm(file, { force: true });
    }
  }

  async #emptyFile(): Promise<string> {
    await fsp.mkdir(this.deps.workDir, { recursive: true });
    const file = path.join(this.deps.workDir, randomUUID());
    await fsp.writeFile(file, "", { mode: 0o600 });
    return file;
  }

  async #delete(actor: Actor, request: DavRequest): Promise<DavAnswer> {
    const found = await this.#find(actor, request.segments);
    if (found === undefined) throw new DavStatus(404);
    if (found === null) throw new DavStatus(403, "the root cannot be deleted");
    await this.#preconditions(actor, request, [
      { segments: request.segments, deep: true },
      { segments: request.segments.slice(0, -1) },
    ]);
    await this.deps.tree.trash(actor, found.id);
    this.#forget(actor, request.segments);
    return { status: 204 };
  }

  async #mkcol(actor: Actor, request: DavRequest): Promise<DavAnswer> {
    if (request.body.length > 0) throw new DavStatus(415, "MKCOL takes no body");
    if ((await this.#find(actor, request.segments)) !== undefined) throw new DavStatus(405, "it exists already");
    const parentId = await this.#parentOf(actor, request.segments);
    await this.#preconditions(actor, request, [{ segments: request.segments.slice(0, -1) }]);
    await this.deps.tree.createFolder(actor, parentId, request.segments.at(-1) ?? "");
    return { status: 201 };
  }

  // ── COPY, MOVE ─────────────────────────────────────────────────────────

  async #copyOrMove(actor: Actor, request: DavRequest): Promise<DavAnswer> {
    const move = request.method === "MOVE";
    const source = await this.#find(actor, request.segments);
    if (source === undefined) throw new DavStatus(404);
    if (source === null) throw new DavStatus(403, "the root cannot be copied or moved");
    const destinationHeader = request.header("destination");
    if (!destinationHeader) throw new DavStatus(400, "a Destination header is required");
    let destinationPath: string;
    try {
      destinationPath = new URL(destinationHeader, "http://destination.invalid").pathname;
    } catch {
      throw new DavStatus(400, "the Destination header is not a URL");
    }
    const destination = this.segmentsOf(destinationPath);
    const from = keyOf(request.segments);
    const to = keyOf(destination);
    if (from === to) throw new DavStatus(403, "the source and the destination are the same");
    if (source.kind === "folder" && to.startsWith(`${from}/`)) {
      throw new DavStatus(403, "a folder cannot go inside itself");
    }
    const overwrite = (request.header("overwrite") ?? "T").toUpperCase() !== "F";
    const depth = request.header("depth") ?? "infinity";
    if (!move && depth !== "0" && depth.toLowerCase() !== "infinity")
      throw new DavStatus(400, "COPY takes Depth 0 or infinity");
    const parentId = await this.#parentOf(actor, destination);
    const existing = await this.#find(actor, destination);
    if (existing === null) throw new DavStatus(403);
    if (existing !== undefined && !overwrite) throw new DavStatus(412, "the destination exists and Overwrite is F");
    await this.#preconditions(actor, request, [
      ...(move ? [{ segments: request.segments, deep: true }, { segments: request.segments.slice(0, -1) }] : []),
      { segments: destination, deep: true },
      { segments: destination.slice(0, -1) },
    ]);
    if (existing !== undefined) {
      await this.deps.tree.trash(actor, existing.id);
      this.#forget(actor, destination);
    }
    const name = destination.at(-1) ?? "";
    if (move) {
      await this.deps.tree.move(actor, source.id, name, parentId);
      this.#locks.drop(actor.id, from);
      this.#properties.move(actor.id, from, to);
    } else {
      await this.#copy(actor, request.segments, source, parentId, name, depth === "0" ? 0 : Number.POSITIVE_INFINITY);
      this.#properties.copy(actor.id, from, to, depth === "0");
    }
    return { status: existing !== undefined ? 204 : 201 };
  }

  async #copy(
    actor: Actor,
    segments: readonly string[],
    source: DavEntry,
    parentId: string | null,
    name: string,
    depth: number,
  ): Promise<void> {
    if (source.kind === "file") {
      const { key } = await this.deps.tree.open(actor, segments, source, false);
      const spooled = await spoolStream(await this.deps.blobs.get(key), this.deps.workDir);
      await this.#store(actor, parentId, name, spooled.file);
      return;
    }
    const folderId = await this.deps.tree.createFolder(actor, parentId, name);
    if (depth <= 0) return;
    const items = await this.#list(actor, segments, source);
    for (const item of items) await this.#copy(actor, [...segments, item.name], item, folderId, item.name, depth - 1);
  }

  // ── Properties ─────────────────────────────────────────────────────────

  /** Dead properties and locks of a deleted path and what was below it go with it. */
  #forget(actor: Actor, segments: readonly string[]): void {
    this.#properties.forget(actor.id, keyOf(segments));
    this.#locks.drop(actor.id, keyOf(segments));
  }

  async #propfind(actor: Actor, request: DavRequest): Promise<DavAnswer> {
    const depth = (request.header("depth") ?? "infinity").toLowerCase();
    if (depth !== "0" && depth !== "1") {
      return multistatus(403, '<D:error xmlns:D="DAV:"><D:propfind-finite-depth/></D:error>', true);
    }
    const ask = parsePropfind(request.body);
    const found = await this.#find(actor, request.segments);
    if (found === undefined) throw new DavStatus(404);
    const responses = [responseXml(this.#context, actor, request.segments, found, ask)];
    if (depth === "1" && isFolder(found)) {
      const items = await this.#list(actor, request.segments, found);
      for (const item of items)
        responses.push(responseXml(this.#context, actor, [...request.segments, item.name], item, ask));
    }
    return multistatus(207, `<D:multistatus xmlns:D="DAV:">${responses.join("")}</D:multistatus>`);
  }

  async #proppatch(actor: Actor, request: DavRequest): Promise<DavAnswer> {
    const operations = parseProppatch(request.body);
    const found = await this.#find(actor, request.segments);
    if (found === undefined) throw new DavStatus(404);
    await this.#preconditions(actor, request, [{ segments: request.segments }]);
    // Live properties are the disk's: changing one is refused, and then nothing of the request is done.
    const refused = operations.filter((operation) => operation.element.ns === DAV_NS);
    if (refused.length === 0) {
      this.#properties.change(
        actor.id,
        keyOf(request.segments),
        operations.map(({ set, element }) => [propertyKey(element.ns, element.local), set ? element.inner : null]),
      );
    }
    const href = this.href(request.segments, isFolder(found));
    return multistatus(207, proppatchXml(href, operations, refused));
  }

  // ── LOCK, UNLOCK ───────────────────────────────────────────────────────

  async #lock(actor: Actor, request: DavRequest): Promise<DavAnswer> {
    const timeout = lockTimeout(request.header("timeout"));
    const key = keyOf(request.segments);
    if (request.body.length === 0) {
      // A refresh: the If header names the lock.
      const submitted = await this.#preconditions(actor, request, []);
      const lock = this.#locks.covering(actor.id, key).find((candidate) => submitted.has(candidate.token));
      if (!lock) throw new DavStatus(412, "a refresh names one of the resource's locks in the If header");
      this.#locks.refresh(lock, timeout);
      return lockAnswer(200, activeLockXml(this.#context, lock));
    }
    const root = parseXml(request.body);
    if (!is(root, "lockinfo")) throw new DavStatus(400, "the body must be a DAV:lockinfo");
    const scopeElement = root.children.find((child) => is(child, "lockscope"))?.children[0];
    const scope = is(scopeElement, "exclusive") ? "exclusive" : is(scopeElement, "shared") ? "shared" : undefined;
    const type = root.children.find((child) => is(child, "locktype"))?.children[0];
    if (!scope || !is(type, "write")) throw new DavStatus(400, "a lock is a write lock, exclusive or shared");
    const owner = root.children.find((child) => is(child, "owner"))?.inner ?? "";
    const depthHeader = (request.header("depth") ?? "infinity").toLowerCase();
    if (depthHeader !== "0" && depthHeader !== "infinity") throw new DavStatus(400, "a lock has Depth 0 or infinity");
    let found = await this.#find(actor, request.segments);
    await this.#preconditions(actor, request, []);
    const lock = this.#locks.take({
      userId: actor.id,
      path: key,
      depth: isFolder(found) && found !== undefined ? (depthHeader as "0" | "infinity") : "0",
      scope,
      owner,
      timeoutSeconds: timeout,
    });
    if (!lock) throw new DavStatus(423, "the resource is locked");
    if (found === undefined) {
      // A lock on an unmapped URL makes an empty file (RFC 4918 7.3).
      try {
        const parentId = await this.#parentOf(actor, request.segments);
        await this.#store(actor, parentId, request.segments.at(-1) ?? "", await this.#emptyFile());
        found = await this.#find(actor, request.segments);
      } catch (error) {
        this.#locks.release(lock.token);
        throw error;
      }
      return lockAnswer(201, activeLockXml(this.#context, lock), lock.token);
    }
    return lockAnswer(200, activeLockXml(this.#context, lock), lock.token);
  }

  async #unlock(actor: Actor, request: DavRequest): Promise<DavAnswer> {
    const token = /^\s*<([^>]+)>\s*$/.exec(request.header("lock-token") ?? "")?.[1];
    if (!token) throw new DavStatus(400, "UNLOCK needs a Lock-Token header");
    const lock = this.#locks.find(actor.id, token);
    const covers = this.#locks
      .covering(actor.id, keyOf(request.segments))
      .some((candidate) => candidate.token === token);
    if (!lock || !covers) {
      return multistatus(409, '<D:error xmlns:D="DAV:"><D:lock-token-matches-request-uri/></D:error>', true);
    }
    this.#locks.release(token);
    return { status: 204 };
  }
}

/** The stream, failing with the disk's 413 (507 here) once more than `room` bytes have come. */
function withinRoom(stream: Readable, used: number, quota: number, room: number): Readable {
  let count = 0;
  const limited = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      count += chunk.length;
      if (count > room) done(new DiskQuotaExceeded(used, quota, count));
      else done(null, chunk);
    },
  });
  stream.on("error", (error) => limited.destroy(error));
  return stream.pipe(limited);
}

export type { DavAnswer, DavRequest } from "./dav-responses.js";
export { DavStatus, davStatusOf } from "./dav-responses.js";
