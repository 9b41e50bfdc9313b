/**
 * Terraform's string templates to CUE strings: quoted strings and heredocs
 * (`<<EOT`, and `<<-EOT` with its indentation removed), their escapes
 * (`\n`, `$${`, `%%{`), interpolations (`${x}` → `\(x)`), the directives
 * `%{if}` (→ `\([if c {"a"}, "b"][0])`) and `%{for}` (→
 * `\(strings.Join([for x in xs {"..."}], ""))`), and the strip markers
 * `~` (the whitespace beside them goes at convert time).
 *
 * @module
 */

import type { AstNode } from "./hcl.ts";
import {
  atom,
  type Converter,
  type Cue,
  cueString,
  forHead,
  forVars,
  pkg,
  type Scope,
} from "./expr_base.ts";

type Convert = (c: Converter, n: AstNode, scope: Scope) => Promise<Cue> | Cue;

/** How literal text is written in the template: quoted, or a heredoc. */
interface Mode {
  heredoc: boolean;
  /** For `<<-`: the spaces removed at the start of each line. */
  indent: number;
}

/** Decodes the escapes of a quoted template's literal text. */
export function decodeQuoted(s: string): string {
  return s.replace(
    /\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))/gs,
    (_, u, U, ch) => {
      if (u) return String.fromCharCode(parseInt(u, 16));
      if (U) return String.fromCodePoint(parseInt(U, 16));
      return ({ n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" } as Record<string, string>)[ch] ??
        "\\" + ch;
    },
  );
}

/** The spaces a `<<-` heredoc's lines share, from its source. */
export function heredocIndent(source: string): number {
  const lines = source.split("\n").slice(1, -1);
  let min = Infinity;
  for (const l of lines) {
    if (l.trim() === "") continue;
    min = Math.min(min, l.length - l.trimStart().length);
  }
  return min === Infinity ? 0 : min;
}

/** Converts a template node (`template` or `templateWrap`). */
export async function convertTemplate(
  c: Converter,
  n: AstNode,
  scope: Scope,
  convert: Convert,
  mode?: Mode,
): Promise<Cue> {
  if (n.type === "templateWrap") return convert(c, n.children[0], scope);
  const value = String(n.meta?.value ?? "");
  mode ??= value.startsWith("<<")
    ? { heredoc: true, indent: value.startsWith("<<-") ? heredocIndent(value) : 0 }
    : { heredoc: false, indent: 0 };
  const parts: ({ lit: string } | { expr: string })[] = [];
  for (const p of n.children) {
    if (p.type === "literalValue" && p.meta?.type === "string") {
      parts.push({ lit: literalText(c, p, mode) });
    } else if (p.type === "conditional") {
      const [cond, yes, no] = p.children;
      const k = await convert(c, cond, scope);
      const a = await convertTemplate(c, yes, scope, convert, mode);
      const b = await convertTemplate(c, no, scope, convert, mode);
      parts.push({ expr: `[if ${k.text} {${a.text}}, ${b.text}][0]` });
    } else if (p.type === "templateJoin" && p.children[0]?.type === "for") {
      parts.push({ expr: await joinFor(c, p.children[0], scope, convert, mode) });
    } else {
      parts.push({ expr: (await convert(c, p, scope)).text });
    }
  }
  if (parts.every((p) => "lit" in p)) {
    return atom(cueString(parts.map((p) => (p as { lit: string }).lit).join("")));
  }
  const body = parts.map((p) => "lit" in p ? cueString(p.lit).slice(1, -1) : `\\(${p.expr})`);
  return atom(`"${body.join("")}"`);
}

/**
 * The text of a literal part: escapes decoded, strip markers and a `<<-`
 * heredoc's indentation applied as HCL does it, line by line: a heredoc's
 * literal is one token a line; `~` trims the token beside it only, and a
 * token loses the indentation when it starts a line after the trimming
 * (so the line after `%{for x in xs ~}` keeps its indentation).
 */
function literalText(c: Converter, p: AstNode, mode: Mode): string {
  const from = p.range.start.byte, to = p.range.end.byte;
  const raw = c.slice(from, to);
  const tokens = mode.heredoc ? raw.split(/(?<=\n)/) : [raw];
  if (from >= 2 && c.slice(from - 2, from) === "~}") tokens[0] = tokens[0].trimStart();
  const after = c.slice(to, to + 3);
  if (after === "${~" || after === "%{~") {
    tokens[tokens.length - 1] = tokens[tokens.length - 1].trimEnd();
  }
  if (mode.indent > 0) {
    const indent = new RegExp(`^ {0,${mode.indent}}`);
    let lineStart = from > 0 && c.bytes[from - 1] === 0x0a && tokens[0] === raw.split(/(?<=\n)/)[0];
    for (let i = 0; i < tokens.length; i++) {
      if (lineStart) tokens[i] = tokens[i].replace(indent, "");
      lineStart = tokens[i].endsWith("\n");
    }
  }
  let s = tokens.join("");
  if (!mode.heredoc) s = decodeQuoted(s);
  return s.replace(/\$\$\{/g, "${").replace(/%%\{/g, "%{");
}

/** `%{for x in xs}...%{endfor}`: the parts joined. */
async function joinFor(
  c: Converter,
  f: AstNode,
  scope: Scope,
  convert: Convert,
  mode: Mode,
): Promise<string> {
  const m = f.meta ?? {};
  const [coll, body, cond] = f.children;
  const vars = forVars(scope, { keyVar: m.keyVar, valVar: m.valVar });
  const inner = vars.inner;
  const from = await convert(c, coll, scope);
  const guard = cond ? ` if ${(await convert(c, cond, inner)).text}` : "";
  const text = body.type === "template"
    ? await convertTemplate(c, body, inner, convert, mode)
    : await convert(c, body, inner);
  const head = forHead(vars, from);
  return `${pkg("strings", c.ctx)}.Join([${head}${guard} {${text.text}}], "")`;
}
