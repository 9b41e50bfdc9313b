/**
 * Terraform's functions to CUE: a builtin where CUE has one
 * (`join` → `strings.Join`, `jsonencode` → `json.Marshal`, `concat` →
 * `list.Concat`), a comprehension where it has none (`keys`, `merge`,
 * `lookup`, `coalesce`, `try`), a definition of the converted root's `tf`
 * package for address arithmetic (`cidrsubnet`, `cidrhost`), and the
 * contents of a file of the directory converted, read at convert time
 * (`file`, `filebase64`, `templatefile`). `FUNCTIONS` lists the names
 * converted; any other is a diagnostic that says what to write by hand.
 *
 * @module
 */

import type { AstNode } from "./hcl.ts";
import {
  atom,
  BOTTOM,
  type Converter,
  type Cue,
  cueString,
  freshName,
  pkg,
  PREC,
  type Scope,
} from "./expr_base.ts";
import { fileFunction } from "./expr_files.ts";

type Convert = (c: Converter, n: AstNode, scope: Scope) => Promise<Cue> | Cue;

/** What a function's conversion gets. */
export interface Call {
  c: Converter;
  n: AstNode;
  scope: Scope;
  convert: Convert;
  /** The arguments, converted. */
  args: string[];
}

type Impl = (call: Call) => Promise<Cue> | Cue;

const s = (call: Call) => pkg("strings", call.c.ctx);
const l = (call: Call) => pkg("list", call.c.ctx);

/** `P.F(args...)` of a package. */
function builtin(path: string, fn: string, order?: number[]): Impl {
  return (call) => {
    const args = order ? order.map((i) => call.args[i]) : call.args;
    return atom(`${pkg(path, call.c.ctx)}.${fn}(${args.join(", ")})`);
  };
}

/** A fresh variable name for a comprehension inside `call`. */
function fresh(call: Call, name: string): string {
  return freshName(name, new Set(call.scope.vars.values()));
}

/** Terraform's `merge(a, b)`: the fields of both, `b`'s where both have one. */
function merge2(a: string, b: string, k: string, v: string): string {
  return `{${b}, for ${k}, ${v} in ${a} if (${b})[${k}] == _|_ {(${k}): ${v}}}`;
}

