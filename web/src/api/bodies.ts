import type { paths } from "./schema";

/** The JSON body an endpoint of the generated schema takes (`never` for one without). */
export type JsonBody<P extends keyof paths, M extends "post" | "put" | "patch"> = paths[P][M] extends {
  requestBody?: { content: { "application/json": infer B } };
}
  ? B
  : never;
