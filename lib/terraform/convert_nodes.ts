/**
 * Resources, data sources, module calls and provider configurations to
 * CUE, at Terraform's addresses: `resource "aws_s3_bucket" "logs"` →
 * `aws_s3_bucket: logs: $aws.#Resource.aws_s3_bucket & {...}`, `data
 * "T" "N"` → `data: T: N: $aws.#Data.T & {...}`, `module "vpc"` → `module:
 * vpc: vpc_module.#Vpc & {#aws: $aws, #var: {...}}`, `provider "aws"` →
 * `$aws: aws.#Provider & {...}` (an alias `west` → `$aws_west`). `count`
 * keys instances `"0"`, `"1"` (`c ? 1 : 0` an `if`), `for_each` by key.
 *
 * @module
 */

import { error } from "../diag/diag.ts";
import type { HclFile } from "./hcl.ts";
import type { HclBlock } from "./hcl_body.ts";
import { convertExpression, type Scope } from "./expr.ts";
import { pkg } from "./expr_base.ts";
import { at, attr, expansionOf, type Located } from "./convert_module.ts";
import {
  body,
  ctxFor,
  type Entry,
  type ModuleCtx,
  nodeBody,
  providerName,
  refusedInModule,
  requirementOf,
  struct,
  value,
} from "./convert_body.ts";

/** The import path of a provider's package. */
export function providerImport(source: string): string {
  return `pravo.dev/providers/${source.replace(/^registry\.terraform\.io\//, "")}`;
}

/** The provider configuration a resource uses: `aws`, or `aws.west`. */
function providerConfig(block: HclBlock): string {
  const p = attr(block, "provider");
  if (p) return p.expr.trim();
  return block.labels[0].split("_")[0];
}

/** `aws_s3_bucket` → `$aws.#Resource.aws_s3_bucket`; undefined for Terraform's built-in types. */
function nodeType(
  m: ModuleCtx,
  file: HclFile,
  block: HclBlock,
  mode: "Resource" | "Data",
): string | undefined {
  const config = providerConfig(block);
  const local = config.split(".")[0];
  if (local === "terraform") {
    m.diags.push(
      error(
        `${block.labels[0]} is not converted`,
        `${
          block.labels[0]
        } is built into Terraform, and pravo has no such type. Use a type of a provider (null_resource of hashicorp/null for terraform_data), then convert again.`,
        at(file, block.offset),
      ),
    );
    return undefined;
  }
  m.usedProviders.add(config);
  requirementOf(m, local);
  return `${providerName(m, config)}.#${mode}.${block.labels[0]}`;
}

/**
 * The value at `TYPE.NAME` (or `module.NAME`): one node, or its instances
 * keyed by `count` or `for_each`, with the scope its body is read in.
 */
async function expand(
  m: ModuleCtx,
  file: HclFile,
  block: HclBlock,
  make: (scope: Scope) => Promise<string>,
): Promise<string> {
  const scope = m.scope;
  const count = attr(block, "count");
  if (count) {
    const cond = /^([\s\S]+?)\s*\?\s*1\s*:\s*0\s*$/.exec(count.expr);
    const inner: Scope = { ...scope, count: "count_index" };
    if (cond) {
      const c = await convertExpression(cond[1], count.exprOffset, scope, ctxFor(m, file));
      return `{if ${c.text} {"0": ${await make({ ...inner, count: "0" })}}}`;
    }
    const n = await value(m, file, count, scope);
    return `{for count_index in ${
      pkg("list", ctxFor(m, file))
    }.Range(0, ${n}, 1) {"\\(count_index)": ${await make(
      inner,
    )}}}`;
  }
  const each = attr(block, "for_each");
  if (each) {
    const coll = await value(m, file, each, scope);
    if (isSet(m, each.expr)) {
      const inner: Scope = { ...scope, each: { key: "each_value", value: "each_value" } };
      return `{for each_value in ${coll} {(each_value): ${await make(inner)}}}`;
    }
    const inner: Scope = { ...scope, each: { key: "each_key", value: "each_value" } };
    return `{for each_key, each_value in ${coll} {(each_key): ${await make(inner)}}}`;
  }
  return await make(scope);
}

