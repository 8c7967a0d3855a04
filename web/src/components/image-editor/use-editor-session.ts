import { type Dispatch, type RefObject, useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiErrorOf, reportApiError, sendRequest } from "../../api/http";
import { useFeedback } from "../feedback";
import type { CropBoxHandle } from "./crop-box";
import { confirmStep, type EditMode, modeAllowed, previewOperation } from "./mode-operations";
import { applyOperation, cachingResolver, loadImage, type Operation, outputMime, rasterOf } from "./operations";
import { describeSteps, renderOffThread } from "./render-off-thread";
import { detectPlatformLimits, isAcceptedImage, PICK_IMAGE_EXTENSIONS } from "./rules";
import { initialSession, MODES, type SessionEvent, type SessionState, saveOperations, sessionReducer } from "./session";
import { WorkingCopies, workingMaxSide } from "./working-copy";

/** Spec section 4: resize opens 400 ms after mounting; the image is editable 300 ms after it loads. */
export const INITIAL_MODE_DELAY_MS = 400;
export const EDITABLE_DELAY_MS = 300;

/** The image being edited: its bytes and an object URL of them. */
export interface EditorInput {
  blob: Blob;
  url: string;
}

/**
 * What the editor edits: the image itself, a loader of it (a story's
 * original through the typed client), or a URL.
 */
export type EditorSource = Blob | (() => Promise<Blob>) | string;

/**
 * A file at an address of this origin the page was handed (`?url=`), with
 * the session's token: not a route of the API's schema, so not a call of the
 * typed client.
 */
async function ownOriginBlob(path: string): Promise<Blob> {
  try {
    const response = await sendRequest(new Request(new URL(path, window.location.origin)));
    if (!response.ok) throw apiErrorOf(response, await response.json().catch(() => undefined));
    return await response.blob();
  } catch (error) {
    reportApiError(error);
    throw error;
  }
}

/** An image as a blob: a loader's, an API path's with the bearer token, any other URL's (data, blob, http) as it is; only status 200 counts. */
async function sourceBlob(source: EditorSource): Promise<Blob> {
  if (typeof source === "function") return source();
  if (typeof source !== "string") return source;
  if (source.startsWith("/dams/")) return ownOriginBlob(source);
  const response = await fetch(source);
  if (response.status !== 200) throw new Error(`GET ${source}: ${response.status}`);
  return response.blob();
}

export interface EditorSession {
  state: SessionState;
  dispatch: Dispatch<SessionEvent>;
  input: EditorInput | null;
  /** The input could not be loaded or decoded. */
  failed: boolean;
  /** An operation is being applied or the result rendered: the controls wait. */
  busy: boolean;
  copies: WorkingCopies;
  resolve: ReturnType<typeof cachingResolver>;
  /** The mode's unconfirmed change, drawn over the current image. */
  preview: Operation | null;
  /** The crop mode's cropper, read when crop is confirmed. */
  cropBox: RefObject<CropBoxHandle>;
  modeAllowed: (mode: EditMode) => boolean;
  confirm: () => void;
  save: () => Promise<void>;
  /** Another image to edit (spec section 5's file types); a new session on it. */
  pickImage: (file: File) => void;
}

/**
 * One image editing session: the pure session (session.ts) with the browser
 * work around it — loading the input into a working copy, applying each
 * confirmed operation to it, and rendering the operations on the
 * full-resolution original when saved.
 */
