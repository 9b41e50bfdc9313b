/**
 * Terraform's functions that read files: `file`, `filebase64`, `fileexists`
 * and `templatefile`. pravo reads only its root, so these are done at
 * convert time: the file must be inside the directory converted and its
 * path a constant (`"${path.module}/policy.json"`); its contents are written
 * into the CUE (a template converted to a CUE string with its variables in
 * place). Editing the file afterwards changes nothing: edit the CUE.
 *
 * @module
 */

import { isAbsolute, join, normalize, relative } from "node:path";
import { toBase64 } from "../bytes.ts";
import type { AstNode, HclFile } from "./hcl.ts";
import { expressionAst } from "./hcl.ts";
import { LineIndex } from "./hcl_body.ts";
import { atom, BOTTOM, Converter, type Cue, cueString, pkg, type Scope } from "./expr_base.ts";

type Convert = (c: Converter, n: AstNode, scope: Scope) => Promise<Cue> | Cue;

const FILE_FUNCTIONS = new Set(["file", "filebase64", "fileexists", "templatefile"]);

/** The value of a path written as a constant, or undefined. */
function constantPath(n: AstNode, scope: Scope): string | undefined {
  if (n.type === "templateWrap") return constantPath(n.children[0], scope);
  if (n.type === "scopeTraversal") {
    const v = String(n.meta?.value ?? "");
    if (v === "path.module") return scope.pathModule;
    if (v === "path.root") return ".";
    return undefined;
  }
  if (n.type !== "template") return undefined;
  let out = "";
  for (const p of n.children) {
    if (p.type === "literalValue" && p.meta?.type === "string") out += String(p.meta.value);
    else {
      const v = constantPath(p, scope);
      if (v === undefined) return undefined;
      out += v;
    }
  }
  return out;
}

/** The file a path names, relative to the directory converted; undefined when outside it. */
function inside(path: string, scope: Scope): string | undefined {
  const abs = normalize(isAbsolute(path) ? path : join(scope.top, path));
  const rel = relative(scope.top, abs);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return undefined;
  return rel;
}

/** Converts `file()` and its kin; undefined for any other function. */
export async function fileFunction(
  c: Converter,
  n: AstNode,
  scope: Scope,
  convert: Convert,
): Promise<Cue | undefined> {
  const name = String(n.meta?.name ?? "");
  if (!FILE_FUNCTIONS.has(name)) return undefined;
  const pathNode = n.children[0];
  const path = pathNode ? constantPath(pathNode, scope) : undefined;
  if (path === undefined) {
    return c.fail(
      n,
      `${name}() of a computed path is not converted`,
      `pravo reads only its root, so ${name}() is done at convert time, which needs the path as a constant ("\${path.module}/file.json"). Write the path as a constant in the .tf file, or write the value in CUE by hand.`,
    );
  }
  const rel = inside(path, scope);
  if (rel === undefined) {
    return c.fail(
      n,
      `${name}() reads outside the directory converted`,
      `"${path}" is not inside the directory converted. Move the file into it, or write the value in CUE by hand.`,
    );
  }
  const abs = join(scope.top, rel);
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(abs);
  } catch (e) {
    if (name === "fileexists") return atom("false");
    return c.fail(
      n,
      `${name}() cannot read "${rel}"`,
      `Reading "${rel}" failed: ${
        (e as Error).message
      }. Make the file readable, or write the value in CUE by hand.`,
    );
  }
  c.ctx.reads.add(rel);
  if (name === "fileexists") return atom("true");
  if (name === "filebase64") return atom(cueString(toBase64(bytes)));
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return c.fail(
      n,
      `"${rel}" is not UTF-8`,
      `${name}() reads text, and "${rel}" is not UTF-8 text. Use filebase64(), or write the value in CUE by hand.`,
    );
  }
  if (name === "file") return atom(cueString(text));
  return await template(c, n, scope, convert, rel, text);
}

/** `templatefile(path, {name = value, ...})`: the template converted with its variables in place. */
async function template(
  c: Converter,
  n: AstNode,
  scope: Scope,
  convert: Convert,
  rel: string,
  text: string,
): Promise<Cue> {
  const varsNode = n.children[1];
  if (varsNode?.type !== "object") {
    return c.fail(
      n,
      "templatefile() with computed variables is not converted",
      "pravo convert converts templatefile() whose variables are written as an object ({name = value, ...}). Write them so, or write the value in CUE by hand.",
    );
  }
  const vars = new Map<string, string>();
  for (let i = 0; i + 1 < varsNode.children.length; i += 2) {
    const k = varsNode.children[i];
    const key = c.slice(k.range.start.byte, k.range.end.byte).trim().replace(/^"|"$/g, "");
    const v = await convert(c, varsNode.children[i + 1], scope);
    vars.set(key, v.prec >= 7 ? v.text : `(${v.text})`);
  }
  let marker = "TFTEMPLATE";
  while (text.includes(marker)) marker += "_";
  const prefix = `<<${marker}\n`;
  const body = text.endsWith("\n") ? text : text + "\n";
  const src = `${prefix}${body}${marker}\n`;
  const file: HclFile = {
    name: rel,
    text,
    body: { attributes: [], blocks: [] },
    lines: new LineIndex(text),
  };
  let ast: AstNode;
  try {
    ast = await expressionAst(rel, src);
  } catch (e) {
    return c.fail(
      n,
      `The template "${rel}" does not parse`,
      `${(e as Error).message}. Correct the template, then convert again.`,
    );
  }
  const tc = new Converter(src, -prefix.length, { ...c.ctx, file });
  const inner: Scope = {
    ...scope,
    resources: new Map(),
    modules: new Map(),
    vars,
    iterators: new Map(),
    count: undefined,
    each: undefined,
  };
  const out = await convert(tc, ast, inner);
  if (out.text === BOTTOM || text.endsWith("\n")) return out;
  return atom(`${pkg("strings", c.ctx)}.TrimSuffix(${out.text}, "\\n")`);
}
