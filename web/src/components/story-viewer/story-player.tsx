import { Alert, Image } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import WaveSurfer from "wavesurfer.js";
import type { Story, StoryFile } from "../../api/stories";
import { fileOf } from "../../api/story-detail";
import { StoryTypeIcon, useMediaJson } from "../story-media";
import { useRenewableSource } from "./renewable-source";
import { frameAt, parsePeaks, parseStripIndex, timeAtPosition } from "./strip";

/**
 * The large view of a story's version: preview image, video on its proxy, or
 * audio with its waveform. Every file is loaded by its signed media URL, so
 * the browser streams and seeks with Range requests instead of downloading
 * the whole file first.
 */
export function StoryPlayer({ story, files }: { story: Story; files: StoryFile[] }) {
  const of = (role: string) => fileOf({ files }, role);
  const still = of("preview") ?? of("poster") ?? of("thumbnail");
  // A video or composite shows its cover (chosen in the cover cropper) while the current version is shown.
  const cover = story.type !== "photo" && files === story.files ? story.coverMediaUrl : null;
  const poster = cover ?? still?.mediaUrl ?? null;
  if (story.type === "video" && of("proxy")) return <VideoPlayer story={story} files={files} poster={poster} />;
  if (story.type === "audio" && (of("proxy") || of("original"))) return <AudioPlayer story={story} files={files} />;
  if (poster) return <PreviewImage url={poster} alt={story.title} />;
  return (
    <div
      style={{ height: 240, display: "flex", alignItems: "center", justifyContent: "center", background: "#fafafa" }}
    >
      <StoryTypeIcon type={story.type} style={{ fontSize: 64, color: "#bfbfbf" }} />
    </div>
  );
}

function PreviewImage({ url, alt }: { url: string; alt: string }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === url) return <Alert type="warning" message={t("stories.viewer.previewFailed")} />;
  return (
    <div style={{ textAlign: "center", background: "#000" }} data-testid="story-preview">
      <Image
        src={url}
        alt={alt}
        width="100%"
        style={{ height: "min(60vh, 540px)", objectFit: "contain" }}
        onError={() => setFailed(url)}
      />
    </div>
  );
}

function VideoPlayer({ story, files, poster }: { story: Story; files: StoryFile[]; poster: string | null }) {
  const { t } = useTranslation();
  const element = useRef<HTMLVideoElement>(null);
  const video = useRenewableSource(story, fileOf({ files }, "proxy")!, element);
  const sprite = fileOf({ files }, "strip")?.mediaUrl;
  const strip = parseStripIndex(useMediaJson<unknown>(fileOf({ files }, "strip-index")?.mediaUrl));
  const [hover, setHover] = useState<{ x: number; time: number } | null>(null);
  const [duration, setDuration] = useState(0);
  if (video.failed) return <Alert type="warning" message={t("stories.viewer.previewFailed")} />;
  const total = duration || strip?.durationSeconds || 0;
  const hovered = strip && hover ? frameAt(strip, hover.time) : undefined;
  return (
    <div>
      {/* biome-ignore lint/a11y/useMediaCaption: newsroom footage has no caption track */}
      <video
        ref={element}
        src={video.src}
        poster={poster ?? undefined}
        controls
        preload="metadata"
        data-testid="story-video"
        style={{ width: "100%", maxHeight: "60vh", background: "#000" }}
        onLoadedMetadata={(event) => {
          setDuration(event.currentTarget.duration);
          video.onLoadedMetadata();
        }}
        onError={video.onError}
      />
      {strip && sprite && total > 0 ? (
        <div
          role="slider"
          tabIndex={0}
          aria-label={t("stories.viewer.scrub")}
          aria-valuemin={0}
          aria-valuemax={Math.round(total)}
          aria-valuenow={Math.round(element.current?.currentTime ?? 0)}
          onKeyDown={(event) => {
            const step = event.key === "ArrowRight" ? 5 : event.key === "ArrowLeft" ? -5 : 0;
            if (step && element.current)
              element.current.currentTime = Math.min(total, Math.max(0, element.current.currentTime + step));
          }}
          data-testid="story-strip"
          title={t("stories.viewer.scrub")}
          style={{
            position: "relative",
            height: 48,
            marginTop: 8,
            display: "flex",
            overflow: "visible",
            cursor: "pointer",
          }}
          onMouseMove={(event) => {
            const box = event.currentTarget.getBoundingClientRect();
            setHover({ x: event.clientX - box.left, time: timeAtPosition(event.clientX - box.left, box.width, total) });
          }}
          onMouseLeave={() => setHover(null)}
          onClick={(event) => {
            const box = event.currentTarget.getBoundingClientRect();
            if (element.current)
              element.current.currentTime = timeAtPosition(event.clientX - box.left, box.width, total);
          }}
        >
          {strip.frames.map((frame) => (
            <div
              key={frame.index}
              style={{
                flex: 1,
                backgroundImage: `url(${sprite})`,
                backgroundPosition: `-${frame.x}px -${frame.y}px`,
                backgroundSize: "auto",
                height: 48,
                overflow: "hidden",
              }}
            />
          ))}
          {hovered ? (
            <div
              style={{
                position: "absolute",
                bottom: 52,
                left: Math.max(0, hover!.x - strip.frameWidth / 2),
                width: strip.frameWidth,
                height: strip.frameHeight,
                backgroundImage: `url(${sprite})`,
                backgroundPosition: `-${hovered.x}px -${hovered.y}px`,
                border: "2px solid #fff",
                boxShadow: "0 2px 8px rgba(0,0,0,.3)",
              }}
            />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function AudioPlayer({ story, files }: { story: Story; files: StoryFile[] }) {
  const { t } = useTranslation();
  const element = useRef<HTMLAudioElement>(null);
  const audio = useRenewableSource(story, (fileOf({ files }, "proxy") ?? fileOf({ files }, "original"))!, element);
  const waveform = useMediaJson<unknown>(fileOf({ files }, "waveform")?.mediaUrl);
  const peaks = useMemo(() => parsePeaks(waveform), [waveform]);
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!container.current || !element.current || !audio.src || !peaks) return;
    const surfer = WaveSurfer.create({
      container: container.current,
      media: element.current,
      peaks: [peaks],
      // With the duration known the waveform is drawn at once, not after the streamed audio's metadata arrives.
      duration: story.duration ?? undefined,
      height: 96,
      waveColor: "#91caff",
      progressColor: "#1677ff",
    });
    return () => surfer.destroy();
  }, [audio.src, peaks, story.duration]);
  if (audio.failed) return <Alert type="warning" message={t("stories.viewer.previewFailed")} />;
  return (
    <div data-testid="story-audio">
      <div ref={container} data-testid="story-waveform" />
      {/* biome-ignore lint/a11y/useMediaCaption: audio recordings have no caption track */}
      <audio
        ref={element}
        src={audio.src}
        controls
        preload="metadata"
        style={{ width: "100%", marginTop: 8 }}
        onLoadedMetadata={audio.onLoadedMetadata}
        onError={audio.onError}
      />
    </div>
  );
}
