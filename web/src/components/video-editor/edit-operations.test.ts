import { describe, expect, it } from "vitest";
import {
  clipAt,
  clipStarts,
  commit,
  emptyEdl,
  type History,
  insertClips,
  kenBurns,
  kenBurnsPresetOf,
  moveClip,
  redo,
  removeClip,
  setTransition,
  splitAt,
  totalDuration,
  trimClip,
  undo,
} from "./edit-operations";
import { type Clip, validateEdl } from "./edl";

const video = (id: string, inPoint: number, out: number): Clip => ({
  id,
  kind: "video",
  source: { libraryId: "material", storyId: `s-${id}` },
  in: inPoint,
  out,
  volume: 1,
  muted: false,
  transition: { type: "cut", duration: 0 },
  reframe: { mode: "crop", x: 0.5, y: 0.5 },
});
const slide = (id: string, duration: number): Clip => ({
  id,
  kind: "image",
  source: { libraryId: "product", storyId: `p-${id}` },
  duration,
  transition: { type: "cut", duration: 0 },
  reframe: { mode: "blur", x: 0.5, y: 0.5 },
});
const edlOf = (...clips: Clip[]) => insertClips(emptyEdl("t"), clips);

describe("the timeline's edits", () => {
  it("places clips one after another, overlapped by their transitions", () => {
    const edl = setTransition(edlOf(video("a", 0, 4), video("b", 2, 6)), "b", "crossfade", 1);
    expect(clipStarts(edl.clips)).toEqual([0, 3]);
    expect(totalDuration(edl.clips)).toBe(7);
    expect(clipAt(edl.clips, 3.5)).toEqual({ index: 1, offset: 0.5 });
    expect(validateEdl(edl).ok).toBe(true);
  });

  it("trims within the source, keeping at least a frame", () => {
    let edl = edlOf(video("a", 0, 10));
    edl = trimClip(edl, "a", { in: 2 }, 10);
    edl = trimClip(edl, "a", { out: 12 }, 10);
    expect(edl.clips[0]).toMatchObject({ in: 2, out: 10 });
    edl = trimClip(edl, "a", { in: 11 }, 10);
    expect(edl.clips[0]).toMatchObject({ in: 9.96, out: 10 });
  });

  it("splits the clip under the playhead into two that play the same frames", () => {
    const edl = edlOf(video("a", 1, 5), slide("b", 4));
    const split = splitAt(edl, 1.5)!;
    expect(
      split.edl.clips.map((clip) => [clip.kind, clip.kind === "video" ? [clip.in, clip.out] : clip.duration]),
    ).toEqual([
      ["video", [1, 2.5]],
      ["video", [2.5, 5]],
      ["image", 4],
    ]);
    expect(totalDuration(split.edl.clips)).toBe(8);
    expect(splitAt(edl, 6)!.edl.clips.map((clip) => (clip.kind === "image" ? clip.duration : null))).toEqual([
      null,
      2,
      2,
    ]);
    expect(splitAt(edl, 0)).toBeNull();
  });

  it("reorders and deletes (ripple), keeping the transitions within the schema's rules", () => {
    let edl = setTransition(edlOf(video("a", 0, 4), video("b", 0, 2), video("c", 0, 4)), "b", "dipBlack", 0.8);
    edl = moveClip(edl, "b", -1);
    expect(edl.clips.map((clip) => clip.id)).toEqual(["b", "a", "c"]);
    // The first clip has no transition.
    expect(edl.clips[0]!.transition).toEqual({ type: "cut", duration: 0 });
    edl = setTransition(edl, "c", "crossfade", 5);
    // At most half of the shorter clip beside it.
    expect(edl.clips[2]!.transition.duration).toBe(2);
    edl = removeClip(edl, "a");
    expect(edl.clips.map((clip) => clip.id)).toEqual(["b", "c"]);
    expect(edl.clips[1]!.transition.duration).toBe(1);
    expect(validateEdl(edl).ok).toBe(true);
  });

  it("names the Ken Burns presets and checks them against the schema", () => {
    const edl = edlOf({ ...slide("a", 4), kenBurns: kenBurns("panRight") } as Clip);
    expect(kenBurnsPresetOf(edl.clips[0] as Extract<Clip, { kind: "image" }>)).toBe("panRight");
    expect(validateEdl(edl).ok).toBe(true);
  });

  it("refuses what the server refuses, naming the field", () => {
    const result = validateEdl({ ...emptyEdl("x"), clips: [] });
    expect(result).toEqual({ ok: false, problems: ["clips: an edit needs at least one clip"] });
    const long = validateEdl({
      ...edlOf(video("a", 0, 1)),
      texts: [{ id: "t", kind: "title", text: "长".repeat(501), start: 0, end: 1 }],
    });
    expect(long.ok ? [] : long.problems).toEqual([expect.stringMatching(/^texts\[0\]\.text: at most 500 characters/)]);
  });

  it("undoes and redoes", () => {
    const first = edlOf(video("a", 0, 1));
    let history: History = { past: [], present: emptyEdl(), future: [] };
    history = commit(history, first);
    history = commit(history, removeClip(first, "a"));
    expect(undo(history).present).toBe(first);
    expect(redo(undo(history)).present.clips).toEqual([]);
    expect(undo(undo(undo(history))).present.clips).toEqual([]);
  });
});
