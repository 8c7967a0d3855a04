import type { JSX } from "react";
import { EditorCanvas } from "./editor-canvas";
import { EditorToolbar } from "./editor-toolbar";
import { type EditorSource, useEditorSession } from "./use-editor-session";

export interface ImageEditorProps {
  /** The image, a loader of it (memoised: a new one loads again), or a URL. */
  source: EditorSource;
  fileName?: string;
  /** Encoder quality; 0.92 by default (spec section 9). */
  quality?: number;
  /** The edited image, or null when nothing was edited. */
  onSave: (image: Blob | null) => void;
  onClose: () => void;
}

/**
 * The image editor (spec sections 3-5, 9): the session hook holds the
 * session and does the canvas work, the canvas shows the image, the toolbar
 * drives the session.
 */
export function ImageEditor({ source, fileName, quality = 0.92, onSave, onClose }: ImageEditorProps): JSX.Element {
  const session = useEditorSession({ source, quality, onSave });
  const { state } = session;
  return (
    <div
      data-testid="image-editor"
      data-mode={state.mode}
      data-edited={String(state.edited)}
      data-editable={String(state.editable)}
      data-undo={state.undo.length}
      data-redo={state.redo.length}
      data-width={state.current?.width ?? 0}
      data-height={state.current?.height ?? 0}
      style={{ display: "flex", gap: 16, height: "100%", minHeight: 420 }}
    >
      <EditorCanvas session={session} alt={fileName ?? ""} />
      <EditorToolbar session={session} onClose={onClose} />
    </div>
  );
}
