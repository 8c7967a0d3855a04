import { EditOutlined, KeyOutlined, PictureOutlined, VideoCameraOutlined } from "@ant-design/icons";
import { App, Button, Input, Space, Upload } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { HEADER_UPLOAD_EXTENSIONS, isAcceptedImage } from "../../components/image-editor/rules";
import { IMAGE_EDIT_ACCEPT } from "../../config";
import type { Area } from "../settings";
import { ApiTokensModal } from "./api-tokens-modal";
import { EditorModal } from "./editor-modal";
import { LanguageSwitch } from "./language-switch";
import { UserMenu } from "./user-menu";

type Editor = "videoProduction" | "imageToVideo";

/** Front area: search, image-edit upload and the two video editors. */
function FrontActions({ compact, color }: { compact: boolean; color: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [editor, setEditor] = useState<Editor | null>(null);
  return (
    <Space size={4}>
      {compact ? null : (
        <Input.Search
          placeholder={t("layout.search.placeholder")}
          aria-label={t("layout.search.placeholder")}
          allowClear
          style={{ width: 200, verticalAlign: "middle" }}
          onSearch={(text) => navigate(`/frontend/search?fulltext=${encodeURIComponent(text.trim())}`)}
        />
      )}
      <Upload
        accept={IMAGE_EDIT_ACCEPT}
        showUploadList={false}
        beforeUpload={(file) => {
          // Spec section 5: .jpg .jpeg .png .bmp only; the file itself rides in the history state (structured clone).
          if (isAcceptedImage(file, HEADER_UPLOAD_EXTENSIONS))
            navigate("/source/editimg", { state: { file, fileName: file.name } });
          else message.warning(t("imageEditor.notImage"));
          return false;
        }}
      >
        <Button
          type="text"
          style={{ color }}
          icon={<EditOutlined />}
          title={t("layout.imageEdit")}
          aria-label={t("layout.imageEdit")}
        />
      </Upload>
      <Button
        type="text"
        style={{ color }}
        icon={<VideoCameraOutlined />}
        title={t("layout.videoProduction")}
        aria-label={t("layout.videoProduction")}
        onClick={() => setEditor("videoProduction")}
      />
      <Button
        type="text"
        style={{ color }}
        icon={<PictureOutlined />}
        title={t("layout.imageToVideo")}
        aria-label={t("layout.imageToVideo")}
        onClick={() => setEditor("imageToVideo")}
      />
      <EditorModal title={editor ? t(`layout.${editor}`) : ""} open={editor !== null} onClose={() => setEditor(null)} />
    </Space>
  );
}

/** Back area: the 'get token' action. */
function BackActions() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="text" icon={<KeyOutlined />} onClick={() => setOpen(true)}>
        {t("layout.getToken")}
      </Button>
      <ApiTokensModal open={open} onClose={() => setOpen(false)} />
    </>
  );
}

export function HeaderActions({ area, compact, onDark }: { area: Area; compact: boolean; onDark: boolean }) {
  const color = onDark ? "rgba(255,255,255,0.85)" : "rgba(0,0,0,0.88)";
  return (
    <Space size={4} wrap={false} style={{ color }}>
      {area === "front" ? <FrontActions compact={compact} color={color} /> : <BackActions />}
      <LanguageSwitch />
      <UserMenu />
    </Space>
  );
}
