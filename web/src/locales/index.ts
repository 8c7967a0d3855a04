import i18next, { type i18n as I18n } from "i18next";
import enUS from "./en-US";
import zhCN from "./zh-CN";

export const LANGUAGES = ["zh-CN", "en-US"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "zh-CN";
const LANGUAGE_KEY = "pro__lang";

export const resources = {
  "zh-CN": { translation: zhCN },
  "en-US": { translation: enUS },
} as const;

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

export function storedLanguage(storage: Pick<Storage, "getItem"> | undefined): Language {
  const value = storage?.getItem(LANGUAGE_KEY);
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}

export function storeLanguage(storage: Pick<Storage, "setItem">, language: Language): void {
  storage.setItem(LANGUAGE_KEY, language);
}

/**
 * Keys are flat strings such as `menu.upload.image` (the Ant Design Pro habit),
 * so the key separator is off: `menu.upload` and `menu.upload.image` are both titles.
 */
export function createI18n(language: Language): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    resources,
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });
  return instance;
}

export const i18n = createI18n(storedLanguage(typeof localStorage === "undefined" ? undefined : localStorage));
