import { PictureOutlined, UploadOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Modal, Segmented, Space, Upload } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCanWrite } from "../../api/libraries";
import { saveCover } from "../../api/media";
import { type Story, storyKeys } from "../../api/stories";
import { fileOf } from "../../api/story-detail";
import { useFeedback } from "../feedback";
import { CoverCropper, type CroppedCover } from ".";
import { COVER_RATIO_TEXT } from "./geometry";

type SourceKind = "current" | "frame" | "file";

/** Stories whose cover is set apart from their media (a photo is its own cover). */
export function takesCover(story: Pick<Story, "type">): boolean {
  return story.type === "video" || story.type === "composite";
}

/**
 * The cover cropper in a modal, for a video or composite story: the source
 * image is the current cover, a frame of the video, or an image file; the
 * confirmed crop is sent as the story's cover and the story's queries reload.
 */
export function CoverCropperModal({ story, open, onClose }: { story: Story; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const hasVideo = story.type === "video" && fileOf(story, "proxy") !== undefined;
  const [kind, setKind] = useState<SourceKind>(hasVideo ? "frame" : story.coverUrl ? "current" : "file");
  const [picked, setPicked] = useState<Blob | null>(null);
  // Signed media URLs are same-origin, so the cropper may read their pixels.
  const current = open && kind === "current" ? story.coverMediaUrl : null;
  const fileUrl = useObjectUrl(kind === "file" ? picked : null);
  const save = useMutation({
    mutationFn: (cover: CroppedCover) =>
      saveCover({
        base64String: cover.dataUrl,
        ratio: COVER_RATIO_TEXT,
        libraryId: story.libraryId,
        storyId: story.storyId,
        ...(story.folderId ? { folderId: story.folderId } : {}),
      }),
    onSuccess: async () => {
      message.success(t("cover.saved"));
      onClose();
      await queryClient.invalidateQueries({ queryKey: storyKeys.all });
    },
  });
  const [frame, setFrame] = useState<string | null>(null);
  const source = kind === "current" ? current : kind === "frame" ? frame : fileUrl;

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width="min(960px, 90vw)"
      destroyOnHidden
      title={t("cover.title")}
      data-testid="cover-modal"
    >
      <Space direction="vertical" style={{ width: "100%" }}>
        <Segmented<SourceKind>
          value={kind}
          onChange={(value) => setKind(value)}
          options={[
            ...(story.coverUrl ? [{ value: "current" as const, label: t("cover.source.current") }] : []),
            ...(hasVideo ? [{ value: "frame" as const, label: t("cover.source.frame") }] : []),
            { value: "file" as const, label: t("cover.source.file") },
          ]}
        />
        {kind === "frame" && !frame ? <FramePicker story={story} onPick={setFrame} /> : null}
        {kind === "frame" && frame ? (
          <Button onClick={() => setFrame(null)} data-testid="cover-other-frame">
            {t("cover.otherFrame")}
          </Button>
        ) : null}
        {kind === "file" ? (
          <Upload
            accept="image/*"
            showUploadList={false}
            beforeUpload={(file) => {
              if (!file.type.startsWith("image/")) message.warning(t("cover.notImage"));
              else setPicked(file);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} data-testid="cover-file">
              {t("cover.pickFile")}
            </Button>
          </Upload>
        ) : null}
        {source ? (
          <CoverCropper key={source} source={source} confirming={save.isPending} onConfirm={save.mutate} />
        ) : null}
      </Space>
    </Modal>
  );
}

/** An object URL for a picked file, revoked when another is picked or the modal goes. */
function useObjectUrl(file: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return url;
}

/** The video on its proxy: the user seeks to a frame and takes it as the source image (full resolution). */
function FramePicker({ story, onPick }: { story: Story; onPick: (dataUrl: string) => void }) {
  const { t } = useTranslation();
  const src = fileOf(story, "proxy")?.mediaUrl;
  const element = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  if (failed || !src) return <Alert type="warning" message={t("stories.viewer.previewFailed")} />;
  const take = () => {
    const playing = element.current;
    if (!playing || playing.videoWidth === 0) return;
    playing.pause();
    const canvas = document.createElement("canvas");
    canvas.width = playing.videoWidth;
    canvas.height = playing.videoHeight;
    canvas.getContext("2d")?.drawImage(playing, 0, 0);
    onPick(canvas.toDataURL("image/png"));
  };
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      <video
        ref={element}
        src={src}
        onError={() => setFailed(true)}
        controls
        muted
        preload="auto"
        data-testid="cover-frame-video"
        style={{ width: "100%", maxHeight: "30vh", background: "#000" }}
      />
      <Button onClick={take} data-testid="cover-take-frame">
        {t("cover.takeFrame")}
      </Button>
    </Space>
  );
}

/**
 * The viewer's "cover" action: shown for a video or composite story in a
 * library the user may write (the server checks again on confirm).
 */
export function CoverAction({ story }: { story: Story }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const writable = useCanWrite(story.libraryId);
  if (!takesCover(story) || !writable) return null;
  return (
    <>
      <Button icon={<PictureOutlined />} onClick={() => setOpen(true)} data-testid="cover-action">
        {t("cover.action")}
      </Button>
      {open ? <CoverCropperModal story={story} open={open} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
