import { EditOutlined, HomeOutlined, KeyOutlined, PictureOutlined, VideoCameraOutlined } from "@ant-design/icons";
import { Button, Input, Space } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { OpenImageInput } from "../../components/image-editor/open-image-input";
import { LazyPart, lazyChunk, useOpenedOnce } from "../../components/lazy-part";
import type { Area } from "../settings";
import { LanguageSwitch } from "./language-switch";
import { UserMenu } from "./user-menu";

// Dialogs opened from the header load when first opened, not with every page.
const ApiTokensModal = lazyChunk("api-tokens-modal", () => import("./api-tokens-modal").then((m) => m.ApiTokensModal));
const EditorModal = lazyChunk("editor-modal", () => import("./editor-modal").then((m) => m.EditorModal));

/** The image-edit action: pick an image, then the editor opens with it (a plain file input, not antd's Upload). */
function ImageEditPicker({ color }: { color: string }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <OpenImageInput inputRef={input} path="/source/editimg" testId="image-edit-input" />
      <Button
        type="text"
        style={{ color }}
        icon={<EditOutlined />}
        title={t("layout.imageEdit")}
        aria-label={t("layout.imageEdit")}
        onClick={() => input.current?.click()}
      />
    </>
  );
}

type Editor = "videoProduction" | "imageToVideo";

/** Front area: search, image-edit upload and the two video editors. */
function FrontActions({ compact, color }: { compact: boolean; color: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [editor, setEditor] = useState<Editor | null>(null);
  const editorOpened = useOpenedOnce(editor !== null);
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
      <ImageEditPicker color={color} />
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
      {editorOpened ? (
        <LazyPart>
          <EditorModal
            title={editor ? t(`layout.${editor}`) : ""}
            kind={editor === "imageToVideo" ? "slideshow" : "video"}
            open={editor !== null}
            onClose={() => setEditor(null)}
          />
        </LazyPart>
      ) : null}
    </Space>
  );
}

/** Back area: the way back to the front area and the 'get token' action. */
function BackActions({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const opened = useOpenedOnce(open);
  return (
    <>
      <Button
        type="text"
        icon={<HomeOutlined />}
        onClick={() => navigate("/frontend")}
        data-testid="to-front-area"
        title={t("layout.frontArea")}
        aria-label={t("layout.frontArea")}
      >
        {compact ? null : t("layout.frontArea")}
      </Button>
      <Button
        type="text"
        icon={<KeyOutlined />}
        onClick={() => setOpen(true)}
        title={t("layout.getToken")}
        aria-label={t("layout.getToken")}
      >
        {compact ? null : t("layout.getToken")}
      </Button>
      {opened ? (
        <LazyPart>
          <ApiTokensModal open={open} onClose={() => setOpen(false)} />
        </LazyPart>
      ) : null}
    </>
  );
}

export function HeaderActions({ area, compact, onDark }: { area: Area; compact: boolean; onDark: boolean }) {
  const color = onDark ? "rgba(255,255,255,0.85)" : "rgba(0,0,0,0.88)";
  return (
    <Space size={4} wrap={false} style={{ color }}>
      {area === "front" ? <FrontActions compact={compact} color={color} /> : <BackActions compact={compact} />}
      <LanguageSwitch />
      <UserMenu area={area} />
    </Space>
  );
}
