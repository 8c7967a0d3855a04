import { PassThrough } from "node:stream";
import contentDisposition from "content-disposition";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorResponses } from "../../http/envelope.js";
import { Forbidden, Invalid, NotFound } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import { actorOf } from "../auth/actor.js";
import { currentUser, permits } from "../auth/auth.plugin.js";
import { downloadName } from "../blobs/file-names.js";
import { type ExportTable, exportCells } from "./export-table.js";
import { writeExport } from "./export-writer.js";
import { exportBody } from "./exports.schema.js";

const CONTENT_TYPES = {
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  csv: "text/csv; charset=utf-8",
} as const;
const DEFAULT_MAX_ROWS = 1_000_000;

/** The tables the exporter knows, by name; modules add theirs (docs/exports.md). */
export class ExportRegistry {
  readonly #tables = new Map<string, ExportTable>();

  register<Row, Filter>(table: ExportTable<Row, Filter>): void {
    if (this.#tables.has(table.name)) throw new Error(`export table ${table.name} is registered twice`);
    this.#tables.set(table.name, table as unknown as ExportTable);
  }

  get(name: string): ExportTable | undefined {
    return this.#tables.get(name);
  }
}

/**
 * POST /export/table_0 (spec section 7, a blob response): one back-area table,
 * filtered as on screen, with the screen's columns and titles, as .xlsx or
 * CSV, streamed while it is read. The route admits any signed-in user; the
 * table's own access (its list's) is checked here, refused as 403.
 */
export function exportsRoutes(registry: ExportRegistry, audit: AuditLog): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      "/export/table_0",
      {
        config: { access: "authenticated" },
        schema: {
          tags: ["export"],
          summary: "Exports a back-area table as .xlsx or CSV, with the columns and filters on screen",
          description:
            "The answer is the file (a blob), streamed: `Content-Disposition: attachment`. The table's own permission applies (403 otherwise); unknown table 404; a filter or a column the table does not have 400. At most 1 000 000 rows.",
          body: exportBody,
          response: { 200: z.any().describe("the file"), ...apiErrorResponses },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const table = registry.get(body.table);
        if (!table) throw new NotFound(`there is no table ${body.table} to export`, "export_table_unknown");
        const user = currentUser(request);
        if (!permits(user, table.access)) throw new Forbidden();
        const parsed = table.filter.safeParse(body.filter);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new Invalid(`filter.${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`, "invalid_filter");
        }
        const cells = body.columns.map((column) => {
          const cell = table.columns[column.key];
          if (!cell) throw new Invalid(`columns: ${body.table} has no column ${column.key}`, "invalid_column");
          return cell;
        });
        // Records the export before the first byte: what was taken, by whom, with which filter.
        await audit.recordEvent(actorOf(request), {
          action: "export.table",
          target: { type: "table", id: body.table, label: body.table },
          details: {
            format: body.format,
            filter: parsed.data as Record<string, unknown>,
            columns: body.columns.map((c) => c.key),
          },
        });
        // The first row is read before the answer starts: a refusal (a range too long) is still an error answer.
        const source = table.rows(parsed.data, user)[Symbol.asyncIterator]();
        const first = await source.next();
        // Made safe as every download's name is (modules/blobs/file-names.ts): the name is typed by a person.
        const name = downloadName(
          `${body.fileName ?? `${body.table}-${new Date().toISOString().slice(0, 10)}`}.${body.format}`,
          CONTENT_TYPES[body.format],
        );
        const out = new PassThrough();
        reply
          .header("content-type", CONTENT_TYPES[body.format])
          .header("content-disposition", contentDisposition(name))
          .header("cache-control", "no-store");
        writeExport(body.format, out, body.columns, exportCells(source, first, cells), {
          sheetName: body.fileName ?? body.table,
          maxRows: table.maxRows ?? DEFAULT_MAX_ROWS,
        }).catch((error: unknown) => {
          request.log.error({ err: error, table: body.table }, "an export failed while it was streaming");
          out.destroy(error instanceof Error ? error : new Error(String(error)));
        });
        return reply.send(out);
      },
    );
  };
}
