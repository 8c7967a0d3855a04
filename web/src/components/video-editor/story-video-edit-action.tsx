import { ScissorOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useCanWrite } from "../../api/libraries";
import type { Story } from "../../api/stories";
import { useAccess } from "../../auth/access-component";
import { STORY_ACCESS } from "../story-actions";
import { VideoEditDialog } from "./video-edit-dialog";

/** The story viewer's "edit video" for a video the user may write: the video edit dialog on it; save makes version n+1. */
export function StoryVideoEditAction({ story }: { story: Story }) {
  const { t } = useTranslation();
  const allowed = useAccess();
  const writable = useCanWrite(story.libraryId);
  const [open, setOpen] = useState(false);
  if (story.type !== "video" || !allowed(STORY_ACCESS.edit) || !writable) return null;
  return (
    <>
      <Button icon={<ScissorOutlined />} onClick={() => setOpen(true)} data-testid="story-edit-video">
        {t("videoEditor.editVideo")}
      </Button>
      {open ? (
        <VideoEditDialog
          open
          kind="video"
          title={t("videoEditor.editVideo")}
          base={{ libraryId: story.libraryId, storyId: story.storyId, folderId: story.folderId }}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}
