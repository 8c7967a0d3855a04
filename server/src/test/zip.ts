import contentDisposition from "content-disposition";
import yauzl from "yauzl";

/** A zip's entries (those `wanted`) and their bytes, read with yauzl (which checks each entry's CRC as it reads). */
export function readZip(zip: Buffer, wanted: (name: string) => boolean = () => true): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error) return reject(error);
      const entries = new Map<string, Buffer>();
      file.on("entry", (entry: yauzl.Entry) => {
        if (!wanted(entry.fileName)) return file.readEntry();
        file.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.on("end", () => resolve(entries));
      file.on("error", reject);
      file.readEntry();
    });
  });
}

/** The file name a Content-Disposition header gives (the UTF-8 `filename*` where there is one). */
export function fileNameOf(header: string | string[] | number | undefined): string | undefined {
  return contentDisposition.parse(String(header)).parameters.filename;
}
