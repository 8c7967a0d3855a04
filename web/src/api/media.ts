import { api, call } from "./client";
import type { paths } from "./schema";

type CoverBody = NonNullable<
  paths["/dams/api/v1/upload-images/cover"]["post"]["requestBody"]
>["content"]["application/json"];
export type CoverResult =
  paths["/dams/api/v1/upload-images/cover"]["post"]["responses"][200]["content"]["application/json"]["data"];

/** The cover cropper's confirm (spec section 7): the cropped image becomes the story's cover. */
export function saveCover(body: CoverBody & { base64String: string; ratio: string }): Promise<CoverResult> {
  return call(api.POST("/dams/api/v1/upload-images/cover", { body }));
}
