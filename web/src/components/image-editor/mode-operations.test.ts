import { describe, expect, it } from "vitest";
import { confirmStep, modeAllowed, previewOperation } from "./mode-operations";
import { initialColour, initialRotate, initialWatermark } from "./params";
import { SMALL_LIMITS } from "./rules";
import {
  type ImageEntry,
  initialSession,
  MODES,
  type SessionEvent,
  type SessionState,
  sessionReducer,
} from "./session";

const photo: ImageEntry = { url: "blob:photo", width: 1600, height: 900, operations: [] };
const run = (events: SessionEvent[], from: SessionState = initialSession): SessionState =>
  events.reduce(sessionReducer, from);
const ready = run([{ type: "loaded", image: photo }, { type: "editable" }]);
const inMode = (mode: 1 | 2 | 3 | 4 | 5, ...events: SessionEvent[]) =>
  run([{ type: "enterMode", mode }, ...events], ready);

describe("the live preview of a mode's parameters", () => {
  const params = { rotate: initialRotate, colour: initialColour, watermark: initialWatermark };

  it("draws rotate, colour and watermark changes; nothing for neutral ones or other modes", () => {
    const turned = { ...initialRotate, turns: 90 };
    expect(previewOperation(MODES.rotate, { ...params, rotate: turned }, "image/png")).toEqual({
      kind: "rotate",
      degrees: 90,
      flipH: false,
      flipV: false,
      fill: null,
    });
    expect(previewOperation(MODES.rotate, params, "image/jpeg")).toBeNull();
    expect(previewOperation(MODES.colour, { ...params, colour: { ...initialColour, contrast: 10 } }, "")).toMatchObject(
      { kind: "colour", contrast: 10 },
    );
    expect(previewOperation(MODES.colour, params, "")).toBeNull();
    // An image watermark without its image draws nothing yet.
    expect(previewOperation(MODES.watermark, params, "")).toBeNull();
    for (const mode of [MODES.none, MODES.crop, MODES.resize, MODES.confirmed])
      expect(previewOperation(mode, { ...params, rotate: turned }, "")).toBeNull();
  });

  it("shows a text watermark at most 100 px high; confirm applies the size asked for", () => {
    const watermark = { ...initialWatermark, type: 2 as const, text: "新华社", fontSize: 400 };
    expect(previewOperation(MODES.watermark, { ...params, watermark }, "")).toMatchObject({
      mark: { type: "text", fontSize: 100 },
    });
    expect(confirmStep(inMode(MODES.watermark, { type: "watermark", watermark }), { mime: "" })).toMatchObject({
      kind: "apply",
      operation: { mark: { fontSize: 400 } },
    });
  });
});

describe("what confirm does in each mode", () => {
  it("crop: the box in working-copy pixels scaled to the original, exact for its aspect; the whole image leaves", () => {
    const square = inMode(MODES.crop, { type: "aspect", aspect: "1:1" });
    // The working copy shows the image at half size.
    expect(
      confirmStep(square, { mime: "", cropBox: { x: 10, y: 20, width: 100, height: 99 }, shownScale: 0.5 }),
    ).toEqual({ kind: "apply", operation: { kind: "crop", x: 20, y: 40, width: 200, height: 200 } });
    const whole = { x: 0, y: 0, width: 800, height: 450 };
    expect(confirmStep(inMode(MODES.crop), { mime: "", cropBox: whole, shownScale: 0.5 })).toEqual({ kind: "leave" });
    expect(confirmStep(inMode(MODES.crop), { mime: "", cropBox: null, shownScale: 0.5 })).toEqual({ kind: "refuse" });
  });

  it("rotate and colour: a change applies, a rotation sum of 0 or neutral colours leave the mode", () => {
    const turned = inMode(MODES.rotate, { type: "rotate", rotate: { ...initialRotate, slider: -90, turns: 90 } });
    expect(confirmStep(turned, { mime: "image/jpeg" })).toEqual({ kind: "leave" });
    const flipped = inMode(MODES.rotate, { type: "rotate", rotate: { ...initialRotate, flipV: true } });
    expect(confirmStep(flipped, { mime: "image/jpeg" })).toMatchObject({
      kind: "apply",
      operation: { kind: "rotate", flipV: true, fill: "#ffffff" },
    });
    expect(confirmStep(inMode(MODES.colour), { mime: "" })).toEqual({ kind: "leave" });
    const sharper = inMode(MODES.colour, { type: "colour", colour: { ...initialColour, sharpen: 3 } });
    expect(confirmStep(sharper, { mime: "" })).toMatchObject({ kind: "apply", operation: { kind: "colour" } });
  });

  it("watermark: the spec's warnings, silent refusals, and the mark applied", () => {
    expect(confirmStep(inMode(MODES.watermark), { mime: "" })).toEqual({
      kind: "warn",
      messageKey: "imageEditor.notImage",
    });
    const text = { ...initialWatermark, type: 2 as const };
    expect(confirmStep(inMode(MODES.watermark, { type: "watermark", watermark: text }), { mime: "" })).toEqual({
      kind: "warn",
      messageKey: "imageEditor.watermark.required",
    });
    const faint = { ...text, text: "新华社", opacity: 0 };
    expect(confirmStep(inMode(MODES.watermark, { type: "watermark", watermark: faint }), { mime: "" })).toEqual({
      kind: "refuse",
    });
  });

  it("resize: refused out of bounds, the same size leaves, another size applies", () => {
    const sameSize = inMode(MODES.resize);
    expect(sameSize.params.resize).toMatchObject({ width: 1600, height: 900 });
    expect(confirmStep(sameSize, { mime: "" })).toEqual({ kind: "leave" });
    const half = inMode(MODES.resize, {
      type: "resize",
      resize: { width: 800, height: 450, percent: 50, locked: true },
    });
    expect(confirmStep(half, { mime: "" })).toEqual({
      kind: "apply",
      operation: { kind: "resize", width: 800, height: 450 },
    });
    const huge = inMode(MODES.resize, {
      type: "resize",
      resize: { width: 20_001, height: 900, percent: 100, locked: false },
    });
    expect(confirmStep(huge, { mime: "" })).toEqual({ kind: "refuse" });
  });

  it("nothing to confirm outside a mode or before an image", () => {
    expect(confirmStep(ready, { mime: "" })).toEqual({ kind: "refuse" });
    expect(confirmStep(initialSession, { mime: "" })).toEqual({ kind: "refuse" });
  });
});

describe("the platform's limits per mode (spec section 9)", () => {
  it("allows a mode only within its pixel and megabyte limit, and only once the input is known", () => {
    const large = run([{ type: "loaded", image: { ...photo, width: 6000, height: 4000 } }]);
    expect(modeAllowed(large, MODES.colour, 1_000_000)).toBe(true);
    expect(modeAllowed(large, MODES.colour, 21 * 1024 * 1024)).toBe(false);
    const small = run([{ type: "limits", limits: SMALL_LIMITS }], large);
    expect(modeAllowed(small, MODES.resize, 1_000_000)).toBe(true);
    expect(modeAllowed(small, MODES.colour, 1_000_000)).toBe(false);
    expect(modeAllowed(large, MODES.crop, null)).toBe(false);
    expect(modeAllowed(initialSession, MODES.crop, 10)).toBe(false);
  });
});
