/**
 * `state query`: a CUE expression evaluated over the state document.
 *
 * The document (`{lineage, serial, nodes}`, see {@linkcode stateDocument})
 * goes into the CUE source as JSON under a hidden field; the expression is
 * placed inside a one-element list in a struct that offers `nodes`,
 * `lineage` and `serial` as fields, and the list's only element is the
 * answer:
 *
 * ```cue
 * import "strings"                         // only the builtin packages used
 * _pravo_uses: [strings.ToUpper]           // so that no import is unused
 * _pravo_doc: {...the state document as JSON...}
 * _pravo_query: {
 *   nodes: _pravo_doc.nodes
 *   lineage: _pravo_doc.lineage
 *   serial: _pravo_doc.serial
 *   _pravo_answer: [
 * EXPRESSION
 * ][0]
 * }
 * result: _pravo_query._pravo_answer
 * ```
 *
 * Before that, the expression is scanned (lib/cue/syntax/scanner.ts) and refused
 * unless it is one expression: its brackets balance, and nothing at its top
 * level starts another field, element or declaration (a comma, a line break
 * after a complete operand, `:`, `=`, an attribute). So it cannot close the
 * list and add fields of its own.
 *
 * @module
 */

import { type Diagnostic, DiagnosticsError, error } from "../diag/diag.ts";
import { scan, ScanError, type Token } from "../cue/syntax/scanner.ts";

/** The builtin packages an expression may use, by the name it uses. */
const PACKAGES: Record<string, { path: string; member: string }> = {
  base64: { path: "encoding/base64", member: "Encode" },
  bits: { path: "math/bits", member: "And" },
  csv: { path: "encoding/csv", member: "Decode" },
  hex: { path: "encoding/hex", member: "Encode" },
  html: { path: "html", member: "Escape" },
  json: { path: "encoding/json", member: "Marshal" },
  list: { path: "list", member: "Sum" },
  math: { path: "math", member: "Floor" },
  net: { path: "net", member: "ParseIP" },
  path: { path: "path", member: "Base" },
  regexp: { path: "regexp", member: "Match" },
  sha256: { path: "crypto/sha256", member: "Sum256" },
  strconv: { path: "strconv", member: "Atoi" },
  strings: { path: "strings", member: "ToUpper" },
  struct: { path: "struct", member: "MinFields" },
  time: { path: "time", member: "Parse" },
  uuid: { path: "uuid", member: "Valid" },
  yaml: { path: "encoding/yaml", member: "Marshal" },
};

const OPEN: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
const CLOSE = new Set(Object.values(OPEN));

function invalid(
  expression: string,
  why: string,
  token?: Pick<Token, "line" | "column">,
): DiagnosticsError {
  const where = token ? ` (line ${token.line}, column ${token.column})` : "";
  return new DiagnosticsError([
    error(
      "The query is not one CUE expression",
      `${JSON.stringify(expression)}: ${why}${where}. Give one expression over nodes, ` +
        `lineage and serial, such as 'nodes.base.attributes' or ` +
        `'[for a, n in nodes if n.type == "random_integer" {a}]', quoted for the shell.`,
    ),
  ], "usage");
}

/**
 * Checks that `expression` is one CUE expression and returns its tokens;
 * throws a `DiagnosticsError` (exit 64) that says why not.
 */
export function checkExpression(expression: string): Token[] {
  if (expression.trim() === "") throw invalid(expression, "it is empty");
  let tokens: Token[];
  try {
    tokens = scan(expression.trim());
  } catch (e) {
    if (!(e instanceof ScanError)) throw e;
    throw invalid(expression, e.message, e);
  }
  // The comma inserted at the very end is no second expression.
  const body = tokens.filter((t) => t.kind !== "eof");
  if (
    body.length && body[body.length - 1].kind === "comma" && body[body.length - 1].text === "\n"
  ) {
    body.pop();
  }
  if (body.length === 0) throw invalid(expression, "it holds only comments");
  const stack: Token[] = [];
  for (const t of body) {
    if (t.kind === "punct" && t.text in OPEN) {
      stack.push(t);
      continue;
    }
    if (t.kind === "punct" && CLOSE.has(t.text)) {
      const open = stack.pop();
      if (!open) throw invalid(expression, `"${t.text}" closes nothing`, t);
      if (OPEN[open.text] !== t.text) {
        throw invalid(
          expression,
          `"${t.text}" does not match the "${open.text}" at line ${open.line}, column ${open.column}`,
          t,
        );
      }
      continue;
    }
    if (stack.length > 0) continue;
    if (t.kind === "comma") {
      throw invalid(
        expression,
        t.text === ","
          ? "a comma at the top level starts a second expression"
          : "a line break after a complete operand starts a second declaration",
        t,
      );
    }
    if (t.kind === "punct" && (t.text === ":" || t.text === "=")) {
      throw invalid(
        expression,
        `"${t.text}" at the top level declares a field or an alias, which a query cannot`,
        t,
      );
    }
    if (t.kind === "attr") throw invalid(expression, "an attribute is not an expression", t);
    if (t.kind === "ident" && ["package", "import", "let"].includes(t.text)) {
      throw invalid(expression, `"${t.text}" starts a declaration, not an expression`, t);
    }
  }
  if (stack.length > 0) {
    const open = stack[stack.length - 1];
    throw invalid(expression, `the "${open.text}" is never closed`, open);
  }
  return tokens;
}

