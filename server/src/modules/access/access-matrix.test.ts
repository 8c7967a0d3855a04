import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Db } from "../../db/database.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { storyRow } from "../../test/stories-app.js";
import { ApiTokensRepository } from "../api-tokens/api-tokens.repository.js";
import { ApiTokensService } from "../api-tokens/api-tokens.service.js";
import type { LibraryLevel } from "../auth/permissions.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { buildBlobStore } from "../blobs/build-blob-store.js";
import { buildSearch } from "../search/search.compose.js";
import { StoriesRepository } from "../stories/stories.repository.js";
import { adminCells } from "./access-matrix.cells-admin.js";
import { davCells, diskCells, folderCells } from "./access-matrix.cells-files.js";
import { publishingCells } from "./access-matrix.cells-publishing.js";
import { storyCells } from "./access-matrix.cells-stories.js";
import {
  API,
  type Cell,
  type Expectation,
  type Fixtures,
  matrixClip,
  matrixEdl,
  ROLE_OF,
  WHO,
  type Who,
} from "./access-matrix.support.js";
import { GrantsRepository } from "./grants.repository.js";
import { RolesRepository } from "./roles.repository.js";

const endpointCells: Cell[] = [...adminCells, ...storyCells, ...publishingCells];

/** A committed video story whose version 1 has an original and the EDL it was rendered from (`edit`). */
async function matrixVideo(db: Db, blobs: BlobStore, libraryId: string): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const stories = new StoriesRepository(db.kysely, db.adapter, buildSearch(db).index);
  await stories.insertStory(storyRow({ id, library_id: libraryId, type: "video", title: "matrix video" }));
  await stories.insertVersion({
    storyId: id,
    versionNo: 1,
    oid: randomUUID(),
    blobKey: `originals/matrix/${id}`,
    sha256: "0".repeat(64),
    size: 5,
    mime: "video/mp4",
    originalName: "matrix.mp4",
    note: null,
    createdBy: null,
    createdAt: now,
  });
  const edlKey = `renditions/${id}/v1/edit.json`;
  const edl = Buffer.from(JSON.stringify(matrixEdl([matrixClip(libraryId, id)])));
  const { size } = await blobs.put(edlKey, Readable.from([edl]));
  const file = { storyId: id, versionNo: 1, role: "edit", blobKey: edlKey, mime: "application/json", size };
  await stories.putFile({ ...file, width: null, height: null }, now);
  return id;
}

/** Libraries: each principal's own (a user grant of manage), the outsider's own, and the seeded ones. */
const LIBRARIES = ["own", "other", "product", "material", "publish"] as const;
type LibraryCase = (typeof LIBRARIES)[number];

/** The level each principal holds, written out from the seed: administrator manage *, editor write *,
 * contributor write product+material, viewer read *; everyone manage on their own library. */
const HELD: Record<Who, Record<LibraryCase, LibraryLevel | null>> = {
  admin: { own: "manage", other: "manage", product: "manage", material: "manage", publish: "manage" },
  administrator: { own: "manage", other: "manage", product: "manage", material: "manage", publish: "manage" },
  editor: { own: "manage", other: "write", product: "write", material: "write", publish: "write" },
  contributor: { own: "manage", other: null, product: "write", material: "write", publish: null },
  viewer: { own: "manage", other: "read", product: "read", material: "read", publish: "read" },
};

const LEVEL_ROUTES: Record<LibraryLevel, { method: "GET" | "PUT" | "DELETE"; suffix: string }> = {
  read: { method: "GET", suffix: "read" },
  write: { method: "PUT", suffix: "write" },
  manage: { method: "DELETE", suffix: "manage" },
};

function expectedLibraryStatus(held: LibraryLevel | null, wanted: LibraryLevel): number {
  const order: LibraryLevel[] = ["read", "write", "manage"];
  if (held === null) return 404;
  return order.indexOf(held) >= order.indexOf(wanted) ? 200 : 403;
}

function libraryId(library: LibraryCase, who: Who): string {
  if (library === "own") return `personal-${who}`;
  if (library === "other") return "personal-outsider";
  return library;
}

const libraryCells: Cell[] = LIBRARIES.flatMap((library) =>
  (["read", "write", "manage"] as const).map((level) => ({
    group: "library",
    name: `${LEVEL_ROUTES[level].method} ${library} library (${level})`,
    expect: Object.fromEntries(
      WHO.map((who) => [who, expectedLibraryStatus(HELD[who][library], level)]),
    ) as Expectation,
    request: (who: Who) => ({
      method: LEVEL_ROUTES[level].method,
      url: `${API}/test/libraries/${libraryId(library, who)}/${LEVEL_ROUTES[level].suffix}`,
    }),
  })),
);

