/**
 * Writing ffmpeg filter graphs as text, safely. A value inside a filter graph
 * is unescaped twice: first by the graph parser, which splits the graph at
 * `[ ] , ;` and honours `\` and `'`, then by the filter's option parser, which
 * splits at `:` and `=` with the same `\` and `'` rules. So every option value
 * is escaped for the option level and the result again for the graph level;
 * text drawn with drawtext uses `expansion=none` as well, so `%` is literal.
 * Nothing here runs a process.
 */

/** Option level: a backslash before `\`, `'`, `:` and `=`; leading or trailing blanks would be dropped, so they are escaped too. */
export function escapeOptionValue(value: string): string {
  const escaped = value.replace(/[\\':=]/g, (char) => `\\${char}`);
  return escaped.replace(/^\s/, (char) => `\\${char}`).replace(/\s$/, (char) => `\\${char}`);
}

/** Graph level: a backslash before `\`, `'`, `[`, `]`, `,` and `;`. */
export function escapeGraphText(value: string): string {
  return value.replace(/[\\'[\],;]/g, (char) => `\\${char}`);
}

export type FilterOptions = Record<string, string | number | undefined>;

/** One filter with its options, escaped for a filter graph: `name=key=value:key=value`. */
export function filter(name: string, options: FilterOptions = {}): string {
  const args = Object.entries(options)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${key}=${escapeOptionValue(typeof value === "number" ? formatNumber(value) : value)}`)
    .join(":");
  return args ? `${name}=${escapeGraphText(args)}` : name;
}

/** A chain `[in]a,b,c[out]`; `inputs` and `outputs` are pad labels without brackets. */
export function chain(inputs: string[], filters: string[], outputs: string[]): string {
  const pads = (labels: string[]) => labels.map((label) => `[${label}]`).join("");
  return `${pads(inputs)}${filters.join(",")}${pads(outputs)}`;
}

/** Numbers as ffmpeg reads them: no exponent, at most 6 decimals, no trailing zeros. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  if (Number.isInteger(value)) return String(value);
  return value.toFixed(6).replace(/\.?0+$/, "");
}

/** `#RRGGBB` or `#RRGGBBAA` as ffmpeg's `0xRRGGBB@alpha`. */
export function ffmpegColour(colour: string, opacity = 1): string {
  const hex = colour.replace(/^#/, "");
  const alpha = hex.length === 8 ? Number.parseInt(hex.slice(6, 8), 16) / 255 : 1;
  return `0x${hex.slice(0, 6).toUpperCase()}@${formatNumber(Math.round(alpha * opacity * 1000) / 1000)}`;
}

/** The frame rates of NTSC video are 1000/1001 of a whole rate; ffprobe's decimals are taken back to them. */
export function fpsRational(fps: number): string {
  for (const whole of [24, 30, 60, 120]) {
    if (Math.abs(fps - (whole * 1000) / 1001) < 0.005) return `${whole * 1000}/1001`;
  }
  return formatNumber(Math.round(fps * 1000) / 1000);
}

/** The value of a rational or decimal frame rate. */
export function fpsValue(rational: string): number {
  const [numerator, denominator] = rational.split("/").map(Number);
  return denominator ? numerator! / denominator : numerator!;
}

/** An `enable` expression true from `start` (inclusive) to `end` (exclusive) on the output timeline. */
export function activeBetween(start: number, end: number): string {
  return `gte(t,${formatNumber(start)})*lt(t,${formatNumber(end)})`;
}
