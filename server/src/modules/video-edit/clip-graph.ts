/**
 * The clips of the timeline as graph streams: each clip's picture fitted to
 * the frame and its sound (or silence) exactly its duration long, then joined
 * (runs of cuts concatenated, runs crossfaded or dipped into each other).
 */
import { type Clip, clipDuration, sourceKey, type TransitionType, transitionInto } from "./edl.schema.js";
import { chain, filter, formatNumber, fpsValue } from "./ffmpeg-filter.js";
import { FULL_FRAME, KEN_BURNS_SUPERSAMPLE, kenBurnsFilter, reframeGraph } from "./frame.js";
import { AUDIO_FORMAT, type Context, type GraphBuilder } from "./graph-context.js";

const XFADE: Record<Exclude<TransitionType, "cut">, string> = {
  crossfade: "fade",
  dipBlack: "fadeblack",
  dipWhite: "fadewhite",
};

/** Where each clip starts on the output timeline. */
export function clipStarts(clips: readonly Clip[]): number[] {
  const starts: number[] = [];
  let end = 0;
  clips.forEach((clip, index) => {
    const start = end - transitionInto(clips, index).duration;
    starts.push(start);
    end = start + clipDuration(clip);
  });
  return starts;
}

/** The picture and sound of clip `index` as [v{index}] and [a{index}], exactly `duration` long. */
export function clipStreams(context: Context, clip: Clip, index: number): void {
  const duration = clipDuration(clip);
  const { graph, frame, fps } = context;
  const v = `v${index}`;
  const a = `a${index}`;
  const d = formatNumber(duration);
  const finish = [
    "setsar=1",
    filter("format", { pix_fmts: "yuv420p" }),
    filter("trim", { duration: d }),
    "setpts=PTS-STARTPTS",
    filter("settb", { expr: "AVTB" }),
  ];
  const silence = () =>
    graph.add(
      chain(
        [],
        [
          filter("anullsrc", { channel_layout: "stereo", sample_rate: 48000 }),
          filter("atrim", { duration: d }),
          AUDIO_FORMAT,
        ],
        [a],
      ),
    );

  if (clip.kind === "colour") {
    graph.add(
      chain(
        [],
        [
          filter("color", {
            c: clip.colour.slice(0, 7).replace("#", "0x"),
            s: `${frame.width}x${frame.height}`,
            r: fps,
          }),
          ...finish,
        ],
        [v],
      ),
    );
    silence();
    return;
  }

  const source = context.sources.get(sourceKey(clip.source))!;
  if (clip.kind === "image") {
    const input = graph.input({ path: source.path, kind: "image" });
    const big = { width: frame.width * KEN_BURNS_SUPERSAMPLE, height: frame.height * KEN_BURNS_SUPERSAMPLE };
    const frames = Math.max(1, Math.round(duration * fpsValue(fps)));
    const moves = clip.kenBurns ?? { start: FULL_FRAME, end: FULL_FRAME };
    graph.add(
      ...reframeGraph(clip.reframe, big, `${input}:v`, `${v}big`),
      chain([`${v}big`], [kenBurnsFilter(moves.start, moves.end, frames, frame, fps), ...finish], [v]),
    );
    silence();
    return;
  }

  const input = graph.input({ path: source.path, kind: "media", seek: clip.in, duration });
  graph.add(
    chain([`${input}:v`], ["setpts=PTS-STARTPTS", filter("fps", { fps })], [`${v}src`]),
    ...reframeGraph(clip.reframe, frame, `${v}src`, `${v}fit`),
    chain([`${v}fit`], finish, [v]),
  );
  if (!source.hasAudio || clip.muted || clip.volume === 0) {
    silence();
    return;
  }
  graph.add(
    chain(
      [`${input}:a`],
      [
        "asetpts=PTS-STARTPTS",
        filter("aresample", { sample_rate: 48000 }),
        AUDIO_FORMAT,
        filter("volume", { volume: clip.volume }),
        "apad",
        filter("atrim", { duration: d }),
      ],
      [a],
    ),
  );
}

/** Joins the clips: runs of cuts are concatenated, runs are joined by their transition. Returns the labels. */
export function joinClips(graph: GraphBuilder, clips: readonly Clip[]): { video: string; audio: string } {
  const runs: { first: number; last: number }[] = [];
  clips.forEach((_, index) => {
    if (index > 0 && transitionInto(clips, index).type === "cut") runs.at(-1)!.last = index;
    else runs.push({ first: index, last: index });
  });
  const runStreams = runs.map((run, number) => {
    if (run.first === run.last) return { video: `v${run.first}`, audio: `a${run.first}` };
    const pads: string[] = [];
    for (let index = run.first; index <= run.last; index++) pads.push(`v${index}`, `a${index}`);
    const n = run.last - run.first + 1;
    graph.add(
      chain(pads, [filter("concat", { n, v: 1, a: 1 })], [`r${number}vc`, `r${number}a`]),
      chain([`r${number}vc`], [filter("settb", { expr: "AVTB" })], [`r${number}v`]),
    );
    return { video: `r${number}v`, audio: `r${number}a` };
  });
  let joined = runStreams[0]!;
  let length = runLength(clips, runs[0]!);
  for (let number = 1; number < runs.length; number++) {
    const run = runs[number]!;
    const into = transitionInto(clips, run.first);
    const type = into.type === "cut" ? "crossfade" : into.type;
    const next = runStreams[number]!;
    const offset = length - into.duration;
    graph.add(
      chain(
        [joined.video, next.video],
        [filter("xfade", { transition: XFADE[type], duration: into.duration, offset })],
        [`x${number}v`],
      ),
      chain(
        [joined.audio, next.audio],
        [filter("acrossfade", { d: into.duration, c1: "tri", c2: "tri" })],
        [`x${number}a`],
      ),
    );
    joined = { video: `x${number}v`, audio: `x${number}a` };
    length = offset + runLength(clips, run);
  }
  return joined;
}

/** The length of a run of cuts. */
function runLength(clips: readonly Clip[], run: { first: number; last: number }): number {
  let total = 0;
  for (let index = run.first; index <= run.last; index++) total += clipDuration(clips[index]!);
  return total;
}
