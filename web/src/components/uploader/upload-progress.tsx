import { Progress, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { StoryRef } from "../../api/stories";
import { useTranscodeTask } from "../../api/story-detail";
import type { UploadType } from "./upload-logic";

/** While a video or audio story's processing job runs, the task is asked for this often. */
const TRANSCODE_POLL_MS = 1500;

/** The transcode percent of a video or audio story while its processing job runs (the job's progress). */
export function TranscodeProgress({ story, type }: { story: StoryRef; type: UploadType }) {
  const { t } = useTranslation();
  const task = useTranscodeTask({ ...story, type }, TRANSCODE_POLL_MS);
  const percent = task.data?.state === "running" ? task.data.progress : 0;
  return (
    <div data-testid="upload-transcode" data-percent={percent} style={{ maxWidth: 320 }}>
      <Typography.Text type="secondary">{t("upload.transcode", { percent })}</Typography.Text>
      <Progress percent={percent} size="small" status="active" />
    </div>
  );
}
