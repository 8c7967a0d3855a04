/**
 * The message protocol of the embeddable pages (/source/ismpsource,
 * /source/ismpupload), docs/embedding.md. Another newsroom system (the
 * opener) frames a page with `?origin=<its origin>`; that origin must be on
 * the server's allow-list (DAMS_EMBED_ORIGINS). Messages go to exactly that
 * origin, never '*', and messages are accepted only from it and only from the
 * window that framed or opened the page.
 */

export const EMBED_MESSAGES = {
  /** The page is ready (sent once on load, and in answer to a ping). */
  ready: "dams:ready",
  /** The opener asks whether the page is there. */
  ping: "dams:ping",
  /** ismpsource: the stories the user chose. */
  selection: "dams:selection",
  /** ismpupload: the stories the user uploaded and committed. */
  uploaded: "dams:uploaded",
  /** ismpnetdisk: the files the user chose from their network disk. */
  diskSelection: "dams:disk-selection",
  /** The user closed the page without a choice. */
  cancel: "dams:cancel",
  /** ismpVideosEdit, opener → page: the edit command (render the edit and answer with its video). */
  videoEdit: "dams:video-edit",
  /** ismpVideosEdit: the render's progress, 0–100. */
  videoProgress: "dams:video-progress",
  /** ismpVideosEdit: the render is done; `videoUrl` names it (create-from-URL takes it). */
  videoRendered: "dams:video-rendered",
  /** ismpVideosEdit: the edit could not be rendered; `message` says why. */
  videoError: "dams:video-error",
} as const;

/** The pages that talk to their opener. */
export type EmbedPageName = "ismpsource" | "ismpupload" | "ismpVideosEdit" | "ismpnetdisk";

/** A story as the opener receives it: ids, what it is, and where its files are (API URLs; a bearer token reads them). */
export interface EmbeddedStory {
  libraryId: string;
  storyId: string;
  type: string;
  title: string;
  mime: string | null;
  width: number | null;
  height: number | null;
  duration: number | null;
  thumbnailUrl: string | null;
  coverUrl: string | null;
  downloadUrl: string;
}

/** A file of the user's network disk; `contentUrl` answers the user's bearer token (GET, docs/disk.md). */
export interface EmbeddedDiskFile {
  id: string;
  name: string;
  size: number;
  mime: string | null;
  contentUrl: string;
}

export type OutgoingMessage =
  | { type: typeof EMBED_MESSAGES.ready; page: EmbedPageName }
  | { type: typeof EMBED_MESSAGES.diskSelection; files: EmbeddedDiskFile[] }
  | { type: typeof EMBED_MESSAGES.selection; stories: EmbeddedStory[] }
  | { type: typeof EMBED_MESSAGES.uploaded; stories: EmbeddedStory[] }
  | { type: typeof EMBED_MESSAGES.cancel }
  | { type: typeof EMBED_MESSAGES.videoProgress; progress: number }
  | { type: typeof EMBED_MESSAGES.videoRendered; videoUrl: string; title: string; durationSeconds: number | null }
  | { type: typeof EMBED_MESSAGES.videoError; message: string };

export type EmbedTarget =
  | { ok: true; origin: string }
  /** missing: no `origin` parameter; invalid: not an origin; not-allowed: not on the allow-list. */
  | { ok: false; reason: "missing" | "invalid" | "not-allowed"; origin: string | null };

/**
 * The origin messages go to, from the page's `?origin=` and the allow-list.
 * Only an exact origin (scheme, host, port; no path, no wildcard) that the
 * allow-list names is a target.
 */
export function embedTarget(search: string, allowed: readonly string[]): EmbedTarget {
  const given = new URLSearchParams(search).get("origin")?.trim() ?? "";
  if (!given) return { ok: false, reason: "missing", origin: null };
  let origin: string;
  try {
    const url = new URL(given);
    origin = url.origin;
    if ((url.protocol !== "https:" && url.protocol !== "http:") || given.replace(/\/$/, "") !== origin) {
      return { ok: false, reason: "invalid", origin: given };
    }
  } catch {
    return { ok: false, reason: "invalid", origin: given };
  }
  return allowed.includes(origin) ? { ok: true, origin } : { ok: false, reason: "not-allowed", origin };
}

/** The window that embeds the page: the parent frame, or else the window that opened it. */
export function openerOf(page: Pick<Window, "parent" | "opener">): MessageEventSource | null {
  if (page.parent && page.parent !== (page as unknown)) return page.parent;
  return (page.opener as Window | null) ?? null;
}

/** Posts to the opener at its exact origin (the browser drops it if the opener is elsewhere now). */
export function postToOpener(
  opener: Pick<Window, "postMessage"> | null,
  target: EmbedTarget,
  message: OutgoingMessage,
): boolean {
  if (!opener || !target.ok) return false;
  opener.postMessage(message, target.origin);
  return true;
}

type IncomingEvent = Pick<MessageEvent, "origin" | "source" | "data">;

/** Whether an incoming message is the opener's: its origin is the target's and it comes from the opener's window. */
export function isFromOpener(event: IncomingEvent, target: EmbedTarget, opener: MessageEventSource | null): boolean {
  return target.ok && opener !== null && event.origin === target.origin && event.source === opener;
}

/** An incoming message of `type`, accepted only from the opener; anything else is ignored. */
function isOpenerMessage(type: string, event: IncomingEvent, target: EmbedTarget, opener: MessageEventSource | null) {
  const data = event.data as { type?: unknown } | null;
  return isFromOpener(event, target, opener) && typeof data === "object" && data?.type === type;
}

/** An incoming ping, accepted only from the opener; anything else is ignored. */
export const isPing = (event: IncomingEvent, target: EmbedTarget, opener: MessageEventSource | null) =>
  isOpenerMessage(EMBED_MESSAGES.ping, event, target, opener);

/** The opener's edit command to the video editor, accepted only from the opener. */
export const isVideoEditCommand = (event: IncomingEvent, target: EmbedTarget, opener: MessageEventSource | null) =>
  isOpenerMessage(EMBED_MESSAGES.videoEdit, event, target, opener);

/** A story of the API as the opener receives it, with absolute URLs on `pageOrigin` (ours). */
export function toEmbeddedStory(story: Omit<EmbeddedStory, "downloadUrl">, pageOrigin: string): EmbeddedStory {
  const absolute = (url: string | null) => (url ? new URL(url, pageOrigin).toString() : null);
  const download = `/dams/api/v1/stories/download/${encodeURIComponent(story.libraryId)}/${encodeURIComponent(story.storyId)}`;
  return {
    libraryId: story.libraryId,
    storyId: story.storyId,
    type: story.type,
    title: story.title,
    mime: story.mime,
    width: story.width,
    height: story.height,
    duration: story.duration,
    thumbnailUrl: absolute(story.thumbnailUrl),
    coverUrl: absolute(story.coverUrl),
    downloadUrl: new URL(download, pageOrigin).toString(),
  };
}
