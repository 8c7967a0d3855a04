import { UploadOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Result, Typography } from "antd";
import { useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { saveBlob } from "../../../api/files";
import { storyKeys } from "../../../api/stories";
import { fetchStoryOriginal } from "../../../api/story-detail";
import { useFeedback } from "../../../components/feedback";
import { ImageEditor } from "../../../components/image-editor";
import { OpenImageInput } from "../../../components/image-editor/open-image-input";
import { extensionOf } from "../../../components/image-editor/rules";
import { saveAsNewVersion } from "../../../components/image-editor/save-version";

/** What the route edits: a file handed over by the header's image-edit upload, a story, or a URL. */
export type EditTarget =
  | { kind: "file"; file: Blob; name: string }
  | { kind: "story"; libraryId: string; storyId: string }
  | { kind: "url"; url: string };

export function editTarget(state: unknown, search: URLSearchParams): EditTarget | null {
  const handed = state as { file?: unknown; fileName?: unknown } | null;
  if (handed?.file instanceof Blob)
    return { kind: "file", file: handed.file, name: typeof handed.fileName === "string" ? handed.fileName : "" };
  const libraryId = search.get("library");
  const storyId = search.get("story");
  if (libraryId && storyId) return { kind: "story", libraryId, storyId };
  const url = search.get("url");
  // Only our own origin or data/blob URLs: the editor must not be a way to fetch arbitrary addresses with the token.
  if (url && (/^\/(?![/\\])/.test(url) || url.startsWith("data:image/") || url.startsWith("blob:")))
    return { kind: "url", url };
  return null;
}

/** The name an edited file is downloaded under: the original's name with the type's extension. */
export function editedName(name: string, type: string): string {
  const ext = type === "image/png" ? "png" : type === "image/webp" ? "webp" : "jpg";
  const base = name && extensionOf(name) ? name.slice(0, name.lastIndexOf(".")) : name || "image";
  return `${base}-edited.${ext}`;
}

/**
 * `/source/editimg` and `/source/editphoto`: the image editor on a whole page.
 * A story's edit is saved as its new version; a file or URL is downloaded.
 */
export function ImageEditPage() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const queryClient = useQueryClient();
  const picker = useRef<HTMLInputElement>(null);
  const target = useMemo(() => editTarget(location.state, search), [location.state, search]);
  // A story's original comes through the typed client; one loader per target, so the editor loads it once.
  const source = useMemo(() => {
    if (!target) return null;
    if (target.kind === "file") return target.file;
    if (target.kind === "url") return target.url;
    const ref = { libraryId: target.libraryId, storyId: target.storyId };
    return () => fetchStoryOriginal(ref);
  }, [target]);

  // Opened bare (no file, story or URL): offer a file picker, as the header's image-edit action does.
  if (!target || !source)
    return (
      <Result
        status="info"
        title={t("imageEditor.noImage")}
        extra={
          <>
            <OpenImageInput inputRef={picker} path={location.pathname + location.search} testId="editimg-file-input" />
            <Button type="primary" icon={<UploadOutlined />} onClick={() => picker.current?.click()}>
              {t("imageEditor.pickFile")}
            </Button>
          </>
        }
      />
    );

  const name = target.kind === "file" ? target.name : "";
  const close = () => (window.history.length > 1 ? navigate(-1) : navigate("/frontend"));

  const save = async (image: Blob | null) => {
    if (!image) {
      message.info(t("imageEditor.unchanged"));
      return;
    }
    if (target.kind === "story") {
      const story = await saveAsNewVersion(target, image);
      message.success(t("imageEditor.saved", { no: story.versionNo }));
      await queryClient.invalidateQueries({ queryKey: storyKeys.all });
      return;
    }
    saveBlob(image, editedName(name, image.type));
    message.success(t("imageEditor.downloaded"));
  };

  return (
    <div style={{ height: "calc(100vh - 48px)", display: "flex", flexDirection: "column" }}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t("imageEditor.title")}
      </Typography.Title>
      <div style={{ flex: 1, minHeight: 0 }}>
        <ImageEditor
          key={target.kind === "story" ? `${target.libraryId}/${target.storyId}` : location.key}
          source={source}
          fileName={name}
          onSave={(image) => void save(image).catch(() => undefined)}
          onClose={close}
        />
      </div>
    </div>
  );
}
