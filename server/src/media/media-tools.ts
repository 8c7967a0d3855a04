import sharp from "sharp";
import type { MediaConfig } from "../config.js";
import { type AudioProxyResult, type AudioWaveform, audioWaveform, transcodeAudioProxy } from "./audio.js";
import { ExiftoolProcess } from "./exiftool-process.js";
import { extractImageMetadata, type ImageMetadata } from "./image-metadata.js";
import {
  type CheckedImage,
  checkImageBuffer,
  type ImageDerivatives,
  type ImageFormat,
  type ImageRendition,
  renderImageDerivatives,
  renderThumbnail,
} from "./images.js";
import { type OutgoingMetadataRequest, writeOutgoingMetadata } from "./outgoing-metadata.js";
import {
  type RenderedRendition,
  type RenditionSpec,
  renderAvRendition,
  renderPhotoRendition,
} from "./preset-render.js";
import { type MediaProbe, probeMedia } from "./probe.js";
import { remuxToMp4 } from "./remux.js";
import type { ToolLimits } from "./run-tool.js";
import {
  type RenderedFile,
  renderPoster,
  renderThumbnailStrip,
  type ThumbnailStrip,
  transcodeVideoProxy,
  type VideoProxyResult,
} from "./video.js";
import { lowerLibvipsThreads } from "./vips-threads.js";
import { previewWatermark, type WatermarkSpec } from "./watermark.js";

/** A call on behalf of a job: its signal (cancel, timeout, shutdown) stops the tool. */
export interface MediaCall {
  signal?: AbortSignal;
}

/** A call on a file already probed (the probe is reused, not run again). */
export interface ProbedCall extends MediaCall {
  probe?: MediaProbe;
}

/** A long call that reports whole percents 0-100. */
export interface TranscodeCall extends ProbedCall {
  onProgress?: (percent: number) => void;
}

/**
 * What the rest of the server asks of the media tools (sharp, exifr,
 * exiftool, ffprobe, ffmpeg): paths in, files and values out, every failure a
 * MediaError. Built once in the composition root from `config.media`, whose
 * limits it applies to every call; the processing rules are tested with a
 * fake of it (`media/test-support/fake-media-tools.ts`), the tools themselves
 * by the tests beside them.
 */
export interface MediaTools {
  /** A photo's grid thumbnail and preview, JPEG and WebP, under `dir`; its upright size and perceptual hash (one decode). */
  imageDerivatives(file: string, dir: string): Promise<ImageDerivatives>;
  /** EXIF, IPTC and XMP of a photo (exiftool for what exifr cannot read). */
  imageMetadata(file: string, call?: MediaCall): Promise<ImageMetadata>;
  /** An encoded image held in memory, before it is stored: one of `formats`, within the pixel limit, decodable. */
  checkImage(bytes: Buffer, formats: readonly ImageFormat[]): Promise<CheckedImage>;
  probe(file: string, call?: MediaCall): Promise<MediaProbe>;
  /** A video's poster frame (JPEG). */
  poster(file: string, out: string, call?: ProbedCall): Promise<RenderedFile>;
  /** The square grid thumbnail (JPEG) of an image file, e.g. a poster. */
  thumbnail(image: string, out: string): Promise<ImageRendition>;
  /** A video's scrubbing strip: one sprite and its index, under `dir`. */
  thumbnailStrip(file: string, dir: string, call?: ProbedCall): Promise<ThumbnailStrip>;
  /** The H.264/AAC MP4 web proxy of a video. */
  videoProxy(file: string, out: string, call?: TranscodeCall): Promise<VideoProxyResult>;
  /** An audio file's waveform peaks. */
  audioWaveform(file: string, call?: ProbedCall): Promise<AudioWaveform>;
  /** The AAC (M4A) web proxy of an audio file. */
  audioProxy(file: string, out: string, call?: TranscodeCall): Promise<AudioProxyResult>;
  /** One MP4 of a local file's streams, copied (joined HLS segments), within `timeoutMs`. */
  remuxToMp4(input: string, out: string, call: { signal: AbortSignal; timeoutMs: number }): Promise<void>;
  /** A download preset's rendition of a photo, video or audio file (the format says which), watermarked. */
  presetRendition(input: string, out: string, spec: RenditionSpec, call?: MediaCall): Promise<RenderedRendition>;
  /** A sample picture with the watermark on it (JPEG): the watermark settings page's preview. */
  watermarkPreview(spec: WatermarkSpec | null): Promise<Buffer>;
  /**
   * The copy of a file that leaves the building (the input is never written): the story's fields embedded as
   * IPTC/XMP where the type allows, and for visitors GPS, location tags and camera serial numbers removed, in one
   * exiftool request (docs/media.md, "Metadata on the way out").
   */
  outgoingCopy(input: string, out: string, request: OutgoingMetadataRequest, call?: MediaCall): Promise<void>;
}

/** An image held in memory (an editor's save, a cover) never needs more than two minutes of libvips. */
const IN_MEMORY_IMAGE_SECONDS = 120;

