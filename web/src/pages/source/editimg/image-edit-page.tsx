import { useQueryClient } from "@tanstack/react-query";
import { Result, Typography } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { useFeedback } from "../../../components/feedback";
import { ImageEditor } from "../../../components/image-editor";
import { extensionOf } from "../../../components/image-editor/rules";
import { saveAsNewVersion, storyOriginalUrl } from "../../../components/image-editor/save-version";

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

function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
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
  const target = useMemo(() => editTarget(location.state, search), [location.state, search]);

  if (!target) return <Result status="info" title={t("imageEditor.noImage")} />;

  const source = target.kind === "file" ? target.file : target.kind === "story" ? storyOriginalUrl(target) : target.url;
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
      await queryClient.invalidateQueries({ queryKey: ["stories"] });
      return;
    }
    download(image, editedName(name, image.type));
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
