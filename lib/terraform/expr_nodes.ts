/**
 * The nodes of a Terraform expression's syntax tree to CUE: literals,
 * references, indexes, splats, tuples, objects, operators, conditionals and
 * `for` expressions. Templates are in `expr_template.ts`, functions in
 * `expr_functions.ts`.
 *
 * @module
 */

import type { AstNode } from "./hcl.ts";
import {
  atom,
  BOTTOM,
  type Converter,
  type Cue,
  cueLabel,
  cueString,
  forHead,
  forVars,
  freshName,
  operand,
  PREC,
  type Scope,
  selector,
} from "./expr_base.ts";
import { convertTemplate } from "./expr_template.ts";
import { convertFunction } from "./expr_functions.ts";

const BINARY: Record<string, { op: string; prec: number }> = {
  logicalOr: { op: "||", prec: PREC.or },
  logicalAnd: { op: "&&", prec: PREC.and },
  equal: { op: "==", prec: PREC.cmp },
  notEqual: { op: "!=", prec: PREC.cmp },
  greaterThan: { op: ">", prec: PREC.cmp },
  greaterThanOrEqual: { op: ">=", prec: PREC.cmp },
  lessThan: { op: "<", prec: PREC.cmp },
  lessThanOrEqual: { op: "<=", prec: PREC.cmp },
  add: { op: "+", prec: PREC.add },
  subtract: { op: "-", prec: PREC.add },
  multiply: { op: "*", prec: PREC.mul },
  divide: { op: "/", prec: PREC.mul },
};

/** Converts one node of the tree. */
export function convertNode(c: Converter, n: AstNode, scope: Scope): Promise<Cue> | Cue {
  switch (n.type) {
    case "literalValue":
      return literal(c, n);
    case "template":
    case "templateWrap":
      return convertTemplate(c, n, scope, convertNode);
    case "scopeTraversal":
      return reference(c, n, scope);
    case "relativeTraversal":
      return relative(c, n, scope);
    case "index":
      return index(c, n, scope);
    case "splat":
      return splat(c, n, scope);
    case "tuple":
      return tuple(c, n, scope);
    case "object":
      return object(c, n, scope);
    case "function":
      return convertFunction(c, n, scope, convertNode);
    case "conditional":
      return conditional(c, n, scope);
    case "unaryOp":
      return unary(c, n, scope);
    case "binaryOp":
      return binary(c, n, scope);
    case "for":
      return forExpr(c, n, scope);
    case "":
    case undefined:
      if (n.children.length === 1) return parens(c, n, scope);
  }
  return c.fail(
    n,
    "Unsupported expression",
    `pravo convert does not know the expression "${
      n.meta?.value ?? n.type
    }" (${n.type}). Simplify it in the .tf file and convert again; then write it in CUE by hand.`,
  );
}

async function parens(c: Converter, n: AstNode, scope: Scope): Promise<Cue> {
  const inner = await convertNode(c, n.children[0], scope);
  return atom(inner.prec === PREC.atom ? inner.text : `(${inner.text})`);
}

function literal(c: Converter, n: AstNode): Cue {
  const v = String(n.meta?.value ?? "");
  switch (n.meta?.type) {
    case "number":
      return atom(v);
    case "bool":
      return atom(v);
    case "string":
      return atom(cueString(v));
    default:
      if (v === "null") return atom("null");
      return c.fail(n, "Unsupported literal", `The value ${v} has no CUE form. Write it by hand.`);
  }
}

/** A traversal step of the parser: `.name` or `[key]`. */
interface Step {
  type: string;
  segment: string;
  range: { start: { byte: number } };
}

/** The CUE of the steps after a reference's root. */
function steps(c: Converter, n: AstNode, list: Step[]): string {
  let out = "";
  for (const s of list) {
    if (s.type === "nameTraversal") out += selector(s.segment);
    else out += indexText(c, n, s.segment);
  }
  return out;
}

/** `[0]`, `["k"]` from a traversal's index segment (`0`, `"k"`). */
function indexText(c: Converter, n: AstNode, segment: string): string {
  if (/^\d+$/.test(segment)) return `[${segment}]`;
  try {
    return `[${cueString(JSON.parse(segment))}]`;
  } catch {
    c.fail(n, "Unsupported index", `The index ${segment} has no CUE form. Write it by hand.`);
    return `[${BOTTOM}]`;
  }
}