/** The builtin packages that the tokens use as `name.Member`, sorted. */
function packagesUsed(tokens: readonly Token[]): string[] {
  const out = new Set<string>();
  const walk = (ts: readonly Token[]) => {
    ts.forEach((t, i) => {
      for (const inner of t.interpolations ?? []) walk(inner);
      if (t.kind !== "ident" || !(t.text in PACKAGES)) return;
      const prev = ts[i - 1];
      const next = ts[i + 1];
      if (
        next?.kind === "punct" && next.text === "." &&
        !(prev?.kind === "punct" && prev.text === ".")
      ) {
        out.add(t.text);
      }
    });
  };
  walk(tokens);
  return [...out].sort();
}

/** The CUE source that evaluates `expression` over `doc` (already checked). */
export function querySource(doc: unknown, expression: string, tokens: readonly Token[]): string {
  const used = packagesUsed(tokens);
  const lines: string[] = [];
  for (const name of used) lines.push(`import ${name} ${JSON.stringify(PACKAGES[name].path)}`);
  if (used.length) {
    lines.push(`_pravo_uses: [${used.map((n) => `${n}.${PACKAGES[n].member}`).join(", ")}]`);
  }
  lines.push(
    `_pravo_doc: ${JSON.stringify(doc)}`,
    "_pravo_query: {",
    "\tnodes: _pravo_doc.nodes",
    "\tlineage: _pravo_doc.lineage",
    "\tserial: _pravo_doc.serial",
    "\t_pravo_answer: [",
    expression.trim(),
    "][0]",
    "}",
    "result: _pravo_query._pravo_answer",
    "",
  );
  return lines.join("\n");
}

/** CUE's message without the wrapper's field names. */
function cleanMessage(message: string): string {
  return message
    .replace(/^cue: marshal error: /, "")
    .replace(/_pravo_query\._pravo_answer(\.0)?/g, "the expression")
    .replace(/_pravo_query\.0/g, "the expression")
    .replace(/_pravo_query\.?/g, "")
    .replace(/^result: /, "")
    .replace(/_pravo_doc\./g, "");
}

/**
 * Evaluates `expression` over the state document with cue-wasm (loaded on
 * first use). A CUE error comes back as a diagnostic naming the expression.
 */
export async function evaluateQuery(
  doc: unknown,
  expression: string,
): Promise<{ ok: true; value: unknown } | { ok: false; diagnostics: Diagnostic[] }> {
  const tokens = checkExpression(expression);
  const { evaluate } = await import("../cue/engine.ts");
  const res = await evaluate(querySource(doc, expression, tokens));
  if (!res.ok) {
    return {
      ok: false,
      diagnostics: [
        error(
          "The query failed",
          `CUE could not evaluate ${JSON.stringify(expression.trim())}: ${
            cleanMessage(res.message)
          }. The expression sees nodes (by address), lineage and serial; each node has ` +
            `address, mode, type, provider, attributes, sensitive, dependencies and times. ` +
            `Check the names against \`pravo state query 'nodes'\`, and make the result concrete ` +
            `(a value, not a type such as int).`,
        ),
      ],
    };
  }
  const parsed = JSON.parse(res.json) as { result?: unknown };
  return { ok: true, value: parsed.result ?? null };
}

/** A result cut to `limit` elements (list) or fields (struct); 0 means no limit. */
export function limitResult(
  value: unknown,
  limit: number,
): { value: unknown; total?: number; shown?: number } {
  if (limit === 0) return { value };
  if (Array.isArray(value) && value.length > limit) {
    return { value: value.slice(0, limit), total: value.length, shown: limit };
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value).sort();
    if (keys.length > limit) {
      const kept = keys.slice(0, limit);
      return {
        value: Object.fromEntries(kept.map((k) => [k, (value as Record<string, unknown>)[k]])),
        total: keys.length,
        shown: limit,
      };
    }
  }
  return { value };
}
