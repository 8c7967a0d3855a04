/** Watermark and download presets (docs/presets.md): types, calls, query keys, hooks, and downloads through a preset. */
import { DEFAULT_WATERMARK as SHARED_DEFAULT_WATERMARK } from "@shared/watermark";
import { useQuery } from "@tanstack/react-query";
import { api, call, callFile } from "./client";
import { saveBlob } from "./files";
import { restCalls } from "./resource";
import type { components } from "./schema";

type Schemas = components["schemas"];
export type WatermarkPreset = Schemas["WatermarkPreset"];
export type WatermarkSettings = Schemas["WatermarkSettings"];
export type WatermarkImage = { data: string; type: "image/png" | "image/jpeg" };
export type WatermarkPresetInput = { name: string; settings: WatermarkSettings; image?: WatermarkImage | null };
export type DownloadPreset = Schemas["DownloadPreset"];
export type RenditionSettings = Schemas["RenditionSettings"];
export type DownloadPresetInput = Omit<DownloadPreset, "id" | "revision" | "createdAt" | "updatedAt">;
export type RenditionState = Schemas["PresetRenditionState"];
export type PresetStoryType = DownloadPreset["storyType"];

/** Spec section 9's default watermark (server/src/shared/watermark.ts), typed as the API takes it. */
export const DEFAULT_WATERMARK: WatermarkSettings = SHARED_DEFAULT_WATERMARK;

export const presetKeys = {
  all: ["presets"] as const,
  watermarks: () => [...presetKeys.all, "watermarks", "all"] as const,
  usable: (storyType: string) => [...presetKeys.all, "usable", storyType] as const,
};

const byId = (presetId: string) => ({ params: { path: { presetId } } });

export const watermarkPresetCalls = restCalls(
  "/dams/api/v1/watermark-presets",
  "/dams/api/v1/watermark-presets/{presetId}",
);
/** The sample picture with the watermark as set (a JPEG blob); silent: the page shows its own state. */
export const previewWatermark = async (body: {
  settings: WatermarkSettings;
  image?: WatermarkImage | null;
  presetId?: string;
}): Promise<Blob> =>
  (await callFile(api.POST("/dams/api/v1/watermark-presets/preview", { body, parseAs: "blob" }), { silent: true }))
    .blob;
const allWatermarkPresets = async (): Promise<WatermarkPreset[]> =>
  (await watermarkPresetCalls.list({ page: 0, size: 1000 })).content;
export const useWatermarkPresets = () => useQuery({ queryKey: presetKeys.watermarks(), queryFn: allWatermarkPresets });

export const downloadPresetCalls = restCalls(
  "/dams/api/v1/download-presets",
  "/dams/api/v1/download-presets/{presetId}",
  { remove: {} },
);

/** The presets the signed-in user may use, of a story type (composite stories have none). */
export const useUsablePresets = (storyType: string | undefined) =>
  useQuery({
    queryKey: presetKeys.usable(storyType ?? ""),
    queryFn: () =>
      call(
        api.GET("/dams/api/v1/download-presets/usable", {
          params: { query: { storyType: storyType as PresetStoryType } },
        }),
      ),
    enabled: storyType === "photo" || storyType === "video" || storyType === "audio",
  });

/** Every download preset the user may use, of any story type (the share dialog's choice). */
export const useShareablePresets = () =>
  useQuery({
    queryKey: presetKeys.usable("*"),
    queryFn: () => call(api.GET("/dams/api/v1/download-presets/usable", { params: { query: {} } })),
  });

export const requestRenditions = (presetId: string, libraryId: string, storyIds: readonly string[]) =>
  call(
    api.POST("/dams/api/v1/download-presets/{presetId}/renditions/{libraryId}", {
      params: { path: { presetId, libraryId } },
      body: { storyIds: [...storyIds] },
    }),
  );

export class RenditionFailed extends Error {}

/**
 * Asks for a preset's renditions of stories, waits while their jobs make them
 * (polling, at most `timeoutMs`), then downloads one file or a zip.
 */
export async function savePresetRenditions(
  presetId: string,
  libraryId: string,
  storyIds: readonly string[],
  options: { fallbackName: string; timeoutMs?: number; pollMs?: number },
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000);
  for (;;) {
    const states = await requestRenditions(presetId, libraryId, storyIds);
    const failed = states.find((state) => state.state === "failed");
    if (failed) throw new RenditionFailed(failed.error ?? "failed");
    if (states.every((state) => state.state === "done")) break;
    if (Date.now() > deadline) throw new RenditionFailed("timeout");
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1000));
  }
  const file =
    storyIds.length === 1
      ? await callFile(
          api.GET("/dams/api/v1/download-presets/{presetId}/file/{libraryId}/{storyId}", {
            params: { path: { presetId, libraryId, storyId: storyIds[0]! }, query: {} },
            parseAs: "blob",
          }),
        )
      : await callFile(
          api.GET("/dams/api/v1/download-presets/{presetId}/zip/{libraryId}", {
            params: { path: { presetId, libraryId }, query: { storyIds: storyIds.join(",") } },
            parseAs: "blob",
          }),
        );
  saveBlob(file.blob, file.name ?? options.fallbackName);
}

/** The image of an image watermark preset, as a blob (for the video editor's preview of a logo). */
export const fetchWatermarkImage = async (presetId: string): Promise<Blob> =>
  (
    await callFile(api.GET("/dams/api/v1/watermark-presets/{presetId}/image", { ...byId(presetId), parseAs: "blob" }), {
      silent: true,
    })
  ).blob;
