import type { Readable } from "node:stream";
import { AppError } from "../../http/errors.js";
import type { Actor } from "../auth/actor.js";
import type { DavLock, DavLocks } from "./dav-locks.js";
import type { DavProperties } from "./dav-properties.js";
import type { Found } from "./dav-tree.js";
import {
  DAV_NS,
  elementXml,
  escapeXml,
  is,
  parseXml,
  propertyKey,
  splitKey,
  XML_HEAD,
  type XmlElement,
} from "./dav-xml.js";

/** A WebDAV answer that is not an error of the disk: a status, maybe headers and a body. */
export class DavStatus extends Error {
  constructor(
    readonly status: number,
    readonly body?: string,
  ) {
    super(`WebDAV ${status}`);
  }
}

export interface DavRequest {
  method: string;
  /** The decoded path segments after /dav. */
  segments: string[];
  header(name: string): string | undefined;
  /** The body of PROPFIND, PROPPATCH, LOCK, MKCOL (read whole, small). */
  body: Buffer;
  /** A PUT's body, streamed. */
  stream: Readable;
}

export interface DavAnswer {
  status: number;
  headers?: Record<string, string | number>;
  body?: string | Readable;
}

/** What rendering a mount's PROPFIND and LOCK answers needs of it. */
export interface ResponseContext {
  href(segments: readonly string[], folder: boolean): string;
  /** Why the mount is read-only, when it is: such a mount takes no locks. */
  readOnly: string | undefined;
  locks: DavLocks;
  properties: DavProperties;
}

/** The live properties, the disk's own. */
export const LIVE = [
  "resourcetype",
  "getcontentlength",
  "getcontenttype",
  "getlastmodified",
  "creationdate",
  "getetag",
  "displayname",
  "supportedlock",
  "lockdiscovery",
] as const;

export /** What a PROPFIND asks for. */
type Ask = { kind: "all" } | { kind: "names" } | { kind: "some"; names: { ns: string; local: string }[] };

export function keyOf(segments: readonly string[]): string {
  return segments.join("/");
}

export function isFolder(found: Found): boolean {
  return found === null || found?.kind === "folder";
}

export function etagOf(found: Found): string | undefined {
  if (!found) return undefined;
  return `"${found.id}-${found.updatedAt ? Date.parse(found.updatedAt) : 0}-${found.size}"`;
}

function liveProperty(
  context: ResponseContext,
  actor: Actor,
  segments: readonly string[],
  found: Found,
  name: (typeof LIVE)[number],
): string | undefined {
  const folder = isFolder(found);
  switch (name) {
    case "resourcetype":
      return folder ? "<D:collection/>" : "";
    case "getcontentlength":
      return folder ? undefined : String(found?.size ?? 0);
    case "getcontenttype":
      return folder ? undefined : escapeXml(found?.mime ?? "application/octet-stream");
    case "getlastmodified":
      return found?.updatedAt ? new Date(found.updatedAt).toUTCString() : undefined;
    case "creationdate":
      return found?.createdAt ? new Date(found.createdAt).toISOString() : undefined;
    case "getetag":
      return folder ? undefined : escapeXml(etagOf(found) ?? "");
    case "displayname":
      return escapeXml(segments.at(-1) ?? "");
    case "supportedlock":
      // A read-only mount takes no locks (DAV: 1).
      if (context.readOnly) return "";
      return ["exclusive", "shared"]
        .map(
          (scope) =>
            `<D:lockentry><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>`,
        )
        .join("");
    case "lockdiscovery":
      return context.locks
        .covering(actor.id, keyOf(segments))
        .map((lock) => activeLockXml(context, lock))
        .join("");
  }
}

/** A lock as DAV:activelock. */
export function activeLockXml(context: ResponseContext, lock: DavLock): string {
  const root = lock.path === "" ? [] : lock.path.split("/");
  return [
    "<D:activelock>",
    `<D:locktype><D:write/></D:locktype><D:lockscope><D:${lock.scope}/></D:lockscope>`,
    `<D:depth>${lock.depth}</D:depth>`,
    lock.owner ? `<D:owner>${lock.owner}</D:owner>` : "",
    `<D:timeout>Second-${Math.max(0, Math.round((lock.expiresAt - Date.now()) / 1000))}</D:timeout>`,
    `<D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken>`,
    `<D:lockroot><D:href>${escapeXml(context.href(root, true))}</D:href></D:lockroot>`,
    "</D:activelock>",
  ].join("");
}

