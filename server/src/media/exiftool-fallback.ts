import { z } from "zod";
import { isoDate } from "./metadata-dates.js";
import { runTool, type ToolLimits } from "./run-tool.js";

/**
 * exifr reads EXIF, IPTC and XMP. Some cameras keep the capture time and the
 * model only in their own blocks (Canon CIFF, Olympus PictureInfo, Reconyx
 * maker notes), which only exiftool knows. When exifr finds no capture time
 * or no camera, the image pipeline asks exiftool (when installed) for those
 * few fields. exiftool only ever sees files that passed the image format
 * allow-list, and runs under the same timeout and memory bound as ffmpeg.
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

export async function readWithExiftool(file: string, limits: ToolLimits): Promise<ExiftoolFacts> {
  const { stdout } = await runTool(
    "exiftool",
    [
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
      "--",
      file,
    ],
    { ...limits, maxStdoutBytes: 1024 * 1024 },
  );
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