describeEachDialect("access matrix", (dialect) => {
  const ctx = useTestApp(dialect, {
    prepare(app) {
      // Libraries arrive in a later issue: these stand in for story routes that name a library.
      for (const level of ["read", "write", "manage"] as const) {
        const { method, suffix } = LEVEL_ROUTES[level];
        app.route({
          method,
          url: `${API}/test/libraries/:libraryId/${suffix}`,
          config: { access: "authenticated", library: { param: "libraryId", level } },
          handler: async (request) => ({
            code: 0,
            msg: "ok",
            data: { libraryId: (request.params as { libraryId: string }).libraryId, secret: "library content" },
          }),
        });
      }
    },
  });
  let fixtures: Fixtures;
  let cellsChecked = 0;

  beforeAll(async () => {
    const { db } = ctx();
    const principals = {} as Record<Who, TestPrincipal>;
    const grants = new GrantsRepository(db);
    const now = new Date().toISOString();
    for (const who of WHO) {
      principals[who] = await createPrincipal(db, {
        username: `matrix-${who}`,
        roleId: ROLE_OF[who],
        admin: who === "admin",
      });
      await grants.insert(
        { libraryId: `personal-${who}`, userId: principals[who].id, roleId: null, level: "manage" },
        now,
      );
    }
    const outsider = await createPrincipal(db, { username: "matrix-outsider", roleId: "viewer" });
    await grants.insert({ libraryId: "personal-outsider", userId: outsider.id, roleId: null, level: "manage" }, now);
    const target = await createPrincipal(db, { username: "matrix-target" });
    const blobs = buildBlobStore(ctx().config.storage);
    // The outsider's library as a row (the library cases above need only its grant).
    await db.kysely
      .insertInto("libraries")
      .values({
        id: "personal-outsider",
        name: "outsider",
        kind: "personal",
        description: null,
        sort: 99,
        created_at: now,
      })
      .execute();
    const videos = {
      material: await matrixVideo(db, blobs, "material"),
      outsider: await matrixVideo(db, blobs, "personal-outsider"),
    };
    const renderOwner = await createPrincipal(db, { username: "matrix-render-owner", roleId: "editor" });
    const outsiderRender = (
      await ctx().app.inject({
        method: "POST",
        url: `${API}/video-edit/renders`,
        headers: renderOwner.headers,
        payload: { edl: matrixEdl([matrixClip("personal-outsider", videos.outsider)]) },
      })
    ).json().data.id as string;
    const outsiderShare = (
      await ctx().app.inject({
        method: "POST",
        url: `${API}/shares`,
        headers: renderOwner.headers,
        payload: { target: { kind: "story", libraryId: "material", storyId: videos.material } },
      })
    ).json().data.id as string;
    const roles = new RolesRepository(db);
    const tokens = new ApiTokensService(new ApiTokensRepository(db));
    let counter = 0;
    fixtures = {
      principals,
      videos,
      outsiderRender,
      outsiderShare,
      outsider,
      target,
      serial: () => ++counter,
      newRole: () => roles.insert({ name: `fixture ${++counter}`, describe: "", status: 1, creatorId: null }, [], now),
      newGrant: () =>
        grants.insert({ libraryId: `fixture-${++counter}`, roleId: "viewer", userId: null, level: "read" }, now),
      newToken: async (userId) => (await tokens.create(userId, { name: `fixture ${++counter}` })).token.id,
      newLibrary: async () => {
        const id = `matrix-library-${++counter}`;
        await db.kysely
          .insertInto("libraries")
          .values({ id, name: id, kind: "department", description: null, sort: 100, created_at: now })
          .execute();
        return id;
      },
      endIntegrityChecks: async () => {
        await db.kysely.updateTable("storage_checks").set({ state: "cancelled" }).execute();
      },
    };
  });

  afterAll(() => {
    console.log(`access matrix [${dialect}]: ${cellsChecked} cells`);
  });

  it("answers every cell as the matrix says, and refusals carry no data", async () => {
    const failures: string[] = [];
    for (const cell of [...endpointCells, ...diskCells, ...davCells, ...folderCells, ...libraryCells]) {
      for (const who of WHO) {
        const request = await cell.request(who, fixtures);
        const response = await ctx().app.inject({
          ...request,
          headers: { ...fixtures.principals[who].headers, ...request.headers },
        });
        const wanted = cell.expect[who];
        cellsChecked++;
        const status = response.statusCode;
        // A stream that stays open (an event stream) is only read when it is a refusal.
        let text = "";
        if (!request.payloadAsStream) text = response.body;
        else if (status < 200 || status >= 300) {
          for await (const chunk of response.stream()) text += String(chunk);
        } else response.stream().destroy();
        const ok = wanted === 200 ? status >= 200 && status < 300 : status === wanted;
        if (!ok) failures.push(`${who} × ${cell.name}: expected ${wanted}, got ${status} ${text}`);
        if (wanted !== 200) {
          const body = JSON.parse(text) as object;
          if (Object.keys(body).sort().join() !== "code,error,msg" || text.includes("library content")) {
            failures.push(`${who} × ${cell.name}: refusal carries more than the error envelope: ${text}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(cellsChecked).toBe(
      (endpointCells.length + diskCells.length + davCells.length + folderCells.length + libraryCells.length) *
        WHO.length,
    );
    // Several hundred requests in one test: on PostgreSQL at load 20 on 2 cores they took more than 30 s.
  }, 180_000);

  it("covers every endpoint group and every library case", () => {
    const groups = new Set(
      [...endpointCells, ...diskCells, ...davCells, ...folderCells, ...libraryCells].map((cell) => cell.group),
    );
    expect([...groups].sort()).toEqual([
      "actions",
      "api tokens",
      "channels",
      "current user",
      "dav",
      "disk",
      "folders",
      "grants",
      "jobs",
      "library",
      "library settings",
      "menus",
      "metadata templates",
      "monitor",
      "operation log",
      "presets",
      "property access",
      "publish monitor",
      "publishing",
      "roles",
      "share visitors",
      "shares",
      "statistics",
      "storage",
      "stories",
      "users",
      "video edit",
    ]);
    expect(libraryCells).toHaveLength(LIBRARIES.length * 3);
  });
});
