/**
 * The image editing session of spec sections 3 and 4 as a pure reducer: the
 * modes and their unconfirmed parameters, the undo and redo lists, the edited
 * flag and the locks. The session hook (use-editor-session.ts) only
 * dispatches these events; the canvas work happens elsewhere.
 */
import type { Operation } from "./operations";
import {
  type ColourParams,
  initialColour,
  initialCropAspect,
  initialRotate,
  initialWatermark,
  type RotateParams,
  type WatermarkParams,
} from "./params";
import { type CropAspect, initialResize, LARGE_LIMITS, type PlatformLimits, type ResizeState } from "./rules";

/** 0 is no mode (viewing); 99 is the transient state after confirming colour or watermark. */
export type Mode = 0 | 1 | 2 | 3 | 4 | 5 | 99;
export const MODES = { none: 0, crop: 1, rotate: 2, colour: 3, watermark: 4, resize: 5, confirmed: 99 } as const;
/** 1 fit to container, 2 actual size, 3 percent zoom. */
export type ViewMode = 1 | 2 | 3;

/** One image of the session: its URL, its size (of the full-resolution result) and the operations that made it from the original. */
export interface ImageEntry {
  url: string;
  width: number;
  height: number;
  operations: Operation[];
}

/** Each mode's unconfirmed parameters: entering a mode starts them afresh (spec section 4). */
export interface ModeParams {
  aspect: CropAspect;
  rotate: RotateParams;
  colour: ColourParams;
  watermark: WatermarkParams;
  /** Follows the current image: a new current image starts it at 100 % (or the platform's maximum). */
  resize: ResizeState;
}

export interface SessionState {
  /** The platform's size limits (spec section 9), large until the browser has been asked. */
  limits: PlatformLimits;
  params: ModeParams;
  original: ImageEntry | null;
  current: ImageEntry | null;
  undo: ImageEntry[];
  redo: ImageEntry[];
  edited: boolean;
  mode: Mode;
  viewMode: ViewMode;
  zoom: number;
  /** Rotate, flip or colour changes made and not yet confirmed or cancelled. */
  inProgress: boolean;
  loading: boolean;
  /** Set 300 ms after the image has loaded. */
  editable: boolean;
}

export type SessionEvent =
  | { type: "load" }
  | { type: "loaded"; image: ImageEntry }
  | { type: "editable" }
  | { type: "enterMode"; mode: Exclude<Mode, 99> }
  | { type: "change" }
  | { type: "limits"; limits: PlatformLimits }
  | { type: "aspect"; aspect: CropAspect }
  /** Rotate and colour changes are changes in progress: they lock undo and redo until confirmed or cancelled. */
  | { type: "rotate"; rotate: RotateParams }
  | { type: "colour"; colour: ColourParams }
  | { type: "watermark"; watermark: WatermarkParams }
  | { type: "resize"; resize: ResizeState }
  | { type: "confirm"; image: ImageEntry }
  | { type: "cancel" }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "reset" }
  | { type: "viewMode"; viewMode: ViewMode; zoom?: number };

const PLACEHOLDER_SIZE = { width: 1, height: 1 };

/** The parameters a mode starts with, for the current image. */
export function freshParams(current: { width: number; height: number } | null, limits: PlatformLimits): ModeParams {
  return {
    aspect: initialCropAspect,
    rotate: initialRotate,
    colour: initialColour,
    watermark: initialWatermark,
    resize: initialResize(current ?? PLACEHOLDER_SIZE, limits.maxResizeLength),
  };
}

export const initialSession: SessionState = {
  limits: LARGE_LIMITS,
  params: freshParams(null, LARGE_LIMITS),
  original: null,
  current: null,
  undo: [],
  redo: [],
  edited: false,
  mode: MODES.none,
  viewMode: 1,
  zoom: 100,
  inProgress: false,
  loading: true,
  editable: false,
};

const isOriginal = (state: SessionState, image: ImageEntry): boolean => image.url === state.original?.url;

/** Modes whose unconfirmed changes lock undo and redo. */
const LOCKING_MODES: readonly Mode[] = [MODES.rotate, MODES.colour];

