import { api, call } from "../../api/client";
import type { Story, StoryRef } from "../../api/stories";

export function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/**
 * Saves an edited image as a new version of a photo story: the server keeps
 * every earlier version and records the edit as the story action
 * `new-version` (docs/media-uploads.md).
 */
export async function saveAsNewVersion(ref: StoryRef, image: Blob): Promise<Story> {
  const started = performance.now();
  const base64String = await blobToDataUrl(image);
  const encoded = performance.now();
  const story = await call<Story>(
    api.POST("/dams/api/v1/upload-images/base64image", {
      body: { base64String, libraryId: ref.libraryId, storyId: ref.storyId },
    }),
  );
  console.info(
    `image editor: uploaded ${(image.size / 1e6).toFixed(1)} MB in ${Math.round(performance.now() - started)} ms (data URL ${Math.round(encoded - started)} ms, request ${Math.round(performance.now() - encoded)} ms)`,
  );
  return story;
}
