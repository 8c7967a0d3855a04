import { i18n } from "../index";
import enUS from "./en-US";
import zhCN from "./zh-CN";

export const monitorStrings = { "zh-CN": zhCN, "en-US": enUS } as const;

/**
 * The monitors' strings join i18n when a monitor page's chunk loads (this
 * module runs then), so the language packs every page loads do not carry them.
 */
for (const [language, strings] of Object.entries(monitorStrings))
  i18n.addResourceBundle(language, "translation", strings, true, false);
