import fs from "node:fs/promises";
import type { ExiftoolProcess } from "./exiftool-process.js";
import { MediaError } from "./media-error.js";
import type { ToolLimits } from "./run-tool.js";

/**
 * Where a file was made and which camera made it: EXIF GPS, every tag of
 * exiftool's Location group (XMP and IPTC city, country, sub-location, XMP
 * GPS), every serial number (EXIF, XMP-aux, XMP-exifEX), and the maker notes
 * (which carry serials, and sometimes places, in each vendor's own way).
 */
const PRIVATE_TAGS = ["-gps:all=", "-location:all=", "-*serial*=", "-makernotes:all="];
const PRIVATE_READ = ["-gps:all", "-location:all", "-*serial*", "-makernotes:all"];

/**
 * A copy of `input` at `out` without location and camera serial numbers: the
 * copy is written, exiftool edits the copy (never the input), and the copy is
 * read back. When something private is still there (a format exiftool cannot
 * write) the copy is removed and the call fails ("refused"): a visitor gets
 * nothing rather than the photographer's whereabouts.
 */
export async function stripPrivateMetadata(
  input: string,
  out: string,
  options: { exiftool: ExiftoolProcess; limits: ToolLimits },
): Promise<void> {
  const run = { timeoutMs: Math.min(options.limits.timeoutMs, 5 * 60_000), signal: options.limits.signal };
  await fs.copyFile(input, out);
  try {
    // A format exiftool cannot write answers with an error line and leaves the copy as it was: the read below judges.
    await options.exiftool.run(["-overwrite_original", "-m", "-q", "-q", ...PRIVATE_TAGS, out], run);
    const left = await options.exiftool.run(["-m", "-q", "-q", "-s", "-s", "-a", ...PRIVATE_READ, out], run);
    if (left.trim() !== "") {
      throw new MediaError("refused", "the file's location or camera serial number could not be removed");
    }
  } catch (error) {
    await fs.rm(out, { force: true });
    throw error;
  }
}
