import { Alert, Image, Skeleton } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import WaveSurfer from "wavesurfer.js";
import { fileOf, type Story, type StoryFile } from "../../api/stories";
import { StoryTypeIcon, useAuthorizedJson, useAuthorizedUrl } from "../story-media";
import { frameAt, parsePeaks, parseStripIndex, timeAtPosition } from "./strip";

/** The large view of a story's version: preview image, video on its proxy, or audio with its waveform. */
export function StoryPlayer({ story, files }: { story: Story; files: StoryFile[] }) {
  const of = (role: string) => fileOf({ files }, role);
  const still = of("preview") ?? of("poster") ?? of("thumbnail");
  // A video or composite shows its cover (chosen in the cover cropper) while the current version is shown.
  const cover = story.type !== "photo" && files === story.files ? story.coverUrl : null;
  if (story.type === "video" && of("proxy")) return <VideoPlayer files={files} poster={cover ?? still?.url ?? null} />;
  if (story.type === "audio" && (of("proxy") || of("original"))) return <AudioPlayer files={files} />;
  if (still || cover) return <PreviewImage url={cover ?? still!.url} alt={story.title} />;
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
  const { src, failed } = useAuthorizedUrl(url);
  if (failed) return <Alert type="warning" message={t("stories.viewer.previewFailed")} />;
  if (!src) return <Skeleton.Image active style={{ width: "100%", height: 360 }} />;
  return (
    <div style={{ textAlign: "center", background: "#000" }} data-testid="story-preview">
      <Image src={src} alt={alt} width="100%" style={{ height: "min(60vh, 540px)", objectFit: "contain" }} />
    </div>
  );
}

function VideoPlayer({ files, poster }: { files: StoryFile[]; poster: string | null }) {
  const { t } = useTranslation();
  const proxy = fileOf({ files }, "proxy");
  const video = useAuthorizedUrl(proxy?.url);
  const posterSrc = useAuthorizedUrl(poster);
  const sprite = useAuthorizedUrl(fileOf({ files }, "strip")?.url);
  const strip = parseStripIndex(useAuthorizedJson<unknown>(fileOf({ files }, "strip-index")?.url));
  const element = useRef<HTMLVideoElement>(null);
  const [hover, setHover] = useState<{ x: number; time: number } | null>(null);
  const [duration, setDuration] = useState(0);
  if (video.failed) return <Alert type="warning" message={t("stories.viewer.previewFailed")} />;
  if (!video.src) return <Skeleton.Image active style={{ width: "100%", height: 360 }} />;
  const total = duration || strip?.durationSeconds || 0;
  const hovered = strip && hover ? frameAt(strip, hover.time) : undefined;
  return (
    <div>
      {/* biome-ignore lint/a11y/useMediaCaption: newsroom footage has no caption track */}
      <video
        ref={element}
        src={video.src}
        poster={posterSrc.src ?? undefined}
        controls
        data-testid="story-video"
        style={{ width: "100%", maxHeight: "60vh", background: "#000" }}
        onLoadedMetadata={(event) => setDuration(event.currentTarget.duration)}
      />
      {strip && sprite.src && total > 0 ? (
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
                backgroundImage: `url(${sprite.src})`,
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
                backgroundImage: `url(${sprite.src})`,
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

function AudioPlayer({ files }: { files: StoryFile[] }) {
  const { t } = useTranslation();
  const source = fileOf({ files }, "proxy") ?? fileOf({ files }, "original");
  const audio = useAuthorizedUrl(source?.url);
  const waveform = useAuthorizedJson<unknown>(fileOf({ files }, "waveform")?.url);
  const peaks = useMemo(() => parsePeaks(waveform), [waveform]);
  const container = useRef<HTMLDivElement>(null);
  const element = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    if (!container.current || !element.current || !audio.src || !peaks) return;
    const surfer = WaveSurfer.create({
      container: container.current,
      media: element.current,
      peaks: [peaks],
      height: 96,
      waveColor: "#91caff",
      progressColor: "#1677ff",
    });
    return () => surfer.destroy();
  }, [audio.src, peaks]);
  if (audio.failed) return <Alert type="warning" message={t("stories.viewer.previewFailed")} />;
  if (!audio.src) return <Skeleton active />;
  return (
    <div data-testid="story-audio">
      <div ref={container} data-testid="story-waveform" />
      {/* biome-ignore lint/a11y/useMediaCaption: audio recordings have no caption track */}
      <audio ref={element} src={audio.src} controls style={{ width: "100%", marginTop: 8 }} />
    </div>
  );
}
