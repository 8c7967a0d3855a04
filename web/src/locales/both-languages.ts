import type { i18n as I18n } from "i18next";
import enUS from "./en-US";
import { createI18nWith, type Language } from "./index";
import zhCN from "./zh-CN";

/** An instance with both languages' strings at once, ready synchronously: for tests. The app loads one (locales/index.ts). */
export function createI18n(language: Language): I18n {
  return createI18nWith(language, { "zh-CN": zhCN, "en-US": enUS });
}
