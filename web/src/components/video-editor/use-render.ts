import { useCallback, useEffect, useRef, useState } from "react";
import { cancelRender, fetchRender, startRender, type VideoEdl, type VideoRender } from "../../api/video-edit";
import { type Edl, validateEdl } from "./edl";

/** How often the editor asks for its render's progress. */
export const RENDER_POLL_MS = 1000;

export type RenderStatus =
  | { phase: "idle" }
  | { phase: "rendering"; progress: number }
  | { phase: "done"; render: VideoRender }
  | { phase: "failed"; message: string };

/** A render that did not end with a video: the EDL's problems, or the server's reason. */
export class RenderFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RenderFailed";
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Renders an EDL on the server (`POST /video-edit/renders`) and follows its
 * progress until it ends. A render still running when the editor goes away is
 * cancelled (nothing is stored of it).
 */
export function useRender() {
  const [status, setStatus] = useState<RenderStatus>({ phase: "idle" });
  const running = useRef<string | null>(null);
  useEffect(
    () => () => {
      if (running.current) cancelRender(running.current).catch(() => undefined);
    },
    [],
  );

  const render = useCallback(
    async (edl: Edl, onProgress?: (progress: number) => void, projectId?: string | null): Promise<VideoRender> => {
      const checked = validateEdl(edl);
      if (!checked.ok) {
        const message = checked.problems.join("; ");
        setStatus({ phase: "failed", message });
        throw new RenderFailed(message);
      }
      setStatus({ phase: "rendering", progress: 0 });
      try {
        let current = await startRender(checked.edl as VideoEdl, projectId ?? undefined);
        running.current = current.id;
        while (current.state === "queued" || current.state === "running") {
          await wait(RENDER_POLL_MS);
          current = await fetchRender(current.id);
          setStatus({ phase: "rendering", progress: current.progress });
          onProgress?.(current.progress);
        }
        running.current = null;
        if (current.state !== "done") throw new RenderFailed(current.error ?? current.state);
        setStatus({ phase: "done", render: current });
        return current;
      } catch (error) {
        running.current = null;
        const message = error instanceof Error ? error.message : String(error);
        setStatus({ phase: "failed", message });
        throw error instanceof RenderFailed ? error : new RenderFailed(message);
      }
    },
    [],
  );

  return { status, render };
}