/** The key of an instance: `."0"` for `[0]`, `.a` for `["a"]`. */
function instanceKey(c: Converter, n: AstNode, s: Step): string {
  if (/^\d+$/.test(s.segment)) return `.${cueString(s.segment)}`;
  try {
    return selector(JSON.parse(s.segment));
  } catch {
    return indexText(c, n, s.segment);
  }
}

/** Converts a reference: `var.x`, `aws_s3_bucket.logs.arn`, `count.index`, ... */
function reference(c: Converter, n: AstNode, scope: Scope): Cue {
  const t = (n.meta?.traversal ?? []) as Step[];
  const root = t[0]?.segment ?? "";
  const name = (i: number) => t[i]?.type === "nameTraversal" ? t[i].segment : undefined;
  const bound = scope.vars.get(root);
  if (bound !== undefined) return atom(bound + steps(c, n, t.slice(1)));
  const it = scope.iterators.get(root);
  const which = name(1);
  if (it && (which === "key" || which === "value")) {
    return atom(it[which] + steps(c, n, t.slice(2)));
  }
  switch (root) {
    case "var":
    case "local": {
      const field = name(1);
      if (!field) break;
      const base = !scope.module ? root : scope.callBody && root === "var" ? "_var" : `#${root}`;
      return atom(`${base}${selector(field)}${steps(c, n, t.slice(2))}`);
    }
    case "count":
      if (name(1) !== "index") break;
      if (!scope.count) {
        return c.fail(
          n,
          "count.index outside a count",
          "count.index is only known in a resource, data source or module with count. Use it only there.",
        );
      }
      return atom(scope.count + steps(c, n, t.slice(2)));
    case "each": {
      const which = name(1);
      if (which !== "key" && which !== "value") break;
      if (!scope.each) {
        return c.fail(
          n,
          `each.${which} outside a for_each`,
          `each.${which} is only known in a resource, data source or module with for_each. Use it only there.`,
        );
      }
      return atom(scope.each[which] + steps(c, n, t.slice(2)));
    }
    case "path": {
      const which = name(1);
      if (which === "module") return atom(cueString(scope.pathModule));
      if (which === "root") return atom(cueString("."));
      if (which === "cwd") {
        c.warn(
          n,
          "path.cwd is the root",
          'pravo has no working directory of its own: path.cwd is written as the root\'s directory, ".". Check the value where it is used.',
        );
        return atom(cueString("."));
      }
      break;
    }
    case "terraform":
      if (name(1) === "workspace") {
        c.warn(
          n,
          'terraform.workspace is "default"',
          'pravo has no workspaces: one root has one state (a shared store keeps roots apart by key). terraform.workspace is written as "default"; use a tag (@tag) if the value must vary.',
        );
        return atom(cueString("default"));
      }
      break;
    case "self":
      return c.fail(
        n,
        "self is not converted",
        "self is only valid in provisioner and connection blocks, which pravo does not run. Remove them and do that work outside pravo (a configuration tool, or user data).",
      );
    case "data": {
      const type = name(1), nm = name(2);
      if (!type || !nm) break;
      return nodeRef(
        c,
        n,
        scope,
        `data.${type}.${nm}`,
        `data${selector(type)}${selector(nm)}`,
        t,
        3,
      );
    }
    case "module": {
      const nm = name(1);
      if (!nm) break;
      const exp = scope.modules.get(nm);
      if (exp === undefined) {
        return c.fail(
          n,
          `No module call "${nm}"`,
          `module.${nm} is not declared in this module. Declare it, or correct the reference.`,
        );
      }
      return expanded(c, n, `module${selector(nm)}`, exp, t, 2);
    }
    default: {
      const nm = name(1);
      if (nm && scope.resources.has(`${root}.${nm}`)) {
        return nodeRef(c, n, scope, `${root}.${nm}`, `${cueLabel(root)}${selector(nm)}`, t, 2);
      }
    }
  }
  return c.fail(
    n,
    `Unknown reference ${n.meta?.value ?? root}`,
    `${
      n.meta?.value ?? root
    } names nothing this module declares (a variable, local, resource, data source or module). Declare it, or correct the reference.`,
  );
}

