import { Alert, Spin } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchStoryProject } from "../../../api/video-edit";
import { type Embed, EmbedFrame } from "../../../components/embed/embed-frame";
import { EMBED_MESSAGES, isVideoEditCommand, openerOf } from "../../../components/embed/protocol";
import { type EditorKind, useVideoEditSession, VideoEditor } from "../../../components/video-editor";
import { ProjectBar } from "../../../components/video-editor/project-bar";
import { useProjectAutosave } from "../../../components/video-editor/use-project-autosave";
import { useRender } from "../../../components/video-editor/use-render";

/**
 * The video tools (spec section 2, /source/ismpVideosEdit), framed by the video
 * edit dialog (or by an allowed system, docs/embedding.md): `?mode=slideshow`
 * is the image-to-video editor, `?libraryId=&storyId=` opens a video to edit.
 * The opener's edit command (`dams:video-edit`) renders the edit on the server;
 * the page answers with the video's URL (`dams:video-rendered`) or the reason
 * it could not (`dams:video-error`).
 */
export default function SourceVideosEditPage() {
  return (
    <EmbedFrame page="ismpVideosEdit" allowSelf>
      {(embed) => <VideoTools embed={embed} />}
    </EmbedFrame>
  );
}

function VideoTools({ embed }: { embed: Embed }) {
  const { t } = useTranslation();
  const params = useMemo(() => new URLSearchParams(window.location.search), []);
  const kind: EditorKind = params.get("mode") === "slideshow" ? "slideshow" : "video";
  const session = useVideoEditSession(kind);
  const { status, render } = useRender();
  const opener = useMemo(() => openerOf(window), []);
  const [opening, setOpening] = useState(() => !!(params.get("libraryId") && params.get("storyId")));
  const [openFailed, setOpenFailed] = useState(false);
  const { openStory } = session;
  // Not saved as a new project while a story opens: its edit goes on in the project it was rendered from.
  const autosave = useProjectAutosave(session, params.get("projectId"), opening);
  const { adopt } = autosave;
  const projectId = useRef(autosave.projectId);
  projectId.current = autosave.projectId;

  useEffect(() => {
    const libraryId = params.get("libraryId");
    const storyId = params.get("storyId");
    if (!libraryId || !storyId) return;
    const ref = { libraryId, storyId };
    setOpening(true);
    openStory(ref)
      .then(async (opened) => {
        if (!opened || params.get("projectId")) return;
        const project = await fetchStoryProject(ref).catch(() => null);
        if (project) adopt(project, opened);
      })
      .catch(() => setOpenFailed(true))
      .finally(() => setOpening(false));
  }, [params, openStory, adopt]);

  // The edit command renders what is on the timeline when it arrives.
  const edl = useRef(session.edl);
  edl.current = session.edl;
  const busy = useRef(false);
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (!isVideoEditCommand(event, embed.target, opener) || busy.current) return;
      busy.current = true;
      const edit = edl.current;
      render(edit, (progress) => embed.post({ type: EMBED_MESSAGES.videoProgress, progress }), projectId.current)
        .then((done) =>
          embed.post({
            type: EMBED_MESSAGES.videoRendered,
            videoUrl: done.videoUrl,
            title: edit.title,
            durationSeconds: done.durationSeconds,
          }),
        )
        .catch((error: unknown) =>
          embed.post({
            type: EMBED_MESSAGES.videoError,
            message: error instanceof Error ? error.message : String(error),
          }),
        )
        .finally(() => {
          busy.current = false;
        });
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [embed, opener, render]);

  return (
    <div style={{ padding: 8, minWidth: 0 }} data-testid="video-tools" data-kind={kind}>
      {openFailed ? (
        <Alert type="warning" showIcon message={t("videoEditor.openFailed")} style={{ marginBottom: 8 }} />
      ) : null}
      <ProjectBar status={autosave.status} projectId={autosave.projectId} />
      <Spin spinning={opening || autosave.loading}>
        <VideoEditor session={session} render={status} />
      </Spin>
    </div>
  );
}
