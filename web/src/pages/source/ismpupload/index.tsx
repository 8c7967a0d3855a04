import { useTranslation } from "react-i18next";
import { fetchStory } from "../../../api/story-detail";
import { type Embed, EmbedFrame } from "../../../components/embed/embed-frame";
import { EMBED_MESSAGES, toEmbeddedStory } from "../../../components/embed/protocol";
import { useFeedback } from "../../../components/feedback";
import { type UploadedRow, Uploader } from "../../../components/uploader/uploader";

/**
 * Image upload (spec section 2, /source/ismpupload), for other newsroom
 * systems to frame: the photo uploader; each commit is sent to the opener
 * as `dams:uploaded` with the committed stories (docs/embedding.md).
 */
export default function SourceIsmpuploadPage() {
  return <EmbedFrame page="ismpupload">{(embed) => <ImageUpload embed={embed} />}</EmbedFrame>;
}

function ImageUpload({ embed }: { embed: Embed }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const sendCommitted = async (rows: UploadedRow[]) => {
    const stories = await Promise.all(rows.map((row) => fetchStory(row)));
    const sent = embed.post({
      type: EMBED_MESSAGES.uploaded,
      stories: stories.map((story) => toEmbeddedStory(story, window.location.origin)),
    });
    if (!sent) message.error(t("embed.noOpener"));
  };
  return <Uploader type="photo" onCommitted={(rows) => void sendCommitted(rows).catch(() => undefined)} />;
}
