import { useQueryClient } from "@tanstack/react-query";
import { Alert, Progress, Space, Typography } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { type Story, storyKeys } from "../../api/stories";
import type { StoryJob } from "../../api/story-detail";
import { useStoryProcessing } from "../../api/story-detail";

/** While the story is processed its jobs are asked for this often (job progress is written at most once a second). */
const PROGRESS_POLL_MS = 1000;

const active = (state: Story["processingState"] | undefined) => state === "queued" || state === "running";

/**
 * The story's media processing for anyone who reads it: a progress bar with
 * the job's percent while thumbnails, previews and the proxy are rendered,
 * the reason of a failed attempt, and the story (with its new renditions)
 * reloaded when the job ends.
 */
export function StoryProcessingProgress({ story }: { story: Story }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const processing = useStoryProcessing(
    story,
    active(story.processingState) || story.processingState === "failed",
    (data) => (active(data?.processingState) ? PROGRESS_POLL_MS : false),
  );
  const latest = processing.data;
  // The job ended before the story's own poll noticed: reload the story, and with it its media.
  useEffect(() => {
    if (latest && active(story.processingState) && !active(latest.processingState)) {
      const ref = { libraryId: story.libraryId, storyId: story.storyId };
      void queryClient.invalidateQueries({ queryKey: storyKeys.detail(ref), exact: true });
    }
  }, [latest, story.processingState, story.libraryId, story.storyId, queryClient]);

  if (!active(story.processingState) && story.processingState !== "failed") return null;
  const job: StoryJob | undefined = latest?.jobs[0];
  if (story.processingState === "failed" && !active(latest?.processingState)) {
    return (
      <Alert
        data-testid="processing-state"
        type="error"
        showIcon
        style={{ marginBottom: 8 }}
        message={t("stories.processing.failed")}
        description={latest?.processingError ?? story.processingError ?? job?.error ?? undefined}
      />
    );
  }
  const running = job?.state === "running" || latest?.processingState === "running";
  const percent = job?.progress ?? 0;
  return (
    <Alert
      data-testid="processing-state"
      type="info"
      showIcon
      style={{ marginBottom: 8 }}
      message={running ? t("stories.processing.running") : t("stories.processing.queued")}
      description={
        <Space direction="vertical" style={{ width: "100%" }}>
          <Progress
            data-testid="processing-progress"
            percent={percent}
            status={running ? "active" : "normal"}
            aria-label={t("viewerMedia.processing.progress")}
          />
          {job && job.attempts > 1 ? (
            <Typography.Text type="secondary">
              {t("viewerMedia.processing.attempt", { attempt: job.attempts, max: job.maxAttempts })}
            </Typography.Text>
          ) : null}
          {job?.error ? (
            <Typography.Text type="warning">
              {t("viewerMedia.processing.retrying", { error: job.error })}
            </Typography.Text>
          ) : null}
        </Space>
      }
    />
  );
}
