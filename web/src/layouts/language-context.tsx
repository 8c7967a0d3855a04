import dayjs from "dayjs";
import "dayjs/locale/zh-cn";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { i18n, type Language, storeLanguage } from "../locales";

interface LanguageContextValue {
  language: Language;
  setLanguage: (language: Language) => void;
}

const LanguageContext = createContext<LanguageContextValue | null>(null);

const DAYJS_LOCALES: Record<Language, string> = { "zh-CN": "zh-cn", "en-US": "en" };

export function LanguageProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(i18n.language as Language);
  useEffect(() => {
    dayjs.locale(DAYJS_LOCALES[language]);
    document.documentElement.lang = language;
  }, [language]);
  const setLanguage = useCallback((next: Language) => {
    void i18n.changeLanguage(next);
    storeLanguage(localStorage, next);
    setLanguageState(next);
  }, []);
  const value = useMemo(() => ({ language, setLanguage }), [language, setLanguage]);
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

export function useLanguage(): LanguageContextValue {
  const value = useContext(LanguageContext);
  if (!value) throw new Error("useLanguage outside LanguageProvider");
  return value;
}