/** One DAV:response of a PROPFIND: the asked properties found (200) and missing (404). */
export function responseXml(
  context: ResponseContext,
  actor: Actor,
  segments: readonly string[],
  found: Found,
  ask: Ask,
): string {
  const dead = context.properties.of(actor.id, keyOf(segments));
  const ok: string[] = [];
  const missing: string[] = [];
  if (ask.kind === "names") {
    for (const name of LIVE)
      if (liveProperty(context, actor, segments, found, name) !== undefined) ok.push(`<D:${name}/>`);
    for (const key of dead?.keys() ?? []) ok.push(elementXml(splitKey(key).ns, splitKey(key).local, null));
  } else if (ask.kind === "all") {
    for (const name of LIVE) {
      const value = liveProperty(context, actor, segments, found, name);
      if (value !== undefined) ok.push(elementXml(DAV_NS, name, value));
    }
    for (const [key, value] of dead ?? []) ok.push(elementXml(splitKey(key).ns, splitKey(key).local, value));
  } else {
    for (const { ns, local } of ask.names) {
      const live = ns === DAV_NS && (LIVE as readonly string[]).includes(local);
      const value = live
        ? liveProperty(context, actor, segments, found, local as (typeof LIVE)[number])
        : dead?.get(propertyKey(ns, local));
      if (value === undefined) missing.push(elementXml(ns, local, null));
      else ok.push(elementXml(ns, local, value));
    }
  }
  const propstat = (props: string[], status: string) =>
    props.length === 0
      ? ""
      : `<D:propstat><D:prop>${props.join("")}</D:prop><D:status>HTTP/1.1 ${status}</D:status></D:propstat>`;
  return `<D:response><D:href>${escapeXml(context.href(segments, isFolder(found)))}</D:href>${propstat(ok, "200 OK")}${propstat(missing, "404 Not Found")}</D:response>`;
}

export function multistatus(status: number, xml: string, _error = false): DavAnswer {
  return { status, headers: { "content-type": 'application/xml; charset="utf-8"' }, body: XML_HEAD + xml };
}

export function lockAnswer(status: number, activeLock: string, token?: string): DavAnswer {
  const answer = multistatus(
    status,
    `<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLock}</D:lockdiscovery></D:prop>`,
  );
  if (token) answer.headers = { ...answer.headers, "lock-token": `<${token}>` };
  return answer;
}

/** The disk's quota answer in WebDAV's words: 507 Insufficient Storage. */
export function davStatusOf(error: unknown): number | undefined {
  if (error instanceof DavStatus) return error.status;
  if (error instanceof AppError && error.code === "disk_quota_exceeded") return 507;
  return undefined;
}

const PROPERTY_NAMES_LIMIT = 1000;

/** What a PROPFIND body asks for (none: all properties). */
export function parsePropfind(body: Buffer): Ask {
  let ask: Ask = { kind: "all" };
  if (body.length > 0) {
    const root = parseXml(body);
    if (!is(root, "propfind")) throw new DavStatus(400, "the body must be a DAV:propfind");
    const what = root.children[0];
    if (is(what, "propname")) ask = { kind: "names" };
    else if (what && is(what, "prop")) {
      if (what.children.length > PROPERTY_NAMES_LIMIT) throw new DavStatus(400, "too many properties asked for");
      ask = { kind: "some", names: what.children.map((child) => ({ ns: child.ns, local: child.local })) };
    } else if (!is(what, "allprop")) throw new DavStatus(400, "DAV:propfind holds allprop, propname or prop");
  }
  return ask;
}

/** A PROPPATCH body's changes in order: each a property set (with its value) or removed. */
export function parseProppatch(body: Buffer): { set: boolean; element: XmlElement }[] {
  const root = parseXml(body);
  if (!is(root, "propertyupdate")) throw new DavStatus(400, "the body must be a DAV:propertyupdate");
  const operations: { set: boolean; element: XmlElement }[] = [];
  for (const change of root.children) {
    if (!is(change, "set") && !is(change, "remove")) continue;
    const prop = change.children.find((child) => is(child, "prop"));
    if (!prop) throw new DavStatus(400, "DAV:set and DAV:remove hold a DAV:prop");
    for (const element of prop.children) operations.push({ set: is(change, "set"), element });
  }
  if (operations.length > PROPERTY_NAMES_LIMIT) throw new DavStatus(400, "too many properties at once");
  return operations;
}

/** A PROPPATCH's multistatus: all 200, or the refused 403 and the rest 424 (nothing was done). */
export function proppatchXml(
  href: string,
  operations: { set: boolean; element: XmlElement }[],
  refused: { set: boolean; element: XmlElement }[],
): string {
  const byStatus = new Map<string, string[]>();
  for (const operation of operations) {
    const status =
      refused.length === 0 ? "200 OK" : refused.includes(operation) ? "403 Forbidden" : "424 Failed Dependency";
    const list = byStatus.get(status) ?? [];
    list.push(elementXml(operation.element.ns, operation.element.local, null));
    byStatus.set(status, list);
  }
  const propstats = [...byStatus]
    .map(
      ([status, props]) =>
        `<D:propstat><D:prop>${props.join("")}</D:prop><D:status>HTTP/1.1 ${status}</D:status></D:propstat>`,
    )
    .join("");
  return `<D:multistatus xmlns:D="DAV:"><D:response><D:href>${escapeXml(href)}</D:href>${propstats}</D:response></D:multistatus>`;
}
