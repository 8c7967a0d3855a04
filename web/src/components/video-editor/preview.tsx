import { type CSSProperties, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { sourceTime, textsAt } from "./edit-operations";
import { type Clip, type ImageClip, type Logo, outputAspect, type TextOverlay } from "./edl";
import { usePresetImage } from "./logo-panel";
import { storyOf, type VideoEditSession } from "./use-video-edit-session";

const ASPECT_RATIO: Record<string, number> = { "16:9": 16 / 9, "9:16": 9 / 16, "1:1": 1, "4:5": 4 / 5 };
/** The preview's height on the page; its width follows the output's aspect, within the column. */
const PREVIEW_HEIGHT = "clamp(160px, 38vh, 420px)";

/** Seconds as m:ss.ff (frames at 25 per second). */
export function formatTime(seconds: number): string {
  const whole = Math.max(0, seconds);
  const minutes = Math.floor(whole / 60);
  const rest = whole - minutes * 60;
  const secs = Math.floor(rest);
  const frames = Math.floor((rest - secs) * 25 + 1e-6);
  return `${minutes}:${String(secs).padStart(2, "0")}.${String(frames).padStart(2, "0")}`;
}

/**
 * The edit played in the browser on the proxies (approximate; the server's
 * render is exact): the clip under the playhead, its source seeked to the
 * EDL's time, slides with their pan and zoom, and the titles over them.
 */
export function VideoPreview({ session }: { session: VideoEditSession }) {
  const { t } = useTranslation();
  const { edl, playhead, playing, current, duration, setPlaying, seek } = session;
  const clip = current ? edl.clips[current.index] : undefined;
  const ratio = ASPECT_RATIO[outputAspect(edl.output)] ?? 16 / 9;

  // The clock of the playback: the playhead moves with the wall clock; the video follows it.
  const clock = useRef({ playhead, seek });
  clock.current = { playhead, seek };
  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let frame = requestAnimationFrame(function tick(now) {
      const next = clock.current.playhead + (now - last) / 1000;
      last = now;
      clock.current.seek(next);
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing]);
  useEffect(() => {
    if (playing && playhead >= duration) setPlaying(false);
  }, [duration, playhead, playing, setPlaying]);

  return (
    <div style={{ display: "flex", justifyContent: "center", background: "#141414" }} data-testid="video-preview">
      <div
        style={{
          position: "relative",
          overflow: "hidden",
          width: `min(100%, calc(${PREVIEW_HEIGHT} * ${ratio.toFixed(4)}))`,
          aspectRatio: ratio.toFixed(4),
          background: "#000",
          containerType: "size",
        }}
      >
        {!clip ? (
          <div style={{ color: "#8c8c8c", display: "grid", placeItems: "center", height: "100%", padding: 8 }}>
            {t("videoEditor.preview.empty")}
          </div>
        ) : (
          <ClipPicture session={session} clip={clip} offset={current?.offset ?? 0} />
        )}
        {textsAt(edl, playhead).map((text) => (
          <TextBox key={text.id} text={text} />
        ))}
        {clip?.kind === "image" && clip.caption ? <Caption text={clip.caption} /> : null}
        {edl.captions?.mode === "burn"
          ? edl.captions.cues
              .filter((cue) => cue.start <= playhead && playhead < cue.end)
              .map((cue) => <Caption key={`${cue.start}-${cue.text}`} text={cue.text} />)
          : null}
        {edl.logo && clip ? <LogoBox session={session} /> : null}
      </div>
    </div>
  );
}

/** Where the logo sits in the preview: the watermark model's positions, with a margin of 2 % of the width. */
function logoPlace(logo: Logo): CSSProperties {
  const margin = "2cqw";
  switch (logo.position) {
    case "upper-left":
      return { left: margin, top: margin };
    case "upper-right":
      return { right: margin, top: margin };
    case "lower-left":
      return { left: margin, bottom: margin };
    case "center":
      return { left: "50%", top: "50%", transform: "translate(-50%, -50%)" };
    case "arbitrary":
      return { left: `${logo.x * 100}%`, top: `${logo.y * 100}%` };
    default:
      return { right: margin, bottom: margin };
  }
}

/** The logo over the preview, approximately as the render draws it. */
function LogoBox({ session }: { session: VideoEditSession }) {
  const logo = session.edl.logo!;
  const presetImage = usePresetImage(logo.type === 1 && !logo.source ? logo.presetId : undefined);
  const sourceImage = logo.source ? (session.sources[storyOf(logo.source)]?.imageUrl ?? null) : null;
  const style: CSSProperties = {
    position: "absolute",
    opacity: logo.opacity / 100,
    pointerEvents: "none",
    ...logoPlace(logo),
  };
  if (logo.type === 2)
    return (
      <div
        data-testid="video-preview-logo"
        style={{
          ...style,
          color: logo.colour,
          background: logo.background,
          fontSize: `${(logo.fontSize / 1080) * 100}cqh`,
          padding: "0 0.3em",
          whiteSpace: "nowrap",
        }}
      >
        {logo.text}
      </div>
    );
  const url = sourceImage ?? presetImage;
  return url ? (
    <img data-testid="video-preview-logo" src={url} alt="" style={{ ...style, width: `${logo.sizePercent}%` }} />
  ) : null;
}

function ClipPicture({ session, clip, offset }: { session: VideoEditSession; clip: Clip; offset: number }) {
  const video = useRef<HTMLVideoElement>(null);
  const { playing } = session;
  const source = clip.kind === "colour" ? undefined : session.sources[storyOf(clip.source)];
  const wanted = sourceTime(clip, offset);
  const fit: CSSProperties =
    clip.reframe.mode === "crop"
      ? { objectFit: "cover", objectPosition: `${clip.reframe.x * 100}% ${clip.reframe.y * 100}%` }
      : { objectFit: "contain" };

  useEffect(() => {
    const element = video.current;
    if (!element || clip.kind !== "video") return;
    element.volume = clip.muted ? 0 : Math.min(1, clip.volume);
    if (Math.abs(element.currentTime - wanted) > (playing ? 0.3 : 0.01)) element.currentTime = wanted;
    if (playing && element.paused) element.play().catch(() => undefined);
    if (!playing && !element.paused) element.pause();
  }, [clip, playing, wanted]);

  if (clip.kind === "colour") return <div style={{ position: "absolute", inset: 0, background: clip.colour }} />;
  if (clip.kind === "video")
    return (
      // biome-ignore lint/a11y/useMediaCaption: a preview of the edit; its captions are drawn over it
      <video
        ref={video}
        src={source?.videoUrl ?? undefined}
        preload="auto"
        playsInline
        data-testid="video-preview-video"
        onLoadedMetadata={(event) => {
          event.currentTarget.currentTime = wanted;
        }}
        style={{ position: "absolute", inset: 0, width: "100%", height: "100%", background: "#000", ...fit }}
      />
    );
  return (
    <>
      {clip.reframe.mode === "blur" && source?.imageUrl ? (
        <img
          src={source.imageUrl}
          alt=""
          style={{
            position: "absolute",
            inset: 0,
            width: "100%",
            height: "100%",
            objectFit: "cover",
            filter: "blur(16px)",
          }}
        />
      ) : null}
      {source?.imageUrl ? (
        <img
          src={source.imageUrl}
          alt={source.title}
          data-testid="video-preview-image"
          style={{
            position: "absolute",
            inset: 0,
            width: "100%",
            height: "100%",
            ...(clip.kenBurns ? { objectFit: "cover" } : fit),
            ...kenBurnsStyle(clip, offset),
          }}
        />
      ) : null}
    </>
  );
}

/** The slide's rectangle at `offset` as a transform: scale to its width, moved to its corner. */
function kenBurnsStyle(clip: ImageClip, offset: number): CSSProperties {
  if (!clip.kenBurns) return {};
  const p = Math.min(1, Math.max(0, offset / clip.duration));
  const { start, end } = clip.kenBurns;
  const at = (a: number, b: number) => a + (b - a) * p;
  const width = at(start.width, end.width);
  return {
    transformOrigin: "0 0",
    transform: `scale(${1 / width}) translate(${-at(start.x, end.x) * 100}%, ${-at(start.y, end.y) * 100}%)`,
  };
}

function TextBox({ text }: { text: TextOverlay }) {
  const size = 6 * text.scale;
  if (text.kind === "lowerThird")
    return (
      <div
        data-testid="video-preview-text"
        style={{
          position: "absolute",
          left: "5%",
          bottom: "10%",
          maxWidth: "80%",
          padding: "1cqh 2cqh",
          background: text.background ?? "rgba(0,0,0,0.6)",
          color: text.colour,
        }}
      >
        <div style={{ fontSize: `${size * 0.8}cqh`, fontWeight: 600, lineHeight: 1.2 }}>{text.text}</div>
        {text.subtitle ? <div style={{ fontSize: `${size * 0.55}cqh`, lineHeight: 1.2 }}>{text.subtitle}</div> : null}
      </div>
    );
  const vertical =
    text.position === "top"
      ? { top: "8%" }
      : text.position === "bottom"
        ? { bottom: "8%" }
        : { top: "50%", transform: "translateY(-50%)" };
  return (
    <div
      data-testid="video-preview-text"
      style={{
        position: "absolute",
        left: "5%",
        right: "5%",
        textAlign: "center",
        fontSize: `${size}cqh`,
        fontWeight: 600,
        lineHeight: 1.2,
        color: text.colour,
        textShadow: "0 0 4px rgba(0,0,0,0.8)",
        ...(text.background ? { background: text.background } : {}),
        ...vertical,
      }}
    >
      {text.text}
    </div>
  );
}

function Caption({ text }: { text: string }) {
  return (
    <div
      style={{
        position: "absolute",
        left: "5%",
        right: "5%",
        bottom: "4%",
        textAlign: "center",
        fontSize: "4.5cqh",
        color: "#fff",
        textShadow: "0 0 4px #000",
      }}
    >
      {text}
    </div>
  );
}
