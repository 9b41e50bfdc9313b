/**
 * CUE source for plain values: labels quoted where CUE needs it, strings
 * (one line, or CUE's multi-line form for text of several lines), numbers,
 * lists and structs, and `json.Marshal({...})` for a string that holds a
 * JSON document CUE writes back exactly. What pravo writes as CUE for a
 * user to keep (`import --generate-config`) goes through these, then
 * through the formatter (format/mod.ts).
 *
 * A label is quoted unless it is a plain identifier that binds nothing
 * surprising: CUE's keywords, its predeclared names (`string`, `int`,
 * `len`: a field of that name would hide the builtin from every value
 * beside it), and identifiers starting with `_`, `#` or `$` (hidden
 * fields, definitions, pravo's provider instances) are quoted, which
 * declares the field and binds no name.
 *
 * @module
 */

/** CUE's keywords: never a field's label unquoted. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  "package",
  "import",
  "for",
  "in",
  "if",
  "let",
  "true",
  "false",
  "null",
  "div",
  "mod",
  "quo",
  "rem",
]);

const PREDECLARED = new Set([
  "_",
  "and",
  "bool",
  "byte",
  "bytes",
  "close",
  "float",
  "float32",
  "float64",
  "int",
  "int8",
  "int16",
  "int32",
  "int64",
  "int128",
  "len",
  "number",
  "or",
  "rune",
  "string",
  "uint",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
  "uint128",
]);

/** Whether `name` is a keyword or a predeclared name of CUE's, which a label or a variable must not take. */
export function isReserved(name: string): boolean {
  return KEYWORDS.has(name) || PREDECLARED.has(name);
}

/** A field's label: the name as it is where CUE allows it, else quoted. */
export function cueLabel(name: string): string {
  return /^[A-Za-z][A-Za-z0-9_]*$/.test(name) && !isReserved(name) ? name : JSON.stringify(name);
}

/** Characters no string of pravo's is written with as they are: controls but tab and newline. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/**
 * A string literal. Text of several lines (and nothing else unprintable)
 * is written in CUE's multi-line form, indented one tab deeper than the
 * field (`depth` tabs); anything else on one line, escaped. `\(` is CUE's
 * interpolation: a backslash is always written escaped, so the value is
 * the text as it is.
 */
export function cueString(s: string, depth = 0): string {
  if (!s.includes("\n") || CONTROL.test(s) || /[\u2028\u2029]/.test(s)) return JSON.stringify(s);
  const pad = "\t".repeat(depth + 1);
  const lines = s.split("\n").map((l) =>
    l === "" ? "" : pad + l.replaceAll("\\", "\\\\").replaceAll('"""', '\\"""')
  );
  return `"""\n${lines.join("\n")}\n${pad}"""`;
}

/** A number literal: integers in full (no exponent), others as JavaScript spells them. */
export function cueNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`${n} has no CUE literal`);
  if (Number.isInteger(n)) return Number.isSafeInteger(n) ? String(n) : BigInt(n).toString();
  return String(n);
}

function isScalar(v: unknown): boolean {
  return v === null || typeof v !== "object";
}

/**
 * A plain value (what JSON holds) as CUE: `null`, booleans, numbers,
 * strings, lists (on one line when they are short and flat) and structs.
 * `depth` is how many tabs the line that holds the value starts with.
 */
export function cueValue(v: unknown, depth = 0): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return String(v);
    case "number":
      return cueNumber(v);
    case "string":
      return cueString(v, depth);
    case "object":
      break;
    default:
      throw new Error(`a ${typeof v} has no CUE literal`);
  }
  const pad = "\t".repeat(depth + 1);
  const end = "\t".repeat(depth);
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    if (v.every(isScalar) && !v.some((x) => typeof x === "string" && x.includes("\n"))) {
      const flat = `[${v.map((x) => cueValue(x, depth)).join(", ")}]`;
      if (flat.length <= 80) return flat;
    }
    return `[\n${v.map((x) => `${pad}${cueValue(x, depth + 1)},`).join("\n")}\n${end}]`;
  }
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${
    entries.map(([k, x]) => `${pad}${cueLabel(k)}: ${cueValue(x, depth + 1)}`).join("\n")
  }\n${end}}`;
}

/** Walks a parsed JSON value: false when a number in it would not come back as it is. */
function numbersRoundTrip(v: unknown): boolean {
  if (typeof v === "number") return !/[eE]/.test(String(v));
  if (Array.isArray(v)) return v.every(numbersRoundTrip);
  if (v && typeof v === "object") return Object.values(v).every(numbersRoundTrip);
  return true;
}

/**
 * `json.Marshal({...})` for a string that holds a JSON object or array,
 * when CUE's `json.Marshal` gives exactly that string back (compact, keys
 * in the order written); undefined otherwise. CUE marshals with Go's
 * encoder, which escapes `<`, `>`, `&`, U+2028 and U+2029 and writes
 * control characters as `\u00XX`, and spells large and small numbers with
 * an exponent its own way: a string with any of those stays a string.
 * The caller imports `encoding/json`.
 */
export function cueJsonMarshal(s: string, depth = 0): string | undefined {
  const t = s.trimStart();
  if (!t.startsWith("{") && !t.startsWith("[")) return undefined;
  if (/[<>&\u2028\u2029]/.test(s) || /\\[bfu]/.test(s)) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(s);
  } catch {
    return undefined;
  }
  if (JSON.stringify(v) !== s || !numbersRoundTrip(v)) return undefined;
  return `json.Marshal(${cueValue(v, depth)})`;
}
