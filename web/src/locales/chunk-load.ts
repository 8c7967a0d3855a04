import type { Language } from "./index";

/**
 * Spec section 8's "Loading chunk … failed", in each language. It lives
 * outside the language packs because it must be shown when a pack itself
 * fails to load; the packs take their `error.chunkLoad` from here.
 */
export const CHUNK_LOAD_MESSAGE: Record<Language, string> = {
  "zh-CN": "加载模块 {{name}} 失败",
  "en-US": "Loading chunk {{name}} failed",
};

/** The message for chunk `name`, without i18next (which has no strings yet when a pack failed). */
export function chunkLoadMessage(language: Language, name: string): string {
  return CHUNK_LOAD_MESSAGE[language].replace("{{name}}", name);
}
