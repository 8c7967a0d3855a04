/** Caption cues as a WebVTT file (the sidecar track kept on the story). */
import type { CaptionCue } from "./edl.schema.js";

/** `hh:mm:ss.mmm`, as WebVTT writes times. */
export function vttTime(seconds: number): string {
  const millis = Math.round(seconds * 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  const hours = Math.floor(millis / 3_600_000);
  const minutes = Math.floor((millis % 3_600_000) / 60_000);
  const secs = Math.floor((millis % 60_000) / 1000);
  return `${pad(hours)}:${pad(minutes)}:${pad(secs)}.${pad(millis % 1000, 3)}`;
}

/**
 * The cues in time order. A cue's text cannot hold a blank line or the
 * `-->` arrow (either would end or start a cue), and `<` `&` are escaped so
 * the text is shown as written.
 */
export function toWebVtt(cues: readonly CaptionCue[]): string {
  const blocks = [...cues]
    .sort((a, b) => a.start - b.start || a.end - b.end)
    .map((cue) => {
      const text = cue.text
        .replace(/\r\n?/g, "\n")
        .replace(/\n{2,}/g, "\n")
        .trim()
        .replaceAll("&", "&amp;")
        .replaceAll("<", "&lt;")
        .replaceAll("-->", "--&gt;");
      return `${vttTime(cue.start)} --> ${vttTime(cue.end)}\n${text}`;
    });
  return `WEBVTT\n\n${blocks.join("\n\n")}\n`;
}
