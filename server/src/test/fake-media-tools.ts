import fs from "node:fs/promises";
import path from "node:path";
import type {
  AudioProxyResult,
  AudioWaveform,
  CheckedImage,
  ImageDerivatives,
  ImageFormat,
  ImageMetadata,
  ImageRendition,
  MediaCall,
  MediaProbe,
  MediaTools,
  OutgoingMetadataRequest,
  ProbedCall,
  RenderedFile,
  RenderedRendition,
  RenditionSpec,
  ThumbnailStrip,
  TranscodeCall,
  VideoProxyResult,
  WatermarkSpec,
} from "../media/index.js";
import { RENDITION_MIME } from "../media/index.js";

export type MediaOperation = keyof MediaTools;

/** What a fake photo's metadata says when a test does not say otherwise: nothing. */
export const EMPTY_IMAGE_METADATA: ImageMetadata = {
  capturedAt: null,
  cameraMake: null,
  cameraModel: null,
  lens: null,
  orientation: null,
  gps: null,
  width: null,
  height: null,
  caption: null,
  title: null,
  headline: null,
  keywords: [],
  credit: null,
  creator: null,
  copyright: null,
  source: null,
  city: null,
  country: null,
  warnings: [],
};

/** A two-second 320x240 H.264/AAC MP4, as ffprobe would describe it. */
export const VIDEO_PROBE: MediaProbe = {
  kind: "video",
  container: "mov,mp4,m4a,3gp,3g2,mj2",
  durationSeconds: 2,
  bitRate: 500_000,
  videoCodec: "h264",
  audioCodec: "aac",
  width: 320,
  height: 240,
  codedWidth: 320,
  codedHeight: 240,
  frameRate: 25,
  rotation: 0,
  audioChannels: 2,
  audioSampleRate: 44_100,
};

/**
 * The media tools without the tools, for tests of the rules around them:
 * every call is recorded, outputs are small text files at the paths asked
 * for, results are what the test set, and an operation fails with the error
 * the test gave it (`failing.set("videoProxy", new MediaError(...))`).
 */
export class FakeMediaTools implements MediaTools {
  readonly calls: { operation: MediaOperation; file: string; signal?: AbortSignal }[] = [];
  readonly failing = new Map<MediaOperation, Error>();
  /** The photo's upright size. */
  image = { width: 640, height: 480, format: "jpeg" as ImageFormat };
  metadata: ImageMetadata = EMPTY_IMAGE_METADATA;
  hash = "8f0f0f0f0f0f0f0f";
  probeResult: MediaProbe = VIDEO_PROBE;
  /** Percents the transcodes report, in order. */
  progressSteps = [0, 50, 100];

