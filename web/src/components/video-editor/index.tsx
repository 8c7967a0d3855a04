import { Alert, Progress } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Inspector } from "./clip-inspector";
import { frameSeconds } from "./edit-operations";
import { EditorToolbar } from "./editor-toolbar";
import { VideoPreview } from "./preview";
import { VideoTimeline } from "./timeline";
import type { RenderStatus } from "./use-render";
import type { VideoEditSession } from "./use-video-edit-session";

export type { EditorKind } from "./edit-operations";
export { useVideoEditSession, type VideoEditSession } from "./use-video-edit-session";

/**
 * The video editor and the image-to-video editor (docs/video-editor.md): the
 * toolbar, the preview on the proxies with the selection's properties beside
 * it, the timeline under them, and the render's progress.
 */
export function VideoEditor({ session, render }: { session: VideoEditSession; render: RenderStatus }) {
  const { t } = useTranslation();
  useEditorKeys(session);
  return (
    <div data-testid="video-editor" style={{ display: "flex", flexDirection: "column", gap: 8, minWidth: 0 }}>
      <EditorToolbar session={session} />
      <div style={{ display: "flex", flexWrap: "wrap", gap: 12, minWidth: 0 }}>
        <div style={{ flex: "1 1 420px", minWidth: 0 }}>
          <VideoPreview session={session} />
        </div>
        <div style={{ flex: "1 1 260px", maxWidth: "100%", minWidth: 0 }}>
          <Inspector session={session} />
        </div>
      </div>
      <VideoTimeline session={session} />
      {render.phase === "rendering" ? (
        <div data-testid="video-render-progress">
          {t("videoEditor.rendering")}
          <Progress percent={render.progress} size="small" />
        </div>
      ) : null}
      {render.phase === "failed" ? (
        <Alert
          type="error"
          showIcon
          message={t("videoEditor.renderFailed")}
          description={render.message}
          data-testid="video-render-error"
        />
      ) : null}
    </div>
  );
}

/**
 * The keys of an editing desk, outside text fields: K or space play and
 * pause, J and L jump a second back and on, the arrows move a frame, I and O
 * trim the clip under the playhead, S splits it, Delete removes the
 * selection, Ctrl+Z / Ctrl+Shift+Z undo and redo.
 */
function useEditorKeys(session: VideoEditSession) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable=true], .ant-select, .ant-modal")) return;
      const frame = frameSeconds(session.edl);
      const key = event.key.toLowerCase();
      const handled = (() => {
        if ((event.ctrlKey || event.metaKey) && key === "z") {
          if (event.shiftKey) session.redo();
          else session.undo();
          return true;
        }
        if (event.ctrlKey || event.metaKey || event.altKey) return false;
        switch (key) {
          case " ":
          case "k":
            session.setPlaying(!session.playing);
            return true;
          case "j":
            session.seek(session.playhead - 1);
            return true;
          case "l":
            session.seek(session.playhead + 1);
            return true;
          case "arrowleft":
            session.seek(session.playhead - frame);
            return true;
          case "arrowright":
            session.seek(session.playhead + frame);
            return true;
          case "i":
            session.markIn();
            return true;
          case "o":
            session.markOut();
            return true;
          case "s":
            session.split();
            return true;
          case "delete":
          case "backspace":
            session.removeSelected();
            return true;
          default:
            return false;
        }
      })();
      if (handled) event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [session]);
}