/** The functions converted, by name. */
export const FUNCTIONS: Record<string, Impl> = {
  length: (c) => atom(`len(${c.args[0]})`),
  join: builtin("strings", "Join", [1, 0]),
  split: builtin("strings", "Split", [1, 0]),
  lower: builtin("strings", "ToLower"),
  upper: builtin("strings", "ToUpper"),
  title: builtin("strings", "ToTitle"),
  trimspace: builtin("strings", "TrimSpace"),
  trimprefix: builtin("strings", "TrimPrefix"),
  trimsuffix: builtin("strings", "TrimSuffix"),
  trim: builtin("strings", "Trim"),
  chomp: (c) => atom(`${s(c)}.TrimRight(${c.args[0]}, "\\r\\n")`),
  startswith: builtin("strings", "HasPrefix"),
  endswith: builtin("strings", "HasSuffix"),
  strcontains: builtin("strings", "Contains"),
  indent: (c) =>
    atom(`${s(c)}.Replace(${c.args[1]}, "\\n", "\\n" + ${s(c)}.Repeat(" ", ${c.args[0]}), -1)`),
  replace: replace,
  substr: (c) => {
    const [str, off, len] = c.args;
    if (len === "-1") {
      return atom(`${s(c)}.SliceRunes(${str}, ${off}, len(${s(c)}.Runes(${str})))`);
    }
    return atom(`${s(c)}.SliceRunes(${str}, ${off}, ${off} + ${len})`);
  },
  format: format,
  regex: (c) => noGroups(c, "regex") ?? builtin("regexp", "Find")(c),
  regexall: (c) =>
    noGroups(c, "regexall") ?? atom(`${pkg("regexp", c.c.ctx)}.FindAll(${c.args.join(", ")}, -1)`),
  jsonencode: builtin("encoding/json", "Marshal"),
  jsondecode: builtin("encoding/json", "Unmarshal"),
  yamlencode: builtin("encoding/yaml", "Marshal"),
  yamldecode: builtin("encoding/yaml", "Unmarshal"),
  base64encode: (c) => atom(`${pkg("encoding/base64", c.c.ctx)}.Encode(null, ${c.args[0]})`),
  base64decode: (c) => atom(`"\\(${pkg("encoding/base64", c.c.ctx)}.Decode(null, ${c.args[0]}))"`),
  sha256: (c) =>
    atom(
      `${pkg("encoding/hex", c.c.ctx)}.Encode(${pkg("crypto/sha256", c.c.ctx)}.Sum256(${
        c.args[0]
      }))`,
    ),
  sha1: (c) =>
    atom(
      `${pkg("encoding/hex", c.c.ctx)}.Encode(${pkg("crypto/sha1", c.c.ctx)}.Sum(${c.args[0]}))`,
    ),
  md5: (c) =>
    atom(`${pkg("encoding/hex", c.c.ctx)}.Encode(${pkg("crypto/md5", c.c.ctx)}.Sum(${c.args[0]}))`),
  base64sha256: (c) =>
    atom(
      `${pkg("encoding/base64", c.c.ctx)}.Encode(null, ${pkg("crypto/sha256", c.c.ctx)}.Sum256(${
        c.args[0]
      }))`,
    ),
  concat: (c) => atom(`${l(c)}.Concat([${c.args.join(", ")}])`),
  flatten: (c) => atom(`${l(c)}.FlattenN(${c.args[0]}, -1)`),
  contains: builtin("list", "Contains"),
  sort: builtin("list", "SortStrings"),
  sum: builtin("list", "Sum"),
  slice: builtin("list", "Slice"),
  min: (c) => atom(`${l(c)}.Min([${c.args.join(", ")}])`),
  max: (c) => atom(`${l(c)}.Max([${c.args.join(", ")}])`),
  abs: builtin("math", "Abs"),
  ceil: builtin("math", "Ceil"),
  floor: builtin("math", "Floor"),
  pow: builtin("math", "Pow"),
  range: (c) => {
    const a = c.args;
    if (a.length === 1) return atom(`${l(c)}.Range(0, ${a[0]}, 1)`);
    return atom(`${l(c)}.Range(${a[0]}, ${a[1]}, ${a[2] ?? 1})`);
  },
  keys: (c) => {
    const k = fresh(c, "k");
    return atom(`${l(c)}.SortStrings([for ${k}, _ in ${c.args[0]} {${k}}])`);
  },
  values: (c) => {
    const k = fresh(c, "k");
    return atom(
      `[for ${k} in ${l(c)}.SortStrings([for ${k}, _ in ${c.args[0]} {${k}}]) {(${
        c.args[0]
      })[${k}]}]`,
    );
  },
  element: (c) => {
    const [list, i] = c.args;
    return atom(`(${list})[mod(${i}, len(${list}))]`);
  },
  index: (c) => {
    const i = fresh(c, "i"), x = fresh(c, "x");
    return atom(`[for ${i}, ${x} in ${c.args[0]} if ${x} == ${c.args[1]} {${i}}][0]`);
  },
  distinct: (c) => {
    const i = fresh(c, "i"), x = fresh(c, "x");
    const list = c.args[0];
    return atom(
      `[for ${i}, ${x} in ${list} if !${l(c)}.Contains(${l(c)}.Take(${list}, ${i}), ${x}) {${x}}]`,
    );
  },
  reverse: (c) => {
    const i = fresh(c, "i");
    const list = c.args[0];
    return atom(`[for ${i}, _ in ${list} {(${list})[len(${list}) - 1 - ${i}]}]`);
  },
  compact: (c) => {
    const x = fresh(c, "x");
    return atom(`[for ${x} in ${c.args[0]} if ${x} != null && ${x} != "" {${x}}]`);
  },
  one: (c) => atom(`[if len(${c.args[0]}) == 0 {null}, (${c.args[0]})[0]][0]`),
  alltrue: (c) => ({ text: `!${l(c)}.Contains(${c.args[0]}, false)`, prec: PREC.unary }),
  anytrue: (c) => atom(`${l(c)}.Contains(${c.args[0]}, true)`),
  zipmap: (c) => {
    const i = fresh(c, "i"), k = fresh(c, "k");
    return atom(`{for ${i}, ${k} in ${c.args[0]} {(${k}): (${c.args[1]})[${i}]}}`);
  },
  tolist: (c) => atom(c.args[0]),
  toset: (c) => atom(c.args[0]),
  tomap: (c) => atom(c.args[0]),
  tostring: (c) => atom(`"\\(${c.args[0]})"`),
  basename: builtin("path", "Base"),
  dirname: builtin("path", "Dir"),
  lookup: (c) => {
    const [m, k, d] = c.args;
    if (d === undefined) return atom(`(${m})[${k}]`);
    return atom(`[if (${m})[${k}] != _|_ {(${m})[${k}]}, ${d}][0]`);
  },
  coalesce: (c) => {
    const x = fresh(c, "x");
    return atom(`[for ${x} in [${c.args.join(", ")}] if ${x} != null && ${x} != "" {${x}}][0]`);
  },
  coalescelist: (c) => {
    const x = fresh(c, "x");
    return atom(`[for ${x} in [${c.args.join(", ")}] if len(${x}) > 0 {${x}}][0]`);
  },
  try: (c) => {
    const tries = c.args.slice(0, -1).map((a) => `if (${a}) != _|_ {${a}}`);
    return atom(`[${[...tries, c.args[c.args.length - 1]].join(", ")}][0]`);
  },
  can: (c) => ({ text: `(${c.args[0]}) != _|_`, prec: PREC.cmp }),
  merge: (c) => {
    if (c.args.length === 0) return atom("{}");
    const k = fresh(c, "k"), v = fresh(c, "v");
    return atom(c.args.slice(1).reduce((a, b) => merge2(a, b, k, v), c.args[0]));
  },
  cidrsubnet: (c) => helper(c, "cidrsubnet", ["prefix", "newbits", "netnum"]),
  cidrhost: (c) => helper(c, "cidrhost", ["prefix", "hostnum"]),
  sensitive: (c) => passThrough(c, "sensitive"),
  nonsensitive: (c) => passThrough(c, "nonsensitive"),
};

