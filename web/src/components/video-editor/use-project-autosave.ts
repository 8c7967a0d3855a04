/**
 * The project of an edit (docs/video-editor.md): the EDL autosaved to the
 * server a moment after each change (`POST`, then `PUT /video-edit/projects`),
 * with the state shown to the user; `?projectId=` in the editor's address
 * reopens it, and the render names it so the story made of it keeps it.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { createProject, fetchProject, saveProject, type VideoEdlDraft } from "../../api/video-edit";
import { draftEdlSchema, type Edl } from "./edl";
import type { VideoEditSession } from "./use-video-edit-session";

/** How long the editor waits after the last change before it saves. */
export const AUTOSAVE_DELAY_MS = 1500;

export type AutosaveState =
  | { state: "new" }
  | { state: "saving" }
  | { state: "saved"; at: Date }
  | { state: "invalid"; problem: string }
  | { state: "failed"; message: string };

/** Puts the project's id in the page's address, so a reload (or the address kept) reopens it. */
function rememberInAddress(projectId: string) {
  const url = new URL(window.location.href);
  if (url.searchParams.get("projectId") === projectId) return;
  url.searchParams.set("projectId", projectId);
  window.history.replaceState(window.history.state, "", url);
}

/**
 * `hold`: no autosave meanwhile (a story being opened, whose project may be
 * adopted rather than a new one made).
 */
export function useProjectAutosave(session: VideoEditSession, initialProjectId: string | null, hold = false) {
  const [status, setStatus] = useState<AutosaveState>({ state: "new" });
  const project = useRef<{ id: string; revision: number } | null>(null);
  const [projectId, setProjectId] = useState<string | null>(null);
  /** The EDL last saved or opened: not saved again. */
  const saved = useRef<Edl | null>(null);
  const [loading, setLoading] = useState(!!initialProjectId);
  const { open, edl, kind } = session;

  useEffect(() => {
    if (!initialProjectId) return;
    let live = true;
    fetchProject(initialProjectId)
      .then(async (found) => {
        const opened = found.edl as Edl;
        await open(opened);
        if (!live) return;
        saved.current = opened;
        project.current = { id: found.id, revision: found.revision };
        setProjectId(found.id);
        setStatus({ state: "saved", at: new Date(found.updatedAt) });
      })
      .catch((error: unknown) => live && setStatus({ state: "failed", message: String(error) }))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [initialProjectId, open]);

  const saveNow = useCallback(
    async (value: Edl) => {
      const checked = draftEdlSchema.safeParse(value);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        setStatus({ state: "invalid", problem: `${issue.path.join(".")}: ${issue.message}` });
        return;
      }
      setStatus({ state: "saving" });
      try {
        const draft = checked.data as VideoEdlDraft;
        const result = project.current
          ? await saveProject(project.current.id, draft, project.current.revision)
          : await createProject(kind, draft);
        project.current = { id: result.id, revision: result.revision };
        saved.current = value;
        setProjectId(result.id);
        rememberInAddress(result.id);
        setStatus({ state: "saved", at: new Date(result.updatedAt) });
      } catch (error) {
        setStatus({ state: "failed", message: error instanceof Error ? error.message : String(error) });
      }
    },
    [kind],
  );

  /**
   * Goes on with an existing project (the one a reopened story was rendered
   * from): `opened` is the EDL now on the timeline, saved into that project on
   * the first change rather than into a new one.
   */
  const adopt = useCallback((found: { id: string; revision: number; updatedAt: string }, opened: Edl) => {
    saved.current = opened;
    project.current = { id: found.id, revision: found.revision };
    setProjectId(found.id);
    setStatus({ state: "saved", at: new Date(found.updatedAt) });
  }, []);

  // Debounced: the last change, a moment after it; nothing before the edit has a clip or a change.
  useEffect(() => {
    if (loading || hold || edl === saved.current) return;
    if (!project.current && edl.clips.length === 0) return;
    const timer = setTimeout(() => void saveNow(edl), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [edl, loading, hold, saveNow]);

  return { status, projectId, loading, adopt };
}