  async #call(operation: MediaOperation, file: string, call?: MediaCall): Promise<void> {
    this.calls.push({ operation, file, signal: call?.signal });
    const failure = this.failing.get(operation);
    if (failure) throw failure;
    call?.signal?.throwIfAborted();
  }

  async #write(out: string, what: string): Promise<number> {
    await fs.mkdir(path.dirname(out), { recursive: true });
    const content = `fake ${what}`;
    await fs.writeFile(out, content);
    return content.length;
  }

  get operations(): MediaOperation[] {
    return this.calls.map((call) => call.operation);
  }

  async imageDerivatives(file: string, dir: string): Promise<ImageDerivatives> {
    await this.#call("imageDerivatives", file);
    const { width, height } = this.image;
    const renditions: ImageRendition[] = [];
    for (const kind of ["thumbnail", "preview"] as const) {
      for (const format of ["webp", "jpeg"] as const) {
        const out = path.join(dir, `${kind}.${format === "jpeg" ? "jpg" : "webp"}`);
        const size = kind === "thumbnail" ? { width: 320, height: 320 } : { width, height };
        renditions.push({ kind, format, path: out, ...size, sizeBytes: await this.#write(out, `${kind} ${format}`) });
      }
    }
    return { width, height, format: this.image.format, hasAlpha: false, renditions, perceptualHash: this.hash };
  }

  async imageMetadata(file: string, call?: MediaCall): Promise<ImageMetadata> {
    await this.#call("imageMetadata", file, call);
    return this.metadata;
  }

  async checkImage(bytes: Buffer, formats: readonly ImageFormat[]): Promise<CheckedImage> {
    await this.#call("checkImage", `${bytes.length} bytes`);
    if (!formats.includes(this.image.format)) throw new Error(`fake: ${this.image.format} is not among ${formats}`);
    return { format: this.image.format, width: this.image.width, height: this.image.height };
  }

  async probe(file: string, call?: MediaCall): Promise<MediaProbe> {
    await this.#call("probe", file, call);
    return this.probeResult;
  }

  async poster(file: string, out: string, call?: ProbedCall): Promise<RenderedFile> {
    await this.#call("poster", file, call);
    const { width, height } = this.probeResult;
    return { path: out, width: width ?? 0, height: height ?? 0, sizeBytes: await this.#write(out, "poster") };
  }

  async thumbnail(image: string, out: string): Promise<ImageRendition> {
    await this.#call("thumbnail", image);
    const sizeBytes = await this.#write(out, "thumbnail");
    return { kind: "thumbnail", format: "jpeg", path: out, width: 320, height: 320, sizeBytes };
  }

  async thumbnailStrip(file: string, dir: string, call?: ProbedCall): Promise<ThumbnailStrip> {
    await this.#call("thumbnailStrip", file, call);
    const spriteFile = path.join(dir, "strip.jpg");
    const indexFile = path.join(dir, "strip.json");
    await this.#write(spriteFile, "strip");
    await this.#write(indexFile, "strip index");
    const durationSeconds = this.probeResult.durationSeconds;
    return { spriteFile, indexFile, frameWidth: 160, frameHeight: 120, durationSeconds, frames: [] };
  }

  async videoProxy(file: string, out: string, call?: TranscodeCall): Promise<VideoProxyResult> {
    await this.#call("videoProxy", file, call);
    for (const percent of this.progressSteps) call?.onProgress?.(percent);
    const { width, height, durationSeconds } = this.probeResult;
    const sizeBytes = await this.#write(out, "video proxy");
    return { path: out, width: width ?? 0, height: height ?? 0, sizeBytes, durationSeconds, hasAudio: true };
  }

  async audioWaveform(file: string, call?: ProbedCall): Promise<AudioWaveform> {
    await this.#call("audioWaveform", file, call);
    return { peaks: [0, 0.5, 1], durationSeconds: this.probeResult.durationSeconds, sampleRate: 8000 };
  }

  async audioProxy(file: string, out: string, call?: TranscodeCall): Promise<AudioProxyResult> {
    await this.#call("audioProxy", file, call);
    for (const percent of this.progressSteps) call?.onProgress?.(percent);
    const sizeBytes = await this.#write(out, "audio proxy");
    return { path: out, format: "m4a", sizeBytes, durationSeconds: this.probeResult.durationSeconds };
  }

  async remuxToMp4(input: string, out: string, call: { signal: AbortSignal; timeoutMs: number }): Promise<void> {
    await this.#call("remuxToMp4", input, call);
    await this.#write(out, "remuxed mp4");
  }

  async presetRendition(input: string, out: string, spec: RenditionSpec, call?: MediaCall): Promise<RenderedRendition> {
    await this.#call("presetRendition", input, call);
    await this.#write(out, `rendition ${spec.format}`);
    return { path: out, mime: RENDITION_MIME[spec.format], width: null, height: null, sizeBytes: 1 };
  }

  async watermarkPreview(_spec: WatermarkSpec | null): Promise<Buffer> {
    await this.#call("watermarkPreview", "preview");
    return Buffer.from("preview");
  }

  async outgoingCopy(input: string, out: string, _request: OutgoingMetadataRequest, call?: MediaCall): Promise<void> {
    await this.#call("outgoingCopy", input, call);
    await fs.copyFile(input, out);
  }
}
