import type Uppy from "@uppy/core";
import { useEffect } from "react";
import type { UploadLimits } from "../../api/uploads";

/**
 * The server's tus limits applied to an Uppy: the PATCH size a proxy in front needs (none: each file in one request),
 * and each file up to the server's whole-file size sent in its creation request (one request instead of two; the
 * server stores it without staging). A file not yet started when the limits arrive gets them too.
 */
// biome-ignore lint/suspicious/noExplicitAny: any Uppy (its meta and body types do not matter here)
export function useTusLimits(uppy: Uppy<any, any>, limits: UploadLimits | undefined): void {
  const chunkSize = limits?.chunkSize;
  useEffect(() => {
    if (chunkSize) uppy.getPlugin("Tus")?.setOptions({ chunkSize });
  }, [uppy, chunkSize]);
  const wholeFileSize = limits?.wholeFileSize ?? 0;
  useEffect(() => {
    if (!wholeFileSize) return;
    const sendWhole = (file: { id: string; size: number | null; progress: { uploadStarted: number | null } }) => {
      if (file.size !== null && file.size <= wholeFileSize && !file.progress.uploadStarted)
        uppy.setFileState(file.id, { tus: { uploadDataDuringCreation: true } });
    };
    for (const file of uppy.getFiles()) sendWhole(file);
    uppy.on("file-added", sendWhole);
    return () => void uppy.off("file-added", sendWhole);
  }, [uppy, wholeFileSize]);
}
