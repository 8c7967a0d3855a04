import type { Locale } from "antd/es/locale";

/** A language's resources: our strings, antd's locale and the name of dayjs's (registered by the pack). */
export interface LanguagePack {
  strings: Record<string, string>;
  antd: Locale;
  dayjs: string;
}