function nodeRef(
  c: Converter,
  n: AstNode,
  scope: Scope,
  key: string,
  base: string,
  t: Step[],
  from: number,
): Cue {
  const exp = scope.resources.get(key);
  if (exp === undefined) {
    return c.fail(
      n,
      `No ${key.startsWith("data.") ? "data source" : "resource"} ${key}`,
      `${key} is not declared in this module. Declare it, or correct the reference.`,
    );
  }
  return expanded(c, n, base, exp, t, from);
}

/** A node or module call and the steps after it, its instance key first when it expands. */
function expanded(
  c: Converter,
  n: AstNode,
  base: string,
  exp: string,
  t: Step[],
  from: number,
): Cue {
  if (exp !== "none" && t[from]?.type === "indexTraversal") {
    return atom(base + instanceKey(c, n, t[from]) + steps(c, n, t.slice(from + 1)));
  }
  return atom(base + steps(c, n, t.slice(from)));
}

async function relative(c: Converter, n: AstNode, scope: Scope): Promise<Cue> {
  const src = await convertNode(c, n.children[0], scope);
  return atom(operand(src, PREC.atom) + steps(c, n, (n.meta?.traversal ?? []) as Step[]));
}

/** Whether a node refers to a whole counted resource or module (keys "0", "1", ...). */
function counted(n: AstNode, scope: Scope): boolean {
  if (n.type !== "scopeTraversal") return false;
  const t = (n.meta?.traversal ?? []) as Step[];
  const seg = t.map((s) => s.segment);
  if (seg[0] === "module" && t.length === 2) return scope.modules.get(seg[1]) === "count";
  if (seg[0] === "data" && t.length === 3) {
    return scope.resources.get(`data.${seg[1]}.${seg[2]}`) === "count";
  }
  return t.length === 2 && scope.resources.get(`${seg[0]}.${seg[1]}`) === "count";
}

async function index(c: Converter, n: AstNode, scope: Scope): Promise<Cue> {
  const [coll, key] = n.children;
  const from = await convertNode(c, coll, scope);
  const k = await convertNode(c, key, scope);
  if (counted(coll, scope)) return atom(`${operand(from, PREC.atom)}["\\(${k.text})"]`);
  return atom(`${operand(from, PREC.atom)}[${k.text}]`);
}

/** Whether a node refers to a node or module call that does not expand. */
function single(n: AstNode, scope: Scope): boolean {
  if (n.type !== "scopeTraversal") return false;
  const seg = ((n.meta?.traversal ?? []) as Step[]).map((s) => s.segment);
  if (seg[0] === "module" && seg.length === 2) return scope.modules.get(seg[1]) === "none";
  if (seg[0] === "data" && seg.length === 3) {
    return scope.resources.get(`data.${seg[1]}.${seg[2]}`) === "none";
  }
  return seg.length === 2 && scope.resources.get(`${seg[0]}.${seg[1]}`) === "none";
}

/** `a[*].b`: a list of each element's `.b`; of one object, a list of it. */
async function splat(c: Converter, n: AstNode, scope: Scope): Promise<Cue> {
  const [source, each] = n.children;
  const from = await convertNode(c, source, scope);
  const rest = each?.type === "relativeTraversal"
    ? steps(c, n, (each.meta?.traversal ?? []) as Step[])
    : "";
  if (single(source, scope)) return atom(`[${operand(from, PREC.atom)}${rest}]`);
  const v = freshName("x", new Set(scope.vars.values()));
  return atom(`[for ${v} in ${operand(from, PREC.atom)} {${v}${rest}}]`);
}

async function tuple(c: Converter, n: AstNode, scope: Scope): Promise<Cue> {
  const items: string[] = [];
  for (const ch of n.children) items.push((await convertNode(c, ch, scope)).text);
  return atom(`[${items.join(", ")}]`);
}

/** An object: its keys are names, strings, or expressions in parentheses. */
async function object(c: Converter, n: AstNode, scope: Scope): Promise<Cue> {
  const fields: string[] = [];
  for (let i = 0; i + 1 < n.children.length; i += 2) {
    const k = n.children[i], v = n.children[i + 1];
    const value = (await convertNode(c, v, scope)).text;
    fields.push(`${await objectKey(c, k, scope)}: ${value}`);
  }
  return atom(fields.length ? `{${fields.join(", ")}}` : "{}");
}

