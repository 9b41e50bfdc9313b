/**
 * Characters that make text read differently from what it is ("Trojan
 * Source"): bidirectional controls (U+202A..U+202E, U+2066..U+2069 and the
 * marks), zero-width and other invisible format characters (U+200B..U+200D,
 * U+2060..U+2064, U+FEFF, the soft hyphen, Hangul fillers), variation
 * selectors, the tag characters (U+E0000..U+E007F), the line and paragraph
 * separators, DEL and the C1 controls (U+0080..U+009F, which some terminals
 * obey as they obey ESC).
 *
 * pravo's human views show each as a visible escape (`\u202e`), so that an
 * operator reviewing a plan reads the bytes it applies; inside a JSON
 * string the escape is JSON's own, so the value reads back the same.
 * C0 controls (ESC, CR, ...) are not here: values and addresses are quoted
 * as JSON, which escapes them, and the views' own colours use ESC.
 *
 * @module
 */

/** One character of the kinds above. */
const INVISIBLE_SOURCE =
  "[\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f" +
  "\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0" +
  "\\ufff9-\\ufffb\\u{e0000}-\\u{e007f}\\u{e0100}-\\u{e01ef}]";

const INVISIBLE = new RegExp(INVISIBLE_SOURCE, "gu");
const ANY_INVISIBLE = new RegExp(INVISIBLE_SOURCE, "u");

/**
 * The escape that shows `c`: `\u202e`; beyond the BMP its UTF-16 pair
 * (`\udb40\udc41` for U+E0041), so that the escape is JSON's own too.
 */
export function escapeOf(c: string): string {
  let out = "";
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return out;
}

/** `text` with every invisible or bidirectional character as a visible escape. */
export function visible(text: string): string {
  return ANY_INVISIBLE.test(text) ? text.replace(INVISIBLE, escapeOf) : text;
}

/**
 * `text` as a terminal may show it: {@linkcode visible}, and the C0 controls
 * but newline and tab (ESC, CR, backspace) as escapes too. For a value
 * printed as it is (`pravo output NAME`), where no JSON quoting escapes them.
 */
export function visibleOnTerminal(text: string): string {
  // deno-lint-ignore no-control-regex -- the control characters are what it escapes
  return visible(text).replace(/[\u0000-\u0008\u000b-\u001f]/g, escapeOf);
}

/** Where such characters are in `text`: 1-based line and column (in code points). */
export function invisibleCharacters(
  text: string,
): { char: string; line: number; column: number }[] {
  const out: { char: string; line: number; column: number }[] = [];
  if (!ANY_INVISIBLE.test(text)) return out;
  let line = 1;
  let column = 1;
  for (const c of text) {
    if (c === "\n") {
      line++;
      column = 1;
      continue;
    }
    if (ANY_INVISIBLE.test(c)) out.push({ char: c, line, column });
    column++;
  }
  return out;
}
