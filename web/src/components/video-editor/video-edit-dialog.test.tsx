// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createI18n } from "../../locales/both-languages";
import { stubMatchMedia, until } from "../../test-support";
import { EMBED_MESSAGES } from "../embed/protocol";
import { transcodeStep } from "./dialog-protocol";
import { VideoEditDialog } from "./video-edit-dialog";

const calls = vi.hoisted(() => ({
  createVideoStory: vi.fn(),
  fetchTranscodeTask: vi.fn(),
  fetchStory: vi.fn(),
  commitVideo: vi.fn(),
}));
vi.mock("../../api/video-edit", () => ({
  createVideoStory: calls.createVideoStory,
  commitVideo: calls.commitVideo,
  saveVideoVersion: vi.fn(),
}));
vi.mock("../../api/story-detail", () => ({
  fetchStory: calls.fetchStory,
  fetchTranscodeTask: calls.fetchTranscodeTask,
}));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
stubMatchMedia();

let root: Root | null = null;
let container: HTMLDivElement;
beforeEach(() => {
  for (const call of Object.values(calls)) call.mockReset();
});
afterEach(() => {
  if (root) act(() => root?.unmount());
  root = null;
  container?.remove();
  document.body.innerHTML = "";
});

function render() {
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  const client = new QueryClient();
  act(() =>
    root?.render(
      <I18nextProvider i18n={createI18n("en-US")}>
        <QueryClientProvider client={client}>
          <MemoryRouter>
            <VideoEditDialog open kind="video" title="Video production" onClose={() => undefined} />
          </MemoryRouter>
        </QueryClientProvider>
      </I18nextProvider>,
    ),
  );
  const frame = document.querySelector<HTMLIFrameElement>('[data-testid="video-dialog-frame"]')!;
  /** A message of the framed editor, as it posts it. */
  const fromEditor = (data: object) =>
    act(() => {
      window.dispatchEvent(
        new MessageEvent("message", { origin: window.location.origin, source: frame.contentWindow, data }),
      );
    });
  const save = () => document.querySelector<HTMLButtonElement>('[data-testid="video-dialog-save"]')!;
  const error = () => document.querySelector('[data-testid="video-dialog-error"]')?.textContent ?? "";
  /** The buttons are back: save neither loading nor disabled, cancel enabled. */
  const enabled = () =>
    !save().disabled &&
    !save().classList.contains("ant-btn-loading") &&
    [...document.querySelectorAll<HTMLButtonElement>(".ant-modal-footer button")].every((button) => !button.disabled);
  fromEditor({ type: EMBED_MESSAGES.ready, page: "ismpVideosEdit" });
  return { frame, fromEditor, save, error, enabled };
}

describe("the video edit dialog, when the render or its processing fails", () => {
  it("shows the editor's reason (a source that does not decode) and re-enables the buttons", async () => {
    const dialog = render();
    await until(() => dialog.enabled());
    act(() => dialog.save().click());
    expect(dialog.enabled()).toBe(false);
    dialog.fromEditor({ type: EMBED_MESSAGES.videoProgress, progress: 40 });
    dialog.fromEditor({ type: EMBED_MESSAGES.videoError, message: "clip 2: the source does not decode" });
    await until(() => dialog.enabled());
    expect(dialog.error()).toContain("The video could not be saved: clip 2: the source does not decode");
  });

  it("stops polling a dead processing job and shows its reason", async () => {
    calls.createVideoStory.mockResolvedValue({ libraryId: "material", storyId: "s1", versionNo: 1, renderId: "r1" });
    calls.fetchTranscodeTask
      .mockResolvedValueOnce({ state: "running", progress: 30, error: null })
      .mockResolvedValue({ state: "failed", progress: 30, error: "moov atom not found" });
    const dialog = render();
    await until(() => dialog.enabled());
    act(() => dialog.save().click());
    dialog.fromEditor({ type: EMBED_MESSAGES.videoRendered, videoUrl: "/r/r1/file", title: "发布会" });
    await until(() => dialog.error() !== "");
    expect(dialog.error()).toContain("moov atom not found");
    await until(() => dialog.enabled());
    expect(calls.fetchTranscodeTask).toHaveBeenCalledTimes(2);
    expect(calls.commitVideo).not.toHaveBeenCalled();
  });

  it("gives up when the editor's page loads again while it renders (its answer will never come)", async () => {
    const dialog = render();
    await until(() => dialog.enabled());
    act(() => dialog.save().click());
    expect(dialog.enabled()).toBe(false);
    act(() => {
      dialog.frame.dispatchEvent(new Event("load"));
    });
    await until(() => dialog.enabled());
    expect(dialog.error()).toContain("The editor was reloaded while it rendered");
  });
});

describe("transcodeStep", () => {
  it("waits on queued and running (a retry pending too), goes on at done, stops on anything else", () => {
    expect(transcodeStep({ state: "queued", progress: 0, error: "timeout, retrying" })).toEqual({
      step: "wait",
      progress: 0,
    });
    expect(transcodeStep({ state: "running", progress: 55 })).toEqual({ step: "wait", progress: 55 });
    expect(transcodeStep({ state: "done", progress: 100 })).toEqual({ step: "done" });
    expect(transcodeStep({ state: "failed", progress: 20, error: "moov atom not found" })).toEqual({
      step: "failed",
      reason: "moov atom not found",
    });
    expect(transcodeStep({ state: "cancelled", progress: 20, error: null })).toEqual({
      step: "failed",
      reason: "cancelled",
    });
    expect(transcodeStep({ state: "dead", progress: 20 })).toEqual({ step: "failed", reason: "dead" });
  });
});
