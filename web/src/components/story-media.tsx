import { FileImageOutlined, FileOutlined, SoundOutlined, VideoCameraOutlined } from "@ant-design/icons";
import { type CSSProperties, useEffect, useState } from "react";
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

export function StoryTypeIcon({ type, style }: { type: StoryType; style?: CSSProperties }) {
  switch (type) {
    case "photo":
      return <FileImageOutlined style={style} />;
    case "video":
      return <VideoCameraOutlined style={style} />;
    case "audio":
      return <SoundOutlined style={style} />;
    case "composite":
      return <FileOutlined style={style} />;
  }
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
