import { Descriptions, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { StoryProperty } from "../../api/catalogue";
import { useFormProperties } from "../../api/catalogue";
import { libraryName as nameOf, useLibraries } from "../../api/libraries";
import type { Story } from "../../api/stories";
import { seededPropertyLabel } from "../../locales/seeded";
import { formatDuration, formatSize, propertyText } from "./format";

type Row = [labelKey: string, value: string | null | undefined];

/** The story's metadata in groups, each value copyable. */
export function StoryMetadata({ story }: { story: Story }) {
  const { t, i18n } = useTranslation();
  const libraries = useLibraries();
  // Custom properties show with their labels (and a code list's labels) where the catalogue defines them.
  const definitions = useFormProperties(story.type as StoryProperty["storyType"], story.libraryId, {
    enabled: story.type === "photo" || story.type === "video" || story.type === "audio",
    staleTime: 60_000,
  });
  const libraryName = nameOf(libraries.data, story.libraryId);
  const date = (value: string | null) => (value ? new Date(value).toLocaleString(i18n.language) : null);
  const join = (values: string[]) => (values.length > 0 ? values.join(", ") : null);
  const groups: [titleKey: string, rows: Row[]][] = [
    [
      "stories.meta.editorial",
      [
        ["stories.meta.title", story.title],
        ["stories.meta.caption", story.caption],
        ["stories.meta.authors", join(story.authors)],
        ["stories.meta.source", story.source],
        ["stories.meta.keywords", join(story.keywords)],
        ["stories.meta.tags", join(story.tags)],
        ["stories.meta.theme", story.theme],
        ["stories.meta.category", story.category],
      ],
    ],
    [
      "stories.meta.technical",
      [
        ["stories.meta.type", t(`stories.type.${story.type}`)],
        ["stories.meta.originalName", story.originalName],
        ["stories.meta.mime", story.mime],
        ["stories.meta.size", story.size != null ? formatSize(story.size) : null],
        ["stories.meta.dimensions", story.width && story.height ? `${story.width} × ${story.height}` : null],
        ["stories.meta.duration", story.duration != null ? formatDuration(story.duration) : null],
        ["stories.meta.capturedAt", date(story.capturedAt)],
        ["stories.meta.gps", story.gps ? `${story.gps.latitude.toFixed(6)}, ${story.gps.longitude.toFixed(6)}` : null],
        ["stories.meta.sha256", story.contentSha256],
      ],
    ],
    [
      "stories.meta.record",
      [
        ["stories.meta.library", libraryName],
        ["stories.meta.id", story.storyId],
        ["stories.meta.status", t(`stories.status.${story.status}`)],
        ["stories.meta.version", String(story.versionNo)],
        ["stories.meta.oid", story.oid],
        ["stories.meta.createdAt", date(story.createdAt)],
        ["stories.meta.updatedAt", date(story.updatedAt)],
      ],
    ],
  ];
  const properties = Object.entries(story.properties).filter(
    ([, value]) => value !== null && value !== undefined && value !== "",
  );
  return (
    <div data-testid="story-metadata">
      {groups.map(([titleKey, rows]) => {
        const shown = rows.filter(([, value]) => value);
        if (shown.length === 0) return null;
        return (
          <Descriptions
            key={titleKey}
            title={t(titleKey)}
            column={1}
            size="small"
            bordered
            style={{ marginBottom: 16 }}
          >
            {shown.map(([labelKey, value]) => (
              <Descriptions.Item key={labelKey} label={t(labelKey)}>
                <Copyable value={value ?? ""} />
              </Descriptions.Item>
            ))}
          </Descriptions>
        );
      })}
      {properties.length > 0 ? (
        <Descriptions title={t("stories.meta.properties")} column={1} size="small" bordered>
          {properties.map(([key, value]) => {
            const definition = definitions.data?.find((property) => property.name === key);
            return (
              <Descriptions.Item key={key} label={definition ? seededPropertyLabel(definition, t) : key}>
                <Copyable value={propertyText(value, definition)} />
              </Descriptions.Item>
            );
          })}
        </Descriptions>
      ) : null}
    </div>
  );
}

function Copyable({ value }: { value: string }): ReactNode {
  const { t } = useTranslation();
  return (
    <Typography.Text
      copyable={{ text: value, tooltips: [t("stories.copy"), t("stories.copied")] }}
      style={{ wordBreak: "break-all" }}
    >
      {value}
    </Typography.Text>
  );
}
