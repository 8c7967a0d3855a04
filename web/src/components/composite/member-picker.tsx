import { useQuery } from "@tanstack/react-query";
import { Checkbox, Empty, Input, Modal, Skeleton, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type ManuscriptMember, memberOf } from "../../api/composites";
import { searchStories, storyKeys } from "../../api/stories";
import { useDebounced } from "../story-viewer/story-relations";
import { MemberThumb } from "./member-thumb";

/** Picks stories of the libraries the user reads to add to the composite (photos, videos, audio). */
export function MemberPicker({
  present,
  onClose,
  onAdd,
}: {
  /** Story ids already members: shown checked and not picked again. */
  present: ReadonlySet<string>;
  onClose: () => void;
  onAdd: (members: ManuscriptMember[]) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const keyword = useDebounced(text.trim(), 300);
  const [picked, setPicked] = useState<ManuscriptMember[]>([]);
  const found = useQuery({
    queryKey: [...storyKeys.all, "member-picker", keyword],
    queryFn: () =>
      searchStories({
        ...(keyword ? { keyword } : {}),
        types: ["photo", "video", "audio"],
        page: 0,
        size: 30,
        facets: "false",
      }),
  });
  const stories = found.data?.content ?? [];
  const toggle = (member: ManuscriptMember) =>
    setPicked((current) =>
      current.some((other) => other.storyId === member.storyId)
        ? current.filter((other) => other.storyId !== member.storyId)
        : [...current, member],
    );
  return (
    <Modal
      open
      title={t("composite.addMembers")}
      okText={t("composite.addPicked", { count: picked.length })}
      cancelText={t("crud.cancel")}
      okButtonProps={{ disabled: picked.length === 0, "data-testid": "member-picker-ok" }}
      onCancel={onClose}
      onOk={() => {
        onAdd(picked);
        onClose();
      }}
      width="min(640px, calc(100vw - 16px))"
      data-testid="member-picker"
    >
      <Input.Search
        allowClear
        placeholder={t("composite.searchMembers")}
        value={text}
        onChange={(event) => setText(event.target.value)}
        data-testid="member-picker-search"
      />
      <div style={{ marginTop: 12, maxHeight: "50vh", overflowY: "auto" }}>
        {found.isLoading ? <Skeleton active /> : null}
        {!found.isLoading && stories.length === 0 ? <Empty description={t("stories.relation.none")} /> : null}
        {stories.map((story) => {
          const member = memberOf(story);
          const already = present.has(story.storyId);
          return (
            <Checkbox
              key={`${story.libraryId}/${story.storyId}`}
              data-testid="member-picker-item"
              checked={already || picked.some((other) => other.storyId === story.storyId)}
              disabled={already}
              onChange={() => toggle(member)}
              style={{ display: "flex", alignItems: "center", padding: "4px 0" }}
            >
              <span style={{ display: "flex", alignItems: "center", gap: 8, minWidth: 0 }}>
                <MemberThumb url={member.thumbnailUrl} alt="" width={56} height={40} />
                <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }}>
                  {member.title || t("stories.untitled")}
                </Typography.Text>
                <Typography.Text type="secondary">{t(`stories.type.${story.type}`)}</Typography.Text>
              </span>
            </Checkbox>
          );
        })}
      </div>
    </Modal>
  );
}
