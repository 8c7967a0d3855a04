import { i18n } from "../index";
import enUS from "./en-US";
import zhCN from "./zh-CN";

export const auditLogStrings = { "zh-CN": zhCN, "en-US": enUS } as const;

/** The log page's strings join i18n when its chunk loads, so the packs every page loads do not carry them. */
for (const [language, strings] of Object.entries(auditLogStrings))
  i18n.addResourceBundle(language, "translation", strings, true, false);
