import path from "node:path";
import { z } from "zod";
import type { ExiftoolProcess } from "./exiftool-process.js";
import { isoDate } from "./metadata-dates.js";
import { runTool, type ToolLimits } from "./run-tool.js";

/**
 * exifr reads EXIF, IPTC and XMP. Some cameras keep the capture time and the
 * model only in their own blocks (Canon CIFF, Olympus PictureInfo, Reconyx
 * maker notes), which only exiftool knows. When exifr finds no capture time
 * or no camera, the image pipeline asks exiftool (when installed) for those
 * few fields. exiftool only ever sees files that passed the image format
 * allow-list, and runs under the same timeout and memory bound as ffmpeg:
 * the long-lived `process` when given (the photo job's), a process of its own otherwise.
 */
const answerSchema = z.array(
  z
    .object({
      DateTimeOriginal: z.union([z.string(), z.number()]).optional(),
      OffsetTimeOriginal: z.string().optional(),
      Make: z.union([z.string(), z.number()]).optional(),
      Model: z.union([z.string(), z.number()]).optional(),
      GPSLatitude: z.number().optional(),
      GPSLongitude: z.number().optional(),
      GPSAltitude: z.number().optional(),
    })
    .passthrough(),
);

export interface ExiftoolFacts {
  capturedAt: string | null;
  cameraMake: string | null;
  cameraModel: string | null;
  gps: { latitude: number; longitude: number; altitude: number | null } | null;
}

export async function readWithExiftool(
  file: string,
  limits: ToolLimits,
  process?: ExiftoolProcess,
): Promise<ExiftoolFacts> {
  const args = [
    "-json",
    "-n",
    "-m",
    "-q",
    "-q",
    "-charset",
    "filename=utf8",
    "-DateTimeOriginal",
    "-OffsetTimeOriginal",
    "-Make",
    "-Model",
    "-Composite:GPSLatitude",
    "-Composite:GPSLongitude",
    "-Composite:GPSAltitude",
  ];
  // A long-lived exiftool reads its arguments as lines up to -execute, which "--" would swallow as a file
  // name: there the file goes as an absolute path, which no option starts like.
  const stdout = process
    ? await process.run([...args, path.resolve(file)], limits)
    : (await runTool("exiftool", [...args, "--", file], { ...limits, maxStdoutBytes: 1024 * 1024 })).stdout;
  const entry = answerSchema.parse(JSON.parse(stdout || "[]"))[0] ?? {};
  const textOf = (value: string | number | undefined) => (value === undefined ? null : String(value).trim() || null);
  return {
    capturedAt: isoDate(textOf(entry.DateTimeOriginal), entry.OffsetTimeOriginal),
    cameraMake: textOf(entry.Make),
    cameraModel: textOf(entry.Model),
    gps:
      entry.GPSLatitude !== undefined && entry.GPSLongitude !== undefined
        ? { latitude: entry.GPSLatitude, longitude: entry.GPSLongitude, altitude: entry.GPSAltitude ?? null }
        : null,
  };
}
