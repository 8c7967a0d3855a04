import { describe, expect, it } from "vitest";
import type { Operation } from "./operations";
import { initialColour, initialRotate, initialWatermark } from "./params";
import { initialResize, LARGE_LIMITS, SMALL_LIMITS } from "./rules";
import {
  canRedo,
  canReset,
  canUndo,
  type ImageEntry,
  initialSession,
  MODES,
  type Mode,
  type SessionEvent,
  type SessionState,
  saveOperations,
  sessionReducer,
} from "./session";

const crop: Operation = { kind: "crop", x: 0, y: 0, width: 10, height: 10 };
const entry = (url: string, operations: Operation[] = []): ImageEntry => ({ url, width: 100, height: 50, operations });
const original = entry("blob:original");
const first = entry("blob:first", [crop]);
const second = entry("blob:second", [crop, crop]);
const third = entry("blob:third", [crop, crop, crop]);

const run = (events: SessionEvent[], from: SessionState = initialSession): SessionState =>
  events.reduce(sessionReducer, from);
const ready = run([{ type: "loaded", image: original }, { type: "editable" }]);

describe("image editing session (spec section 4)", () => {
  it("starts loading, not editable, in view mode 1; loading then editable", () => {
    expect(initialSession).toMatchObject({ loading: true, editable: false, viewMode: 1, edited: false, mode: 0 });
    const loaded = run([{ type: "loaded", image: original }]);
    expect(loaded).toMatchObject({ loading: false, editable: false, current: original, original });
    expect(canUndo(loaded)).toBe(false);
    expect(run([{ type: "editable" }]).editable).toBe(false); // not before the image has loaded
    expect(ready.editable).toBe(true);
  });

  it("confirming pushes the previous image onto undo, clears redo, sets edited, returns to view mode 1", () => {
    const zoomed = run(
      [
        { type: "viewMode", viewMode: 3, zoom: 150 },
        { type: "enterMode", mode: MODES.crop },
      ],
      ready,
    );
    const confirmed = run([{ type: "confirm", image: first }], zoomed);
    expect(confirmed).toMatchObject({ current: first, undo: [original], redo: [], edited: true, viewMode: 1 });
    expect(confirmed.mode).toBe(MODES.crop);
    // A redo list is cleared by a new confirm.
    const undone = run([{ type: "undo" }], confirmed);
    expect(undone.redo).toEqual([first]);
    expect(run([{ type: "confirm", image: second }], undone)).toMatchObject({ redo: [], undo: [original] });
  });

  it("mode 99 after confirming colour or watermark, not after crop, rotate or resize", () => {
    const modeAfterConfirm = (mode: Exclude<Mode, 99>) =>
      run(
        [
          { type: "enterMode", mode },
          { type: "confirm", image: first },
        ],
        ready,
      ).mode;
    for (const mode of [MODES.colour, MODES.watermark]) expect(modeAfterConfirm(mode)).toBe(99);
    for (const mode of [MODES.crop, MODES.rotate, MODES.resize]) expect(modeAfterConfirm(mode)).toBe(mode);
  });

  it("undo moves the current image to redo and restores the last undo entry; redo reverses it", () => {
    const edited = run(
      [
        { type: "confirm", image: first },
        { type: "confirm", image: second },
      ],
      ready,
    );
    const once = run([{ type: "undo" }], edited);
    expect(once).toMatchObject({ current: first, undo: [original], redo: [second], edited: true });
    const twice = run([{ type: "undo" }], once);
    expect(twice).toMatchObject({ current: original, undo: [], redo: [second, first], edited: false });
    expect(canUndo(twice)).toBe(false);
    expect(run([{ type: "undo" }], twice)).toBe(twice); // nothing left: no change
    const back = run([{ type: "redo" }], twice);
    expect(back).toMatchObject({ current: first, undo: [original], redo: [second], edited: true });
    const forward = run([{ type: "redo" }], back);
    expect(forward).toMatchObject({ current: second, undo: [original, first], redo: [], edited: true });
    expect(canRedo(forward)).toBe(false);
    expect(run([{ type: "redo" }], forward)).toBe(forward);
  });

  it("the edited flag is false exactly when the restored image is the original input", () => {
    const edited = run([{ type: "confirm", image: first }], ready);
    expect(run([{ type: "undo" }], edited).edited).toBe(false);
    expect(run([{ type: "undo" }, { type: "redo" }], edited).edited).toBe(true);
  });

  it("reset moves the current image and the remaining undo entries onto redo and restores the first undo entry", () => {
    const edited = run(
      [
        { type: "confirm", image: first },
        { type: "confirm", image: second },
        { type: "confirm", image: third },
      ],
      ready,
    );
    const reset = run([{ type: "reset" }], edited);
    expect(reset).toMatchObject({ current: original, undo: [], edited: false });
    expect(reset.redo).toEqual([third, second, first]);
    // Redo walks forward again in order.
    expect(run([{ type: "redo" }], reset).current).toBe(first);
    expect(run([{ type: "redo" }, { type: "redo" }, { type: "redo" }], reset)).toMatchObject({
      current: third,
      undo: [original, first, second],
      redo: [],
    });
    // Entries already on redo stay beneath.
    const withRedo = run([{ type: "undo" }, { type: "reset" }], edited);
    expect(withRedo.redo).toEqual([third, second, first]);
    expect(canReset(reset)).toBe(false);
    expect(run([{ type: "reset" }], reset)).toBe(reset);
  });

  it("rotate, flip and colour changes in progress disable undo and redo; confirm or cancel re-enables them", () => {
    const edited = run(
      [{ type: "confirm", image: first }, { type: "confirm", image: second }, { type: "undo" }],
      ready,
    );
    expect(canUndo(edited) && canRedo(edited)).toBe(true);
    for (const mode of [MODES.rotate, MODES.colour]) {
      const changing = run([{ type: "enterMode", mode }, { type: "change" }], edited);
      expect(changing.inProgress).toBe(true);
      expect(canUndo(changing)).toBe(false);
      expect(canRedo(changing)).toBe(false);
      expect(run([{ type: "undo" }], changing)).toBe(changing);
      expect(run([{ type: "redo" }], changing)).toBe(changing);
      const cancelled = run([{ type: "cancel" }], changing);
      expect(canUndo(cancelled) && canRedo(cancelled)).toBe(true);
      const confirmed = run([{ type: "confirm", image: third }], changing);
      expect(canUndo(confirmed)).toBe(true);
      // Leaving the mode for another discards the change too.
      expect(canUndo(run([{ type: "enterMode", mode: MODES.crop }], changing))).toBe(true);
    }
    // Crop, watermark and resize edits do not lock.
    for (const mode of [MODES.crop, MODES.watermark, MODES.resize])
      expect(canUndo(run([{ type: "enterMode", mode }, { type: "change" }], edited))).toBe(true);
  });

  it("cancel leaves the mode; nothing is edited", () => {
    const cancelled = run([{ type: "enterMode", mode: MODES.crop }, { type: "cancel" }], ready);
    expect(cancelled).toMatchObject({ mode: MODES.none, current: original, edited: false, undo: [] });
  });

  it("nothing is editable before the 300 ms: undo, redo and reset wait", () => {
    const notYet = run([
      { type: "loaded", image: original },
      { type: "confirm", image: first },
    ]);
    expect(canUndo(notYet)).toBe(false);
    expect(canReset(notYet)).toBe(false);
  });

  it("save gives the operations of the current image when edited, null when not", () => {
    expect(saveOperations(ready)).toBeNull();
    const edited = run([{ type: "confirm", image: second }], ready);
    expect(saveOperations(edited)).toEqual([crop, crop]);
    expect(saveOperations(run([{ type: "undo" }], edited))).toBeNull();
  });

  it("view modes: fit, actual size, percent zoom", () => {
    expect(run([{ type: "viewMode", viewMode: 2 }], ready)).toMatchObject({ viewMode: 2, zoom: 100 });
    expect(run([{ type: "viewMode", viewMode: 3, zoom: 40 }], ready)).toMatchObject({ viewMode: 3, zoom: 40 });
  });

  it("loading another image starts a new session", () => {
    const edited = run([{ type: "confirm", image: first }], ready);
    const next = run([{ type: "load" }, { type: "loaded", image: second }], edited);
    expect(next).toMatchObject({
      original: second,
      current: second,
      undo: [],
      redo: [],
      edited: false,
      editable: false,
    });
  });
});

