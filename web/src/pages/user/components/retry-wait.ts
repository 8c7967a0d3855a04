/** How long to wait before trying again, from a 429's Retry-After, in words. */
export function retryWait(
  seconds: number | null,
  t: (key: string, params?: Record<string, unknown>) => string,
): string {
  if (seconds == null) return t("user.wait.later");
  if (seconds < 60) return t("user.wait.seconds", { count: Math.max(1, seconds) });
  return t("user.wait.minutes", { count: Math.ceil(seconds / 60) });
}
