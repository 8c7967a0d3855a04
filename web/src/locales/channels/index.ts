import { i18n } from "../index";
import enUS from "./en-US";
import zhCN from "./zh-CN";

export const channelStrings = { "zh-CN": zhCN, "en-US": enUS } as const;

/** The channels page's strings join i18n when its chunk loads (this module runs then), not with every page. */
for (const [language, strings] of Object.entries(channelStrings))
  i18n.addResourceBundle(language, "translation", strings, true, false);
