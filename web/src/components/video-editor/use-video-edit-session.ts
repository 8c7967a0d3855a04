/**
 * The video editor's session (the shape of the image editor's): the EDL with
 * its undo history, what the timeline shows of each source story (proxy,
 * picture, length), the selection and the playhead. The timeline, preview and
 * toolbar read and change the edit only through it.
 */
import { useCallback, useState } from "react";
import type { Story, StoryRef } from "../../api/stories";
import { fetchStory, fetchVersions, fileOf } from "../../api/story-detail";
import { fetchStoryEdl } from "../../api/video-edit";
import {
  clipAt,
  commit,
  type EditorKind,
  emptyEdl,
  type History,
  insertClips,
  kenBurns,
  newId,
  redo,
  removeClip,
  removeText,
  splitAt,
  totalDuration,
  trimClip,
  undo,
} from "./edit-operations";
import { type Clip, clipDuration, type Edl, type SourceRef, validateEdl } from "./edl";

/** What the editor knows of a source story, for the timeline and the preview. */
export interface SourceInfo {
  libraryId: string;
  storyId: string;
  type: Story["type"];
  title: string;
  caption: string;
  /** the photo's credit (`properties.credit`), added to a slide's caption */
  credit: string;
  duration: number | null;
  /** the video's proxy, for the preview */
  videoUrl: string | null;
  /** a picture of it: the photo's preview, or the video's thumbnail */
  imageUrl: string | null;
}

export type Selection = { kind: "clip" | "text"; id: string } | null;

export const storyOf = (ref: Pick<SourceRef, "libraryId" | "storyId">) => `${ref.libraryId}/${ref.storyId}`;

export function sourceInfo(story: Story): SourceInfo {
  const url = (role: string) => fileOf(story, role)?.mediaUrl ?? null;
  return {
    libraryId: story.libraryId,
    storyId: story.storyId,
    type: story.type,
    title: story.title,
    caption: story.caption,
    credit: typeof story.properties?.credit === "string" ? story.properties.credit.trim() : "",
    duration: story.duration,
    videoUrl: story.type === "video" ? (url("proxy") ?? url("original")) : null,
    imageUrl: url("preview") ?? story.thumbnailMediaUrl ?? url("original"),
  };
}

/**
 * What the timeline shows of a source at the version the EDL pinned: a
 * reopened edit of a video made into its own next version must preview the
 * version it was cut from, not the result.
 */
export async function pinnedSourceInfo(ref: SourceRef): Promise<SourceInfo> {
  const story = await fetchStory(ref, { silent: true });
  const info = sourceInfo(story);
  if (!ref.versionNo || ref.versionNo === story.versionNo) return info;
  const version = (await fetchVersions(ref)).find((item) => item.versionNo === ref.versionNo);
  if (!version) return info;
  const url = (role: string) => version.files.find((file) => file.role === role)?.mediaUrl ?? null;
  return {
    ...info,
    videoUrl: story.type === "video" ? (url("proxy") ?? url("original")) : null,
    imageUrl: url("preview") ?? url("thumbnail") ?? info.imageUrl,
  };
}

/** Seconds a slide shows when it is added. */
export const SLIDE_SECONDS = 4;

/** A slide's caption by default: the photo's caption and its credit ("caption — credit"), within the EDL's limit. */
export function slideCaption(story: Pick<SourceInfo, "caption" | "credit">): string {
  const caption = story.caption.trim();
  const credit = story.credit.trim();
  const joined = caption && credit && !caption.includes(credit) ? `${caption} — ${credit}` : caption || credit;
  return joined.slice(0, 500);
}

/** The clip a story becomes on the timeline: a whole video, or a slide (with a zoom and its caption in a slideshow). */
export function clipOfStory(story: SourceInfo, id: string, kind: EditorKind): Clip | null {
  const source = { libraryId: story.libraryId, storyId: story.storyId };
  const base = {
    id,
    transition: { type: "cut" as const, duration: 0 },
    reframe: { mode: "blur" as const, x: 0.5, y: 0.5 },
  };
  if (story.type === "video") {
    const out = Math.max(0.04, Math.round((story.duration ?? 1) * 1000) / 1000);
    return { ...base, kind: "video", source, in: 0, out, volume: 1, muted: false };
  }
  if (story.type !== "photo") return null;
  const slideshow = kind === "slideshow";
  const caption = slideshow ? slideCaption(story) : "";
  return {
    ...base,
    kind: "image",
    source,
    duration: SLIDE_SECONDS,
    ...(slideshow ? { kenBurns: kenBurns("zoomIn") } : {}),
    ...(slideshow ? { transition: { type: "crossfade" as const, duration: 0.5 } } : {}),
    ...(caption ? { caption } : {}),
  };
}

