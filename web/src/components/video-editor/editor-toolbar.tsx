import {
  CaretRightOutlined,
  CustomerServiceOutlined,
  FontSizeOutlined,
  IdcardOutlined,
  LoginOutlined,
  LogoutOutlined,
  PauseOutlined,
  PictureOutlined,
  PlusOutlined,
  RedoOutlined,
  ScissorOutlined,
  UndoOutlined,
} from "@ant-design/icons";
import { Button, Space, Tooltip } from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import type { StoryType } from "../../api/stories";
import { ClipPicker } from "./clip-picker";
import { addText, insertClips, newId } from "./edit-operations";
import type { VideoEditSession } from "./use-video-edit-session";

type Picking = { types: StoryType[]; title: string } | null;

/** Seconds a new title shows. */
const TITLE_SECONDS = 3;

function Tool({ title, children }: { title: string; children: ReactNode }) {
  return <Tooltip title={title}>{children}</Tooltip>;
}

/** The editor's actions: add material, titles and music; split and trim at the playhead; undo; play. */
export function EditorToolbar({ session }: { session: VideoEditSession }) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState<Picking>(null);
  const slideshow = session.kind === "slideshow";
  const at = session.playhead;
  const end = (start: number) =>
    Math.max(start + 0.5, Math.min(start + TITLE_SECONDS, session.duration || start + TITLE_SECONDS));
  const addTitle = (kind: "title" | "lowerThird") => {
    const text = kind === "title" ? t("videoEditor.text.newTitle") : t("videoEditor.text.newName");
    session.edit((edl) => {
      const added = addText(edl, {
        kind,
        text,
        ...(kind === "lowerThird" ? { subtitle: t("videoEditor.text.newRole") } : {}),
        start: Math.round(at * 100) / 100,
        end: end(at),
        position: "center",
        scale: 1,
        colour: "#FFFFFF",
      });
      session.select({ kind: "text", id: added.id });
      return added.edl;
    });
  };
  /** A title card: a black slide of its own with a centred title over it. */
  const addTitleCard = () =>
    session.edit((edl) => {
      const id = newId("c", edl);
      const after = session.current?.index ?? edl.clips.length - 1;
      const withCard = insertClips(
        edl,
        [
          {
            id,
            kind: "colour",
            colour: "#000000",
            duration: TITLE_SECONDS,
            transition: { type: "cut", duration: 0 },
            reframe: { mode: "crop", x: 0.5, y: 0.5 },
          },
        ],
        edl.clips.length === 0 ? undefined : after,
      );
      const index = withCard.clips.findIndex((clip) => clip.id === id);
      let start = 0;
      for (let i = 0; i < index; i++) start += session.clipLength(withCard.clips[i]!);
      return addText(withCard, {
        kind: "title",
        text: withCard.title || t("videoEditor.text.newTitle"),
        start,
        end: start + TITLE_SECONDS,
        position: "center",
        scale: 1.2,
        colour: "#FFFFFF",
      }).edl;
    });

  return (
    <Space wrap size={4} data-testid="video-toolbar">
      <Button
        type="primary"
        icon={<PlusOutlined />}
        data-testid="video-add-clips"
        onClick={() =>
          setPicking(
            slideshow
              ? { types: ["photo"], title: t("videoEditor.addPhotos") }
              : { types: ["video", "photo"], title: t("videoEditor.addClips") },
          )
        }
      >
        {slideshow ? t("videoEditor.addPhotos") : t("videoEditor.addClips")}
      </Button>
      <Tool title={t("videoEditor.addMusic")}>
        <Button
          icon={<CustomerServiceOutlined />}
          aria-label={t("videoEditor.addMusic")}
          onClick={() => setPicking({ types: ["audio"], title: t("videoEditor.addMusic") })}
        />
      </Tool>
      <Tool title={t("videoEditor.addTitle")}>
        <Button
          icon={<FontSizeOutlined />}
          aria-label={t("videoEditor.addTitle")}
          data-testid="video-add-title"
          disabled={session.duration === 0}
          onClick={() => addTitle("title")}
        />
      </Tool>
      {slideshow ? (
        <Tool title={t("videoEditor.addTitleCard")}>
          <Button
            icon={<PictureOutlined />}
            aria-label={t("videoEditor.addTitleCard")}
            data-testid="video-add-title-card"
            onClick={addTitleCard}
          />
        </Tool>
      ) : (
        <Tool title={t("videoEditor.addLowerThird")}>
          <Button
            icon={<IdcardOutlined />}
            aria-label={t("videoEditor.addLowerThird")}
            data-testid="video-add-lower-third"
            disabled={session.duration === 0}
            onClick={() => addTitle("lowerThird")}
          />
        </Tool>
      )}
      <Tool title={`${t("videoEditor.split")} (S)`}>
        <Button
          icon={<ScissorOutlined />}
          aria-label={t("videoEditor.split")}
          data-testid="video-split"
          disabled={session.duration === 0}
          onClick={session.split}
        />
      </Tool>
      {slideshow ? null : (
        <>
          <Tool title={`${t("videoEditor.markIn")} (I)`}>
            <Button
              icon={<LoginOutlined />}
              aria-label={t("videoEditor.markIn")}
              disabled={session.duration === 0}
              onClick={session.markIn}
            />
          </Tool>
          <Tool title={`${t("videoEditor.markOut")} (O)`}>
            <Button
              icon={<LogoutOutlined />}
              aria-label={t("videoEditor.markOut")}
              disabled={session.duration === 0}
              onClick={session.markOut}
            />
          </Tool>
        </>
      )}
      <Tool title={t("videoEditor.undo")}>
        <Button
          icon={<UndoOutlined />}
          aria-label={t("videoEditor.undo")}
          disabled={!session.canUndo}
          onClick={session.undo}
        />
      </Tool>
      <Tool title={t("videoEditor.redo")}>
        <Button
          icon={<RedoOutlined />}
          aria-label={t("videoEditor.redo")}
          disabled={!session.canRedo}
          onClick={session.redo}
        />
      </Tool>
      <Tool title={`${session.playing ? t("videoEditor.pause") : t("videoEditor.play")} (K)`}>
        <Button
          icon={session.playing ? <PauseOutlined /> : <CaretRightOutlined />}
          aria-label={session.playing ? t("videoEditor.pause") : t("videoEditor.play")}
          data-testid="video-play"
          disabled={session.duration === 0}
          onClick={() => {
            if (!session.playing && session.playhead >= session.duration) session.seek(0);
            session.setPlaying(!session.playing);
          }}
        />
      </Tool>
      {picking ? (
        <ClipPicker
          open
          types={picking.types}
          title={picking.title}
          onClose={() => setPicking(null)}
          onPick={session.addStories}
        />
      ) : null}
    </Space>
  );
}
