/**
 * The video edit dialog's side of the protocol (spec section 4, "Video edit";
 * docs/embedding.md): which messages it takes from the framed editor, and
 * where it lands after a save.
 */
import { EMBED_MESSAGES } from "../embed/protocol";

export type EditorMessage =
  | { type: "ready" }
  | { type: "progress"; progress: number }
  | { type: "rendered"; videoUrl: string; title: string }
  | { type: "error"; message: string };

/**
 * A message of the framed editor: from our origin and from the frame's window
 * only (anything else, and malformed data, is null and ignored).
 */
export function editorMessage(
  event: Pick<MessageEvent, "origin" | "source" | "data">,
  origin: string,
  frame: MessageEventSource | null | undefined,
): EditorMessage | null {
  if (!frame || event.origin !== origin || event.source !== frame) return null;
  const data = event.data as Record<string, unknown> | null;
  if (typeof data !== "object" || data === null) return null;
  switch (data.type) {
    case EMBED_MESSAGES.ready:
      return data.page === "ismpVideosEdit" ? { type: "ready" } : null;
    case EMBED_MESSAGES.videoProgress:
      return typeof data.progress === "number" ? { type: "progress", progress: data.progress } : null;
    case EMBED_MESSAGES.videoRendered:
      return typeof data.videoUrl === "string" && data.videoUrl
        ? { type: "rendered", videoUrl: data.videoUrl, title: typeof data.title === "string" ? data.title : "" }
        : null;
    case EMBED_MESSAGES.videoError:
      return { type: "error", message: typeof data.message === "string" ? data.message : "" };
    default:
      return null;
  }
}

/** The editor's address in the dialog: our origin as the opener, the kind, and the story being edited. */
export function editorUrl(
  origin: string,
  kind: "video" | "slideshow",
  base?: { libraryId: string; storyId: string } | null,
): string {
  const query = new URLSearchParams({ origin, mode: kind });
  if (base) {
    query.set("libraryId", base.libraryId);
    query.set("storyId", base.storyId);
  }
  return `/source/ismpVideosEdit?${query.toString()}`;
}

/** Where the dialog lands after a save (spec section 2): the library, or its folder, showing videos. */
export function landingUrl(libraryId: string, folderId?: string | null): string {
  const folder = folderId ? `/${encodeURIComponent(folderId)}` : "";
  return `/frontend/${encodeURIComponent(libraryId)}${folder}?types=VIDEO`;
}

/**
 * What the dialog does with an answer of the processing progress
 * (`GET /video-trans-tasks`): wait (queued or running, a retry pending
 * included), go on (done, at 100), or stop with the reason — failed,
 * cancelled, and any state it does not know (a dead job is never waited on).
 */
export type TranscodeStep = { step: "wait"; progress: number } | { step: "done" } | { step: "failed"; reason: string };

export function transcodeStep(task: { state: string; progress: number; error?: string | null }): TranscodeStep {
  if (task.state === "done" || (task.progress >= 100 && task.state !== "failed" && task.state !== "cancelled"))
    return { step: "done" };
  if (task.state === "queued" || task.state === "running" || task.state === "none")
    return { step: "wait", progress: Math.min(99, Math.max(0, task.progress)) };
  return { step: "failed", reason: task.error || task.state };
}
