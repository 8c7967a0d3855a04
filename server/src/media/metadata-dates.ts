/** Dates as photo metadata writes them, turned into ISO 8601 without inventing a time zone. */
const EXIF_DATE =
  /^(\d{4})[:-](\d{2})[:-](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

/** "2008:10:22 16:28:39" (+ "-05:00") or XMP's "2005-09-07T15:07:40-07:00" → ISO 8601; null for "0000:00:00 …" and nonsense. */
export function isoDate(value: unknown, offset?: unknown): string | null {
  const raw = typeof value === "string" ? value.trim() : "";
  const match = EXIF_DATE.exec(raw);
  if (!match) return null;
  const [, year, month, day, hour, minute, second] = match;
  const [y, mo, d] = [Number(year), Number(month), Number(day)];
  if (y < 1800 || mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  if (hour === undefined) return `${year}-${month}-${day}`;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 60) return null;
  const zoneSource = match[8] ?? (typeof offset === "string" ? offset.trim() : undefined);
  const zoneMatch = zoneSource ? /^(Z|[+-]\d{2}):?(\d{2})?$/.exec(zoneSource) : null;
  const zone = zoneMatch ? (zoneMatch[1] === "Z" ? "Z" : `${zoneMatch[1]}:${zoneMatch[2] ?? "00"}`) : "";
  return `${year}-${month}-${day}T${hour}:${minute}:${second ?? "00"}${zone}`;
}

export function iptcDate(date: unknown, time: unknown): string | null {
  const day = typeof date === "string" ? /^(\d{4})(\d{2})(\d{2})$/.exec(date.trim()) : null;
  if (!day) return null;
  const clock = typeof time === "string" ? /^(\d{2})(\d{2})(\d{2})([+-]\d{2})(\d{2})?$/.exec(time.trim()) : null;
  const stamp = `${day[1]}:${day[2]}:${day[3]}${clock ? ` ${clock[1]}:${clock[2]}:${clock[3]}` : ""}`;
  return isoDate(stamp, clock ? `${clock[4]}:${clock[5] ?? "00"}` : undefined);
}
