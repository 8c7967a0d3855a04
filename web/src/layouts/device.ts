/** Spec section 2: mobile below 576px, tablet 576–1199px, desktop from 1200px. */
export type DeviceClass = "mobile" | "tablet" | "desktop";

export const TABLET_MIN_WIDTH = 576;
export const DESKTOP_MIN_WIDTH = 1200;
export const SIDEBAR_WIDTH = 256;
export const SIDEBAR_COLLAPSED_WIDTH = 80;

export function deviceClass(width: number): DeviceClass {
  if (width < TABLET_MIN_WIDTH) return "mobile";
  if (width < DESKTOP_MIN_WIDTH) return "tablet";
  return "desktop";
}

/**
 * The sidebar is open on desktop and mobile and collapsed on tablet. On mobile
 * the menu lives in a drawer; "open" there means the drawer shows the full
 * 256px menu, never the 80px rail. The drawer itself starts closed so the page
 * is visible, and the menu button opens it.
 */
export function sidebarCollapsed(device: DeviceClass): boolean {
  return device === "tablet";
}
