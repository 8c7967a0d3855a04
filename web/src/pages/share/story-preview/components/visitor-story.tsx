import { DownloadOutlined } from "@ant-design/icons";
import { Button, Descriptions, Typography } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import type { VisitorStory } from "../../../../api/shares";

type StoryFields = Omit<VisitorStory, "members" | "textParts">;

/** The photo large, or the video/audio player on the proxy; a still when nothing plays. */
export function VisitorMedia({ story }: { story: StoryFields }) {
  const preview = story.preview;
  const frame = { width: "100%", maxHeight: "70vh", borderRadius: 8, background: "#000", display: "block" } as const;
  if (story.type === "video" && preview) {
    return (
      // biome-ignore lint/a11y/useMediaCaption: shared newsroom footage carries no caption track
      <video
        controls
        playsInline
        preload="metadata"
        poster={story.poster ?? undefined}
        src={preview.url}
        style={frame}
        data-testid="visitor-video"
      />
    );
  }
  if (story.type === "audio" && preview) {
    return (
      // biome-ignore lint/a11y/useMediaCaption: shared newsroom audio carries no caption track
      <audio controls preload="metadata" src={preview.url} style={{ width: "100%" }} data-testid="visitor-audio" />
    );
  }
  const still = preview?.url ?? story.poster ?? story.thumbnail;
  if (!still) return null;
  return (
    <img
      src={still}
      alt={story.title || story.caption}
      style={{ ...frame, objectFit: "contain", background: "#f5f5f5", height: "auto" }}
      data-testid="visitor-photo"
    />
  );
}

function MetadataList({ metadata }: { metadata: Record<string, unknown> }) {
  const { t } = useTranslation();
  const text = (value: unknown) =>
    Array.isArray(value)
      ? value.join(", ")
      : typeof value === "object" && value
        ? JSON.stringify(value)
        : String(value);
  const items = (["keywords", "tags", "capturedAt", "originalName", "gps"] as const)
    .filter((key) => metadata[key] !== undefined && metadata[key] !== null && text(metadata[key]) !== "")
    .map((key) => ({
      key,
      label: t(`share.meta.${key}`),
      children: key === "capturedAt" ? dayjs(String(metadata[key])).format("YYYY-MM-DD HH:mm") : text(metadata[key]),
    }));
  const properties = Object.entries((metadata.properties ?? {}) as Record<string, unknown>).map(([key, value]) => ({
    key: `p-${key}`,
    label: key,
    children: text(value),
  }));
  if (items.length + properties.length === 0) return null;
  return (
    <Descriptions
      size="small"
      column={1}
      title={t("share.visitor.details")}
      items={[...items, ...properties]}
      style={{ marginTop: 12 }}
    />
  );
}

/** One shared story: media, caption and credit, download as the share allows, metadata when shared. */
export function VisitorStoryView({ story, heading = true }: { story: StoryFields; heading?: boolean }) {
  const { t } = useTranslation();
  return (
    <article data-testid="visitor-story">
      {heading && story.title ? (
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {story.title}
        </Typography.Title>
      ) : null}
      <VisitorMedia story={story} />
      {story.caption ? (
        <Typography.Paragraph style={{ marginTop: 12, marginBottom: 4 }}>{story.caption}</Typography.Paragraph>
      ) : null}
      {story.credit ? <Typography.Text type="secondary">{story.credit}</Typography.Text> : null}
      {story.downloadUrl ? (
        <div style={{ marginTop: 12 }}>
          <Button icon={<DownloadOutlined />} href={story.downloadUrl} download data-testid="visitor-download">
            {t("share.visitor.download")}
          </Button>
        </div>
      ) : null}
      {story.metadata ? <MetadataList metadata={story.metadata} /> : null}
    </article>
  );
}
