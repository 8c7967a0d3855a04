import { FileImageOutlined, FileOutlined, SoundOutlined, VideoCameraOutlined } from "@ant-design/icons";
import { Skeleton } from "antd";
import { type CSSProperties, useEffect, useState } from "react";
import { fetchBlob, type Story, type StoryType } from "../api/stories";

/**
 * Files of the API need the bearer token, which an <img> or <video> cannot
 * send (and a token in the URL is refused by the server), so each file is
 * fetched and shown through an object URL, revoked when no longer shown.
 */
export function useAuthorizedUrl(url: string | null | undefined): { src: string | null; failed: boolean } {
  const [state, setState] = useState<{ src: string | null; failed: boolean }>({ src: null, failed: false });
  useEffect(() => {
    setState({ src: null, failed: false });
    if (!url) return;
    let objectUrl: string | null = null;
    let cancelled = false;
    fetchBlob(url, { silent: true }).then(
      (blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setState({ src: objectUrl, failed: false });
      },
      () => !cancelled && setState({ src: null, failed: true }),
    );
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return state;
}

/** Fetches a JSON file of the API (the strip index, the waveform peaks). */
export function useAuthorizedJson<T>(url: string | null | undefined): T | null {
  const [value, setValue] = useState<T | null>(null);
  useEffect(() => {
    setValue(null);
    if (!url) return;
    let cancelled = false;
    fetchBlob(url, { silent: true })
      .then((blob) => blob.text())
      .then((text) => !cancelled && setValue(JSON.parse(text) as T))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
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
 * cropper), so a new cover shows in the lists.
 */
export function cardImageUrl(story: Pick<Story, "type" | "thumbnailUrl" | "coverUrl">): string | null {
  return story.type === "photo" ? (story.thumbnailUrl ?? story.coverUrl) : (story.coverUrl ?? story.thumbnailUrl);
}

/** A thumbnail (or the type's icon when the story has none), filling its box. */
export function StoryThumbnail({ url, type, alt }: { url: string | null; type: StoryType; alt: string }) {
  const { src, failed } = useAuthorizedUrl(url);
  const box: CSSProperties = {
    width: "100%",
    height: "100%",
    display: "flex",
    alignItems: "center",
    justifyContent: "center",
    background: "#f5f5f5",
    overflow: "hidden",
  };
  if (url && !src && !failed) {
    return (
      <div style={box}>
        <Skeleton.Image active />
      </div>
    );
  }
  return (
    <div style={box}>
      {src ? (
        <img src={src} alt={alt} style={{ maxWidth: "100%", maxHeight: "100%", objectFit: "contain" }} />
      ) : (
        <StoryTypeIcon type={type} style={{ fontSize: 40, color: "#bfbfbf" }} />
      )}
    </div>
  );
}
