import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { renderStill } from "./video-render.js";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("the video editor's stills", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-still-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes a logo's still as PNG even when the logo has no alpha (ffmpeg decodes it by its .png name)", async () => {
    const opaque = path.join(dir, "logo.jpg");
    await sharp({ create: { width: 200, height: 100, channels: 3, background: "#cc0000" } })
      .jpeg()
      .toFile(opaque);
    const still = await renderStill(opaque, path.join(dir, "logo-still.png"), { longEdge: 1920, keepAlpha: true });
    expect(fs.readFileSync(still.path).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(await sharp(still.path).metadata()).toMatchObject({ format: "png", width: 1920, height: 960 });
  });

  it("writes a slide's still as JPEG on black", async () => {
    const withAlpha = path.join(dir, "slide.png");
    await sharp({ create: { width: 100, height: 100, channels: 4, background: "#00ff0080" } })
      .png()
      .toFile(withAlpha);
    const still = await renderStill(withAlpha, path.join(dir, "slide-still.jpg"), { longEdge: 50 });
    expect(await sharp(still.path).metadata()).toMatchObject({ format: "jpeg", width: 50, height: 50 });
  });
});
