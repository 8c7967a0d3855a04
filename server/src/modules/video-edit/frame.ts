/**
 * The output frame and how each clip's picture is fitted into it: the export
 * preset and aspect give the size; a clip is cropped at its position, shown
 * whole over a blurred copy of itself, or shown whole with black bars; a photo
 * pans and zooms between two rectangles (Ken Burns). Pure: filter text out.
 */
import { type KenBurnsRect, type Output, outputAspect, type Reframe } from "./edl.schema.js";
import { chain, filter, formatNumber } from "./ffmpeg-filter.js";
import type { Frame } from "./text-layout.js";

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);

/** The shorter side of each preset; `original` follows the first visual clip, at most 2160. */
const SHORT_SIDE = { "1080p": 1080, "720p": 720, vertical: 1080 } as const;

/** The output size: the preset's shorter side at the aspect (vertical is always 1080×1920). */
export function outputFrame(output: Pick<Output, "aspect" | "preset">, firstVisual?: Frame): Frame {
  const aspect = outputAspect(output);
  const short =
    output.preset === "original"
      ? even(Math.min(2160, firstVisual ? Math.min(firstVisual.width, firstVisual.height) : 1080))
      : SHORT_SIDE[output.preset];
  const [across, down] = aspect.split(":").map(Number) as [number, number];
  return across >= down
    ? { width: even((short * across) / down), height: short }
    : { width: short, height: even((short * down) / across) };
}

/** Graph lines that turn the picture at `[input]` of any size into exactly `frame` at `[output]`, by the clip's reframe. */
export function reframeGraph(reframe: Reframe, frame: Frame, input: string, output: string): string[] {
  const { width: W, height: H } = frame;
  switch (reframe.mode) {
    case "crop":
      return [
        chain(
          [input],
          [
            filter("scale", { w: W, h: H, force_original_aspect_ratio: "increase" }),
            filter("crop", {
              w: W,
              h: H,
              x: `(iw-${W})*${formatNumber(reframe.x)}`,
              y: `(ih-${H})*${formatNumber(reframe.y)}`,
            }),
          ],
          [output],
        ),
      ];
    case "fit":
      return [
        chain(
          [input],
          [
            filter("scale", { w: W, h: H, force_original_aspect_ratio: "decrease" }),
            filter("pad", { w: W, h: H, x: "(ow-iw)/2", y: "(oh-ih)/2", color: "black" }),
          ],
          [output],
        ),
      ];
    case "blur": {
      // The background is blurred at an eighth of the size: the same look for a fraction of the work.
      const small = { w: even(W / 8), h: even(H / 8) };
      return [
        chain([input], ["split=2"], [`${output}bgin`, `${output}fgin`]),
        chain(
          [`${output}bgin`],
          [
            filter("scale", { ...small, force_original_aspect_ratio: "increase" }),
            filter("crop", small),
            filter("boxblur", { luma_radius: 6, luma_power: 2 }),
            filter("scale", { w: W, h: H }),
          ],
          [`${output}bg`],
        ),
        chain(
          [`${output}fgin`],
          [filter("scale", { w: W, h: H, force_original_aspect_ratio: "decrease" })],
          [`${output}fg`],
        ),
        chain([`${output}bg`, `${output}fg`], [filter("overlay", { x: "(W-w)/2", y: "(H-h)/2" })], [output]),
      ];
    }
  }
}

export const FULL_FRAME: KenBurnsRect = { x: 0, y: 0, width: 1 };

/**
 * zoompan over a picture already reframed to the output aspect: the visible
 * rectangle moves linearly from `start` to `end` over `frames` frames. The
 * picture is scaled to `supersample` times the frame first, so slow moves do
 * not step by whole pixels of the output.
 */
export function kenBurnsFilter(
  start: KenBurnsRect,
  end: KenBurnsRect,
  frames: number,
  frame: Frame,
  fps: string,
): string {
  const span = Math.max(1, frames - 1);
  const progress = `min(on/${span},1)`;
  const lerp = (from: number, to: number) =>
    from === to ? formatNumber(from) : `(${formatNumber(from)}+(${formatNumber(to - from)})*${progress})`;
  return filter("zoompan", {
    z: `1/${lerp(start.width, end.width)}`,
    x: `iw*${lerp(start.x, end.x)}`,
    y: `ih*${lerp(start.y, end.y)}`,
    d: frames,
    s: `${frame.width}x${frame.height}`,
    fps,
  });
}

/** How much larger than the frame a photo is prepared for zoompan. */
export const KEN_BURNS_SUPERSAMPLE = 2;
