/** The WebDAV mounts the server serves (server/src/modules/dav/dav.compose.ts, docs/disk.md "Mounting the disk"). */
export const DAV_MOUNTS = ["disk", "shared", "libraries"] as const;
export type DavMount = (typeof DAV_MOUNTS)[number];

const PATHS: Record<DavMount, string> = { disk: "dav", shared: "dav-shared", libraries: "dav-libraries" };

/** One mount's addresses as each system's file manager wants them typed. */
export interface DavAddress {
  mount: DavMount;
  /** Finder (Go → Connect to Server), phones' file apps, davfs2: the plain URL. */
  url: string;
  /** Windows Explorer's Map network drive: `\\host@SSL@port\path`. */
  windows: string;
  /** GNOME Files / KDE Dolphin: `davs://host/path/` (`dav://` over plain HTTP). */
  linux: string;
}

/** The addresses of the three mounts for the site the page was loaded from. */
export function davAddresses(location: Pick<Location, "protocol" | "hostname" | "port">): DavAddress[] {
  const secure = location.protocol === "https:";
  const host = location.hostname.includes(":") ? `[${location.hostname}]` : location.hostname;
  const port = location.port ? `:${location.port}` : "";
  const windowsHost = `${host}${secure ? "@SSL" : ""}${location.port ? `@${location.port}` : ""}`;
  return DAV_MOUNTS.map((mount) => ({
    mount,
    url: `${location.protocol}//${host}${port}/${PATHS[mount]}/`,
    windows: `\\\\${windowsHost}\\${PATHS[mount]}`,
    linux: `${secure ? "davs" : "dav"}://${host}${port}/${PATHS[mount]}/`,
  }));
}
