import { useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Modal, Progress, Space, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { ApiError, localizedMessage } from "../../api/http";
import { type StoryRef, storyKeys } from "../../api/stories";
import { fetchStory, fetchTranscodeTask } from "../../api/story-detail";
import { commitVideo, createVideoStory, saveVideoVersion } from "../../api/video-edit";
import {
  DEFAULT_VIDEO_LIBRARY,
  EDITOR_MODAL_HEIGHT,
  EDITOR_MODAL_SIZE,
  VIDEO_POLL_FIRST_MS,
  VIDEO_POLL_INTERVAL_MS,
} from "../../config";
import { EMBED_MESSAGES } from "../embed/protocol";
import { useFeedback } from "../feedback";
import { editorMessage, editorUrl, landingUrl, transcodeStep } from "./dialog-protocol";

type Phase = "idle" | "rendering" | "processing" | "saving";
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The story being edited: its new version lands in its library and folder. */
export type EditedStory = StoryRef & { folderId: string | null };

/**
 * The video edit dialog (spec sections 2 and 4): the video tools framed at 90 %
 * of the window with a save button. Save sends the edit command to the
 * editor; the editor renders and replies with the video's URL; the dialog
 * makes a video story of it, asks for its progress (first after 1 s) until
 * 100, loads it and saves it — as the next version of `base` when it edits a
 * video — then closes and shows the library's videos. An error from the
 * editor or a failed call re-enables the buttons.
 */
export function VideoEditDialog({
  open,
  kind,
  title,
  base,
  onClose,
}: {
  open: boolean;
  kind: "video" | "slideshow";
  title: string;
  base?: EditedStory | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const frame = useRef<HTMLIFrameElement>(null);
  const [ready, setReady] = useState(false);
  const [phase, setPhase] = useState<Phase>("idle");
  const [progress, setProgress] = useState(0);
  /** The last failure: shown until dismissed or the next save (a toast could vanish before it is read). */
  const [error, setError] = useState<string | null>(null);
  const busy = phase !== "idle";
  const origin = window.location.origin;

  const fail = (reason: unknown) => {
    const text = reason instanceof ApiError ? localizedMessage(reason) : reason instanceof Error ? reason.message : "";
    setError(text ? `${t("videoEditor.saveFailed")}: ${text}` : t("videoEditor.saveFailed"));
    setPhase("idle");
    setProgress(0);
  };

  /** Steps 2 and 3: the rendered video becomes a story, is processed, loaded and saved. */
  const saveRendered = async (videoUrl: string, videoTitle: string) => {
    const libraryId = base?.libraryId ?? DEFAULT_VIDEO_LIBRARY;
    const folderId = base?.folderId ?? null;
    setPhase("processing");
    setProgress(0);
    const created = await createVideoStory({
      videoUrl,
      libraryId,
      folderId,
      title: videoTitle.trim() || null,
      base: base ? { libraryId: base.libraryId, storyId: base.storyId } : null,
    });
    const draft = { libraryId: created.libraryId, storyId: created.storyId };
    await wait(VIDEO_POLL_FIRST_MS);
    for (;;) {
      const next = transcodeStep(await fetchTranscodeTask(draft, "video"));
      if (next.step === "failed") throw new Error(next.reason);
      if (next.step === "done") break;
      setProgress(next.progress);
      await wait(VIDEO_POLL_INTERVAL_MS);
    }
    setProgress(100);
    await fetchStory(draft, { silent: true });
    setPhase("saving");
    if (base) await saveVideoVersion(base, draft);
    else await commitVideo(draft);
    setProgress(0);
    setPhase("idle");
    await queryClient.invalidateQueries({ queryKey: storyKeys.all });
    message.success(t("videoEditor.saved"));
    onClose();
    navigate(landingUrl(libraryId, folderId));
  };

  const handlers = useRef({ saveRendered, fail });
  handlers.current = { saveRendered, fail };
  /** The editor's page loaded again while it rendered (a reload, a sign-in): its answer will never come. */
  const phaseNow = useRef(phase);
  phaseNow.current = phase;
  const onFrameLoad = () => {
    if (phaseNow.current === "rendering") fail(new Error(t("videoEditor.editorReloaded")));
  };
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const received = editorMessage(event, origin, frame.current?.contentWindow);
      if (!received) return;
      if (received.type === "ready") setReady(true);
      else if (received.type === "progress") setProgress(received.progress);
      else if (received.type === "error") handlers.current.fail(new Error(received.message));
      else handlers.current.saveRendered(received.videoUrl, received.title).catch(handlers.current.fail);
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [origin]);

  /** Step 1: the edit command to the framed editor. */
  const save = () => {
    const editor = frame.current?.contentWindow;
    if (!editor) return;
    setPhase("rendering");
    setProgress(0);
    setError(null);
    editor.postMessage({ type: EMBED_MESSAGES.videoEdit }, origin);
  };

  return (
    <Modal
      open={open}
      title={title}
      width={EDITOR_MODAL_SIZE}
      style={{ top: "5vh", paddingBottom: 0, maxWidth: "100vw" }}
      styles={{
        content: { height: EDITOR_MODAL_HEIGHT, display: "flex", flexDirection: "column", padding: 12 },
        body: { flex: 1, minHeight: 0 },
      }}
      destroyOnHidden
      maskClosable={false}
      closable={!busy}
      keyboard={!busy}
      onCancel={onClose}
      footer={
        <Space wrap style={{ justifyContent: "flex-end", width: "100%" }}>
          {error ? (
            <Alert
              type="error"
              showIcon
              message={error}
              closable={{ "aria-label": t("videoEditor.dismiss") }}
              onClose={() => setError(null)}
              data-testid="video-dialog-error"
              style={{ textAlign: "left", maxWidth: 520 }}
            />
          ) : null}
          {busy ? (
            <div style={{ minWidth: 200 }} data-testid="video-dialog-progress">
              <Typography.Text type="secondary">{t(`videoEditor.phase.${phase}`)}</Typography.Text>
              <Progress percent={progress} size="small" />
            </div>
          ) : null}
          <Button onClick={onClose} disabled={busy}>
            {t("crud.cancel")}
          </Button>
          <Button type="primary" onClick={save} loading={busy} disabled={!ready} data-testid="video-dialog-save">
            {t("videoEditor.save")}
          </Button>
        </Space>
      }
    >
      <iframe
        ref={frame}
        title={title}
        src={editorUrl(origin, kind, base)}
        data-testid="video-dialog-frame"
        onLoad={onFrameLoad}
        style={{ width: "100%", height: "100%", border: 0 }}
      />
    </Modal>
  );
}
