/**
 * Media processing: the only place in the server that touches sharp, exifr,
 * exiftool, ffprobe and ffmpeg. Pure functions over local files (paths in,
 * files and values out); jobs fetch blobs to a temporary directory, call
 * these, and store what they return. Every failure is a MediaError whose
 * `reason` can be stored on the failed job. See docs/media.md.
 */
export { type AudioProxyResult, type AudioWaveform, audioWaveform, transcodeAudioProxy } from "./audio.js";
export { ALLOWED_DEMUXERS } from "./ffmpeg-args.js";
export { extractImageMetadata, type ImageMetadata } from "./image-metadata.js";
export {
  ALLOWED_IMAGE_FORMATS,
  type CheckedImage,
  checkImageBuffer,
  DEFAULT_MAX_PIXELS,
  type ImageDerivativeOptions,
  type ImageDerivatives,
  type ImageFormat,
  type ImageRendition,
  type ImageSafetyOptions,
  openImage,
  renderImageDerivatives,
  renderThumbnail,
} from "./images.js";
export { MediaError, type MediaErrorKind } from "./media-error.js";
export { hammingDistance, perceptualHash } from "./perceptual-hash.js";
export { type MediaProbe, probeMedia } from "./probe.js";
export { DEFAULT_TOOL_LIMITS, type ToolLimits } from "./run-tool.js";
export {
  type MediaJobOptions,
  type RenderedFile,
  renderPoster,
  renderThumbnailStrip,
  type ThumbnailStrip,
  type ThumbnailStripFrame,
  type TranscodeOptions,
  transcodeVideoProxy,
  type VideoProxyResult,
} from "./video.js";

import type { MediaConfig } from "../config.js";
import type { ToolLimits } from "./run-tool.js";

/** The tool limits a worker passes to every call, from the validated configuration. */
export function toolLimitsFrom(config: MediaConfig, signal?: AbortSignal): ToolLimits {
  return { timeoutMs: config.timeoutMs, memoryBytes: config.memoryBytes, signal };
}
