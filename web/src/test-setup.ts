import { loadLanguage } from "./locales";

// The app's i18n instance gets its strings from the language packs before the first render (main.tsx); tests load both.
await Promise.all([loadLanguage("zh-CN"), loadLanguage("en-US")]);