describe("each mode's unconfirmed parameters (spec section 4)", () => {
  const big = { ...entry("blob:big"), width: 8000, height: 4000 };
  const turned = { slider: 30, turns: 90, flipH: true, flipV: false };
  const darker = { brightness: -20, contrast: 5, sharpen: 0 };

  it("entering a mode starts every mode's parameters afresh, the resize at the current image's size", () => {
    const changed = run(
      [
        { type: "enterMode", mode: MODES.rotate },
        { type: "rotate", rotate: turned },
        { type: "aspect", aspect: "16:9" },
        { type: "watermark", watermark: { ...initialWatermark, text: "新华社" } },
        { type: "resize", resize: { width: 50, height: 25, percent: 50, locked: true } },
      ],
      ready,
    );
    expect(changed.params).toMatchObject({ rotate: turned, aspect: "16:9", resize: { width: 50, percent: 50 } });
    expect(run([{ type: "enterMode", mode: MODES.colour }], changed).params).toEqual({
      aspect: "free",
      rotate: initialRotate,
      colour: initialColour,
      watermark: initialWatermark,
      resize: { width: 100, height: 50, percent: 100, locked: true },
    });
  });

  it("a rotate or colour change is a change in progress that locks undo and redo; the others are not", () => {
    const edited = run([{ type: "confirm", image: first }], ready);
    const rotating = run(
      [
        { type: "enterMode", mode: MODES.rotate },
        { type: "rotate", rotate: turned },
      ],
      edited,
    );
    expect(rotating).toMatchObject({ inProgress: true, params: { rotate: turned } });
    expect(canUndo(rotating)).toBe(false);
    const colouring = run(
      [
        { type: "enterMode", mode: MODES.colour },
        { type: "colour", colour: darker },
      ],
      edited,
    );
    expect(canUndo(colouring)).toBe(false);
    const marking = run(
      [
        { type: "enterMode", mode: MODES.watermark },
        { type: "watermark", watermark: { ...initialWatermark, opacity: 50 } },
      ],
      edited,
    );
    expect(canUndo(marking)).toBe(true);
    const cropping = run(
      [
        { type: "enterMode", mode: MODES.crop },
        { type: "aspect", aspect: "1:1" },
      ],
      edited,
    );
    expect(canUndo(cropping)).toBe(true);
  });

  it("confirming starts the next rotation and colour change from neutral, and keeps the watermark", () => {
    const mark = { ...initialWatermark, type: 2 as const, text: "新华社" };
    const confirmed = run(
      [
        { type: "rotate", rotate: turned },
        { type: "colour", colour: darker },
        { type: "watermark", watermark: mark },
        { type: "confirm", image: first },
      ],
      ready,
    );
    expect(confirmed.params).toMatchObject({ rotate: initialRotate, colour: initialColour, watermark: mark });
  });

  it("the resize parameters follow the current image: loaded, confirmed, undone, redone, reset", () => {
    const small = { ...entry("blob:small"), width: 40, height: 20 };
    const resized = { ...entry("blob:resized", [crop]), width: 200, height: 100 };
    const typed = { width: 7, height: 7, percent: 7, locked: false };
    const at = (state: SessionState) => state.params.resize;
    const loaded = run([{ type: "loaded", image: small }, { type: "editable" }]);
    expect(at(loaded)).toEqual(initialResize(small, LARGE_LIMITS.maxResizeLength));
    const confirmed = run(
      [
        { type: "resize", resize: typed },
        { type: "confirm", image: resized },
      ],
      loaded,
    );
    expect(at(confirmed)).toEqual(initialResize(resized, LARGE_LIMITS.maxResizeLength));
    const undone = run([{ type: "resize", resize: typed }, { type: "undo" }], confirmed);
    expect(at(undone)).toMatchObject({ width: 40, height: 20, percent: 100 });
    expect(at(run([{ type: "redo" }], undone))).toMatchObject({ width: 200, height: 100 });
    expect(at(run([{ type: "resize", resize: typed }, { type: "reset" }], confirmed))).toMatchObject({ width: 40 });
    // A view change keeps what was typed.
    expect(
      at(
        run(
          [
            { type: "resize", resize: typed },
            { type: "viewMode", viewMode: 2 },
          ],
          loaded,
        ),
      ),
    ).toEqual(typed);
  });

  it("the platform's limits cap the resize: a 32-bit Windows browser starts an 8000 px image at 62 %", () => {
    const loaded = run([{ type: "loaded", image: big }]);
    expect(loaded.params.resize.percent).toBe(100);
    const limited = run([{ type: "limits", limits: SMALL_LIMITS }], loaded);
    expect(limited.limits).toBe(SMALL_LIMITS);
    expect(limited.params.resize).toEqual({ width: 4960, height: 2480, percent: 62, locked: true });
  });

  it("loading another image keeps the mode, its parameters and the limits", () => {
    const before = run(
      [
        { type: "limits", limits: SMALL_LIMITS },
        { type: "enterMode", mode: MODES.crop },
        { type: "aspect", aspect: "4:3" },
      ],
      ready,
    );
    const next = run([{ type: "load" }], before);
    expect(next).toMatchObject({ mode: MODES.crop, limits: SMALL_LIMITS, loading: true, current: null });
    expect(next.params.aspect).toBe("4:3");
  });
});
