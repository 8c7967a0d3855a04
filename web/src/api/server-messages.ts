/**
 * Server messages in the user's language (docs/api.md, "Errors"). A refusal
 * carries its English `msg` and, where the server names it, a stable
 * `msgCode` with `msgParams`. The text shown is the translation of
 * `server.<msgCode>` when the locale files have one, else the server's `msg`.
 * A parameter whose value has its own entry `server.<name>.<value>` (a
 * range of addresses, a state) is translated before it is put in; a `count`
 * chooses the plural form.
 */

export type MessageParams = Record<string, string | number>;

export interface CodedMessage {
  msg: string;
  msgCode?: string | null;
  msgParams?: MessageParams | null;
}

export interface Translator {
  t: (key: string, params?: Record<string, unknown>) => string;
  /** With the message's values, so a count finds its plural form (`_one`, `_other`). */
  exists: (key: string, params?: Record<string, unknown>) => boolean;
}

export function serverMessage({ msg, msgCode, msgParams }: CodedMessage, { t, exists }: Translator): string {
  if (!msgCode || !exists(`server.${msgCode}`, msgParams ?? {})) return msg;
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(msgParams ?? {})) {
    const key = `server.${name}.${value}`;
    params[name] = exists(key) ? t(key) : value;
  }
  return t(`server.${msgCode}`, params);
}
