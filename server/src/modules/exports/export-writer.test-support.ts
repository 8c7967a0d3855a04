import { Writable } from "node:stream";
import zlib from "node:zlib";

const LOCAL_HEADER = 0x04034b50;
const END_OF_ROW = "</row>";

/**
 * A reader of an .xlsx download that counts the sheet's rows as their bytes
 * arrive: it finds the zip's local header of `xl/worksheets/sheet1.xml` (a
 * streamed entry: deflate, sizes in a trailing descriptor), inflates what
 * follows and counts `</row>`. Each chunk is acknowledged only when inflate
 * has taken it, so it reads at the pace of a real reader, not faster.
 * Whatever follows the sheet's deflate stream is taken and ignored.
 */
export class SheetRowCounter extends Writable {
  /** Rows of the sheet (the header row included) that have arrived whole. */
  rows = 0;
  #head = Buffer.alloc(0);
  #inflate: zlib.InflateRaw | undefined;
  #sheetEnded = false;
  #tail = "";

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.#sheetEnded) {
      callback();
      return;
    }
    if (this.#inflate) {
      this.#feed(chunk, callback);
      return;
    }
    this.#head = Buffer.concat([this.#head, chunk]);
    const start = this.#sheetData();
    if (start === undefined) {
      callback();
      return;
    }
    const inflate = zlib.createInflateRaw();
    inflate.on("data", (data: Buffer) => this.#count(data.toString("utf8")));
    inflate.on("end", () => {
      this.#sheetEnded = true;
    });
    this.#inflate = inflate;
    this.#feed(this.#head.subarray(start), callback);
  }

  #feed(data: Buffer, callback: (error?: Error | null) => void): void {
    // After the deflate stream ends, inflate takes no more: the descriptor and later entries are not ours.
    const inflate = this.#inflate!;
    inflate.write(data, (error) => callback(this.#sheetEnded ? null : error));
  }

  /** Where the sheet's compressed bytes start in what has arrived, once its local header is whole. */
  #sheetData(): number | undefined {
    const head = this.#head;
    for (
      let at = head.indexOf("PK\u0003\u0004", 0, "latin1");
      at >= 0;
      at = head.indexOf("PK\u0003\u0004", at + 1, "latin1")
    ) {
      if (at + 30 > head.length) return undefined;
      if (head.readUInt32LE(at) !== LOCAL_HEADER) continue;
      const nameLength = head.readUInt16LE(at + 26);
      const extraLength = head.readUInt16LE(at + 28);
      if (at + 30 + nameLength + extraLength > head.length) return undefined;
      const name = head.toString("utf8", at + 30, at + 30 + nameLength);
      if (name.endsWith("worksheets/sheet1.xml")) return at + 30 + nameLength + extraLength;
    }
    return undefined;
  }

  #count(text: string): void {
    const joined = this.#tail + text;
    for (let at = joined.indexOf(END_OF_ROW); at >= 0; at = joined.indexOf(END_OF_ROW, at + END_OF_ROW.length)) {
      this.rows++;
    }
    // An end tag split over two chunks is counted with the next one.
    this.#tail = joined.slice(-(END_OF_ROW.length - 1));
  }
}
