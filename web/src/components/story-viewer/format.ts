import type { StoryProperty } from "../../api/catalogue";
/** Spec section 9: file sizes in KB, MB or GB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** Spec section 9: durations in seconds, minutes, hours (h:mm:ss, or m:ss under an hour). */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** A property's value as text: a code list's values by their labels, switches as ✓/✗, lists joined. */
export function propertyText(value: unknown, definition?: Pick<StoryProperty, "kind" | "options">): string {
  const label = (item: unknown) =>
    definition?.options.find((option) => option.value === item)?.label ??
    (typeof item === "string" ? item : JSON.stringify(item));
  if (definition?.kind === "select") return label(value);
  if (definition?.kind === "multiselect" && Array.isArray(value)) return value.map(label).join(", ");
  if (definition?.kind === "switch" && typeof value === "boolean") return value ? "✓" : "✗";
  return typeof value === "string" ? value : JSON.stringify(value);
}
