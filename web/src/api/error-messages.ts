/**
 * Spec section 8: what the user sees for a failed API call. Pure; the caller
 * passes the translate function so the texts stay in the locale files.
 */

export type Translate = (key: string, params?: Record<string, unknown>) => string;

export type ErrorNotice =
  | { kind: "notify"; title: string; description: string }
  /** 401: the caller clears the stored tokens, logs out and reloads. */
  | { kind: "unauthorized" };

const MESSAGE_KEYS: Record<number, string> = {
  403: "error.403",
  404: "error.404",
  405: "error.405",
  408: "error.408",
  500: "error.500",
  501: "error.501",
  502: "error.502",
  503: "error.503",
  504: "error.504",
  505: "error.505",
};

/** `status` is null when no response arrived (network failure, timeout). */
export function errorNotice(status: number | null, serverMessage: string | undefined, t: Translate): ErrorNotice {
  if (status == null) return { kind: "notify", title: t("error.noResponse"), description: "" };
  if (status === 401) return { kind: "unauthorized" };
  const title = t("error.title", { status });
  if (status === 400) return { kind: "notify", title, description: serverMessage ?? "" };
  const key = MESSAGE_KEYS[status];
  if (key) return { kind: "notify", title, description: t(key) };
  return { kind: "notify", title: String(status), description: t("error.other") };
}
