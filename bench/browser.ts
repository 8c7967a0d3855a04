import { type Browser, chromium } from "@playwright/test";

/** Debian's Chromium, headless, as the e2e journeys run it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
  });
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** "measured / target = ratio (met)", lower is better. */
export function against(measured: number, target: number, unit: string): string {
  const verdict = measured <= target ? "met" : "NOT met";
  return `${measured.toFixed(1)} ${unit} / target ${target} ${unit} = ${(measured / target).toFixed(2)} (${verdict})`;
}