async function objectKey(c: Converter, k: AstNode, scope: Scope): Promise<string> {
  const inner = k.children[0];
  if (!inner) {
    // A bare name.
    return cueLabel(c.slice(k.range.start.byte, k.range.end.byte).trim());
  }
  if (inner.type === "template" && inner.children.every((p) => p.type === "literalValue")) {
    const s = await convertNode(c, inner, scope);
    try {
      return cueLabel(JSON.parse(s.text));
    } catch {
      return s.text;
    }
  }
  if (inner.type === "scopeTraversal" && (inner.meta?.traversal ?? []).length === 1) {
    // A bare name the parser kept as a traversal: a name, not a variable.
    return cueLabel(String(inner.meta?.value));
  }
  const e = await convertNode(c, inner, scope);
  return `(${e.text})`;
}

async function conditional(c: Converter, n: AstNode, scope: Scope): Promise<Cue> {
  const [cond, yes, no] = n.children;
  const k = await convertNode(c, cond, scope);
  const a = await convertNode(c, yes, scope);
  const b = await convertNode(c, no, scope);
  return atom(`[if ${k.text} {${a.text}}, ${b.text}][0]`);
}

async function unary(c: Converter, n: AstNode, scope: Scope): Promise<Cue> {
  const v = await convertNode(c, n.children[0], scope);
  const op = n.meta?.operator === "logicalNot" ? "!" : "-";
  return { text: `${op}${operand(v, PREC.unary)}`, prec: PREC.unary };
}

async function binary(c: Converter, n: AstNode, scope: Scope): Promise<Cue> {
  const [l, r] = n.children;
  const a = await convertNode(c, l, scope);
  const b = await convertNode(c, r, scope);
  if (n.meta?.operator === "modulo") {
    c.warn(
      n,
      "% is rem()",
      "CUE has no % operator: a % b is written rem(a, b), which takes whole numbers only. Check the operands are whole numbers.",
    );
    return atom(`rem(${a.text}, ${b.text})`);
  }
  const op = BINARY[n.meta?.operator ?? ""];
  if (!op) {
    return c.fail(
      n,
      "Unsupported operator",
      `The operator of ${n.meta?.value} has no CUE form. Write it by hand.`,
    );
  }
  // Left-associative: the right operand of the same precedence needs parentheses.
  return {
    text: `${operand(a, op.prec)} ${op.op} ${operand(b, op.prec + 1)}`,
    prec: op.prec,
  };
}

/** The object keys written anywhere under `n`, which a comprehension's variables must not shadow. */
function keysUnder(c: Converter, n: AstNode, out = new Set<string>()): Set<string> {
  if (n.type === "object") {
    for (let i = 0; i < n.children.length; i += 2) {
      const k = n.children[i];
      out.add(c.slice(k.range.start.byte, k.range.end.byte).trim().replace(/^"|"$/g, ""));
      const v = k.children[0]?.meta?.value;
      if (typeof v === "string") out.add(v.replace(/^"|"$/g, ""));
    }
  }
  for (const ch of n.children) keysUnder(c, ch, out);
  return out;
}

/** `[for k, v in xs : f(v) if p]` and `{for k, v in m : k => v}`. */
async function forExpr(c: Converter, n: AstNode, scope: Scope): Promise<Cue> {
  const m = n.meta ?? {};
  const isObject = m.openRangeValue === "{";
  const kids = [...n.children];
  const coll = kids.shift()!;
  const keyExpr = isObject ? kids.shift() : undefined;
  const valExpr = kids.shift()!;
  const cond = m.conditionalExpression ? kids.shift() : undefined;
  const vars = forVars(scope, { keyVar: m.keyVar, valVar: m.valVar }, keysUnder(c, n));
  const inner = vars.inner;
  const head = forHead(vars, await convertNode(c, coll, scope));
  const guard = cond ? ` if ${(await convertNode(c, cond, inner)).text}` : "";
  const value = (await convertNode(c, valExpr, inner)).text;
  if (!isObject) return atom(`[${head}${guard} {${value}}]`);
  const key = (await convertNode(c, keyExpr!, inner)).text;
  if (m.groupedValue) {
    return c.fail(
      n,
      "Grouping for expressions are not converted",
      "A for expression with ... groups the values of equal keys into lists, which has no short CUE form. Write it in CUE by hand: {for k, _ in m {(KEY): [for k2, v2 in m if KEY2 == KEY {VALUE}]}}.",
    );
  }
  const label = /^[A-Za-z][A-Za-z0-9_]*$/.test(key) ? `(${key})` : `("\\(${key})")`;
  return atom(`{${head}${guard} {${label}: ${value}}}`);
}
