import { DownloadOutlined, PlayCircleOutlined, SoundOutlined } from "@ant-design/icons";
import { Alert, Button, Empty, Modal, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { VisitorShare, VisitorStory } from "../../../../api/shares";
import { ManuscriptView } from "../../../../components/manuscript";
import { VisitorStoryView } from "./visitor-story";

/** A composite as a manuscript: its title, caption, its text with its members placed, the rest after. */
function Manuscript({ story }: { story: VisitorStory }) {
  const { t } = useTranslation();
  return (
    <article data-testid="visitor-manuscript">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {story.title}
      </Typography.Title>
      {story.caption ? (
        <Typography.Paragraph style={{ whiteSpace: "pre-wrap", fontSize: 16 }}>{story.caption}</Typography.Paragraph>
      ) : null}
      {story.credit ? <Typography.Paragraph type="secondary">{story.credit}</Typography.Paragraph> : null}
      <ManuscriptView
        parts={story.textParts}
        members={story.members}
        unplacedTitle={t("composite.unplaced")}
        renderMember={(member) => <VisitorStoryView story={member} />}
      />
    </article>
  );
}

function Tile({ story, onOpen }: { story: VisitorStory; onOpen: () => void }) {
  const still = story.thumbnail ?? story.poster;
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid="visitor-tile"
      style={{ border: 0, padding: 0, background: "none", cursor: "pointer", textAlign: "start", minWidth: 0 }}
    >
      <div
        style={{
          aspectRatio: "1 / 1",
          borderRadius: 6,
          background: "#f0f0f0",
          overflow: "hidden",
          display: "grid",
          placeItems: "center",
        }}
      >
        {still ? (
          <img src={still} alt={story.title} style={{ width: "100%", height: "100%", objectFit: "cover" }} />
        ) : story.type === "audio" ? (
          <SoundOutlined style={{ fontSize: 32, color: "#999" }} />
        ) : (
          <PlayCircleOutlined style={{ fontSize: 32, color: "#999" }} />
        )}
      </div>
      <Typography.Text ellipsis style={{ display: "block", marginTop: 4, fontSize: 13 }}>
        {story.title || story.caption || "—"}
      </Typography.Text>
    </button>
  );
}

function OneStory({ story, heading = true }: { story: VisitorStory; heading?: boolean }) {
  return story.type === "composite" ? (
    <Manuscript story={story} />
  ) : (
    <VisitorStoryView story={story} heading={heading} />
  );
}

/** What the share holds: one story large, a manuscript, or a grid with a viewer on click. */
export function ShareContent({ share }: { share: VisitorShare }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<VisitorStory | null>(null);
  const single = share.stories.length === 1 ? share.stories[0] : undefined;
  return (
    <div data-testid="visitor-share">
      <header style={{ marginBottom: 16 }}>
        {single?.type !== "composite" ? (
          <Typography.Title level={3} style={{ marginBottom: 4 }}>
            {share.title}
          </Typography.Title>
        ) : null}
        <Typography.Text type="secondary" style={{ fontSize: 13 }}>
          {[
            t("share.visitor.sharedBy", { name: share.owner }),
            share.expiresAt
              ? t("share.visitor.expires", { date: dayjs(share.expiresAt).format("YYYY-MM-DD HH:mm") })
              : null,
          ]
            .filter(Boolean)
            .join(" · ")}
        </Typography.Text>
        {share.message ? (
          <Alert type="info" message={share.message} style={{ marginTop: 12, whiteSpace: "pre-wrap" }} />
        ) : null}
        <div style={{ marginTop: 12 }}>
          {share.zipUrl && share.stories.length > 1 ? (
            <Button type="primary" icon={<DownloadOutlined />} href={share.zipUrl} download data-testid="visitor-zip">
              {t("share.visitor.downloadAll")}
            </Button>
          ) : share.downloadPolicy === "none" ? (
            <Typography.Text type="secondary" data-testid="visitor-no-download">
              {t("share.visitor.noDownload")}
            </Typography.Text>
          ) : null}
        </div>
      </header>
      {share.stories.length === 0 ? <Empty description={t("share.visitor.empty")} /> : null}
      {single ? <OneStory story={single} heading={single.title !== share.title} /> : null}
      {share.stories.length > 1 ? (
        <div
          data-testid="visitor-grid"
          style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(140px, 1fr))", gap: 12 }}
        >
          {share.stories.map((story) => (
            <Tile key={story.storyId} story={story} onOpen={() => setOpen(story)} />
          ))}
        </div>
      ) : null}
      {share.truncated ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
          {t("share.visitor.truncated", { count: share.stories.length })}
        </Typography.Paragraph>
      ) : null}
      <Modal
        open={open !== null}
        onCancel={() => setOpen(null)}
        footer={null}
        width="min(960px, 96vw)"
        destroyOnHidden
        title={open?.title}
      >
        {open ? <OneStory story={open} heading={false} /> : null}
      </Modal>
    </div>
  );
}
