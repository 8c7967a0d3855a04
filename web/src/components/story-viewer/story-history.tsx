import { Alert, Button, Checkbox, Empty, List, Skeleton, Space, Tag, Timeline, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type Story, saveStories } from "../../api/stories";
import type { StoryVersion } from "../../api/story-detail";
import { useStoryActions, useStoryVersions } from "../../api/story-detail";
import { Access } from "../../auth/access-component";
import { STORY_ACCESS } from "../story-actions";
import { formatSize } from "./format";
import { VersionCompare } from "./version-compare";

/** The versions of a story, newest first: open one in the viewer, download its original, or compare two. */
export function StoryVersions({
  story,
  openVersion,
  onOpen,
}: {
  story: Story;
  openVersion: number | null;
  onOpen: (version: StoryVersion | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const versions = useStoryVersions(story);
  // Version numbers ticked for comparison, the last two ticked kept.
  const [ticked, setTicked] = useState<number[]>([]);
  const [comparing, setComparing] = useState<[StoryVersion, StoryVersion] | null>(null);
  if (versions.isLoading) return <Skeleton active />;
  if (versions.isError) return <Alert type="error" message={t("stories.viewer.loadFailed")} />;
  const all = versions.data ?? [];
  const tick = (versionNo: number, on: boolean) =>
    setTicked((current) =>
      on
        ? [...current.filter((no) => no !== versionNo), versionNo].slice(-2)
        : current.filter((no) => no !== versionNo),
    );
  const openComparison = () => {
    const chosen = all.filter((version) => ticked.includes(version.versionNo));
    if (chosen.length === 2) setComparing([chosen[0]!, chosen[1]!]);
  };
  return (
    <>
      {all.length > 1 ? (
        <Space style={{ marginBottom: 8 }}>
          <Button data-testid="compare-versions" disabled={ticked.length !== 2} onClick={openComparison}>
            {t("viewerMedia.compare.open")}
          </Button>
          <Typography.Text type="secondary">{t("viewerMedia.compare.hint")}</Typography.Text>
        </Space>
      ) : null}
      <VersionCompare story={story} versions={comparing} onClose={() => setComparing(null)} />
      <List
        data-testid="story-versions"
        dataSource={[...all].reverse()}
        locale={{ emptyText: <Empty description={t("stories.viewer.noVersions")} /> }}
        renderItem={(version) => (
          <List.Item
            data-version={version.versionNo}
            actions={[
              ...(all.length > 1
                ? [
                    <Checkbox
                      key="compare"
                      checked={ticked.includes(version.versionNo)}
                      onChange={(event) => tick(version.versionNo, event.target.checked)}
                      data-testid={`compare-tick-${version.versionNo}`}
                    >
                      {t("viewerMedia.compare.select")}
                    </Checkbox>,
                  ]
                : []),
              <Button
                key="open"
                size="small"
                type={openVersion === version.versionNo ? "primary" : "default"}
                onClick={() => onOpen(version.current ? null : version)}
              >
                {t("stories.viewer.openVersion")}
              </Button>,
              <Access key="download" action={STORY_ACCESS.download}>
                <Button
                  size="small"
                  onClick={() =>
                    void saveStories(story.libraryId, [story.storyId], version.originalName ?? "story", {
                      versionNo: version.versionNo,
                    }).catch(() => undefined)
                  }
                >
                  {t("stories.download")}
                </Button>
              </Access>,
            ]}
          >
            <List.Item.Meta
              title={
                <Space>
                  {t("stories.viewer.versionNo", { no: version.versionNo })}
                  {version.current ? <Tag color="blue">{t("stories.viewer.current")}</Tag> : null}
                </Space>
              }
              description={[
                version.originalName,
                version.size != null ? formatSize(version.size) : null,
                new Date(version.createdAt).toLocaleString(i18n.language),
                version.note ? t(`stories.versionNote.${version.note}`, { defaultValue: version.note }) : null,
              ]
                .filter(Boolean)
                .join(" · ")}
            />
          </List.Item>
        )}
      />
    </>
  );
}

/** The story's action history (`/story-actions`), newest first. */
/** An edit's changed fields (`details.changes`), each from what to what. */
function FieldChanges({ details }: { details: Record<string, unknown> }) {
  const { t } = useTranslation();
  const changes = Array.isArray(details.changes)
    ? (details.changes as { field: string; from: unknown; to: unknown }[])
    : [];
  if (changes.length === 0) return null;
  const text = (value: unknown) =>
    value === null || value === undefined || value === ""
      ? t("editInfo.conflict.empty")
      : Array.isArray(value)
        ? value.join(", ")
        : String(value);
  return (
    <ul style={{ margin: "4px 0 0", paddingInlineStart: 18 }} data-testid="story-history-changes">
      {changes.map((change) => {
        const name = change.field.replace(/^properties\./, "");
        return (
          <li key={change.field}>
            <Typography.Text type="secondary">
              {t(`editInfo.field.${name}`, { defaultValue: name })}: {text(change.from)} → {text(change.to)}
            </Typography.Text>
          </li>
        );
      })}
    </ul>
  );
}

export function StoryHistory({ story }: { story: Story }) {
  const { t, i18n } = useTranslation();
  const actions = useStoryActions(story);
  if (actions.isLoading) return <Skeleton active />;
  if (actions.isError) return <Alert type="error" message={t("stories.viewer.loadFailed")} />;
  const items = actions.data?.content ?? [];
  if (items.length === 0) return <Empty description={t("stories.viewer.noHistory")} />;
  return (
    <Timeline
      data-testid="story-history"
      items={items.map((action) => ({
        key: action.id,
        children: (
          <>
            <Typography.Text strong>
              {t(`stories.action.${action.action}`, { defaultValue: action.action })}
            </Typography.Text>{" "}
            <Typography.Text type="secondary">
              {action.username ?? t("stories.viewer.system")} · {new Date(action.at).toLocaleString(i18n.language)}
              {action.ip ? ` · ${action.ip}` : ""}
            </Typography.Text>
            <FieldChanges details={action.details} />
          </>
        ),
      }))}
    />
  );
}
