import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import type { PermissionKey } from "../auth/permissions.js";
import { integrityCheckRoutes } from "./integrity-check.routes.js";
import { libraryQuotasRoutes } from "./library-quotas.routes.js";
import type { StorageModule } from "./storage.compose.js";
import {
  libraryParams,
  libraryTargetBody,
  moveParams,
  moveSchema,
  storageSettingsSchema,
  targetChoiceBody,
  targetIdParams,
  targetInput,
  targetSchema,
  targetTestResult,
} from "./storage.schema.js";

const tags = ["storage"];
type Action = "query" | "add" | "edit" | "delete" | "update";
/** The buckets screen (/manage/setting/bucket): the storage targets. */
const BUCKETS: PermissionKey = "manage.setting.bucket";
const bucket = (action: Action) => ({ access: { permission: BUCKETS, action } });
/** The storage settings screen (/manage/storage/setting): libraries' targets and moves. */
const STORAGE_SETTING: PermissionKey = "manage.storage.setting";
const setting = (action: Action) => ({ access: { permission: STORAGE_SETTING, action } });

/** /storage: storage targets, their connection test, which target each library uses, and moves between targets. */
export function storageRoutes(storage: StorageModule): FastifyPluginAsyncZod {
  const { targets, moves } = storage;
  return async (app) => {
    await app.register(integrityCheckRoutes(storage.checks));
    await app.register(libraryQuotasRoutes(storage.quotas));
    app.get(
      "/storage/targets",
      apiRoute(
        bucket("query"),
        { tags, summary: "Every storage target, the built-in one first (secrets never: only whether one is set)" },
        z.array(targetSchema),
      ),
      async () => ok(await targets.list()),
    );
    app.post(
      "/storage/targets",
      apiRoute(
        bucket("add"),
        { tags, summary: "Add a storage target (a local folder or an S3-compatible bucket)", body: targetInput },
        targetSchema,
      ),
      async (request) => ok(await targets.create(actorOf(request), request.body)),
    );
    app.post(
      "/storage/targets/test",
      apiRoute(
        bucket("add"),
        {
          tags,
          summary: "Test settings before saving them: write, read back and delete a probe object (200 either way)",
          body: targetInput,
          querystring: z.object({
            id: z.string().max(64).optional().describe("the saved target whose secret an absent one means"),
          }),
        },
        targetTestResult,
      ),
      async (request) => ok(await targets.testInput(request.body, request.query.id)),
    );
    app.put(
      "/storage/targets/:id",
      apiRoute(
        bucket("edit"),
        {
          tags,
          summary: "Change a storage target (secret: a value sets, null clears, absent keeps)",
          params: targetIdParams,
          body: targetInput,
        },
        targetSchema,
      ),
      async (request) => ok(await targets.update(actorOf(request), request.params.id, request.body)),
    );
    app.delete(
      "/storage/targets/:id",
      apiRoute(
        bucket("delete"),
        {
          tags,
          summary: "Delete a storage target nothing uses (409 with the counts otherwise)",
          params: targetIdParams,
        },
        z.null(),
      ),
      async (request) => {
        await targets.delete(actorOf(request), request.params.id);
        return ok(null);
      },
    );
    app.post(
      "/storage/targets/:id/test",
      apiRoute(
        bucket("query"),
        {
          tags,
          summary: "Test a saved target's connection: the reason when it fails (200 either way)",
          params: targetIdParams,
        },
        targetTestResult,
      ),
      async (request) => ok(await targets.test(request.params.id)),
    );
    app.get(
      "/storage/settings",
      apiRoute(
        setting("query"),
        { tags, summary: "The default target, each library's target and its latest move" },
        storageSettingsSchema,
      ),
      async () => ok(await moves.settings()),
    );
    app.put(
      "/storage/default",
      apiRoute(
        setting("edit"),
        {
          tags,
          summary: "Choose the default target (it must pass its connection test: 409 with the reason)",
          body: targetChoiceBody,
        },
        storageSettingsSchema,
      ),
      async (request) => {
        await targets.setDefault(actorOf(request), request.body.targetId);
        return ok(await moves.settings());
      },
    );
    app.put(
      "/storage/libraries/:libraryId",
      apiRoute(
        setting("edit"),
        {
          tags,
          summary: "Where a library's new originals go (null: the default); existing files stay where they are",
          params: libraryParams,
          body: libraryTargetBody,
        },
        storageSettingsSchema,
      ),
      async (request) => {
        await moves.setLibraryTarget(actorOf(request), request.params.libraryId, request.body.targetId);
        return ok(await moves.settings());
      },
    );
    app.post(
      "/storage/libraries/:libraryId/move",
      apiRoute(
        setting("update"),
        {
          tags,
          summary: "Move every file of a library to a target, as a durable job (copy, verify, switch, delete)",
          params: libraryParams,
          body: targetChoiceBody,
        },
        moveSchema,
      ),
      async (request) => ok(await moves.startMove(actorOf(request), request.params.libraryId, request.body.targetId)),
    );
    app.get(
      "/storage/moves/:id",
      apiRoute(setting("query"), { tags, summary: "One move with its progress", params: moveParams }, moveSchema),
      async (request) => ok(await moves.get(request.params.id)),
    );
  };
}
