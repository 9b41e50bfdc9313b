/**
 * Terraform's declarations that are not nodes, to CUE: `variable` (→ `var:
 * NAME: *default | type @tag(NAME)` in the root, `#var: NAME: ...` in a
 * module), `locals` (→ `local`, `#local`), `output` (→ `outputs: NAME` in
 * the root, a field of the definition in a module), `moved` (→ `moved:
 * [...]` with pravo's addresses), `import` blocks (→ the `pravo import`
 * commands the conversion lists), and the `terraform` block's
 * `required_providers`.
 *
 * @module
 */

import { error, warning } from "../diag/diag.ts";
import type { HclFile } from "./hcl.ts";
import type { HclAttribute } from "./hcl_body.ts";
import { type AstNode, expressionAst } from "./hcl.ts";
import { cueString } from "./expr_base.ts";
import { decodeQuoted } from "./expr_template.ts";
import { at, attr, type Located } from "./convert_module.ts";
import { ctxFor, type Entry, type ModuleCtx, refusedInModule, value } from "./convert_body.ts";
import { pravoAddress, TerraformAddressError } from "./address.ts";

/** An `import` block, as the command lists it. */
export interface ImportItem {
  /** pravo's address of the node. */
  address: string;
  /** The object's id, when the block gives it as a constant. */
  id?: string;
  /** The command that imports it. */
  command?: string;
  file: string;
  line: number;
}

/** A Terraform type constraint (its syntax tree) as a CUE type. */
export function typeText(n: AstNode, src: string): string | undefined {
  const bytes = new TextEncoder().encode(src);
  const text = (x: AstNode) =>
    new TextDecoder().decode(bytes.subarray(x.range.start.byte, x.range.end.byte)).trim();
  const rec = (x: AstNode): string | undefined => {
    if (x.type === "scopeTraversal") {
      const t = String(x.meta?.value);
      return ({ string: "string", number: "number", bool: "bool", any: "_" } as Record<
        string,
        string
      >)[t];
    }
    if (x.type !== "function") return undefined;
    const name = String(x.meta?.name);
    const arg = x.children[0];
    if (!arg) return undefined;
    if (name === "list" || name === "set") {
      const e = rec(arg);
      return e && `[...${e}]`;
    }
    if (name === "map") {
      const e = rec(arg);
      return e && `{[string]: ${e}}`;
    }
    if (name === "tuple" && arg.type === "tuple") {
      const items = arg.children.map(rec);
      return items.every(Boolean) ? `[${items.join(", ")}]` : undefined;
    }
    if (name === "object" && arg.type === "object") {
      const fields: string[] = [];
      for (let i = 0; i + 1 < arg.children.length; i += 2) {
        const k = text(arg.children[i]).replace(/^"|"$/g, "");
        const v = arg.children[i + 1];
        if (v.type === "function" && v.meta?.name === "optional") {
          const t = rec(v.children[0]);
          if (!t) return undefined;
          const d = v.children[1] ? text(v.children[1]) : undefined;
          if (d !== undefined && !/^(-?[\d.]+|true|false|null|"[^"$%]*")$/.test(d)) {
            return undefined;
          }
          fields.push(d === undefined ? `${k}?: ${t}` : `${k}: *${d} | ${t}`);
        } else {
          const t = rec(v);
          if (!t) return undefined;
          fields.push(`${k}: ${t}`);
        }
      }
      return `{${fields.join(", ")}}`;
    }
    return undefined;
  };
  return rec(n);
}

