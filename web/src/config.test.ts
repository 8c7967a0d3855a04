import { describe, expect, it } from "vitest";
import { IMAGE_EDIT_ACCEPT, MESSAGE_CONFIG, settingsDrawerEnabled } from "./config";
import { memoryStorage } from "./test-support";

describe("config", () => {
  it("shows toasts at top 70px for 1 s, at most 3", () => {
    expect(MESSAGE_CONFIG).toEqual({ top: 70, duration: 1, maxCount: 3 });
  });

  it("accepts only jpg, jpeg, png and bmp for image editing", () => {
    expect(IMAGE_EDIT_ACCEPT).toBe(".jpg,.jpeg,.png,.bmp");
  });

  it("enables the settings drawer in development, or with ?settings=1 for the rest of the tab", () => {
    const storage = memoryStorage();
    expect(settingsDrawerEnabled("", true, storage)).toBe(true);
    expect(settingsDrawerEnabled("", false, storage)).toBe(false);
    expect(settingsDrawerEnabled("?settings=1", false, storage)).toBe(true);
    expect(settingsDrawerEnabled("", false, storage)).toBe(true);
  });
});
