import { randomUUID } from "node:crypto";
import {
  API,
  BACK_AREA,
  type Cell,
  DISK_SHARERS,
  davBasic,
  EVERYONE,
  type Expectation,
  NOT_FOUND_FOR_ALL,
  UNAUTHORIZED_FOR_ALL,
} from "./access-matrix.support.js";

/** Cells of the network disk, WebDAV and a library's folders. */
/** The network disk: everyone has one; sharing needs share.netdisk add; quotas are the storage settings' (manage.storage.setting). */
export const diskCells: Cell[] = [
  ...(["usage", "nodes", "trash", "shares", "shared-with-me"] as const).map(
    (path): Cell => ({
      group: "disk",
      name: `GET /disk/${path}`,
      expect: EVERYONE,
      request: () => ({ method: "GET", url: `${API}/disk/${path}` }),
    }),
  ),
  {
    group: "disk",
    name: "POST /disk/folders",
    expect: EVERYONE,
    request: (who, f) => ({ method: "POST", url: `${API}/disk/folders`, payload: { name: `${who} ${f.serial()}` } }),
  },
  {
    group: "disk",
    name: "GET /disk/nodes?folderId={another user's or none}",
    expect: NOT_FOUND_FOR_ALL,
    request: () => ({ method: "GET", url: `${API}/disk/nodes?folderId=${randomUUID()}` }),
  },
  ...(
    [
      ["PATCH", "/disk/nodes/{id}", (id: string) => `/disk/nodes/${id}`, { name: "x" }],
      ["DELETE", "/disk/nodes/{id}", (id: string) => `/disk/nodes/${id}`, undefined],
      ["GET", "/disk/nodes/{id}/content", (id: string) => `/disk/nodes/${id}/content`, undefined],
      ["POST", "/disk/trash/{id}/restore", (id: string) => `/disk/trash/${id}/restore`, undefined],
      ["DELETE", "/disk/trash/{id}", (id: string) => `/disk/trash/${id}`, undefined],
      ["DELETE", "/disk/shares/{id}", (id: string) => `/disk/shares/${id}`, undefined],
      ["POST", "/disk/send-to-library", () => "/disk/send-to-library", "send"],
      ["POST", "/disk/from-story", () => "/disk/from-story", "from-story"],
    ] as const
  ).map(
    ([method, name, url, payload]): Cell => ({
      group: "disk",
      name: `${method} ${name} (missing)`,
      expect: NOT_FOUND_FOR_ALL,
      request: (who) => ({
        method,
        url: `${API}${url(randomUUID())}`,
        payload:
          payload === "send"
            ? { nodeIds: [randomUUID()], libraryId: `personal-${who}` }
            : payload === "from-story"
              ? { libraryId: `personal-${who}`, storyId: randomUUID() }
              : payload,
      }),
    }),
  ),
  {
    group: "disk",
    name: "POST /disk/nodes/{id}/shares",
    expect: DISK_SHARERS,
    request: () => ({
      method: "POST",
      url: `${API}/disk/nodes/${randomUUID()}/shares`,
      payload: { grantee: { kind: "everyone" }, level: "view" },
    }),
  },
  {
    group: "disk",
    name: "GET /disk/quota-users",
    expect: BACK_AREA,
    request: () => ({ method: "GET", url: `${API}/disk/quota-users?keyword=a` }),
  },
  {
    group: "disk",
    name: "GET /disk/quotas/{userId}",
    expect: BACK_AREA,
    request: (_who, f) => ({ method: "GET", url: `${API}/disk/quotas/${f.target.id}` }),
  },
  {
    group: "disk",
    name: "PUT /disk/quotas/{userId}",
    expect: BACK_AREA,
    request: (_who, f) => ({
      method: "PUT",
      url: `${API}/disk/quotas/${f.target.id}`,
      payload: { quotaBytes: 2 ** 30 },
    }),
  },
];

