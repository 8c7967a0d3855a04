import { afterEach, describe, expect, it, vi } from "vitest";
import { createI18n } from "../locales/both-languages";
import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, chunkNameFromError, withChunkTimeout } from "./chunk-load";

const en = createI18n("en-US");
const message = (name: string) => en.t("error.chunkLoad", { name });

afterEach(() => {
  vi.useRealTimers();
});

describe("withChunkTimeout", () => {
  it("resolves with the module when it loads in time", async () => {
    await expect(withChunkTimeout(async () => "module", "upload/image", message)).resolves.toBe("module");
  });

  it("rejects with 'Loading chunk {name} failed' when the import fails", async () => {
    const failing = () => Promise.reject(new TypeError("Failed to fetch dynamically imported module"));
    await expect(withChunkTimeout(failing, "upload/image", message)).rejects.toThrow(
      "Loading chunk upload/image failed",
    );
  });

  it("rejects when the import resolves to nothing (Vite, once its preload error is handled)", async () => {
    const nothing = () => Promise.resolve(undefined);
    await expect(withChunkTimeout(nothing, "upload/favorite", message)).rejects.toThrow(
      "Loading chunk upload/favorite failed",
    );
  });

  it("rejects after 120000 ms when the import hangs", async () => {
    vi.useFakeTimers();
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    const pending = withChunkTimeout(() => new Promise<never>(() => {}), "manage/setting/tag", message);
    const outcome = pending.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    let settled = false;
    void pending
      .catch(() => {})
      .finally(() => {
        settled = true;
      });
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as Error).message).toBe("Loading chunk manage/setting/tag failed");
  });
});

describe("chunkNameFromError", () => {
  it("names a CSS or JS chunk from Vite's preload error", () => {
    expect(chunkNameFromError(new Error("Unable to preload CSS for /assets/index-abc.css"))).toBe("index-abc.css");
    expect(chunkNameFromError(new Error("Failed to fetch /assets/tag-1.js"))).toBe("tag-1.js");
  });
});
