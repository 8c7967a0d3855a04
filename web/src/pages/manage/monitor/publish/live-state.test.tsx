// @vitest-environment jsdom
import { act } from "react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createI18n } from "../../../../locales/both-languages";
import { monitorStrings } from "../../../../locales/monitor";
import { renderInApp } from "../../../../test-render";
import { stubMatchMedia, until } from "../../../../test-support";

/**
 * The server's side, through the page's real clients: the JSON routes answer empty lists, and the event
 * stream's body is a stream the test writes into (or ends), so the test decides when it connects.
 */
let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
let streamAnswered: (() => void) | undefined;
const streamOpened = new Promise<void>((resolve) => {
  streamAnswered = resolve;
});
let holdStream: Promise<void> = Promise.resolve();
vi.stubGlobal("fetch", async (input: Request | string) => {
  const url = new URL(typeof input === "string" ? input : input.url);
  if (url.pathname.endsWith("/publishing/events")) {
    await holdStream;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        stream = controller;
      },
    });
    streamAnswered?.();
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  }
  const data = url.pathname.endsWith("/channel-stats")
    ? []
    : { list: [], total: 0, pageNo: 1, pageSize: 20, totalPage: 0 };
  return new Response(JSON.stringify({ code: 0, msg: "ok", data }), {
    headers: { "content-type": "application/json" },
  });
});

import ManageMonitorPublishPage from "./index";

beforeAll(() => {
  stubMatchMedia();
});

let container: HTMLDivElement;

const indicator = () => container.querySelector("[data-testid=monitor-live]");

describe("the publish monitor's live indicator", () => {
  it("says it is connecting until the stream is up, live once it is, interrupted only after it closed", async () => {
    let release: () => void = () => {};
    holdStream = new Promise((resolve) => {
      release = resolve;
    });
    const i18n = createI18n("en-US");
    i18n.addResourceBundle("en-US", "translation", monitorStrings["en-US"], true, false);
    container = await renderInApp(<ManageMonitorPublishPage />, { i18n });
    // Before the first connection: connecting, not "interrupted".
    await until(() => indicator() !== null);
    expect(indicator()?.getAttribute("data-state")).toBe("connecting");
    expect(indicator()?.textContent).toBe("Connecting to live updates…");
    expect(container.textContent).not.toContain("Live updates interrupted");

    // Connected, but not ready yet: still connecting.
    release();
    await act(() => streamOpened);
    expect(indicator()?.getAttribute("data-state")).toBe("connecting");

    // Ready: live.
    act(() => stream?.enqueue(new TextEncoder().encode("event: ready\ndata: {}\n\n")));
    await until(() => indicator()?.getAttribute("data-state") === "live");
    expect(indicator()?.textContent).toBe("Live");

    // The server closes the stream: interrupted (polling), until it is up again.
    act(() => stream?.close());
    await until(() => indicator()?.getAttribute("data-state") === "down");
    expect(indicator()?.textContent).toBe("Live updates interrupted; asking every few seconds");
  }, 60_000);
});