/** A definition of the converted root's `tf` package: `(tf.#cidrsubnet & {...}).out`. */
function helper(c: Call, name: string, params: string[]): Cue {
  c.c.ctx.helpers.add(name);
  const fields = params.map((p, i) => `${p}: ${c.args[i]}`).join(", ");
  return atom(`(${pkg("tf", c.c.ctx)}.#${name} & {${fields}}).out`);
}

function passThrough(c: Call, name: string): Cue {
  c.c.warn(
    c.n,
    `${name}() is dropped`,
    `pravo marks values sensitive from the providers' schemas (and what is computed from them), not by a function: ${name}(x) is written as x. Check that the value needs no marking, or keep it out of outputs.`,
  );
  return atom(c.args[0]);
}

/** Refuses a pattern with capture groups, whose results are lists or objects in Terraform. */
function noGroups(c: Call, name: string): Cue | undefined {
  const p = c.n.children[0];
  const lit = p?.type === "template" && p.children.length === 1
    ? String(p.children[0].meta?.value ?? "")
    : undefined;
  if (lit !== undefined && !/\((?!\?:)/.test(lit)) return undefined;
  return c.c.fail(
    c.n,
    `${name}() with capture groups is not converted`,
    `${name}() with a pattern that has capture groups (or is not a literal) returns a list or object of the groups, which CUE's regexp.Find does not. Write it in CUE by hand with regexp.FindSubmatch or regexp.FindNamedSubmatch.`,
  );
}

/** `replace(s, a, b)`: a plain replacement, or a regular expression when `a` is `"/.../"`. */
function replace(c: Call): Cue {
  const p = c.n.children[1];
  const lit = p?.type === "template" && p.children.length === 1 &&
      p.children[0].type === "literalValue"
    ? String(p.children[0].meta?.value ?? "")
    : undefined;
  const [str, , repl] = c.args;
  if (lit !== undefined && lit.length > 1 && lit.startsWith("/") && lit.endsWith("/")) {
    return atom(
      `${pkg("regexp", c.c.ctx)}.ReplaceAll(${cueString(lit.slice(1, -1))}, ${str}, ${repl})`,
    );
  }
  return atom(`${s(c)}.Replace(${str}, ${c.args[1]}, ${repl}, -1)`);
}

/** `format("%s-%d", a, b)` with a literal format of the verbs %s, %d, %v, %t and %%. */
function format(c: Call): Cue {
  const f = c.n.children[0];
  const parts = f?.type === "template" && f.children.every((p) => p.type === "literalValue")
    ? JSON.parse(c.args[0]) as string
    : undefined;
  if (parts === undefined) {
    return c.c.fail(
      c.n,
      "format() with a computed format is not converted",
      'pravo convert converts format() whose format is a literal string. Write the string with interpolations in CUE by hand ("\\(a)-\\(b)").',
    );
  }
  let out = "";
  let arg = 1;
  for (let i = 0; i < parts.length; i++) {
    const ch = parts[i];
    if (ch !== "%") {
      out += cueString(ch).slice(1, -1);
      continue;
    }
    const verb = parts[++i];
    if (verb === "%") out += "%";
    else if ("sdvt".includes(verb ?? "x") && arg < c.args.length) out += `\\(${c.args[arg++]})`;
    else {
      return c.c.fail(
        c.n,
        `format() verb %${verb ?? ""} is not converted`,
        "pravo convert converts the verbs %s, %d, %v, %t and %%. Write this format in CUE by hand (strconv.FormatFloat for %f, json.Marshal for %q).",
      );
    }
  }
  return atom(`"${out}"`);
}

/** Converts a function call. */
export async function convertFunction(
  c: Converter,
  n: AstNode,
  scope: Scope,
  convert: Convert,
): Promise<Cue> {
  const name = String(n.meta?.name ?? "");
  const file = await fileFunction(c, n, scope, convert);
  if (file) return file;
  const impl = FUNCTIONS[name];
  if (!impl) {
    return c.fail(
      n,
      `${name}() is not converted`,
      `pravo convert has no CUE form for ${name}(). Compute the value in the .tf file without ${name}() (a literal or a variable) and convert again; then write it in CUE by hand where it is needed (CUE's builtin packages: strings, list, math, regexp, encoding/json, net, time, ...).`,
    );
  }
  if (n.meta?.expandedFinalArgument) {
    return c.fail(
      n,
      `${name}(...) with an expanded argument is not converted`,
      `The final argument of ${name}() is expanded (...), which CUE has no form for. Write the arguments out in the .tf file, or write the value in CUE by hand.`,
    );
  }
  const args: string[] = [];
  for (const a of n.children) {
    const v = await convert(c, a, scope);
    args.push(v.text);
  }
  if (args.includes(BOTTOM)) return atom(BOTTOM);
  return impl({ c, n, scope, convert, args });
}
