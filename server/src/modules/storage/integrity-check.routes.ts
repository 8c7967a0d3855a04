import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorResponses, envelope, ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import type { PermissionKey } from "../auth/permissions.js";
import type { IntegrityCheckService } from "./integrity-check.service.js";

const tags = ["storage"];
/** The storage monitor (/manage/monitor/storage) shows the checks and starts them. */
const STORAGE_MONITOR: PermissionKey = "manage.monitor.storage";
const monitor = (action: "query" | "add" | "update") => ({ access: { permission: STORAGE_MONITOR, action } });

const CHECK_STATES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
const PROBLEM_KINDS = ["missing", "mismatched", "unreadable"] as const;

const checkSchema = z
  .object({
    id: z.string(),
    state: z.enum(CHECK_STATES),
    totalFiles: z.number().int().describe("registered blobs to check (grows if blobs are added meanwhile)"),
    checkedFiles: z.number().int(),
    checkedBytes: z.number().int().describe("bytes read back and found as registered"),
    missing: z.number().int().describe("blobs not found where they live"),
    mismatched: z.number().int().describe("blobs whose SHA-256 or size differs from their registry row"),
    unreadable: z.number().int().describe("blobs whose read failed (a storage error), with the reason"),
    error: z.string().nullable().describe("why the last attempt stopped, when it did"),
    createTime: z.string(),
    finishTime: z.string().nullable(),
  })
  .meta({ id: "IntegrityCheck" });

const problemSchema = z
  .object({
    key: z.string(),
    kind: z.enum(PROBLEM_KINDS),
    expectedSha256: z.string(),
    expectedSize: z.number().int(),
    actualSha256: z.string().nullable(),
    actualSize: z.number().int().nullable(),
    detail: z.string().nullable(),
    foundAt: z.string(),
  })
  .meta({ id: "IntegrityProblem" });

const checkParams = z.object({ id: z.uuid() });

/** /storage/integrity-checks: every stored original read back and compared with its SHA-256 (docs/storage.md). */
export function integrityCheckRoutes(checks: IntegrityCheckService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      "/storage/integrity-checks",
      apiRoute(
        monitor("add"),
        { tags, summary: "Start an integrity check as a job (409 while one runs)" },
        checkSchema,
      ),
      async (request) => ok(await checks.start(actorOf(request))),
    );
    app.get(
      "/storage/integrity-checks/latest",
      apiRoute(
        monitor("query"),
        { tags, summary: "The newest integrity check with its progress and counts, or null" },
        checkSchema.nullable(),
      ),
      async () => ok(await checks.latest()),
    );
    app.get(
      "/storage/integrity-checks/:id",
      apiRoute(
        monitor("query"),
        { tags, summary: "One integrity check with its progress and counts", params: checkParams },
        checkSchema,
      ),
      async (request) => ok(await checks.get(request.params.id)),
    );
    app.get(
      "/storage/integrity-checks/:id/problems",
      {
        config: monitor("query"),
        schema: {
          tags,
          summary: "The blobs a check found missing, changed or unreadable, in key order (keyset paging)",
          params: checkParams,
          querystring: z.object({
            after: z.string().max(1024).optional().describe("the `next` of the previous page"),
            limit: z.coerce.number().int().min(1).max(500).default(100),
          }),
          response: {
            200: envelope(z.object({ problems: z.array(problemSchema), next: z.string().nullable() })),
            ...apiErrorResponses,
          },
        },
      },
      async (request) => ok(await checks.problems(request.params.id, request.query.after ?? null, request.query.limit)),
    );
    app.post(
      "/storage/integrity-checks/:id/cancel",
      apiRoute(
        monitor("update"),
        { tags, summary: "Cancel a queued or running check (409 once it has ended)", params: checkParams },
        checkSchema,
      ),
      async (request) => ok(await checks.cancel(actorOf(request), request.params.id)),
    );
  };
}
