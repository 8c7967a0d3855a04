import { describe, expect, it } from "vitest";
import type { Operation } from "./operations";
import {
  canRedo,
  canReset,
  canUndo,
  type ImageEntry,
  initialSession,
  MODES,
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
    for (const mode of [MODES.colour, MODES.watermark])
      expect(
        run(
          [
            { type: "enterMode", mode },
            { type: "confirm", image: first },
          ],
          ready,
        ).mode,
      ).toBe(99);
    for (const mode of [MODES.crop, MODES.rotate, MODES.resize])
      expect(
        run(
          [
            { type: "enterMode", mode },
            { type: "confirm", image: first },
          ],
          ready,
        ).mode,
      ).toBe(mode);
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
