import { transcodeVideoProxy } from "../server/src/media/video.js";

/**
 * One dams transcode in its own process, so video-proxy.bench.ts can measure
 * its CPU time (ffprobe and ffmpeg included) with GNU time, like the shell's:
 *   tsx video-proxy-worker.ts <source> <out>      (no arguments: start-up only, the baseline)
 */
const [source, out] = process.argv.slice(2);
if (source && out) await transcodeVideoProxy(source, out, { onProgress: () => {} });
