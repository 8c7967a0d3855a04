import { Input, Modal, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { StoryQuery, StoryType } from "../../api/stories";
import { fetchStory } from "../../api/story-detail";
import { useFeedback } from "../feedback";
import { StoryPickGrid } from "../story-grid/story-pick-grid";
import { useStorySelection } from "../story-grid/use-story-selection";
import { type SourceInfo, sourceInfo } from "./use-video-edit-session";

/**
 * The material picker of the editors: stories of the given types found in the
 * libraries the user reads (the user's own uploads among them), several at a
 * time, in the order they were picked.
 */
export function ClipPicker({
  open,
  types,
  title,
  onClose,
  onPick,
}: {
  open: boolean;
  types: StoryType[];
  title: string;
  onClose: () => void;
  onPick: (stories: SourceInfo[]) => void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [text, setText] = useState("");
  const [fulltext, setFulltext] = useState("");
  const [loading, setLoading] = useState(false);
  const query: StoryQuery = useMemo(() => ({ types, ...(fulltext ? { fulltext } : {}) }), [types, fulltext]);
  const { picked, keys: selected, toggle, clear } = useStorySelection();

  const confirm = async () => {
    setLoading(true);
    try {
      // The detail carries the signed URLs of the proxy and preview the timeline plays.
      const details = await Promise.all([...picked.values()].map((story) => fetchStory(story, { silent: true })));
      onPick(details.map(sourceInfo));
      clear();
      onClose();
    } catch {
      message.error(t("videoEditor.picker.failed"));
    } finally {
      setLoading(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      width="min(960px, 96vw)"
      onCancel={onClose}
      onOk={confirm}
      okText={t("videoEditor.picker.add", { count: picked.size })}
      okButtonProps={{ disabled: picked.size === 0, loading, "data-testid": "video-picker-add" }}
      destroyOnHidden
    >
      <Input.Search
        aria-label={t("search.placeholder")}
        placeholder={t("search.placeholder")}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onSearch={(value) => setFulltext(value.trim())}
        enterButton
        allowClear
        style={{ marginBottom: 8 }}
      />
      <StoryPickGrid
        scope="video-editor-picker"
        query={query}
        selected={selected}
        onToggle={toggle}
        height="min(55vh, 520px)"
        empty={<Typography.Text type="secondary">{t("search.empty")}</Typography.Text>}
      />
    </Modal>
  );
}
