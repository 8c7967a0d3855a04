/**
 * A reader of filter graph text that follows libavfilter's grammar and
 * libavutil's av_get_token, so tests see what ffmpeg will see: each filter's
 * name, options (unescaped at both levels) and pad labels.
 */

/** libavutil's av_get_token: what ffmpeg does to a graph's filter arguments and then to each option value. */
export function avGetToken(input: string, terms: string): { token: string; rest: string } {
  const whitespace = " \n\t\r";
  let position = 0;
  while (position < input.length && whitespace.includes(input[position]!)) position++;
  let out = "";
  let end = 0;
  while (position < input.length && !terms.includes(input[position]!)) {
    const char = input[position++]!;
    if (char === "\\" && position < input.length) {
      out += input[position++];
      end = out.length;
    } else if (char === "'") {
      while (position < input.length && input[position] !== "'") out += input[position++];
      if (position < input.length) {
        position++;
        end = out.length;
      }
    } else out += char;
  }
  while (out.length > end && whitespace.includes(out.at(-1)!)) out = out.slice(0, -1);
  return { token: out, rest: input.slice(position) };
}

/** How ffmpeg reads `name=key=value:key=value` out of a graph: graph-level token, then key/value tokens. */
export function parseFilter(text: string): { name: string; options: Record<string, string> } {
  const equals = text.indexOf("=");
  if (equals < 0) return { name: text, options: {} };
  const name = text.slice(0, equals);
  let { token: args } = avGetToken(text.slice(equals + 1), "[],;");
  const options: Record<string, string> = {};
  for (let position = 0; args.length > 0; position++) {
    const keyEnd = args.search(/[=:]/);
    const named = keyEnd >= 0 && args[keyEnd] === "=";
    const key = named ? args.slice(0, keyEnd) : String(position);
    const value = avGetToken(named ? args.slice(keyEnd + 1) : args, ":");
    options[key] = value.token;
    args = value.rest.startsWith(":") ? value.rest.slice(1) : value.rest;
  }
  return { name, options };
}

export interface ParsedFilter {
  name: string;
  options: Record<string, string>;
  inputs: string[];
  outputs: string[];
}

/** Every filter of a graph in order, with the labels its chain starts and ends with. */
export function parseGraph(graph: string): ParsedFilter[] {
  const filters: ParsedFilter[] = [];
  for (const chainText of splitUnescaped(graph, ";")) {
    let rest = chainText.trim();
    const labels = () => {
      const found: string[] = [];
      for (let match = /^\[([^\]]+)\]/.exec(rest); match; match = /^\[([^\]]+)\]/.exec(rest)) {
        found.push(match[1]!);
        rest = rest.slice(match[0].length).trimStart();
      }
      return found;
    };
    const inputs = labels();
    const inChain: ParsedFilter[] = [];
    for (const filterText of splitUnescaped(rest.replace(/(\[[^\]]+\])+$/, ""), ",")) {
      inChain.push({ ...parseFilter(filterText.trim()), inputs: [], outputs: [] });
    }
    const outputs = /((\[[^\]]+\])+)$/.exec(rest)?.[1]?.slice(1, -1).split("][") ?? [];
    inChain[0]!.inputs = inputs;
    inChain.at(-1)!.outputs = outputs;
    filters.push(...inChain);
  }
  return filters;
}

/** Splits at a separator that is neither escaped nor quoted. */
function splitUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === "\\" && index + 1 < text.length) {
      current += char + text[++index];
      continue;
    }
    if (char === "'") quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  if (current.trim()) parts.push(current);
  return parts;
}
