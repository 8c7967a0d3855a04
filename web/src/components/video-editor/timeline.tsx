import { Segmented } from "antd";
import { type MouseEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { clipStarts } from "./edit-operations";
import { clipDuration } from "./edl";
import { formatTime } from "./preview";
import { type Selection, storyOf, type VideoEditSession } from "./use-video-edit-session";

const TRACK_HEIGHT = 52;
const LABEL_STYLE = {
  overflow: "hidden",
  whiteSpace: "nowrap" as const,
  textOverflow: "ellipsis",
  fontSize: 12,
  lineHeight: "16px",
};

/**
 * The timeline: the clips one after another (the picture track), the titles,
 * and the music, drawn to scale; a click selects a clip or title, a click on
 * the ruler moves the playhead. It scrolls sideways inside its own box.
 */
export function VideoTimeline({ session }: { session: VideoEditSession }) {
  const { t } = useTranslation();
  const { edl, duration, playhead, sources } = session;
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  const [zoom, setZoom] = useState(1);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const span = Math.max(duration, 10);
  const scale = Math.max(4, ((width - 16) / span) * zoom);
  const starts = clipStarts(edl.clips);
  const seekAt = (event: MouseEvent<HTMLButtonElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    session.seek((event.clientX - rect.left) / scale);
  };
  const musicEnd = duration;

  return (
    <div data-testid="video-timeline">
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", gap: 8, flexWrap: "wrap" }}>
        <span data-testid="video-timecode">
          {formatTime(playhead)} / {formatTime(duration)}
        </span>
        <Segmented
          size="small"
          value={zoom}
          onChange={(value) => setZoom(Number(value))}
          options={[1, 2, 4, 8].map((value) => ({ value, label: `${value}×` }))}
          aria-label={t("videoEditor.timeline.zoom")}
        />
      </div>
      <div ref={box} style={{ overflowX: "auto", overflowY: "hidden", marginTop: 4, border: "1px solid #f0f0f0" }}>
        <div style={{ position: "relative", width: span * scale + 16, padding: "0 8px" }}>
          <button
            type="button"
            aria-label={t("videoEditor.timeline.seek")}
            onClick={seekAt}
            style={{
              display: "block",
              width: "100%",
              height: 18,
              padding: 0,
              border: 0,
              cursor: "pointer",
              background: "#fafafa",
              fontSize: 10,
              color: "#8c8c8c",
            }}
            data-testid="video-ruler"
          >
            {Array.from({ length: Math.floor(span / rulerStep(scale)) + 1 }, (_, i) => i * rulerStep(scale)).map(
              (at) => (
                <span key={at} style={{ position: "absolute", left: 8 + at * scale }}>
                  {formatTime(at).replace(/\.\d+$/, "")}
                </span>
              ),
            )}
          </button>
          <Track label={t("videoEditor.track.picture")}>
            {edl.clips.map((clip, index) => {
              const source = clip.kind === "colour" ? undefined : sources[storyOf(clip.source)];
              const name =
                clip.kind === "colour" ? t("videoEditor.clip.colour") : (source?.title ?? clip.source.storyId);
              return (
                <TrackItem
                  key={clip.id}
                  testId="video-clip"
                  item={{ kind: "clip", id: clip.id }}
                  session={session}
                  start={starts[index]!}
                  length={clipDuration(clip)}
                  scale={scale}
                  border="#8c8c8c"
                  style={{
                    height: TRACK_HEIGHT - 4,
                    padding: "2px 4px",
                    textAlign: "left",
                    color: "#fff",
                    background:
                      clip.kind === "colour"
                        ? clip.colour
                        : source?.imageUrl
                          ? `#333 url("${source.imageUrl}") left center / auto 100% repeat-x`
                          : "#434343",
                    textShadow: "0 0 3px #000",
                    overflow: "hidden",
                  }}
                >
                  <div style={LABEL_STYLE}>
                    {clip.transition.type !== "cut" ? "⧖ " : ""}
                    {name}
                  </div>
                  <div style={LABEL_STYLE}>{clipDuration(clip).toFixed(2)} s</div>
                </TrackItem>
              );
            })}
          </Track>
          <Track label={t("videoEditor.track.text")} height={28}>
            {edl.texts.map((text) => {
              return (
                <TrackItem
                  key={text.id}
                  testId="video-text"
                  item={{ kind: "text", id: text.id }}
                  session={session}
                  start={text.start}
                  length={text.end - text.start}
                  scale={scale}
                  border="#d48806"
                  style={{ height: 24, padding: "0 4px", background: "#fff7e6", ...LABEL_STYLE }}
                >
                  {text.text}
                </TrackItem>
              );
            })}
          </Track>
          <Track label={t("videoEditor.track.music")} height={22}>
            {edl.music ? (
              <div
                data-testid="video-music"
                style={{
                  position: "absolute",
                  left: edl.music.start * scale,
                  width: Math.max(6, (musicEnd - edl.music.start) * scale),
                  top: 2,
                  height: 18,
                  background: "#d9f7be",
                  border: "1px solid #389e0d",
                  borderRadius: 4,
                  padding: "0 4px",
                  ...LABEL_STYLE,
                }}
              >
                ♪ {sources[storyOf(edl.music.source)]?.title ?? ""}
              </div>
            ) : null}
          </Track>
          <div
            data-testid="video-playhead"
            style={{
              position: "absolute",
              top: 0,
              bottom: 0,
              left: 8 + playhead * scale,
              width: 2,
              background: "#f5222d",
              pointerEvents: "none",
            }}
          />
        </div>
      </div>
    </div>
  );
}

/** A ruler mark every 1, 2, 5, 10, 30 or 60 s, whichever leaves about 60 px between marks. */
function rulerStep(scale: number): number {
  return [1, 2, 5, 10, 30, 60, 300].find((step) => step * scale >= 60) ?? 600;
}

function Track({
  label,
  height = TRACK_HEIGHT,
  children,
}: {
  label: string;
  height?: number;
  children: React.ReactNode;
}) {
  return (
    <div data-track={label} style={{ position: "relative", height, borderTop: "1px solid #f0f0f0" }}>
      {children}
    </div>
  );
}

/**
 * A clip or title on its track, from `start` for `length` seconds (less a 2 px gap, at least 6 px wide): a button
 * that selects it and moves the playhead to its start; a selected one has a blue border.
 */
function TrackItem({
  testId,
  item,
  session,
  start,
  length,
  scale,
  border,
  style,
  children,
}: {
  testId: string;
  item: NonNullable<Selection>;
  session: VideoEditSession;
  start: number;
  length: number;
  scale: number;
  border: string;
  style: React.CSSProperties;
  children: React.ReactNode;
}) {
  const selected = session.selection?.kind === item.kind && session.selection.id === item.id;
  return (
    <button
      type="button"
      data-testid={testId}
      aria-pressed={selected}
      onClick={() => {
        session.select(item);
        session.seek(start);
      }}
      style={{
        position: "absolute",
        left: start * scale,
        width: Math.max(6, length * scale - 2),
        top: 2,
        border: selected ? "2px solid #1677ff" : `1px solid ${border}`,
        borderRadius: 4,
        cursor: "pointer",
        ...style,
      }}
    >
      {children}
    </button>
  );
}
