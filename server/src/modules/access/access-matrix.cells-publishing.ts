import { randomUUID } from "node:crypto";
import {
  ADMINS_ONLY,
  API,
  BACK_AREA,
  type Cell,
  EVERYONE,
  MANAGERS_FIND_NOTHING,
  MONITOR_READERS,
  MONITOR_READERS_FIND_NOTHING,
  SYSTEM_SETTINGS,
  SYSTEM_SETTINGS_UNKNOWN,
} from "./access-matrix.support.js";

/** Cells of channels, actions, publishing, property access, library settings and storage. */
export const publishingCells: Cell[] = [
  {
    group: "channels",
    name: "GET /channels",
    expect: SYSTEM_SETTINGS,
    request: () => ({ method: "GET", url: `${API}/channels` }),
  },
  {
    group: "channels",
    name: "POST /channels",
    expect: SYSTEM_SETTINGS,
    request: (who, f) => ({
      method: "POST",
      url: `${API}/channels`,
      payload: { name: `matrix ${who} ${f.serial()}`, kind: "folder", format: "ninjs", settings: { path: "/tmp" } },
    }),
  },
  {
    group: "channels",
    name: "PUT /channels/{unknown}",
    expect: SYSTEM_SETTINGS_UNKNOWN,
    request: () => ({
      method: "PUT",
      url: `${API}/channels/${randomUUID()}`,
      payload: { name: "matrix", kind: "folder", format: "ninjs", settings: { path: "/tmp" } },
    }),
  },
  {
    group: "channels",
    name: "POST /channels/{unknown}/test",
    expect: SYSTEM_SETTINGS_UNKNOWN,
    request: () => ({ method: "POST", url: `${API}/channels/${randomUUID()}/test` }),
  },
  {
    group: "channels",
    name: "DELETE /channels/{unknown}",
    expect: SYSTEM_SETTINGS_UNKNOWN,
    request: () => ({ method: "DELETE", url: `${API}/channels/${randomUUID()}` }),
  },
  {
    group: "channels",
    name: "GET /channels/options",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/channels/options` }),
  },
  {
    group: "actions",
    name: "GET /action-rules",
    expect: SYSTEM_SETTINGS,
    request: () => ({ method: "GET", url: `${API}/action-rules` }),
  },
  {
    group: "actions",
    name: "POST /action-rules",
    expect: SYSTEM_SETTINGS,
    request: (who, f) => ({
      method: "POST",
      url: `${API}/action-rules`,
      payload: {
        name: `matrix ${who} ${f.serial()}`,
        enabled: false,
        trigger: "committed",
        steps: [{ kind: "webhook", url: "https://hooks.example.com/dams" }],
      },
    }),
  },
  {
    group: "actions",
    name: "PUT /action-rules/{unknown}",
    expect: SYSTEM_SETTINGS_UNKNOWN,
    request: () => ({
      method: "PUT",
      url: `${API}/action-rules/${randomUUID()}`,
      payload: { name: "matrix", trigger: "committed", steps: [{ kind: "webhook", url: "https://example.com/" }] },
    }),
  },
  {
    group: "actions",
    name: "POST /action-rules/{unknown}/enable",
    expect: SYSTEM_SETTINGS_UNKNOWN,
    request: () => ({ method: "POST", url: `${API}/action-rules/${randomUUID()}/enable` }),
  },
  {
    group: "actions",
    name: "POST /action-rules/{unknown}/disable",
    expect: SYSTEM_SETTINGS_UNKNOWN,
    request: () => ({ method: "POST", url: `${API}/action-rules/${randomUUID()}/disable` }),
  },
  {
    group: "actions",
    name: "DELETE /action-rules/{unknown}",
    expect: SYSTEM_SETTINGS_UNKNOWN,
    request: () => ({ method: "DELETE", url: `${API}/action-rules/${randomUUID()}` }),
  },
  {
    group: "actions",
    name: "GET /action-rules/{unknown}",
    expect: SYSTEM_SETTINGS_UNKNOWN,
    request: () => ({ method: "GET", url: `${API}/action-rules/${randomUUID()}` }),
  },
  {
    group: "actions",
    name: "GET /action-rules/{unknown}/runs",
    expect: SYSTEM_SETTINGS_UNKNOWN,
    request: () => ({ method: "GET", url: `${API}/action-rules/${randomUUID()}/runs` }),
  },
  {
    group: "publishing",
    // Through the hook with story.list update (then 400: no such channel), refused without it.
    name: "POST /publishing/batch",
    expect: { admin: 400, administrator: 400, editor: 400, contributor: 400, viewer: 403 },
    request: () => ({
      method: "POST",
      url: `${API}/publishing/batch`,
      payload: { stories: [{ libraryId: "material", storyId: randomUUID() }], channels: [randomUUID()] },
    }),
  },
  {
    group: "publishing",
    name: "POST /publishing/delivered-counts",
    expect: EVERYONE,
    request: () => ({
      method: "POST",
      url: `${API}/publishing/delivered-counts`,
      payload: { stories: [{ libraryId: "material", storyId: randomUUID() }] },
    }),
  },
  {
    group: "publish monitor",
    name: "GET /publishing/deliveries",
    expect: MONITOR_READERS,
    request: () => ({ method: "GET", url: `${API}/publishing/deliveries` }),
  },
  {
    group: "publish monitor",
    name: "GET /publishing/events",
    expect: MONITOR_READERS,
    request: () => ({ method: "GET", url: `${API}/publishing/events`, payloadAsStream: true }),
  },
  {
    group: "publish monitor",
    name: "GET /publishing/channel-stats",
    expect: MONITOR_READERS,
    request: () => ({ method: "GET", url: `${API}/publishing/channel-stats` }),
  },
  ...(["retry", "cancel", "resend"] as const).map((verb) => ({
    group: "publish monitor",
    name: `POST /publishing/deliveries/{unknown}/${verb}`,
    expect: MANAGERS_FIND_NOTHING,
    request: () => ({ method: "POST" as const, url: `${API}/publishing/deliveries/${randomUUID()}/${verb}` }),
  })),
  {
    group: "property access",
    name: "GET /property-access/{roleId}",
    expect: BACK_AREA,
    request: () => ({ method: "GET", url: `${API}/property-access/viewer` }),
  },
  {
    group: "property access",
    name: "GET /properties/locked (the caller's own locked keys)",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/properties/locked` }),
  },
  {
    group: "property access",
    name: "PUT /property-access/{roleId}",
    expect: BACK_AREA,
    request: async (_who, f) => ({
      method: "PUT",
      url: `${API}/property-access/${await f.newRole()}`,
      payload: { rules: [{ property: "matrixFee", visible: false, editable: false }] },
    }),
  },
  {
    group: "library settings",
    name: "GET /library-settings",
    expect: ADMINS_ONLY,
    request: () => ({ method: "GET", url: `${API}/library-settings` }),
  },
  {
    group: "library settings",
    name: "POST /library-settings",
    expect: ADMINS_ONLY,
    request: (_who, f) => ({
      method: "POST",
      url: `${API}/library-settings`,
      payload: { id: `matrix-made-${f.serial()}`, name: "matrix" },
    }),
  },
  {
    group: "library settings",
    name: "PUT /library-settings/{id}",
    expect: ADMINS_ONLY,
    request: async (_who, f) => ({
      method: "PUT",
      url: `${API}/library-settings/${await f.newLibrary()}`,
      payload: { name: "renamed" },
    }),
  },
  {
    group: "library settings",
    name: "POST /library-settings/{id}/archive",
    expect: ADMINS_ONLY,
    request: async (_who, f) => ({ method: "POST", url: `${API}/library-settings/${await f.newLibrary()}/archive` }),
  },
  {
    group: "library settings",
    name: "POST /library-settings/{id}/restore",
    expect: ADMINS_ONLY,
    request: async (_who, f) => ({ method: "POST", url: `${API}/library-settings/${await f.newLibrary()}/restore` }),
  },
  {
    group: "library settings",
    name: "DELETE /library-settings/{id}",
    expect: ADMINS_ONLY,
    request: async (_who, f) => ({ method: "DELETE", url: `${API}/library-settings/${await f.newLibrary()}` }),
  },
  {
    group: "storage",
    name: "GET /storage/targets",
    expect: ADMINS_ONLY,
    request: () => ({ method: "GET", url: `${API}/storage/targets` }),
  },
  {
    group: "storage",
    name: "POST /storage/targets",
    expect: ADMINS_ONLY,
    request: (who, f) => ({
      method: "POST",
      url: `${API}/storage/targets`,
      payload: { name: `matrix ${who} ${f.serial()}`, kind: "local", directory: `matrix-${f.serial()}` },
    }),
  },
  {
    group: "storage",
    name: "POST /storage/targets/test",
    expect: ADMINS_ONLY,
    request: (_who, f) => ({
      method: "POST",
      url: `${API}/storage/targets/test`,
      payload: { name: "matrix", kind: "local", directory: `matrix-test-${f.serial()}` },
    }),
  },
  {
    group: "storage",
    name: "PUT /storage/targets/{unknown}",
    expect: SYSTEM_SETTINGS_UNKNOWN,
    request: () => ({
      method: "PUT",
      url: `${API}/storage/targets/${randomUUID()}`,
      payload: { name: "matrix", kind: "local", directory: "matrix" },
    }),
  },
  {
    group: "storage",
    name: "POST /storage/targets/{unknown}/test",
    expect: SYSTEM_SETTINGS_UNKNOWN,
    request: () => ({ method: "POST", url: `${API}/storage/targets/${randomUUID()}/test` }),
  },
  {
    group: "storage",
    name: "DELETE /storage/targets/{unknown}",
    expect: SYSTEM_SETTINGS_UNKNOWN,
    request: () => ({ method: "DELETE", url: `${API}/storage/targets/${randomUUID()}` }),
  },
  {
    group: "storage",
    name: "GET /storage/settings",
    expect: BACK_AREA,
    request: () => ({ method: "GET", url: `${API}/storage/settings` }),
  },
  {
    group: "storage",
    name: "PUT /storage/default",
    expect: BACK_AREA,
    request: () => ({ method: "PUT", url: `${API}/storage/default`, payload: { targetId: "builtin" } }),
  },
  {
    group: "storage",
    name: "PUT /storage/libraries/{id}",
    expect: BACK_AREA,
    request: async (_who, f) => ({
      method: "PUT",
      url: `${API}/storage/libraries/${await f.newLibrary()}`,
      payload: { targetId: null },
    }),
  },
  {
    group: "storage",
    name: "POST /storage/libraries/{id}/move",
    expect: BACK_AREA,
    request: async (_who, f) => ({
      method: "POST",
      url: `${API}/storage/libraries/${await f.newLibrary()}/move`,
      payload: { targetId: "builtin" },
    }),
  },
  {
    group: "storage",
    name: "GET /storage/moves/{unknown}",
    expect: MANAGERS_FIND_NOTHING,
    request: () => ({ method: "GET", url: `${API}/storage/moves/${randomUUID()}` }),
  },
  {
    group: "storage",
    name: "GET /storage/integrity-checks/latest",
    expect: MONITOR_READERS,
    request: () => ({ method: "GET", url: `${API}/storage/integrity-checks/latest` }),
  },
  {
    group: "storage",
    name: "POST /storage/integrity-checks",
    // Editors only read the monitors. No worker runs here: the check before is ended first (one at a time).
    expect: BACK_AREA,
    request: async (_who, f) => {
      await f.endIntegrityChecks();
      return { method: "POST", url: `${API}/storage/integrity-checks` };
    },
  },
  {
    group: "storage",
    name: "GET /storage/integrity-checks/{unknown}",
    expect: MONITOR_READERS_FIND_NOTHING,
    request: () => ({ method: "GET", url: `${API}/storage/integrity-checks/${randomUUID()}` }),
  },
  {
    group: "storage",
    name: "GET /storage/integrity-checks/{unknown}/problems",
    expect: MONITOR_READERS_FIND_NOTHING,
    request: () => ({ method: "GET", url: `${API}/storage/integrity-checks/${randomUUID()}/problems` }),
  },
  {
    group: "storage",
    name: "POST /storage/integrity-checks/{unknown}/cancel",
    expect: MANAGERS_FIND_NOTHING,
    request: () => ({ method: "POST", url: `${API}/storage/integrity-checks/${randomUUID()}/cancel` }),
  },
  {
    group: "publishing",
    // The story viewer's 发布记录 tab: whoever may read the story sees where it went.
    name: "GET /publishing/material/{id}/deliveries",
    expect: EVERYONE,
    request: (_who, f) => ({ method: "GET", url: `${API}/publishing/material/${f.videos.material}/deliveries` }),
  },
  {
    group: "publishing",
    // Another user's personal library: read as its stories are (GET .../edl), unseen by a contributor.
    name: "GET /publishing/personal-outsider/{id}/deliveries",
    expect: { admin: 200, administrator: 200, editor: 200, contributor: 404, viewer: 200 },
    request: (_who, f) => ({
      method: "GET",
      url: `${API}/publishing/personal-outsider/${f.videos.outsider}/deliveries`,
    }),
  },
  // Quotas per library (the storage settings screen).
  {
    group: "storage",
    name: "GET /storage/quotas",
    expect: BACK_AREA,
    request: () => ({ method: "GET", url: `${API}/storage/quotas` }),
  },
  {
    group: "storage",
    name: "PUT /storage/quotas/libraries/{id}",
    expect: BACK_AREA,
    request: async (_who, f) => ({
      method: "PUT",
      url: `${API}/storage/quotas/libraries/${await f.newLibrary()}`,
      payload: { quotaBytes: 1_000_000 },
    }),
  },
];
