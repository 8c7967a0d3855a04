/**
 * A story's text as xmlbuilder2's `txt()` must be given it. The builder escapes `<`, `>` and a lone `&`, but
 * keeps `&name;` and `&#n;` as references: a caption "AT&T;" would become an undefined entity (the item no
 * longer well-formed XML) and a caption's literal "&amp;" would reach the receiver as "&". Every `&` is
 * escaped here first (the builder keeps the `&amp;` it then sees), and the characters XML 1.0 does not allow
 * (controls other than tab, line feed and carriage return, U+FFFE, U+FFFF) are left out.
 */
export function xmlText(value: string): string {
  let text = "";
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0xfffe || code === 0xffff)
      continue;
    text += char === "&" ? "&amp;" : char;
  }
  return text;
}
