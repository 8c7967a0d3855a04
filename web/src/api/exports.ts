/** The exporter of back-area tables (POST /export/table_0, docs/exports.md). */
import { api, callFile } from "./client";
import { saveBlob } from "./files";
import type { paths } from "./schema";

export type ExportRequest = NonNullable<
  paths["/dams/api/v1/export/table_0"]["post"]["requestBody"]
>["content"]["application/json"];

/** Asks for the table as a file (the screen's columns and filter) and hands it to the browser. */
export async function exportTable(request: ExportRequest): Promise<void> {
  const file = await callFile(api.POST("/dams/api/v1/export/table_0", { body: request, parseAs: "blob" }) as never);
  saveBlob(file.blob, file.name ?? `${request.table}.${request.format ?? "xlsx"}`);
}
