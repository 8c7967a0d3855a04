import i18next, { type i18n as I18n, type InitOptions } from "i18next";
import type { LanguagePack } from "./pack";

export type { LanguagePack } from "./pack";

export const LANGUAGES = ["zh-CN", "en-US"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "zh-CN";
/** Where the chosen language is kept (localStorage). */
export const LANGUAGE_STORAGE_KEY = "pro__lang";
const LANGUAGE_KEY = LANGUAGE_STORAGE_KEY;

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
const OPTIONS: InitOptions = {
  fallbackLng: DEFAULT_LANGUAGE,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
  showSupportNotice: false,
};

/** An i18next instance over the given strings, ready at once. */
export function createI18nWith(language: Language, strings: Partial<Record<Language, Record<string, string>>>): I18n {
  const instance = i18next.createInstance();
  const resources = Object.fromEntries(
    Object.entries(strings).map(([name, translation]) => [name, { translation }]),
  ) as Record<string, { translation: Record<string, string> }>;
  void instance.init({ ...OPTIONS, resources, lng: language });
  return instance;
}

/**
 * The app's instance. It starts empty: each language's strings arrive with
 * its pack (`loadLanguage`), so a page loads only the language it shows
 * (issue 5: the other one weighed ≈ 10 KB gzipped on every first load).
 */
export const i18n = createI18nWith(storedLanguage(typeof localStorage === "undefined" ? undefined : localStorage), {});

const PACKS: Record<Language, () => Promise<{ default: LanguagePack }>> = {
  "zh-CN": () => import("./zh-CN/pack"),
  "en-US": () => import("./en-US/pack"),
};

const packs = new Map<Language, Promise<LanguagePack>>();

/** A language's pack, fetched once, its strings added to `i18n`; a failed fetch is tried again next time. */
export function loadLanguage(language: Language): Promise<LanguagePack> {
  let pack = packs.get(language);
  if (!pack) {
    pack = PACKS[language]().then(({ default: loaded }) => {
      i18n.addResourceBundle(language, "translation", loaded.strings, true, true);
      return loaded;
    });
    pack.catch(() => packs.delete(language));
    packs.set(language, pack);
  }
  return pack;
}
