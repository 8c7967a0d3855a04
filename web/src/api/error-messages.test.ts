import { describe, expect, it } from "vitest";
import { createI18n } from "../locales/both-languages";
import { errorNotice, type Translate } from "./error-messages";

const en = createI18n("en-US");
const t: Translate = (key, params) => en.t(key, params);

describe("errorNotice (spec section 8, en-US)", () => {
  it.each([
    [403, "access denied"],
    [404, "request error, resource not found"],
    [405, "request method not allowed"],
    [408, "request timeout"],
    [500, "server error"],
    [501, "network not implemented"],
    [502, "network error"],
    [503, "service unavailable"],
    [504, "network timeout"],
    [505, "http version not supported"],
  ])("%i → 'error code: %i' / %s", (status, description) => {
    expect(errorNotice(status, "ignored", t)).toEqual({
      kind: "notify",
      title: `error code: ${status}`,
      description,
    });
  });

  it("400 shows the server's message", () => {
    expect(errorNotice(400, "title: required", t)).toEqual({
      kind: "notify",
      title: "error code: 400",
      description: "title: required",
    });
  });

  it("401 ends the session instead of notifying", () => {
    expect(errorNotice(401, "whatever", t)).toEqual({ kind: "unauthorized" });
  });

  it("any other status is the title, with 'connection error'", () => {
    expect(errorNotice(418, "teapot", t)).toEqual({ kind: "notify", title: "418", description: "connection error" });
    expect(errorNotice(413, "too large", t)).toEqual({ kind: "notify", title: "413", description: "connection error" });
  });

  it("no response → 'failed to connect to server'", () => {
    expect(errorNotice(null, undefined, t)).toEqual({
      kind: "notify",
      title: "failed to connect to server",
      description: "",
    });
  });

  it("is translated in zh-CN", () => {
    const zh = createI18n("zh-CN");
    const notice = errorNotice(403, undefined, (key, params) => zh.t(key, params));
    expect(notice).toEqual({ kind: "notify", title: "错误码：403", description: "拒绝访问" });
  });
});
