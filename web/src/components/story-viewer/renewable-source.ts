import { type RefObject, useRef, useState } from "react";
import type { Story, StoryFile } from "../../api/stories";
import { fetchMediaUrl } from "../../api/story-detail";

/** A URL is renewed at most once in this interval, so a file that is really broken ends as an error. */
const MIN_RENEWAL_INTERVAL_MS = 60_000;

/**
 * The source of a <video> or <audio>: the file's signed media URL, kept while
 * it plays (a new URL in a refreshed story would restart the player). Signed
 * URLs are short-lived, so when the player fails (a seek after expiry answers
 * 403) a fresh URL is asked for and playback resumes where it was.
 */
export function useRenewableSource(
  story: Pick<Story, "libraryId" | "storyId">,
  file: Pick<StoryFile, "role" | "versionNo" | "mediaUrl">,
  element: RefObject<HTMLMediaElement | null>,
) {
  const [src, setSrc] = useState(file.mediaUrl);
  const [failed, setFailed] = useState(false);
  const lastRenewal = useRef(0);
  const resumeAt = useRef<{ time: number; playing: boolean } | null>(null);

  const onError = () => {
    if (Date.now() - lastRenewal.current < MIN_RENEWAL_INTERVAL_MS) {
      setFailed(true);
      return;
    }
    lastRenewal.current = Date.now();
    const media = element.current;
    resumeAt.current = media ? { time: media.currentTime, playing: !media.paused } : null;
    fetchMediaUrl(story, { rendition: file.role, versionNo: file.versionNo }).then(
      (fresh) => setSrc(fresh.url),
      () => setFailed(true),
    );
  };

  const onLoadedMetadata = () => {
    const media = element.current;
    const resume = resumeAt.current;
    resumeAt.current = null;
    if (!media || !resume) return;
    media.currentTime = resume.time;
    if (resume.playing) void media.play().catch(() => undefined);
  };

  return { src, failed, onError, onLoadedMetadata };
}
