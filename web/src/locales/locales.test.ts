import { describe, expect, it } from "vitest";
import { adminMenuSeed, type MenuSeedItem, userMenuSeed } from "../../../server/src/modules/menus/menu-seed";
import { hasMenuIcon } from "../components/menu-icon";
import { hasPage } from "../router/page-modules";
import { chunkLoadMessage } from "./chunk-load";
import enUS from "./en-US";
import { i18n, loadLanguage } from "./index";
import zhCN from "./zh-CN";

const seedKeys = (items: MenuSeedItem[]): string[] =>
  items.flatMap((item) => [item.key, ...seedKeys(item.children ?? [])]);
const seedComponents = (items: MenuSeedItem[]): string[] =>
  items.flatMap((item) => [...(item.component ? [item.component] : []), ...seedComponents(item.children ?? [])]);

const seedIcons = (items: MenuSeedItem[]): string[] =>
  items.flatMap((item) => [...(item.icon ? [item.icon] : []), ...seedIcons(item.children ?? [])]);

describe("language packs", () => {
  it("bring each language's strings, antd's and dayjs's locale, fetched once", async () => {
    const zh = await loadLanguage("zh-CN");
    expect(zh.strings).toBe(zhCN);
    expect(zh.antd.locale).toBe("zh-cn");
    expect(zh.dayjs).toBe("zh-cn");
    const en = await loadLanguage("en-US");
    expect(en.antd.locale).toBe("en");
    expect(await loadLanguage("en-US")).toBe(en);
    expect(i18n.getFixedT("en-US")("menu.search")).toBe(enUS["menu.search"]);
    expect(i18n.getFixedT("zh-CN")("menu.search")).toBe(zhCN["menu.search"]);
  });
});

describe("the message of a language pack that fails to load", () => {
  it("is the packs' own chunk-load message, in the language the page was to show", async () => {
    await loadLanguage("zh-CN");
    await loadLanguage("en-US");
    for (const language of ["zh-CN", "en-US"] as const)
      expect(chunkLoadMessage(language, `locale-${language}`)).toBe(
        i18n.getFixedT(language)("error.chunkLoad", { name: `locale-${language}` }),
      );
    expect(chunkLoadMessage("zh-CN", "locale-zh-CN")).toBe("加载模块 locale-zh-CN 失败");
  });
});

describe("locales", () => {
  it("zh-CN and en-US have the same keys", () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(enUS).sort());
  });

  it("has no empty text", () => {
    for (const locale of [zhCN, enUS]) {
      for (const [key, value] of Object.entries(locale)) expect(value.trim(), key).not.toBe("");
    }
  });

  it("titles every menu key of the server's seed in both languages", () => {
    const keys = [...seedKeys(userMenuSeed), ...seedKeys(adminMenuSeed)];
    expect(keys.length).toBeGreaterThan(40);
    for (const key of keys) {
      expect(zhCN, key).toHaveProperty([`menu.${key}`]);
      expect(enUS, key).toHaveProperty([`menu.${key}`]);
    }
  });

  it("has a page module the router finds, and an empty-state text, for every component the seed names", () => {
    for (const component of [...seedComponents(userMenuSeed), ...seedComponents(adminMenuSeed)]) {
      expect(hasPage(component), component).toBe(true);
      expect(enUS, component).toHaveProperty([`empty.${component.replaceAll("/", ".")}`]);
    }
  });

  it("draws every icon the seed names", () => {
    const icons = [...seedIcons(userMenuSeed), ...seedIcons(adminMenuSeed)];
    expect(icons.length).toBeGreaterThan(10);
    for (const icon of icons) expect(hasMenuIcon(icon), icon).toBe(true);
    expect(hasMenuIcon("NoSuchOutlined")).toBe(false);
    expect(hasPage("frontend/no-such-page")).toBe(false);
  });

  it("carries the spec's texts verbatim", () => {
    expect(zhCN).toMatchObject({
      "layout.logout.title": "提示",
      "layout.logout.content": "真的要注销登录吗 ?",
      "layout.logout.errorTitle": "错误",
      "settings.copied": "复制完毕",
      "settings.copyFailed": "复制失败",
      "crud.range": "第{{from}}-{{to}}条 共{{total}}条",
    });
    expect(enUS).toMatchObject({
      "error.title": "error code: {{status}}",
      "error.noResponse": "failed to connect to server",
      "exception.403": "Sorry, you have no access to this page",
      "exception.404": "Sorry, the page does not exist or is still in development",
      "exception.500": "Sorry, server error",
      "layout.tabs.noLeft": "no tabs on the left",
      "layout.tabs.noRight": "no tabs on the right",
      "route.share.storyPreview": "share manuscript",
      "app.title": "dams",
    });
  });
});