export function useEditorSession({
  source,
  quality,
  onSave,
}: {
  source: EditorSource;
  quality: number;
  onSave: (image: Blob | null) => void;
}): EditorSession {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [state, dispatch] = useReducer(sessionReducer, initialSession);
  const [picked, setPicked] = useState<Blob | null>(null);
  const [input, setInput] = useState<EditorInput | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const copies = useRef(new WorkingCopies());
  const cropBox = useRef<CropBoxHandle>(null);
  const resolve = useMemo(() => cachingResolver(), []);
  const maxSide = useMemo(() => workingMaxSide(), []);

  useEffect(() => {
    void detectPlatformLimits().then((limits) => dispatch({ type: "limits", limits }));
    const timer = setTimeout(() => dispatch({ type: "enterMode", mode: MODES.resize }), INITIAL_MODE_DELAY_MS);
    const owned = copies.current;
    return () => {
      clearTimeout(timer);
      owned.dispose();
    };
  }, []);

  // The input image: the source, or another picked image.
  useEffect(() => {
    let live = true;
    let url: string | null = null;
    dispatch({ type: "load" });
    setFailed(false);
    sourceBlob(picked ?? source)
      .then(async (blob) => {
        url = URL.createObjectURL(blob);
        const image = await loadImage(url);
        if (!live) return;
        const raster = rasterOf(image, maxSide);
        copies.current.add(url, raster, false);
        setInput({ blob, url });
        dispatch({ type: "loaded", image: { url, width: raster.width, height: raster.height, operations: [] } });
      })
      .catch(() => {
        if (live) setFailed(true);
      });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [picked, source, maxSide]);

  useEffect(() => {
    if (state.loading) return;
    const timer = setTimeout(() => dispatch({ type: "editable" }), EDITABLE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.loading]);

  const mime = input?.blob.type || "image/jpeg";
  // A new preview only when the mode or its drawn parameters change (it redraws the canvas).
  const { mode } = state;
  const { rotate, colour, watermark } = state.params;
  const preview = useMemo(
    () => previewOperation(mode, { rotate, colour, watermark }, mime),
    [mode, rotate, colour, watermark, mime],
  );

  const apply = async (operation: Operation) => {
    const current = state.current;
    const copy = current ? copies.current.get(current.url) : undefined;
    if (!current || !copy) return;
    setBusy(true);
    try {
      const raster = await applyOperation(copy.raster, operation, { maxSide, resolve });
      const url = await copies.current.register(raster);
      dispatch({
        type: "confirm",
        image: { url, width: raster.width, height: raster.height, operations: [...current.operations, operation] },
      });
    } finally {
      setBusy(false);
    }
  };

  const confirm = () => {
    const shown = state.current ? copies.current.get(state.current.url) : undefined;
    const next = confirmStep(state, {
      mime,
      cropBox: state.mode === MODES.crop ? cropBox.current?.box() : null,
      shownScale: shown ? shown.raster.canvas.width / shown.raster.width : undefined,
    });
    switch (next.kind) {
      case "apply":
        return void apply(next.operation);
      case "leave":
        return dispatch({ type: "cancel" });
      case "warn":
        return void message.warning(t(next.messageKey));
      case "refuse":
        return;
    }
  };

  const save = async () => {
    const operations = saveOperations(state);
    if (!operations || !input) {
      onSave(null);
      return;
    }
    setBusy(true);
    try {
      const started = performance.now();
      const { blob, steps } = await renderOffThread(input.blob, operations, { mime: outputMime(mime), quality });
      console.info(
        `image editor: rendered ${state.current?.width}×${state.current?.height} in ${Math.round(performance.now() - started)} ms (${describeSteps(steps)})`,
      );
      onSave(blob);
    } catch {
      message.error(t("imageEditor.saveFailed"));
    } finally {
      setBusy(false);
    }
  };

  const pickImage = (file: File) => {
    if (!isAcceptedImage(file, PICK_IMAGE_EXTENSIONS)) {
      message.warning(t("imageEditor.notImage"));
      return;
    }
    setPicked(file);
  };

  const allowed = useCallback((mode: EditMode) => modeAllowed(state, mode, input?.blob.size ?? null), [state, input]);

  return {
    state,
    dispatch,
    input,
    failed,
    busy,
    copies: copies.current,
    resolve,
    preview,
    cropBox,
    modeAllowed: allowed,
    confirm,
    save,
    pickImage,
  };
}
