import { DeleteOutlined, LinkOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Empty, List, Modal, Popconfirm, Select, Skeleton, Space, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCanWrite } from "../../api/libraries";
import { type Story, searchStories, storyKeys } from "../../api/stories";
import {
  addRelation,
  RELATION_TYPES,
  type RelationType,
  removeRelation,
  useStoryRelations,
} from "../../api/story-detail";
import { Access } from "../../auth/access-component";
import { useFeedback } from "../feedback";
import { STORY_ACCESS } from "../story-actions";

const titleOf = (story: Story) => story.title || story.originalName || story.storyId;

/** The story's relations, from both ends; those who may edit it add (picker with search) and remove them. */
export function StoryRelations({ story, onOpen }: { story: Story; onOpen: (related: Story) => void }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const relations = useStoryRelations(story);
  const writable = useCanWrite(story.libraryId);
  const [picking, setPicking] = useState(false);
  if (relations.isLoading) return <Skeleton active />;
  if (relations.isError) return <Alert type="error" message={t("stories.viewer.loadFailed")} />;
  const refresh = async (other?: Story) => {
    await queryClient.invalidateQueries({ queryKey: storyKeys.relations(story) });
    // The other end lists the relation too.
    if (other) await queryClient.invalidateQueries({ queryKey: storyKeys.relations(other) });
  };
  return (
    <>
      {writable ? (
        <Access action={STORY_ACCESS.edit}>
          <Button icon={<LinkOutlined />} onClick={() => setPicking(true)} data-testid="relation-add">
            {t("stories.relation.add")}
          </Button>
        </Access>
      ) : null}
      <List
        data-testid="relations"
        dataSource={relations.data ?? []}
        locale={{ emptyText: <Empty description={t("stories.viewer.noRelations")} /> }}
        renderItem={(relation) => (
          <List.Item
            data-testid="relation"
            actions={
              writable
                ? [
                    <Access key="remove" action={STORY_ACCESS.edit}>
                      <Popconfirm
                        title={t("stories.relation.removeConfirm")}
                        okText={t("crud.ok")}
                        cancelText={t("crud.cancel")}
                        onConfirm={async () => {
                          await removeRelation(story, relation.id);
                          message.success(t("stories.relation.removed"));
                          await refresh(relation.story);
                        }}
                      >
                        <Button
                          type="text"
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t("stories.relation.remove")}
                        />
                      </Popconfirm>
                    </Access>,
                  ]
                : []
            }
          >
            <Space wrap>
              <Tag>{t(`stories.relation.${relation.direction}`)}</Tag>
              <Tag color="geekblue">{t(`stories.relationType.${relation.type}`, relation.type)}</Tag>
              <Typography.Link onClick={() => onOpen(relation.story)}>{titleOf(relation.story)}</Typography.Link>
            </Space>
          </List.Item>
        )}
      />
      {picking ? (
        <RelationPicker
          story={story}
          onClose={() => setPicking(false)}
          onAdded={async (other) => {
            message.success(t("stories.relation.added"));
            await refresh(other);
          }}
        />
      ) : null}
    </>
  );
}

/** Debounces a value (the picker's search asks once the typing pauses). */
export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Picks the related story by searching titles and captions in every library the user reads, and the kind. */
function RelationPicker({
  story,
  onClose,
  onAdded,
}: {
  story: Story;
  onClose: () => void;
  onAdded: (other: Story) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const keyword = useDebounced(text.trim(), 300);
  const [picked, setPicked] = useState<Story | null>(null);
  const [type, setType] = useState<RelationType>("related");
  const [saving, setSaving] = useState(false);
  const found = useQuery({
    queryKey: [...storyKeys.all, "relation-picker", keyword],
    queryFn: () => searchStories({ ...(keyword ? { keyword } : {}), page: 0, size: 20, facets: "false" }),
  });
  const options = (found.data?.content ?? []).filter(
    (candidate) => !(candidate.storyId === story.storyId && candidate.libraryId === story.libraryId),
  );
  return (
    <Modal
      open
      title={t("stories.relation.add")}
      okText={t("crud.ok")}
      cancelText={t("crud.cancel")}
      okButtonProps={{ disabled: !picked }}
      confirmLoading={saving}
      onCancel={onClose}
      onOk={async () => {
        if (!picked) return;
        setSaving(true);
        try {
          await addRelation(story, { relatedLibraryId: picked.libraryId, relatedStoryId: picked.storyId, type });
          await onAdded(picked);
          onClose();
        } finally {
          setSaving(false);
        }
      }}
    >
      <Space direction="vertical" style={{ width: "100%" }}>
        <Select
          showSearch
          style={{ width: "100%" }}
          data-testid="relation-search"
          placeholder={t("stories.relation.search")}
          filterOption={false}
          onSearch={setText}
          loading={found.isFetching}
          value={picked ? `${picked.libraryId}/${picked.storyId}` : undefined}
          onChange={(value) =>
            setPicked(options.find((candidate) => `${candidate.libraryId}/${candidate.storyId}` === value) ?? null)
          }
          notFoundContent={found.isFetching ? <Skeleton.Input active size="small" /> : t("stories.relation.none")}
          options={options.map((candidate) => ({
            value: `${candidate.libraryId}/${candidate.storyId}`,
            label: `${titleOf(candidate)} · ${t(`stories.type.${candidate.type}`)}`,
          }))}
        />
        <Select<RelationType>
          style={{ width: "100%" }}
          value={type}
          onChange={setType}
          aria-label={t("stories.relation.type")}
          options={RELATION_TYPES.map((value) => ({ value, label: t(`stories.relationType.${value}`) }))}
        />
      </Space>
    </Modal>
  );
}