/** `variable "NAME" { type, default, description, sensitive, validation }`. */
export async function variableEntry(m: ModuleCtx, { file, block }: Located): Promise<Entry> {
  const name = block.labels[0];
  const typeAttr = attr(block, "type");
  let type = "_";
  if (typeAttr) {
    m.varTypes.set(name, typeAttr.expr.trim());
    const ast = await expressionAst(file.name, typeAttr.expr + "\n");
    const t = typeText(ast, typeAttr.expr);
    if (t) type = t;
    else {
      m.diags.push(
        warning(
          `The type of var.${name} is not converted`,
          `pravo convert reads the types string, number, bool, any, list, set, map, tuple and object (with optional); ${typeAttr.expr.trim()} is written as _ (any value). Write the CUE type by hand.`,
          at(file, typeAttr.offset),
        ),
      );
    }
  }
  const def = attr(block, "default");
  const d = def ? await value(m, file, def, m.scope) : undefined;
  let v = d === undefined ? type : `*${d} | ${type}`;
  if (d !== undefined && /^[[{]/.test(type)) {
    // The default takes the type's own defaults (optional(T, D)); closed, a
    // struct given in its place replaces it rather than merging with it.
    v = `*(${type} & ${d.startsWith("{") ? `close(${d})` : d}) | ${type}`;
  }
  if (!m.inModule && ["string", "number", "bool", "_"].includes(type)) {
    const kind = type === "number" ? ",type=number" : type === "bool" ? ",type=bool" : "";
    const scalar = type !== "_" || d === undefined || /^(\*"|\*-?\d)/.test(v);
    if (scalar) v += ` @tag(${name}${kind})`;
  }
  for (const a of block.body.attributes) {
    if (a.name === "sensitive") {
      m.diags.push(
        warning(
          `var.${name} is sensitive in Terraform`,
          "pravo marks values sensitive from the providers' schemas (and everything computed from them), not by declaration: a value given with -t is not marked. Keep secrets out of tags: let a provider generate them, or read them with a data source.",
          at(file, a.offset),
        ),
      );
    }
  }
  const constraints: string[] = [];
  for (const b of block.body.blocks) {
    if (b.type !== "validation") continue;
    const cond = attr(b, "condition")?.expr.trim() ?? "";
    const message = attr(b, "error_message")?.expr.trim();
    const c = constraintOf(cond, name);
    if (c) {
      constraints.push(c);
      if (message) {
        m.diags.push(
          warning(
            `The error message of a validation of var.${name} is not kept`,
            `The condition ${cond} is written as the CUE constraint ${c}; CUE says what failed in its own words, not ${message}.`,
            at(file, b.offset),
          ),
        );
      }
      continue;
    }
    m.diags.push(
      warning(
        `A validation of var.${name} is not converted`,
        `pravo convert leaves out the condition ${cond}. Write it as a CUE constraint on the field (${
          m.inModule ? "#var" : "var"
        }.${name}: "a" | "b", =~"^x", <= 10, ...) by hand.`,
        at(file, b.offset),
      ),
    );
  }
  if (constraints.length) {
    const [head, tag] = v.split(/ (?=@tag\()/);
    v = `(${head}) & ${constraints.join(" & ")}${tag ? ` ${tag}` : ""}`;
  }
  const description = attr(block, "description");
  return {
    file: file.name,
    path: [m.inModule ? "#var" : "var", name],
    value: v,
    comment: description ? [await plain(m, file, description)] : undefined,
    offset: block.offset,
  };
}

/**
 * A validation's condition as a CUE constraint on the variable, for the
 * forms that have one: `contains(["a", "b"], var.x)` → `"a" | "b"`,
 * `can(regex("^x", var.x))` → `=~"^x"`, `var.x >= 1` → `>=1`, and `&&` of
 * those; undefined for any other.
 */
export function constraintOf(cond: string, name: string): string | undefined {
  const v = `var\\.${name}`;
  const parts = cond.split(/\s*&&\s*/);
  const out: string[] = [];
  for (const p of parts) {
    const oneOf = new RegExp(`^contains\\(\\s*\\[([^\\]]*)\\]\\s*,\\s*${v}\\s*\\)$`).exec(p);
    if (oneOf) {
      const items = oneOf[1].split(",").map((x) => x.trim()).filter(Boolean);
      if (!items.every((x) => /^("[^"\\$%]*"|-?\d+(\.\d+)?)$/.test(x))) return undefined;
      out.push(items.length === 1 ? items[0] : `(${items.join(" | ")})`);
      continue;
    }
    const re = new RegExp(
      `^can\\(\\s*regex\\(\\s*("(?:[^"\\\\]|\\\\.)*")\\s*,\\s*${v}\\s*\\)\\s*\\)$`,
    ).exec(p);
    if (re && !/[$%]\{/.test(re[1])) {
      out.push(`=~${JSON.stringify(decodeQuoted(re[1].slice(1, -1)))}`);
      continue;
    }
    const cmp = new RegExp(`^${v}\\s*(>=|<=|>|<|!=)\\s*(-?\\d+(?:\\.\\d+)?)$`).exec(p);
    if (cmp) {
      out.push(`${cmp[1]}${cmp[2]}`);
      continue;
    }
    return undefined;
  }
  return out.length ? out.join(" & ") : undefined;
}

/** A description's text, for a comment. */
async function plain(m: ModuleCtx, file: HclFile, a: HclAttribute): Promise<string> {
  const v = await value(m, file, a, m.scope);
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** `locals { a = ... }` → `local: a: ...` (`#local` in a module). */
export async function localEntries(m: ModuleCtx, { file, block }: Located): Promise<Entry[]> {
  const out: Entry[] = [];
  for (const a of block.body.attributes) {
    out.push({
      file: file.name,
      path: [m.inModule ? "#local" : "local", a.name],
      value: await value(m, file, a, m.scope),
      offset: a.offset,
    });
  }
  return out;
}

/** `output "NAME" { value = ... }` → `outputs: NAME: ...` (a field of the definition in a module). */
export async function outputEntry(
  m: ModuleCtx,
  { file, block }: Located,
): Promise<Entry | undefined> {
  const name = block.labels[0];
  const v = attr(block, "value");
  if (!v) {
    m.diags.push(
      error(
        `output "${name}" has no value`,
        "Give it a value, then convert again.",
        at(file, block.offset),
      ),
    );
    return undefined;
  }
  for (const a of block.body.attributes) {
    if (a.name === "sensitive") {
      m.diags.push(
        warning(
          `output "${name}" is sensitive in Terraform`,
          "pravo shows an output as (sensitive) when its value holds a sensitive attribute, with no marking; a value that is secret only by declaration (a tag, a local) is shown. Check that this output holds a provider's sensitive attribute, or leave it out.",
          at(file, a.offset),
        ),
      );
    } else if (a.name === "depends_on") {
      m.diags.push(
        warning(
          `depends_on of output "${name}" is not converted`,
          "pravo's outputs are values: they wait for what they refer to, and have no depends_on. It is left out.",
          at(file, a.offset),
        ),
      );
    }
  }
  const taken = [...m.scope.resources.keys()].some((k) => k.startsWith(`${name}.`));
  if (m.inModule && (taken || ["module", "data"].includes(name))) {
    m.diags.push(
      error(
        `output "${name}" has a name the module's nodes use`,
        `A module's outputs are fields of its definition, beside its nodes; "${name}" is taken. Rename the output, then convert again.`,
        at(file, block.offset),
      ),
    );
  }
  const description = attr(block, "description");
  return {
    file: file.name,
    path: m.inModule ? [name] : ["outputs", name],
    value: await value(m, file, v, m.scope),
    comment: description ? [await plain(m, file, description)] : undefined,
    offset: block.offset,
  };
}

/** A `moved` or `import` address (a reference) as pravo's address. */
function address(m: ModuleCtx, file: HclFile, a: HclAttribute): string | undefined {
  try {
    return pravoAddress(a.expr.trim());
  } catch (e) {
    if (!(e instanceof TerraformAddressError)) throw e;
    m.diags.push(
      error(
        "Not an address",
        `${e.message}. Write a resource or module address, then convert again.`,
        at(file, a.exprOffset),
      ),
    );
    return undefined;
  }
}

/** `moved { from = a  to = b }` → `{from: "a", to: "b"}` of `moved`. */
export function movedItem(m: ModuleCtx, located: Located): string | undefined {
  if (refusedInModule(m, located, "moved")) return undefined;
  const { file, block } = located;
  const from = attr(block, "from"), to = attr(block, "to");
  if (!from || !to) {
    m.diags.push(error("Malformed moved block", "Give from and to.", at(file, block.offset)));
    return undefined;
  }
  const a = address(m, file, from), b = address(m, file, to);
  if (!a || !b) return undefined;
  return `{from: ${cueString(a)}, to: ${cueString(b)}}`;
}

/** `import { to = ADDR  id = "..." }` → the `pravo import` command to run after init. */
export function importItem(m: ModuleCtx, { file, block }: Located): ImportItem | undefined {
  const to = attr(block, "to"), id = attr(block, "id");
  const where = file.lines.at(block.offset);
  if (!to || !id) {
    m.diags.push(error("Malformed import block", "Give to and id.", at(file, block.offset)));
    return undefined;
  }
  const addr = address(m, file, to);
  if (!addr) return undefined;
  const item: ImportItem = { address: addr, file: file.name, line: where.line };
  let idValue: string | undefined;
  try {
    const v = JSON.parse(id.expr.trim());
    if (typeof v === "string" && !/\$\{|%\{/.test(v)) idValue = v;
  } catch {
    // computed
  }
  if (attr(block, "for_each") || idValue === undefined) {
    m.diags.push(
      warning(
        `The import of ${addr} needs its id by hand`,
        `Its id is computed (${id.expr.trim()}), and pravo convert lists only constant ones. After pravo init, run pravo import '${addr}' ID with the object's id.`,
        at(file, block.offset),
      ),
    );
    return item;
  }
  item.id = idValue;
  item.command = `pravo import ${shellQuote(addr)} ${shellQuote(idValue)}`;
  return item;
}

/** A word for the shell. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `terraform { required_providers { ... } }`: the requirements; the rest is a warning. */
export async function terraformBlock(m: ModuleCtx, { file, block }: Located): Promise<void> {
  for (const a of block.body.attributes) {
    m.diags.push(
      warning(
        `terraform ${a.name} is not converted`,
        a.name === "required_version"
          ? "pravo is not Terraform: its version does not depend on this. It is left out."
          : `pravo has no ${a.name}. It is left out.`,
        at(file, a.offset),
      ),
    );
  }
  for (const b of block.body.blocks) {
    if (b.type === "required_providers") {
      for (const a of b.body.attributes) {
        const ast = await expressionAst(file.name, a.expr + "\n");
        requirement(m, a, ast);
      }
      continue;
    }
    m.diags.push(
      warning(
        `terraform ${b.type} is not converted`,
        b.type === "backend" || b.type === "cloud"
          ? "pravo keeps the state in its own store (SQLite under .pravo/, or PostgreSQL with --state). Take the objects over with pravo import after pravo init."
          : `pravo has no ${b.type}. It is left out.`,
        at(file, b.offset),
      ),
    );
  }
  ctxFor(m, file);
}

function requirement(m: ModuleCtx, a: HclAttribute, ast: AstNode): void {
  let source = `hashicorp/${a.name}`, version = "";
  const src = a.expr;
  const lit = (re: RegExp) => {
    const x = re.exec(src);
    return x ? JSON.parse(x[1]) as string : undefined;
  };
  if (ast.type === "object") {
    source = lit(/\bsource\s*=\s*("(?:[^"\\]|\\.)*")/) ?? source;
    version = lit(/\bversion\s*=\s*("(?:[^"\\]|\\.)*")/) ?? "";
  } else {
    version = lit(/^\s*("(?:[^"\\]|\\.)*")\s*$/) ?? "";
  }
  m.requirements.set(a.name, { source: source.toLowerCase(), version });
}
