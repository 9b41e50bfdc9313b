/**
 * How `pravo fmt` writes literals, as `cue fmt` does: numbers in their
 * canonical spelling (`.5` is `0.5`, `1E3` is `1e3`, `017` is `0o17`), and
 * multi-line strings re-indented to their place.
 *
 * @module
 */

/** A number as `cue fmt` writes it, and whether it is an integer or a float. */
export function formatNumber(text: string): { text: string; kind: "int" | "float" } {
  let data = text;
  const isInt = /^0[xXoObB]/.test(data) || /[KMGTP]i?$/.test(data) || !/[.eE]/.test(data);
  if (isInt) {
    if (data.length > 1 && data[0] === "0" && data[1] >= "0" && data[1] <= "9") {
      data = "0o" + data.slice(1);
    }
    const p = data.indexOf(".");
    if (p >= 0 && (p + 1 >= data.length || data[p + 1] > "9")) {
      data = data.slice(0, p + 1) + "0" + data.slice(p + 1);
    }
    const e = data.indexOf("E");
    if (e !== -1 && e < data.length - 1) data = data.toLowerCase();
    return { text: data, kind: "int" };
  }
  const p = data.indexOf(".");
  if (p === 0) data = "0" + data;
  else if (p === data.length - 1) data += "0";
  else if (p > 0 && data[p + 1] > "9") data = data.slice(0, p + 1) + "0" + data.slice(p + 1);
  if (data.includes("E")) data = data.toLowerCase();
  return { text: data, kind: "float" };
}

/**
 * Re-indents a multi-line string so that its lines start with `n` tabs, as
 * CUE's `literal.IndentTabs`; its value does not change (CUE strips the
 * closing line's indentation from every line).
 */
export function indentTabs(s: string, n: number): string {
  const m = /^(#*)("""|''')/.exec(s);
  if (!m) return s;
  const close = s.lastIndexOf("\n");
  if (close < 0) return s;
  const ws = /^[ \t]*/.exec(s.slice(close + 1))![0];
  const indent = "\t".repeat(n);
  if (ws === indent) return s;
  return s.split("\n" + ws).join("\n" + indent);
}
