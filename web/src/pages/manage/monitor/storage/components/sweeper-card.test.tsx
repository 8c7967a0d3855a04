// @vitest-environment jsdom
import { act } from "react";
import { createRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { afterEach, describe, expect, it } from "vitest";
import type { StorageMonitor } from "../../../../../api/monitor";
import { createI18n } from "../../../../../locales/both-languages";
import { monitorStrings } from "../../../../../locales/monitor";
import { stubMatchMedia } from "../../../../../test-support";
import { SweeperCard } from "./sweeper-card";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

stubMatchMedia();

let container: HTMLDivElement;
afterEach(() => container?.remove());

type Report = NonNullable<StorageMonitor["sweeper"]>;
type Target = Report["targets"][number];

const figures = (target: Partial<Target> & Pick<Target, "targetId" | "name">): Target => ({
  scanned: 0,
  deleted: 0,
  young: 0,
  moving: 0,
  missing: 0,
  error: null,
  sameAs: null,
  ...target,
});

const report: Report = {
  finishedAt: "2026-11-27T10:00:00.000Z",
  blobsScanned: 12,
  orphansDeleted: 3,
  orphansYoung: 1,
  blobsMissing: 0,
  missingKeys: [],
  abandonedUploads: 0,
  diskTrashPurged: 0,
  outgoingCopiesDeleted: 0,
  targets: [
    figures({ targetId: "builtin", name: "", scanned: 9, deleted: 2, young: 1 }),
    figures({ targetId: "t-archive", name: "Archive disk", scanned: 3, deleted: 1, moving: 2 }),
    figures({ targetId: "t-alias", name: "Archive again", sameAs: "t-archive" }),
    figures({
      targetId: "t-down",
      name: "Cold bucket",
      error: { reason: "unreachable", message: "connect ECONNREFUSED 127.0.0.1:9" },
    }),
  ],
};

function render() {
  container = document.createElement("div");
  document.body.append(container);
  const i18n = createI18n("en-US");
  i18n.addResourceBundle("en-US", "translation", monitorStrings["en-US"], true, false);
  const root = createRoot(container);
  act(() =>
    root.render(
      <I18nextProvider i18n={i18n}>
        <SweeperCard report={report} loading={false} />
      </I18nextProvider>,
    ),
  );
  return root;
}

describe("SweeperCard", () => {
  it("shows each storage target's figures and state, an unreachable one with the store's message", () => {
    const root = render();
    const rows = [...container.querySelectorAll("[data-testid=storage-sweeper-targets] tbody tr[data-row-key]")].map(
      (row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ["Built-in storage", "9", "2", "1", "0", "0", "Swept"],
      ["Archive disk", "3", "1", "0", "2", "0", "Swept"],
      ["Archive again", "0", "0", "0", "0", "0", "Same place as Archive disk"],
      ["Cold bucket", "0", "0", "0", "0", "0", "Not swept: the storage cannot be reached"],
    ]);
    const failure = container.querySelector("[data-testid=storage-sweeper-target-error]");
    expect(failure?.getAttribute("title")).toBe("connect ECONNREFUSED 127.0.0.1:9");
    act(() => root.unmount());
  });
});
