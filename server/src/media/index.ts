/**
 * Media processing: the only place in the server that touches sharp, exifr,
 * exiftool, ffprobe and ffmpeg (and the only one that starts processes).
 * The rest of the server reaches the tools through the `MediaTools`
 * interface, built once in the composition root (`SystemMediaTools`); paths
 * in, files and values out. Every failure is a MediaError whose `reason` can
 * be stored on the failed job. See docs/media.md.
 */
export type { AudioProxyResult, AudioWaveform } from "./audio.js";
export type { ImageMetadata } from "./image-metadata.js";
export type { CheckedImage, ImageDerivatives, ImageFormat, ImageRendition } from "./images.js";
export { MediaError, type MediaErrorKind } from "./media-error.js";
export {
  type MediaCall,
  type MediaTools,
  type ProbedCall,
  SystemMediaTools,
  type TranscodeCall,
} from "./media-tools.js";
export {
  embedsMetadata,
  OUTGOING_METADATA,
  type OutgoingFields,
  type OutgoingMetadataRequest,
} from "./outgoing-metadata.js";
export {
  type AvFormat,
  fitBox,
  type MetadataPolicy,
  type PhotoFormat,
  RENDITION_MIME,
  type RenderedRendition,
  type RenditionSpec,
} from "./preset-render.js";
export type { MediaProbe } from "./probe.js";
export type { RenderedFile, ThumbnailStrip, ThumbnailStripFrame, VideoProxyResult } from "./video.js";
export {
  type CopyCut,
  type EditRenderPlan,
  RENDER_FONT,
  type RenderCall,
  type RenderResult,
  type Still,
  SystemVideoRenderTools,
  type VideoRenderTools,
} from "./video-render.js";
export {
  type ImageMarkSpec,
  type TextMarkSpec,
  WATERMARK_FONTS,
  WATERMARK_POSITIONS,
  type WatermarkPosition,
  type WatermarkSpec,
} from "./watermark.js";
