import { message } from "antd";
import type { Locale } from "antd/es/locale";
import dayjs from "dayjs";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { i18n, type Language, type LanguagePack, loadLanguage, storeLanguage } from "../locales";

interface LanguageContextValue {
  language: Language;
  /** antd's strings for the language (ConfigProvider). */
  antdLocale: Locale;
  setLanguage: (language: Language) => void;
}

const LanguageContext = createContext<LanguageContextValue | null>(null);

interface Active {
  language: Language;
  pack: LanguagePack;
}

/**
 * The language in use. `initial` is loaded before the first render (main.tsx);
 * switching fetches the other language's pack first, then changes everything
 * at once, so no screen shows keys or a mix of languages.
 */
export function LanguageProvider({ initial, children }: { initial: Active; children: ReactNode }) {
  const [active, setActive] = useState<Active>(initial);
  useEffect(() => {
    dayjs.locale(active.pack.dayjs);
    document.documentElement.lang = active.language;
  }, [active]);
  const setLanguage = useCallback((next: Language) => {
    loadLanguage(next).then(
      (pack) => {
        void i18n.changeLanguage(next);
        storeLanguage(localStorage, next);
        setActive({ language: next, pack });
      },
      () => void message.error(i18n.t("error.chunkLoad", { name: `locale-${next}` })),
    );
  }, []);
  const value = useMemo(
    () => ({ language: active.language, antdLocale: active.pack.antd, setLanguage }),
    [active, setLanguage],
  );
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

export function useLanguage(): LanguageContextValue {
  const value = useContext(LanguageContext);
  if (!value) throw new Error("useLanguage outside LanguageProvider");
  return value;
}
