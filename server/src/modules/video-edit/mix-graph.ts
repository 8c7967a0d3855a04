/**
 * What goes over the joined clips: titles, slide captions, burned captions
 * and the logo on the picture; the music (faded, ducked under the clips'
 * sound) and the loudness normalisation on the sound.
 */

import { clipStarts } from "./clip-graph.js";
import { type Clip, clipDuration, type Edl } from "./edl.schema.js";
import { chain, filter } from "./ffmpeg-filter.js";
import { AUDIO_FORMAT, type Context, EdlSourceError, sourceOf } from "./graph-context.js";
import { captionFilter, logoPlacement, overlayFilters, TEXT_SIZES, textLogoFilter } from "./text-layout.js";

/** Loudness target of EBU R128. */
export const LOUDNESS = { integrated: -23, truePeak: -2, range: 11 } as const;

/** Titles, slide captions, burned captions and the logo over the joined picture. */
export function drawOverlays(
  context: Context,
  edl: Edl,
  clips: readonly Clip[],
  duration: number,
  input: string,
  font: string,
): string {
  const { graph, frame } = context;
  const draws: string[] = [];
  for (const overlay of edl.texts) draws.push(...overlayFilters(overlay, frame, font));
  const starts = clipStarts(clips);
  clips.forEach((clip, index) => {
    if (clip.kind === "image" && clip.caption?.trim())
      draws.push(
        captionFilter(
          clip.caption,
          starts[index]!,
          starts[index]! + clipDuration(clip),
          frame,
          font,
          TEXT_SIZES.slideCaption,
        ),
      );
  });
  if (edl.captions?.mode === "burn")
    for (const cue of edl.captions.cues) draws.push(captionFilter(cue.text, cue.start, cue.end, frame, font));
  if (edl.logo?.type === 2) draws.push(textLogoFilter(edl.logo, frame, font, duration));
  let label = input;
  if (draws.length > 0) {
    graph.add(chain([input], draws, ["vtext"]));
    label = "vtext";
  }
  if (edl.logo?.type === 1 && edl.logo.source) {
    const source = sourceOf(context.sources, edl.logo.source, "logo.source");
    if (source.kind !== "image") throw new EdlSourceError("logo.source", "a logo needs a photo");
    const logoInput = graph.input({ path: source.path, kind: "image" });
    const width = Math.max(2, Math.round((frame.width * edl.logo.sizePercent) / 100 / 2) * 2);
    const placement = logoPlacement(edl.logo, frame, { w: "w", h: "h", W: "W", H: "H" });
    graph.add(
      chain(
        [`${logoInput}:v`],
        [
          filter("scale", { w: width, h: -2 }),
          filter("format", { pix_fmts: "rgba" }),
          filter("colorchannelmixer", { aa: edl.logo.opacity / 100 }),
        ],
        ["logo"],
      ),
      chain([label, "logo"], [filter("overlay", { ...placement, format: "auto" })], ["vlogo"]),
    );
    label = "vlogo";
  }
  graph.add(chain([label], [filter("format", { pix_fmts: "yuv420p" })], ["vout"]));
  return "vout";
}

/** The music (faded, ducked under the clips' sound) mixed in, and the loudness normalised. */
export function mixAudio(context: Context, edl: Edl, duration: number, input: string): string {
  const { graph } = context;
  let label = input;
  const music = edl.music;
  if (music && music.start < duration) {
    const source = sourceOf(context.sources, music.source, "music.source");
    if (!source.hasAudio) throw new EdlSourceError("music.source", "the music's story has no sound");
    if (music.in >= source.durationSeconds)
      throw new EdlSourceError("music.in", `the music lasts ${source.durationSeconds.toFixed(2)} s`);
    const length = Math.min(duration - music.start, source.durationSeconds - music.in);
    const musicInput = graph.input({ path: source.path, kind: "media", seek: music.in, duration: length });
    const fades: string[] = [];
    if (music.fadeIn > 0) fades.push(filter("afade", { t: "in", st: 0, d: Math.min(music.fadeIn, length) }));
    if (music.fadeOut > 0)
      fades.push(
        filter("afade", { t: "out", st: Math.max(0, length - music.fadeOut), d: Math.min(music.fadeOut, length) }),
      );
    graph.add(
      chain(
        [`${musicInput}:a`],
        [
          "asetpts=PTS-STARTPTS",
          filter("aresample", { sample_rate: 48000 }),
          AUDIO_FORMAT,
          filter("volume", { volume: music.volume }),
          ...fades,
          filter("adelay", { delays: Math.round(music.start * 1000), all: 1 }),
          "apad",
          filter("atrim", { duration }),
        ],
        ["music"],
      ),
    );
    if (music.ducking) {
      graph.add(
        chain([label], ["asplit=2"], ["speech", "key"]),
        chain(
          ["music", "key"],
          [filter("sidechaincompress", { threshold: 0.03, ratio: 8, attack: 20, release: 400 })],
          ["ducked"],
        ),
        chain(["speech", "ducked"], [filter("amix", { inputs: 2, duration: "first", normalize: 0 })], ["mix"]),
      );
    } else {
      graph.add(chain([label, "music"], [filter("amix", { inputs: 2, duration: "first", normalize: 0 })], ["mix"]));
    }
    label = "mix";
  }
  const normalise = edl.audio.normalize
    ? [
        filter("loudnorm", { I: LOUDNESS.integrated, TP: LOUDNESS.truePeak, LRA: LOUDNESS.range }),
        filter("aresample", { sample_rate: 48000 }),
      ]
    : [];
  graph.add(chain([label], [...normalise, AUDIO_FORMAT, filter("atrim", { duration })], ["aout"]));
  return "aout";
}
