import { describe, expect, it } from "vitest";
import { toRuleInput } from "./rule-form";

describe("the rule form", () => {
  it("drops empty conditions and sends only the chosen kind's fields", () => {
    expect(
      toRuleInput({
        name: "  when committed  ",
        trigger: "committed",
        conditions: { libraryIds: ["product"], tags: [" "], keyword: "  ", authors: [] },
        steps: [
          { kind: "template", templateId: "t1", url: "left over" },
          { kind: "webhook", url: " https://example.com/hook ", secret: "", timeoutMs: 3000, secretSet: true },
          { kind: "webhook", url: "https://example.com/other", secret: "a new secret" },
          { kind: "publish", channelIds: ["c1", "c2"] },
        ],
      }),
    ).toEqual({
      name: "when committed",
      enabled: true,
      trigger: "committed",
      conditions: { libraryIds: ["product"] },
      steps: [
        { kind: "template", templateId: "t1" },
        { kind: "webhook", url: "https://example.com/hook", timeoutMs: 3000 },
        { kind: "webhook", url: "https://example.com/other", timeoutMs: 10000, secret: "a new secret" },
        { kind: "publish", channelIds: ["c1", "c2"] },
      ],
    });
  });
});