/** WebDAV (/dav, /dav-libraries, /dav-shared, outside the API prefix, behind the same hook). */
export const davCells: Cell[] = [
  {
    group: "dav",
    name: "PROPFIND /dav/ (Basic: name + API token)",
    expect: EVERYONE,
    request: (who, f) => ({
      method: "PROPFIND",
      url: "/dav/",
      headers: { depth: "1", ...davBasic(f.principals[who]) },
    }),
  },
  {
    group: "dav",
    name: "MKCOL /dav/{name} (Basic: name + API token)",
    expect: EVERYONE,
    request: (who, f) => ({
      method: "MKCOL",
      url: `/dav/matrix-${who}-${f.serial()}`,
      headers: davBasic(f.principals[who]),
    }),
  },
  {
    group: "dav",
    name: "PROPFIND /dav-libraries/ (the readable libraries, read-only)",
    expect: EVERYONE,
    request: (who, f) => ({
      method: "PROPFIND",
      url: "/dav-libraries/",
      headers: { depth: "1", ...davBasic(f.principals[who]) },
    }),
  },
  {
    group: "dav",
    name: "MKCOL /dav-libraries/{name}: read-only for everyone",
    expect: { admin: 403, administrator: 403, editor: 403, contributor: 403, viewer: 403 },
    request: (who, f) => ({
      method: "MKCOL",
      url: `/dav-libraries/matrix-${who}-${f.serial()}`,
      headers: davBasic(f.principals[who]),
    }),
  },
  {
    group: "dav",
    name: "PROPFIND /dav-shared/ (disk items shared with the caller)",
    expect: EVERYONE,
    request: (who, f) => ({
      method: "PROPFIND",
      url: "/dav-shared/",
      headers: { depth: "1", ...davBasic(f.principals[who]) },
    }),
  },
  {
    group: "dav",
    name: "PROPFIND /dav-libraries/ with the bearer token instead of Basic",
    expect: UNAUTHORIZED_FOR_ALL,
    request: () => ({ method: "PROPFIND", url: "/dav-libraries/", headers: { depth: "0" } }),
  },
  {
    group: "dav",
    name: "PROPFIND /dav/ with the bearer token instead of Basic",
    expect: UNAUTHORIZED_FOR_ALL,
    request: () => ({ method: "PROPFIND", url: "/dav/", headers: { depth: "0" } }),
  },
];

/**
 * A library's folders (issue 15): everyone who reads the library sees the tree;
 * changing it takes story.list add/edit/delete AND the manage level on the
 * library, which only the administrator role holds on product by the seed.
 */
export const FOLDER_MANAGERS: Expectation = {
  admin: 200,
  administrator: 200,
  editor: 403,
  contributor: 403,
  viewer: 403,
};
export const folderCells: Cell[] = [
  {
    group: "folders",
    name: "GET /libraries/product/folders",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/libraries/product/folders` }),
  },
  {
    group: "folders",
    name: "POST /libraries/product/folders",
    expect: FOLDER_MANAGERS,
    request: (who, f) => ({
      method: "POST",
      url: `${API}/libraries/product/folders`,
      payload: { name: `matrix ${who} ${f.serial()}` },
    }),
  },
  {
    group: "folders",
    name: "PUT /libraries/product/folders/{id of nothing}",
    expect: { ...FOLDER_MANAGERS, admin: 404, administrator: 404 },
    request: () => ({ method: "PUT", url: `${API}/libraries/product/folders/${randomUUID()}`, payload: { name: "x" } }),
  },
  {
    group: "folders",
    name: "DELETE /libraries/product/folders/{id of nothing}",
    expect: { ...FOLDER_MANAGERS, admin: 404, administrator: 404 },
    request: () => ({ method: "DELETE", url: `${API}/libraries/product/folders/${randomUUID()}` }),
  },
  {
    group: "folders",
    name: "POST /libraries/personal-outsider/folders",
    expect: { ...FOLDER_MANAGERS, contributor: 404 },
    request: (who, f) => ({
      method: "POST",
      url: `${API}/libraries/personal-outsider/folders`,
      payload: { name: `matrix ${who} ${f.serial()}` },
    }),
  },
];
