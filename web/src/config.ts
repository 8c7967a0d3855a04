/** Spec section 9: message toasts at top 70px, shown 1 s, at most 3 at a time. */
export const MESSAGE_CONFIG = { top: 70, duration: 1, maxCount: 3 } as const;

/** Spec section 9: modals of the editors take 90% of the window. */
export const EDITOR_MODAL_SIZE = "90vw";
export const EDITOR_MODAL_HEIGHT = "90vh";

/** The file types the image-edit upload accepts. */
export const IMAGE_EDIT_ACCEPT = ".jpg,.jpeg,.png,.bmp";

/**
 * The settings drawer is a development tool: it shows in development builds,
 * and in a production build only when the URL carries `?settings=1`, so the
 * end-to-end tests can open it against the built app.
 */
export function settingsDrawerEnabled(
  search: string,
  dev: boolean = import.meta.env.DEV,
  storage: Pick<Storage, "getItem" | "setItem"> | undefined = globalThis.sessionStorage,
): boolean {
  if (dev) return true;
  // The flag sticks for the browser tab, so the drawer stays while navigating.
  if (new URLSearchParams(search).get("settings") === "1") storage?.setItem(SETTINGS_FLAG_KEY, "1");
  return storage?.getItem(SETTINGS_FLAG_KEY) === "1";
}

const SETTINGS_FLAG_KEY = "pro__Settings-Drawer";

/** Spec section 9: the video edit dialog asks for the new video's progress first after 1 s, then again each second. */
export const VIDEO_POLL_FIRST_MS = 1000;
export const VIDEO_POLL_INTERVAL_MS = 1000;
/** Spec section 9: videos made in the editors go to the download library, `material`. */
export const DEFAULT_VIDEO_LIBRARY = "material";
