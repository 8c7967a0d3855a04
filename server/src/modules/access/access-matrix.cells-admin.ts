import { randomUUID } from "node:crypto";
import { jpegPhotoPreset } from "../../test/preset-bodies.js";
import {
  ADMINS_ONLY,
  API,
  BACK_AREA,
  type Cell,
  EVERYONE,
  MATRIX_WATERMARK,
  MONITOR_READERS,
  NOBODY_SEES_IT,
  SYSTEM_SETTINGS,
  SYSTEM_SETTINGS_UNKNOWN,
} from "./access-matrix.support.js";

/** Cells of the settings, monitors and the identity work (users, roles, grants, tokens). */
export const adminCells: Cell[] = [
  {
    group: "metadata templates",
    name: "GET /metadata-templates",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/metadata-templates` }),
  },
  {
    group: "metadata templates",
    name: "POST /metadata-templates",
    expect: SYSTEM_SETTINGS,
    request: (_who, fixtures) => ({
      method: "POST",
      url: `${API}/metadata-templates`,
      payload: { name: `matrix ${fixtures.serial()}`, values: { source: "{user}" } },
    }),
  },
  {
    group: "metadata templates",
    name: "GET /metadata-templates/{unknown}/apply/material",
    expect: NOBODY_SEES_IT,
    request: () => ({ method: "GET", url: `${API}/metadata-templates/${randomUUID()}/apply/material` }),
  },
  {
    group: "presets",
    name: "GET /watermark-presets",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/watermark-presets` }),
  },
  {
    group: "presets",
    name: "POST /watermark-presets",
    expect: SYSTEM_SETTINGS,
    request: (_who, fixtures) => ({
      method: "POST",
      url: `${API}/watermark-presets`,
      payload: { name: `matrix ${fixtures.serial()}`, settings: MATRIX_WATERMARK },
    }),
  },
  {
    group: "presets",
    name: "DELETE /watermark-presets/{unknown}",
    expect: SYSTEM_SETTINGS_UNKNOWN,
    request: () => ({ method: "DELETE", url: `${API}/watermark-presets/${randomUUID()}` }),
  },
  {
    group: "presets",
    name: "GET /download-presets",
    expect: SYSTEM_SETTINGS,
    request: () => ({ method: "GET", url: `${API}/download-presets` }),
  },
  {
    group: "presets",
    name: "PUT /download-presets/{unknown}",
    expect: SYSTEM_SETTINGS_UNKNOWN,
    request: () => ({
      method: "PUT",
      url: `${API}/download-presets/${randomUUID()}`,
      payload: jpegPhotoPreset("matrix", {}),
    }),
  },
  {
    group: "presets",
    name: "GET /download-presets/usable",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/download-presets/usable` }),
  },
  {
    group: "presets",
    name: "POST /download-presets/{unknown}/renditions/material",
    expect: NOBODY_SEES_IT,
    request: () => ({
      method: "POST",
      url: `${API}/download-presets/${randomUUID()}/renditions/material`,
      payload: { storyIds: [randomUUID()] },
    }),
  },
  {
    group: "current user",
    name: "GET /users/login/user",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/users/login/user` }),
  },
  {
    group: "menus",
    name: "GET /user-menus",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/user-menus` }),
  },
  {
    group: "menus",
    name: "GET /admin-menus",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/admin-menus` }),
  },

  {
    group: "monitor",
    name: "GET /monitor/storage",
    expect: MONITOR_READERS,
    request: () => ({ method: "GET", url: `${API}/monitor/storage` }),
  },
  {
    group: "monitor",
    name: "GET /monitor/data",
    expect: MONITOR_READERS,
    request: () => ({ method: "GET", url: `${API}/monitor/data` }),
  },
  {
    group: "statistics",
    name: "GET /statistics/usage",
    expect: BACK_AREA,
    request: () => ({
      method: "GET",
      url: `${API}/statistics/usage?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z&by=user`,
    }),
  },
  {
    group: "statistics",
    name: "GET /statistics/unused",
    expect: BACK_AREA,
    request: () => ({
      method: "GET",
      url: `${API}/statistics/unused?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z`,
    }),
  },
  {
    group: "statistics",
    name: "GET /statistics/searches",
    expect: BACK_AREA,
    request: () => ({
      method: "GET",
      url: `${API}/statistics/searches?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z`,
    }),
  },
  ...(["usage", "searches"] as const).map(
    (table): Cell => ({
      group: "statistics",
      name: `POST /export/table_0 (${table})`,
      expect: BACK_AREA,
      request: () => ({
        method: "POST",
        url: `${API}/export/table_0`,
        payload: {
          table,
          format: "csv",
          filter: { from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z" },
          columns: [{ key: table === "usage" ? "key" : "query", title: "k" }],
        },
      }),
    }),
  ),
  { group: "jobs", name: "GET /jobs", expect: MONITOR_READERS, request: () => ({ method: "GET", url: `${API}/jobs` }) },
  {
    group: "jobs",
    name: "GET /jobs/summary",
    expect: MONITOR_READERS,
    request: () => ({ method: "GET", url: `${API}/jobs/summary` }),
  },
  {
    group: "jobs",
    name: "GET /jobs/workers",
    expect: MONITOR_READERS,
    request: () => ({ method: "GET", url: `${API}/jobs/workers` }),
  },

  {
    group: "operation log",
    name: "GET /log/logDisplay",
    expect: ADMINS_ONLY,
    request: () => ({ method: "GET", url: `${API}/log/logDisplay?size=5&action=story.delete` }),
  },
  {
    group: "operation log",
    name: "GET /log/settings",
    expect: ADMINS_ONLY,
    request: () => ({ method: "GET", url: `${API}/log/settings` }),
  },
  {
    group: "operation log",
    name: "POST /export/table_0 (log)",
    expect: ADMINS_ONLY,
    request: () => ({
      method: "POST",
      url: `${API}/export/table_0`,
      payload: {
        table: "log",
        format: "csv",
        filter: { action: "story.delete" },
        columns: [{ key: "at", title: "t" }],
      },
    }),
  },
  {
    group: "operation log",
    name: "PUT /log/settings",
    expect: ADMINS_ONLY,
    request: () => ({ method: "PUT", url: `${API}/log/settings`, payload: { retentionDays: 365 } }),
  },

  {
    group: "users",
    name: "GET /users/registration",
    expect: BACK_AREA,
    request: () => ({ method: "GET", url: `${API}/users/registration` }),
  },
  {
    group: "users",
    name: "PUT /users/registration",
    expect: BACK_AREA,
    request: () => ({
      method: "PUT",
      url: `${API}/users/registration`,
      payload: { mode: "approval", defaultRoleId: "viewer" },
    }),
  },
  {
    group: "users",
    name: "GET /users",
    expect: BACK_AREA,
    request: () => ({ method: "GET", url: `${API}/users?keyword=matrix` }),
  },
  {
    group: "users",
    name: "POST /users",
    expect: BACK_AREA,
    request: (who, f) => ({
      method: "POST",
      url: `${API}/users`,
      payload: { username: `made-by-${who}-${f.serial()}`, password: "a-long-password" },
    }),
  },
  {
    group: "users",
    name: "PUT /users/{id}",
    expect: BACK_AREA,
    request: (who, f) => ({
      method: "PUT",
      url: `${API}/users/${f.target.id}`,
      payload: { name: `renamed by ${who}` },
    }),
  },
  {
    group: "users",
    name: "POST /users/{id}/disable",
    expect: BACK_AREA,
    request: (_who, f) => ({ method: "POST", url: `${API}/users/${f.target.id}/disable` }),
  },
  {
    group: "users",
    name: "POST /users/{id}/enable",
    expect: BACK_AREA,
    request: (_who, f) => ({ method: "POST", url: `${API}/users/${f.target.id}/enable` }),
  },
  {
    group: "users",
    name: "POST /users/{id}/password",
    expect: BACK_AREA,
    request: (_who, f) => ({
      method: "POST",
      url: `${API}/users/${f.target.id}/password`,
      payload: { password: "a-new-password" },
    }),
  },

  { group: "roles", name: "GET /roles", expect: BACK_AREA, request: () => ({ method: "GET", url: `${API}/roles` }) },
  {
    group: "roles",
    name: "GET /roles/permissions",
    expect: BACK_AREA,
    request: () => ({ method: "GET", url: `${API}/roles/permissions` }),
  },
  {
    group: "roles",
    name: "POST /roles",
    expect: BACK_AREA,
    request: (who, f) => ({
      method: "POST",
      url: `${API}/roles`,
      payload: { name: `role by ${who} ${f.serial()}`, permissions: [{ permissionId: "search", actions: ["query"] }] },
    }),
  },
  {
    group: "roles",
    name: "PUT /roles/{id}",
    expect: BACK_AREA,
    request: async (who, f) => ({
      method: "PUT",
      url: `${API}/roles/${await f.newRole()}`,
      payload: { describe: who },
    }),
  },
  {
    group: "roles",
    name: "DELETE /roles/{id}",
    expect: BACK_AREA,
    request: async (_who, f) => ({ method: "DELETE", url: `${API}/roles/${await f.newRole()}` }),
  },

  {
    group: "grants",
    name: "GET /library-grants",
    expect: BACK_AREA,
    request: () => ({ method: "GET", url: `${API}/library-grants` }),
  },
  {
    group: "grants",
    name: "POST /library-grants",
    expect: BACK_AREA,
    request: async (_who, f) => ({
      method: "POST",
      url: `${API}/library-grants`,
      payload: { libraryId: "product", roleId: await f.newRole(), level: "read" },
    }),
  },
  {
    group: "grants",
    name: "DELETE /library-grants/{id}",
    expect: BACK_AREA,
    request: async (_who, f) => ({ method: "DELETE", url: `${API}/library-grants/${await f.newGrant()}` }),
  },

  {
    group: "api tokens",
    name: "GET /api-tokens",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/api-tokens` }),
  },
  {
    group: "api tokens",
    name: "POST /api-tokens",
    expect: EVERYONE,
    request: () => ({ method: "POST", url: `${API}/api-tokens`, payload: { name: "integration", expiresInDays: 30 } }),
  },
  {
    group: "api tokens",
    name: "DELETE /api-tokens/{own id}",
    expect: EVERYONE,
    request: async (who, f) => ({
      method: "DELETE",
      url: `${API}/api-tokens/${await f.newToken(f.principals[who].id)}`,
    }),
  },
  {
    group: "api tokens",
    name: "DELETE /api-tokens/{someone else's id}",
    expect: NOBODY_SEES_IT,
    request: async (_who, f) => ({ method: "DELETE", url: `${API}/api-tokens/${await f.newToken(f.outsider.id)}` }),
  },
  // /metrics (outside the API prefix): a monitor reader's sign-in or the scraper's token; others 401.
  {
    group: "monitor",
    name: "GET /metrics",
    expect: { admin: 200, administrator: 200, editor: 200, contributor: 401, viewer: 401 },
    request: () => ({ method: "GET", url: "/metrics" }),
  },
];
