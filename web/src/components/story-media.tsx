import FileImageOutlined from "@ant-design/icons-svg/es/asn/FileImageOutlined";
import FileOutlined from "@ant-design/icons-svg/es/asn/FileOutlined";
import SoundOutlined from "@ant-design/icons-svg/es/asn/SoundOutlined";
import VideoCameraOutlined from "@ant-design/icons-svg/es/asn/VideoCameraOutlined";
import type { AbstractNode, IconDefinition } from "@ant-design/icons-svg/es/types";
import { type CSSProperties, createElement, type ReactNode, useEffect, useState } from "react";
import type { Story, StoryType } from "../api/stories";

/**
 * Fetches a JSON file (the strip index, the waveform peaks) by its signed
 * media URL: no bearer token needed.
 */
export function useMediaJson<T>(url: string | null | undefined): T | null {
  const [value, setValue] = useState<T | null>(null);
  useEffect(() => {
    setValue(null);
    if (!url) return;
    const controller = new AbortController();
    fetch(url, { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<T>) : null))
      .then((json) => !controller.signal.aborted && setValue(json))
      .catch(() => undefined);
    return () => controller.abort();
  }, [url]);
  return value;
}

const TYPE_ICONS: Record<StoryType, IconDefinition> = {
  photo: FileImageOutlined,
  video: VideoCameraOutlined,
  audio: SoundOutlined,
  composite: FileOutlined,
};

function svgChildren(nodes: AbstractNode[] | undefined): ReactNode[] | undefined {
  return nodes?.map((node, index) =>
    createElement(node.tag, { key: index, ...node.attrs }, svgChildren(node.children)),
  );
}

/** Each type's outline as plain SVG elements, built once. */
const TYPE_SVGS = Object.fromEntries(
  Object.entries(TYPE_ICONS).map(([type, definition]) => {
    const root =
      typeof definition.icon === "function" ? definition.icon("currentColor", "currentColor") : definition.icon;
    return [type, svgChildren(root.children)];
  }),
) as Record<StoryType, ReactNode[]>;
const TYPE_VIEWBOXES = Object.fromEntries(
  Object.entries(TYPE_ICONS).map(([type, definition]) => [
    type,
    typeof definition.icon === "function" ? "64 64 896 896" : definition.icon.attrs.viewBox,
  ]),
) as Record<StoryType, string>;

/**
 * A story type's icon: antd's outline drawn as a plain inline SVG. Not the
 * `@ant-design/icons` component, which checks the page's style elements on
 * every mount (a grid mounts dozens per scroll step).
 */
export function StoryTypeIcon({ type, style }: { type: StoryType; style?: CSSProperties }) {
  return (
    <span style={{ display: "inline-flex", alignItems: "center", lineHeight: 0, ...style }}>
      <svg
        viewBox={TYPE_VIEWBOXES[type]}
        width="1em"
        height="1em"
        fill="currentColor"
        focusable="false"
        aria-hidden="true"
      >
        {TYPE_SVGS[type]}
      </svg>
    </span>
  );
}

/**
 * The image a card shows: a photo's own thumbnail; for a video, audio or
 * composite its cover (the first frame until someone sets one in the cover
 * cropper), so a new cover shows in the lists. Signed media URLs.
 */
export function cardImageUrl(story: Pick<Story, "type" | "thumbnailMediaUrl" | "coverMediaUrl">): string | null {
  return story.type === "photo"
    ? (story.thumbnailMediaUrl ?? story.coverMediaUrl)
    : (story.coverMediaUrl ?? story.thumbnailMediaUrl);
}

/**
 * A thumbnail (or the type's icon when the story has none, or it fails),
 * filling its box. `src` is a signed media URL, so the browser loads it
 * itself: lazily, from its cache, without a blob copy in memory.
 */
export function StoryThumbnail({ src, type, alt }: { src: string | null; type: StoryType; alt: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const box: CSSProperties = {
    width: "100%",
    height: "100%",
    display: "flex",
    alignItems: "center",
    justifyContent: "center",
    background: "#f5f5f5",
    overflow: "hidden",
  };
  return (
    <div style={box}>
      {src && failed !== src ? (
        <img
          src={src}
          alt={alt}
          loading="lazy"
          decoding="async"
          onError={() => setFailed(src)}
          style={{ maxWidth: "100%", maxHeight: "100%", objectFit: "contain" }}
        />
      ) : (
        <StoryTypeIcon type={type} style={{ fontSize: 40, color: "#bfbfbf" }} />
      )}
    </div>
  );
}
