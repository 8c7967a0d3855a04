import { EditOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Modal } from "antd";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCanWrite } from "../../api/libraries";
import { type Story, storyKeys } from "../../api/stories";
import { fetchStoryOriginal } from "../../api/story-detail";
import { useAccess } from "../../auth/access-component";
import { EDITOR_MODAL_HEIGHT, EDITOR_MODAL_SIZE } from "../../config";
import { useFeedback } from "../feedback";
import { STORY_ACCESS } from "../story-actions";
import { ImageEditor } from ".";
import { saveAsNewVersion } from "./save-version";

/**
 * The story viewer's "edit" action for photos the user may write: the image
 * editor in a modal of 90 % of the window; save makes a new version.
 */
export function StoryImageEditAction({ story }: { story: Story }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const allowed = useAccess();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const writable = useCanWrite(story.libraryId);
  const ref = { libraryId: story.libraryId, storyId: story.storyId };
  const { libraryId, storyId } = ref;
  const original = useCallback(() => fetchStoryOriginal({ libraryId, storyId }), [libraryId, storyId]);
  const save = useMutation({
    mutationFn: (image: Blob) => saveAsNewVersion(ref, image),
    onSuccess: async (saved) => {
      message.success(t("imageEditor.saved", { no: saved.versionNo }));
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: storyKeys.all });
    },
  });
  if (story.type !== "photo" || !allowed(STORY_ACCESS.edit) || !writable) return null;
  return (
    <>
      <Button icon={<EditOutlined />} onClick={() => setOpen(true)} data-testid="story-edit-image">
        {t("stories.editImage")}
      </Button>
      <Modal
        open={open}
        title={t("imageEditor.title")}
        width={EDITOR_MODAL_SIZE}
        style={{ top: "5vh", paddingBottom: 0 }}
        styles={{ body: { height: `calc(${EDITOR_MODAL_HEIGHT} - 110px)` } }}
        footer={null}
        destroyOnHidden
        maskClosable={false}
        onCancel={() => setOpen(false)}
      >
        <ImageEditor
          source={original}
          fileName={story.originalName ?? undefined}
          onSave={(image) => (image ? save.mutate(image) : setOpen(false))}
          onClose={() => setOpen(false)}
        />
      </Modal>
    </>
  );
}