export function useVideoEditSession(kind: EditorKind) {
  const [history, setHistory] = useState<History>(() => ({ past: [], present: emptyEdl(), future: [] }));
  const [sources, setSources] = useState<Record<string, SourceInfo>>({});
  const [selection, setSelection] = useState<Selection>(null);
  const [playhead, setPlayhead] = useState(0);
  const [playing, setPlaying] = useState(false);
  const edl = history.present;
  const duration = totalDuration(edl.clips);

  const edit = useCallback(
    (change: (edl: Edl) => Edl) => setHistory((current) => commit(current, change(current.present))),
    [],
  );
  const remember = useCallback((stories: SourceInfo[]) => {
    setSources((current) => ({ ...current, ...Object.fromEntries(stories.map((story) => [storyOf(story), story])) }));
  }, []);

  /** Adds stories after the selected clip: videos and photos as clips, an audio story as the music. */
  const addStories = useCallback(
    (stories: SourceInfo[]) => {
      remember(stories);
      setHistory((current) => {
        let next = current.present;
        const clips: Clip[] = [];
        for (const story of stories) {
          if (story.type === "audio") {
            const source = { libraryId: story.libraryId, storyId: story.storyId };
            next = { ...next, music: { source, in: 0, start: 0, volume: 0.8, fadeIn: 1, fadeOut: 2, ducking: true } };
            continue;
          }
          const clip = clipOfStory(story, newId("c", { ...next, clips: [...next.clips, ...clips] }), kind);
          if (clip) clips.push(clip);
        }
        const after =
          selection?.kind === "clip" ? next.clips.findIndex((clip) => clip.id === selection.id) : next.clips.length - 1;
        return commit(current, insertClips(next, clips, after));
      });
    },
    [kind, remember, selection],
  );

  /** Starts from an EDL (a story's edit reopened), fetching what the timeline shows of its sources. */
  const open = useCallback(
    async (opened: Edl) => {
      const refs = new Map<string, SourceRef>();
      for (const clip of opened.clips) if (clip.kind !== "colour") refs.set(storyOf(clip.source), clip.source);
      if (opened.music) refs.set(storyOf(opened.music.source), opened.music.source);
      if (opened.logo?.source) refs.set(storyOf(opened.logo.source), opened.logo.source);
      remember(await Promise.all([...refs.values()].map(pinnedSourceInfo)));
      setHistory({ past: [], present: opened, future: [] });
    },
    [remember],
  );

  /**
   * Opens a story to edit: the edit it was made from when the video editor
   * made it (its `edit` file), which it answers, else the story as the first
   * clip (null).
   */
  const openStory = useCallback(
    async (ref: StoryRef): Promise<Edl | null> => {
      const story = await fetchStory(ref, { silent: true });
      const saved = fileOf(story, "edit") ? await fetchStoryEdl(ref).catch(() => null) : null;
      const checked = saved ? validateEdl(saved) : null;
      if (checked?.ok) {
        try {
          await open(checked.edl);
          return checked.edl;
        } catch {
          // A source of the old edit is gone or unreadable: start again from the story itself.
        }
      }
      const info = sourceInfo(story);
      remember([info]);
      const clip = clipOfStory(info, "c1", kind);
      setHistory({ past: [], present: { ...emptyEdl(story.title), clips: clip ? [clip] : [] }, future: [] });
      return null;
    },
    [kind, open, remember],
  );

  const selectedClip = selection?.kind === "clip" ? edl.clips.find((clip) => clip.id === selection.id) : undefined;
  const selectedText = selection?.kind === "text" ? edl.texts.find((text) => text.id === selection.id) : undefined;
  const current = clipAt(edl.clips, playhead);

  function sourceDuration(clip: Clip): number | undefined {
    if (clip.kind !== "video") return undefined;
    return sources[storyOf(clip.source)]?.duration ?? undefined;
  }

  const actions = {
    seek: (t: number) => setPlayhead(Math.min(Math.max(0, t), duration)),
    split: () =>
      edit((value) => {
        const result = splitAt(value, playhead);
        return result ? result.edl : value;
      }),
    /** I and O: the clip under the playhead starts or ends here. */
    markIn: () => {
      if (!current) return;
      const clip = edl.clips[current.index]!;
      if (clip.kind !== "video") return;
      edit((value) => trimClip(value, clip.id, { in: clip.in + current.offset }, sourceDuration(clip)));
    },
    markOut: () => {
      if (!current) return;
      const clip = edl.clips[current.index]!;
      if (clip.kind !== "video") return;
      edit((value) => trimClip(value, clip.id, { out: clip.in + current.offset }, sourceDuration(clip)));
    },
    removeSelected: () => {
      if (!selection) return;
      edit((value) => (selection.kind === "clip" ? removeClip(value, selection.id) : removeText(value, selection.id)));
      setSelection(null);
    },
    undo: () => setHistory(undo),
    redo: () => setHistory(redo),
  };

  return {
    kind,
    edl,
    duration,
    sources,
    selection,
    selectedClip,
    selectedText,
    playhead,
    playing,
    current,
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    edit,
    addStories,
    openStory,
    open,
    remember,
    select: setSelection,
    setPlaying,
    sourceDuration,
    clipLength: clipDuration,
    ...actions,
  };
}

export type VideoEditSession = ReturnType<typeof useVideoEditSession>;
