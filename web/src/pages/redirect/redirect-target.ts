/** Where /redirect?to=/path or /redirect/path goes; only same-origin paths are followed. */
export function redirectTarget(pathname: string, to: string | null, search = ""): string {
  const fromPath = pathname.replace(/^\/redirect\/?/, "");
  const target = to ?? (fromPath ? `/${fromPath}${search}` : "/");
  return target.startsWith("/") && !target.startsWith("//") ? target : "/";
}
