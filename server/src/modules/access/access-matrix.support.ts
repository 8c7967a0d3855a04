import type { InjectOptions } from "fastify";
import { textWatermark } from "../../test/preset-bodies.js";
import type { TestPrincipal } from "../../test/principals.js";

/**
 * Every seeded role × every endpoint group of the identity work × own/other
 * library. A refused cell answers 403 (404 where existence must not leak)
 * and carries no data. The expectations are written out here as data, not
 * derived from the code under test.
 */

export const WHO = ["admin", "administrator", "editor", "contributor", "viewer"] as const;
export type Who = (typeof WHO)[number];

/** `admin` holds the administrator role and users.admin; `administrator` holds the role alone. */
export const ROLE_OF: Record<Who, string> = {
  admin: "administrator",
  administrator: "administrator",
  editor: "editor",
  contributor: "contributor",
  viewer: "viewer",
};

export type Expectation = Record<Who, number>;
/** The same answer for every caller. */
const forAll = (status: number): Expectation => Object.fromEntries(WHO.map((who) => [who, status])) as Expectation;
export const BACK_AREA: Expectation = { admin: 200, administrator: 200, editor: 403, contributor: 403, viewer: 403 };
/** The system settings (`manage.setting.*`): users.admin only, not the administrator role alone. */
export const ADMINS_ONLY: Expectation = { admin: 200, administrator: 403, editor: 403, contributor: 403, viewer: 403 };
export const EVERYONE = forAll(200);
export const NOBODY_SEES_IT = forAll(404);
/** Back-area routes on something that does not exist: the permission first (403), then 404. */
export const MANAGERS_FIND_NOTHING: Expectation = {
  admin: 404,
  administrator: 404,
  editor: 403,
  contributor: 403,
  viewer: 403,
};
/** The roles whose permissions include reading the back area's monitors (`manage.monitor.*` query). */
export const MONITOR_READERS: Expectation = {
  admin: 200,
  administrator: 200,
  editor: 200,
  contributor: 403,
  viewer: 403,
};
/** Monitor readers pass the hook and find nothing (404); the others are refused by it. */
export const MONITOR_READERS_FIND_NOTHING: Expectation = {
  admin: 404,
  administrator: 404,
  editor: 404,
  contributor: 403,
  viewer: 403,
};
/** The roles whose permissions include making videos (`upload.video`): everyone but viewers. */
export const VIDEO_MAKERS: Expectation = { admin: 200, administrator: 200, editor: 200, contributor: 200, viewer: 403 };

/** Only users.admin (the `admin` access of a route), not the administrator role alone. */
export const ADMIN_ONLY: Expectation = { admin: 200, administrator: 403, editor: 403, contributor: 403, viewer: 403 };
/** Allowed through the hook (the item asked for does not exist: 404), or refused by it (403). */
export const DISK_SHARERS: Expectation = { admin: 404, administrator: 404, editor: 404, contributor: 403, viewer: 403 };
export const NOT_FOUND_FOR_ALL = forAll(404);

export interface Fixtures {
  principals: Record<Who, TestPrincipal>;
  /** Committed video stories with an EDL file: one in material, one in the outsider's library. */
  videos: { material: string; outsider: string };
  /** A render of another user's. */
  outsiderRender: string;
  /** A share link another editor made. */
  outsiderShare: string;
  outsider: TestPrincipal;
  target: TestPrincipal;
  serial: () => number;
  newRole: () => Promise<string>;
  newGrant: () => Promise<string>;
  newToken: (userId: string) => Promise<string>;
  /** A library without stories, made through the administrators' API. */
  newLibrary: () => Promise<string>;
  /** Ends every queued integrity check, so another may start. */
  endIntegrityChecks: () => Promise<void>;
}

/** manage.setting.* is the system-settings group: users.admin only, whatever the role holds. */
export const SYSTEM_SETTINGS: Expectation = {
  admin: 200,
  administrator: 403,
  editor: 403,
  contributor: 403,
  viewer: 403,
};
export const SYSTEM_SETTINGS_UNKNOWN: Expectation = { ...SYSTEM_SETTINGS, admin: 404 };

export const MATRIX_WATERMARK = textWatermark("matrix", "Arial");

export interface Cell {
  group: string;
  name: string;
  expect: Expectation;
  request: (who: Who, fixtures: Fixtures) => Promise<InjectOptions> | InjectOptions;
}

export const API = "/dams/api/v1";

/** Basic credentials as WebDAV clients send them: the user's name and a personal API token. */
export function davBasic(principal: TestPrincipal): { authorization: string } {
  return { authorization: `Basic ${Buffer.from(`${principal.username}:${principal.token}`).toString("base64")}` };
}

export const UNAUTHORIZED_FOR_ALL: Expectation = {
  admin: 401,
  administrator: 401,
  editor: 401,
  contributor: 401,
  viewer: 401,
};

export function matrixEdl(clips: object[]) {
  return { schema: "dams.edl", version: 1, title: "matrix", clips };
}

export function matrixClip(libraryId: string, storyId: string) {
  return { id: "c", kind: "video", source: { libraryId, storyId }, in: 0, out: 1 };
}