/** The real tools, under the configured limits. */
export class SystemMediaTools implements MediaTools {
  readonly #image: { maxPixels: number; timeoutSeconds: number };
  /** One exiftool for every photo whose metadata exifr cannot complete (a Perl start-up per file costs more than the read). */
  readonly #exiftool: ExiftoolProcess;

  constructor(private readonly config: MediaConfig) {
    // libvips takes at most an hour; one image never needs more.
    this.#image = { maxPixels: config.maxPixels, timeoutSeconds: Math.min(3600, Math.ceil(config.timeoutMs / 1000)) };
    this.#exiftool = new ExiftoolProcess({ memoryBytes: config.memoryBytes, nice: config.nice });
    // libvips' threads per image operation, for the whole process (sharp is used nowhere else).
    if (config.threads > 0) sharp.concurrency(config.threads);
  }

  /** libvips work, its threads at the media priority (lowered before, and after for threads it added). */
  async #vips<T>(work: () => Promise<T>): Promise<T> {
    lowerLibvipsThreads(this.config.nice);
    try {
      return await work();
    } finally {
      lowerLibvipsThreads(this.config.nice);
    }
  }

  /** Stops the long-lived exiftool (it also stops by itself when idle, or when this process exits). */
  close(): Promise<void> {
    return this.#exiftool.close();
  }

  #limits(call: MediaCall = {}): ToolLimits {
    const { timeoutMs, memoryBytes, nice, threads } = this.config;
    return { timeoutMs, memoryBytes, nice, threads, signal: call.signal };
  }

  imageDerivatives(file: string, dir: string): Promise<ImageDerivatives> {
    return this.#vips(() => renderImageDerivatives(file, dir, this.#image));
  }

  imageMetadata(file: string, call?: MediaCall): Promise<ImageMetadata> {
    return extractImageMetadata(file, { limits: this.#limits(call), exiftool: this.#exiftool });
  }

  checkImage(bytes: Buffer, formats: readonly ImageFormat[]): Promise<CheckedImage> {
    return this.#vips(() =>
      checkImageBuffer(bytes, {
        maxPixels: this.config.maxPixels,
        timeoutSeconds: IN_MEMORY_IMAGE_SECONDS,
        formats,
      }),
    );
  }

  probe(file: string, call?: MediaCall): Promise<MediaProbe> {
    return probeMedia(file, this.#limits(call));
  }

  poster(file: string, out: string, call: ProbedCall = {}): Promise<RenderedFile> {
    return renderPoster(file, out, { limits: this.#limits(call), signal: call.signal, probe: call.probe });
  }

  thumbnail(image: string, out: string): Promise<ImageRendition> {
    return this.#vips(() => renderThumbnail(image, out, this.#image));
  }

  thumbnailStrip(file: string, dir: string, call: ProbedCall = {}): Promise<ThumbnailStrip> {
    // ffmpeg cuts the frames, libvips joins them.
    return this.#vips(() =>
      renderThumbnailStrip(file, dir, { limits: this.#limits(call), signal: call.signal, probe: call.probe }),
    );
  }

  videoProxy(file: string, out: string, call: TranscodeCall = {}): Promise<VideoProxyResult> {
    return transcodeVideoProxy(file, out, { limits: this.#limits(call), ...call });
  }

  audioWaveform(file: string, call: ProbedCall = {}): Promise<AudioWaveform> {
    return audioWaveform(file, { limits: this.#limits(call), signal: call.signal, probe: call.probe });
  }

  audioProxy(file: string, out: string, call: TranscodeCall = {}): Promise<AudioProxyResult> {
    return transcodeAudioProxy(file, out, { limits: this.#limits(call), ...call });
  }

  remuxToMp4(input: string, out: string, call: { signal: AbortSignal; timeoutMs: number }): Promise<void> {
    // A stream copy: its own time limit (the HLS fetch's), at most 2 GiB of address space.
    const limits = this.#limits(call);
    return remuxToMp4(input, out, {
      ...limits,
      timeoutMs: call.timeoutMs,
      memoryBytes: Math.min(limits.memoryBytes ?? Number.POSITIVE_INFINITY, 2 * 1024 ** 3),
    });
  }

  presetRendition(input: string, out: string, spec: RenditionSpec, call?: MediaCall): Promise<RenderedRendition> {
    // Both use libvips: the photo's rendition, a video's watermark picture.
    if (spec.format === "mp4" || spec.format === "aac" || spec.format === "mp3") {
      return this.#vips(() =>
        renderAvRendition(input, out, spec, { limits: this.#limits(call), markFile: `${out}.mark.png` }),
      );
    }
    return this.#vips(() =>
      renderPhotoRendition(input, out, spec, {
        ...this.#image,
        exiftool: this.#exiftool,
        limits: this.#limits(call),
      }),
    );
  }

  watermarkPreview(spec: WatermarkSpec | null): Promise<Buffer> {
    return this.#vips(() => previewWatermark(spec));
  }

  outgoingCopy(input: string, out: string, request: OutgoingMetadataRequest, call?: MediaCall): Promise<void> {
    return writeOutgoingMetadata(input, out, request, { exiftool: this.#exiftool, limits: this.#limits(call) });
  }
}
