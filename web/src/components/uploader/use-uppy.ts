import Uppy, { type UppyFile } from "@uppy/core";
import GoldenRetriever from "@uppy/golden-retriever";
import uppyEnUS from "@uppy/locales/lib/en_US.js";
import uppyZhCN from "@uppy/locales/lib/zh_CN.js";
import Tus from "@uppy/tus";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { bearerToken } from "../../api/http";
import { TUS_ENDPOINT, type UploadLimits } from "../../api/uploads";
import { useTusLimits } from "./tus-limits";
import {
  ACCEPTED,
  METADATA_LIST_KEYS,
  METADATA_TEXT_KEYS,
  parseUploadResult,
  type UploadResult,
  type UploadType,
} from "./upload-logic";

export type UppyMeta = Record<string, string>;
export type UppyBody = { xhr?: XMLHttpRequest };
export type DamsUppy = Uppy<UppyMeta, UppyBody>;

/** Every metadata key the sink reads, so a cleared field is sent empty (the sink ignores empty values). */
const META_KEYS = ["libraryId", "folderId", ...METADATA_TEXT_KEYS, ...METADATA_LIST_KEYS];
const BLANK_META = Object.fromEntries(META_KEYS.map((key) => [key, ""]));

/** A file uploaded whole: the story it became and what the browser knew of it. */
export interface UploadedFile extends UploadResult {
  fileId: string;
  name: string;
  size: number;
  /** The Upload-Metadata the file was sent with (the batch form's values then). */
  sentMeta: Record<string, string | undefined>;
}

/** A story page's type, or the network disk (any file; Upload-Metadata `target=disk`, `diskFolderId`). */
export type UppyTarget = UploadType | "disk";
const allowedTypes = (type: UppyTarget) => (type === "disk" ? null : ACCEPTED[type]);

/**
 * The file meta sent as Upload-Metadata. Only the disk's uploads name a `target`: Uppy sends every allowed
 * field, an absent one as the text "undefined", which the server rightly refuses as an unknown destination.
 * relativePath: a file's place in a dropped or chosen folder ("" for a single file); the server ignores it.
 */
export function metaFieldsFor(type: UppyTarget): string[] {
  const common = ["name", "type", "relativePath", ...META_KEYS];
  return type === "disk" ? [...common, "target", "diskFolderId"] : common;
}

function createUppy(type: UppyTarget): DamsUppy {
  return (
    new Uppy<UppyMeta, UppyBody>({
      id: `dams-upload-${type}`,
      autoProceed: false,
      restrictions: { allowedFileTypes: allowedTypes(type) },
    })
      .use(Tus, {
        endpoint: TUS_ENDPOINT,
        // Each file in one request (tus's and Uppy's default; the server has no deadline for an upload whose
        // bytes keep coming), unless the server names a PATCH size for a proxy's body limit (useUppy's limits).
        retryDelays: [0, 1000, 3000, 5000, 10_000],
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        limit: 3,
        allowedMetaFields: metaFieldsFor(type),
        // The bearer token of the session, refreshed when it expires, on every request (POST, HEAD, PATCH).
        async onBeforeRequest(request) {
          const token = await bearerToken();
          if (token) request.setHeader("Authorization", `Bearer ${token}`);
        },
      })
      // After a reload the batch comes back (files kept in IndexedDB) and tus resumes each from its stored fingerprint.
      .use(GoldenRetriever, { serviceWorker: false })
  );
}

/**
 * The Uppy of an upload page, over tus: one per story type, destroyed when
 * the page goes, in the page's language, limited to the server's size, its
 * files carrying the batch's Upload-Metadata (`readMeta`, read again on
 * `applyMeta` and whenever a file is added). `onUploaded` hears of each file
 * uploaded whole with the story it became.
 */
export function useUppy({
  type,
  limits,
  readMeta,
  onUploaded,
  onFinished,
}: {
  type: UppyTarget;
  /** The server's (fetchUploadLimits): the largest file, and the PATCH size when a proxy limits bodies. */
  limits: UploadLimits | undefined;
  readMeta: () => UppyMeta;
  onUploaded: (file: UploadedFile) => void;
  /** Every file uploaded whole, with the last response's body (the disk's answer is not a story). */
  onFinished?: (file: { fileId: string; name: string }, body: string | undefined) => void;
}): { uppy: DamsUppy; applyMeta: () => void } {
  const { i18n } = useTranslation();
  const uppy = useMemo(() => createUppy(type), [type]);

  // Destroyed when the page goes away; StrictMode's unmount-and-remount in development keeps it.
  const mounted = useRef<DamsUppy | null>(null);
  useEffect(() => {
    mounted.current = uppy;
    return () => {
      mounted.current = null;
      setTimeout(() => {
        if (mounted.current !== uppy) uppy.destroy();
      }, 0);
    };
  }, [uppy]);

  useEffect(() => {
    // Golden Retriever writes the batch's state at most every 500 ms; a reload within that time would
    // lose the files just added (or the upload URL tus just got). Its pending write is made as the page goes.
    const retriever = uppy.getPlugin("GoldenRetriever") as unknown as
      | { saveFilesStateToLocalStorage?: { flush?: () => void } }
      | undefined;
    const flush = () => retriever?.saveFilesStateToLocalStorage?.flush?.();
    window.addEventListener("pagehide", flush);
    return () => window.removeEventListener("pagehide", flush);
  }, [uppy]);

  // Uppy's own strings (buttons, status bar) come from its locale pack for the page's language.
  const locale = i18n.language === "en-US" ? uppyEnUS : uppyZhCN;
  useEffect(() => uppy.setOptions({ locale }), [uppy, locale]);
  const maxFileSize = limits?.maxSize;
  useEffect(() => {
    if (maxFileSize) uppy.setOptions({ restrictions: { allowedFileTypes: allowedTypes(type), maxFileSize } });
  }, [uppy, maxFileSize, type]);
  useTusLimits(uppy, limits);

  const applyMeta = useCallback(() => uppy.setMeta({ ...BLANK_META, ...readMeta() }), [uppy, readMeta]);
  useEffect(() => applyMeta(), [applyMeta]);

  useEffect(() => {
    const onSuccess = (file: UppyFile<UppyMeta, UppyBody> | undefined, response: { body?: UppyBody }) => {
      if (!file) return;
      const body = response.body?.xhr?.responseText;
      onFinished?.({ fileId: file.id, name: file.name ?? "" }, body);
      const result = parseUploadResult(body);
      if (result)
        onUploaded({
          ...result,
          fileId: file.id,
          name: file.name ?? "",
          size: file.size ?? 0,
          sentMeta: Object.fromEntries(META_KEYS.map((key) => [key, file.meta[key] as string | undefined])),
        });
    };
    // Uppy gives files that came without a folder a null relativePath, which tus would send as "null".
    const onAdded = (file: UppyFile<UppyMeta, UppyBody>) => {
      if (typeof file.meta.relativePath !== "string") uppy.setFileMeta(file.id, { relativePath: "" });
      applyMeta();
    };
    uppy.on("upload-success", onSuccess);
    uppy.on("file-added", onAdded);
    return () => {
      uppy.off("upload-success", onSuccess);
      uppy.off("file-added", onAdded);
    };
  }, [uppy, applyMeta, onUploaded, onFinished]);

  return { uppy, applyMeta };
}