export const canUndo = (state: SessionState): boolean => state.editable && !state.inProgress && state.undo.length > 0;
export const canRedo = (state: SessionState): boolean => state.editable && !state.inProgress && state.redo.length > 0;
export const canReset = (state: SessionState): boolean => state.editable && state.undo.length > 0;

/**
 * The session after an event. Whenever the current image changes (loaded,
 * confirmed, undone, redone, reset) or the platform's limits do, the resize
 * parameters start again from the new current image.
 */
export function sessionReducer(state: SessionState, event: SessionEvent): SessionState {
  const next = step(state, event);
  if (next === state || !next.current) return next;
  if (next.current === state.current && next.limits.maxResizeLength === state.limits.maxResizeLength) return next;
  return { ...next, params: { ...next.params, resize: initialResize(next.current, next.limits.maxResizeLength) } };
}

function step(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case "load":
      // Another image: a new session on it, in the same mode with the same parameters.
      return {
        ...initialSession,
        limits: state.limits,
        params: state.params,
        mode: state.mode === MODES.confirmed ? MODES.none : state.mode,
      };
    case "loaded":
      return {
        ...state,
        original: event.image,
        current: event.image,
        loading: false,
        undo: [],
        redo: [],
        edited: false,
      };
    case "editable":
      return state.loading ? state : { ...state, editable: true };
    case "enterMode":
      // Leaving a mode discards its unconfirmed parameters and shows the last confirmed version.
      return { ...state, mode: event.mode, inProgress: false, params: freshParams(state.current, state.limits) };
    case "change":
      return LOCKING_MODES.includes(state.mode) ? { ...state, inProgress: true } : state;
    case "limits":
      return { ...state, limits: event.limits };
    case "aspect":
      return { ...state, params: { ...state.params, aspect: event.aspect } };
    case "rotate":
      return step({ ...state, params: { ...state.params, rotate: event.rotate } }, { type: "change" });
    case "colour":
      return step({ ...state, params: { ...state.params, colour: event.colour } }, { type: "change" });
    case "watermark":
      return { ...state, params: { ...state.params, watermark: event.watermark } };
    case "resize":
      return { ...state, params: { ...state.params, resize: event.resize } };
    case "confirm": {
      if (!state.current) return state;
      const mode: Mode = state.mode === MODES.colour || state.mode === MODES.watermark ? MODES.confirmed : state.mode;
      return {
        ...state,
        undo: [...state.undo, state.current],
        redo: [],
        current: event.image,
        edited: true,
        mode,
        viewMode: 1,
        inProgress: false,
        // The next rotation and colour change start from neutral on the new image.
        params: { ...state.params, rotate: initialRotate, colour: initialColour },
      };
    }
    case "cancel":
      return { ...state, mode: MODES.none, inProgress: false };
    case "undo": {
      if (!canUndo(state) || !state.current) return state;
      const restored = state.undo[state.undo.length - 1]!;
      return {
        ...state,
        undo: state.undo.slice(0, -1),
        redo: [...state.redo, state.current],
        current: restored,
        edited: !isOriginal(state, restored),
      };
    }
    case "redo": {
      if (!canRedo(state) || !state.current) return state;
      const restored = state.redo[state.redo.length - 1]!;
      return {
        ...state,
        redo: state.redo.slice(0, -1),
        undo: [...state.undo, state.current],
        current: restored,
        edited: !isOriginal(state, restored),
      };
    }
    case "reset": {
      if (!canReset(state) || !state.current) return state;
      // The current image and the remaining undo entries go onto the redo list, so redo walks forward again.
      const [first, ...rest] = state.undo as [ImageEntry, ...ImageEntry[]];
      return {
        ...state,
        redo: [...state.redo, state.current, ...rest.reverse()],
        undo: [],
        current: first,
        edited: !isOriginal(state, first),
        mode: state.mode === MODES.confirmed ? MODES.none : state.mode,
        inProgress: false,
      };
    }
    case "viewMode":
      return { ...state, viewMode: event.viewMode, zoom: event.zoom ?? state.zoom };
  }
}

/** What save emits: the operations to apply to the full-resolution original, or null when unedited. */
export function saveOperations(state: SessionState): Operation[] | null {
  if (!state.edited || !state.current) return null;
  return state.current.operations;
}
