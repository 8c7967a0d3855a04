import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { extractImageMetadata, type ImageMetadata, isoDate } from "./image-metadata.js";
import { renderImageDerivatives } from "./images.js";
import { MediaError } from "./media-error.js";

/**
 * Every file of the exif-samples corpus through the image pipeline, checked
 * against exiftool (the reference reader) for capture time, camera model,
 * orientation and GPS. Files that are not valid images must end as a
 * MediaError; anything else thrown counts as a crash, and there must be none.
 */
const corpus = path.resolve(import.meta.dirname, "../../../../shared/corpus/exif-samples");
const files = fs
  .readdirSync(corpus, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => path.join(entry.parentPath, entry.name))
  .sort();

interface Reference {
  SourceFile: string;
  Error?: string;
  DateTimeOriginal?: string | number;
  Model?: string | number;
  Orientation?: number;
  GPSLatitude?: number;
  GPSLongitude?: number;
}

function exiftool(paths: string[]): Map<string, Reference> {
  const json = execFileSync(
    "exiftool",
    [
      "-json",
      "-n",
      "-q",
      "-q",
      "-m",
      "-DateTimeOriginal",
      "-Model",
      "-Orientation",
      "-Composite:GPSLatitude",
      "-Composite:GPSLongitude",
      ...paths,
    ],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  return new Map((JSON.parse(json) as Reference[]).map((entry) => [path.resolve(entry.SourceFile), entry]));
}

const outRoot = fs.mkdtempSync(path.join(os.tmpdir(), "dams-corpus-"));
afterAll(() => fs.rmSync(outRoot, { recursive: true, force: true }));

describe("the exif-samples corpus", () => {
  it("is there", () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it("renders or refuses every file, never crashes, and reads what exiftool reads", { timeout: 600_000 }, async () => {
    const reference = exiftool(files);
    const counts = { processed: 0, failedSafely: 0, crashed: 0 };
    const crashes: string[] = [];
    const mismatches: string[] = [];
    let compared = 0;

    for (const [index, file] of files.entries()) {
      let metadata: ImageMetadata | undefined;
      try {
        metadata = await extractImageMetadata(file);
        await renderImageDerivatives(file, path.join(outRoot, String(index)), { previewLongEdge: 800 });
        counts.processed++;
      } catch (error) {
        if (error instanceof MediaError && error.reason.length > 0) counts.failedSafely++;
        else {
          counts.crashed++;
          crashes.push(`${file}: ${String(error)}`);
        }
      }
      const expected = reference.get(path.resolve(file));
      if (!metadata || !expected || expected.Error) continue;
      compared++;
      const relative = path.relative(corpus, file);
      const check = (field: string, ours: unknown, theirs: unknown) => {
        if (ours !== theirs) mismatches.push(`${relative} ${field}: ours ${String(ours)}, exiftool ${String(theirs)}`);
      };
      check("model", metadata.cameraModel, expected.Model === undefined ? null : String(expected.Model).trim() || null);
      check("orientation", metadata.orientation, expected.Orientation ?? null);
      const capture = isoDate(expected.DateTimeOriginal === undefined ? undefined : String(expected.DateTimeOriginal));
      if (capture) check("capture time", metadata.capturedAt?.slice(0, capture.length), capture);
      if (typeof expected.GPSLatitude === "number" && typeof expected.GPSLongitude === "number") {
        const close = (a: number | undefined, b: number) => a !== undefined && Math.abs(a - b) < 1e-6;
        if (
          !close(metadata.gps?.latitude, expected.GPSLatitude) ||
          !close(metadata.gps?.longitude, expected.GPSLongitude)
        )
          mismatches.push(
            `${relative} gps: ours ${JSON.stringify(metadata.gps)}, exiftool ${expected.GPSLatitude},${expected.GPSLongitude}`,
          );
      }
    }

    process.stdout.write(
      `exif-samples: ${files.length} files: ${counts.processed} processed, ${counts.failedSafely} failed safely, ${counts.crashed} crashed; metadata compared with exiftool on ${compared}\n`,
    );
    expect(crashes).toEqual([]);
    expect(mismatches).toEqual([]);
    expect(counts.processed).toBeGreaterThan(90);
    expect(compared).toBeGreaterThan(90);
  });
});