/** Whether a `for_each` collection is a set (of strings) rather than a map. */
function isSet(m: ModuleCtx, src: string): boolean {
  const s = src.trim();
  if (/^toset\s*\(/.test(s) || s.startsWith("[")) return true;
  const v = /^var\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(s);
  if (v) return /^(set|list)\s*\(/.test(m.varTypes.get(v[1]) ?? "");
  const l = /^local\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(s);
  if (!l) return false;
  const def = m.decl.locals.flatMap((x) => x.block.body.attributes).find((a) => a.name === l[1]);
  return def !== undefined && /^(toset\s*\(|\[)/.test(def.expr.trim());
}

/** `resource "T" "N"` or `data "T" "N"` → an entry at `T.N` or `data.T.N`. */
export async function nodeEntry(
  m: ModuleCtx,
  { file, block }: Located,
  mode: "Resource" | "Data",
): Promise<Entry | undefined> {
  if (block.labels.length !== 2) {
    m.diags.push(
      error(
        `Malformed ${block.type} block`,
        `A ${block.type} block has two labels, its type and name. Write them, then convert again.`,
        at(file, block.offset),
      ),
    );
    return undefined;
  }
  const type = nodeType(m, file, block, mode);
  if (!type) return undefined;
  const v = await expand(m, file, block, async (scope) => {
    return `${type} & ${struct(await nodeBody(m, file, block, scope))}`;
  });
  const [t, n] = block.labels;
  return {
    file: file.name,
    path: mode === "Data" ? ["data", t, n] : [t, n],
    value: v,
    offset: block.offset,
  };
}

/** `provider "aws" { alias = "west" ... }` → `$aws_west: aws.#Provider & {...}`. */
export async function providerEntry(
  m: ModuleCtx,
  located: Located,
): Promise<Entry | undefined> {
  if (refusedInModule(m, located, "provider")) return undefined;
  const { file, block } = located;
  const local = block.labels[0];
  const alias = attr(block, "alias");
  const aliasName = alias ? JSON.parse(alias.expr.trim()) as string : undefined;
  const config = aliasName ? `${local}.${aliasName}` : local;
  const req = requirementOf(m, local);
  const fields = await body(m, file, block, m.scope, new Set(["alias", "version"]));
  const pkgRef = pkg(providerImport(req.source), ctxFor(m, file));
  return {
    file: file.name,
    path: [providerName(m, config)],
    value: `${pkgRef}.#Provider & ${struct(fields)}`,
    offset: block.offset,
  };
}

/** `module "vpc" { source = "./vpc" ... }` → `module: vpc: vpc_module.#Vpc & {...}`. */
export async function moduleEntry(
  m: ModuleCtx,
  { file, block }: Located,
): Promise<Entry | undefined> {
  const name = block.labels[0];
  const child = m.children.get(name);
  if (!child) return undefined; // refused where its source was read
  const dep = attr(block, "depends_on");
  if (dep) {
    m.diags.push(
      error(
        `depends_on of the module call "${name}" is not converted`,
        "pravo's depends_on is a node's: a module's definition has none. Remove it from the call and add depends_on to the nodes inside the module that must wait, then convert again.",
        at(file, dep.offset),
      ),
    );
  }
  const mapping = new Map<string, string>();
  const prov = attr(block, "providers");
  if (prov) {
    for (
      const m2 of prov.expr.matchAll(
        /([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)?)\s*=\s*([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)?)/g,
      )
    ) {
      mapping.set(m2[1], m2[2]);
    }
  }
  const meta = new Set(["source", "version", "providers", "count", "for_each", "depends_on"]);
  const v = await expand(m, file, block, async (scope) => {
    const inputs: string[] = [];
    for (const p of child.providers) {
      const from = mapping.get(p) ?? p;
      m.usedProviders.add(from);
      // In a module, the call declares the same names: its own are `_aws`.
      const given = m.inModule ? `_${from.replace(".", "_")}` : providerName(m, from);
      inputs.push(`${"#" + p.replace(".", "_")}: ${given}`);
    }
    const vars = await body(m, file, block, { ...scope, callBody: m.inModule }, meta);
    inputs.push(`#var: ${struct(vars)}`);
    const ref = `${pkg(child.importPath, ctxFor(m, file))}.${child.def}`;
    return `${ref} & ${struct(inputs)}`;
  });
  return { file: file.name, path: ["module", name], value: v, offset: block.offset };
}

/** How a module call expands, for the scope. */
export { expansionOf };
