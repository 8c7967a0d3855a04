import { Button, Space, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { DiskNode } from "../../../api/disk";
import { type Embed, EmbedFrame } from "../../../components/embed/embed-frame";
import { EMBED_MESSAGES } from "../../../components/embed/protocol";
import { useFeedback } from "../../../components/feedback";
import { NetDisk } from "./components/net-disk";

/**
 * 'my network disk' (spec section 2, /source/ismpnetdisk): without the front
 * area's chrome. Opened with `?origin=` by an allowed system it is embedded
 * like /source/ismpsource (docs/embedding.md) and sends the chosen files.
 */
export default function SourceIsmpnetdiskPage() {
  const params = useMemo(() => new URLSearchParams(window.location.search), []);
  const initialFolder = params.get("folderId");
  if (!params.has("origin")) return <NetDisk initialFolder={initialFolder} />;
  return (
    <EmbedFrame page="ismpnetdisk">
      {(embed) => <EmbeddedDisk embed={embed} initialFolder={initialFolder} />}
    </EmbedFrame>
  );
}

function EmbeddedDisk({ embed, initialFolder }: { embed: Embed; initialFolder: string | null }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [chosen, setChosen] = useState<DiskNode[]>([]);
  const files = chosen.filter((item) => item.kind === "file");
  const confirm = () => {
    const sentFiles = files.map((file) => ({
      id: file.id,
      name: file.name,
      size: file.size,
      mime: file.mime,
      contentUrl: `${window.location.origin}/dams/api/v1/disk/nodes/${file.id}/content`,
    }));
    if (embed.post({ type: EMBED_MESSAGES.diskSelection, files: sentFiles }))
      message.success(t("disk.embed.sent", { count: sentFiles.length }));
    else message.error(t("embed.noOpener"));
  };
  const footer = (
    <Space style={{ width: "100%", justifyContent: "space-between", padding: "12px 0" }}>
      <Typography.Text>{t("disk.selected", { count: files.length })}</Typography.Text>
      <Space>
        <Button onClick={() => embed.post({ type: EMBED_MESSAGES.cancel })}>{t("crud.cancel")}</Button>
        <Button type="primary" disabled={files.length === 0} onClick={confirm} data-testid="embed-confirm">
          {t("embed.confirm")}
        </Button>
      </Space>
    </Space>
  );
  return <NetDisk initialFolder={initialFolder} footer={footer} onSelection={setChosen} />;
}
