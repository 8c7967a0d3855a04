// @vitest-environment jsdom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import { ManuscriptView } from ".";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

describe("a composite as a manuscript", () => {
  it("shows the text's parts in order with members placed, then the members the text does not place", () => {
    container = document.createElement("div");
    document.body.append(container);
    root = createRoot(container);
    const members = ["a", "b", "c"].map((storyId) => ({ storyId }));
    act(() =>
      root.render(
        <ManuscriptView
          parts={[
            { kind: "html", html: "<h2>台风过境</h2><p>码头<strong>清晨</strong></p>" },
            { kind: "member", storyId: "c" },
            { kind: "html", html: "<p>傍晚</p>" },
            { kind: "member", storyId: "gone" },
            { kind: "member", storyId: "a" },
          ]}
          members={members}
          unplacedTitle="More members"
          renderMember={(member) => <span className="tile">{member.storyId}</span>}
        />,
      ),
    );
    const order = [...container.querySelectorAll("[data-testid=manuscript-text], [data-testid=manuscript-member]")].map(
      (node) => (node.getAttribute("data-testid") === "manuscript-text" ? node.textContent : `[${node.textContent}]`),
    );
    expect(order).toEqual(["台风过境码头清晨", "[c]", "傍晚", "[a]", "[b]"]);
    expect(container.querySelector("[data-testid=manuscript-text] strong")?.textContent).toBe("清晨");
    expect(container.querySelector("[data-testid=manuscript-unplaced]")?.textContent).toBe("More membersb");
  });

  it("lists every member when there is no text", () => {
    container = document.createElement("div");
    document.body.append(container);
    root = createRoot(container);
    act(() =>
      root.render(
        <ManuscriptView
          parts={[]}
          members={[{ storyId: "a" }, { storyId: "b" }]}
          unplacedTitle="More members"
          renderMember={(member) => member.storyId}
        />,
      ),
    );
    expect(container.querySelector("[data-testid=manuscript-unplaced]")?.textContent).toBe("ab");
  });
});
