/**
 * What the blocks of a module convert into, and the bodies of its nodes:
 * attributes to fields, nested blocks to lists of structs (as the
 * providers' schemas declare most blocks), `dynamic` blocks to list
 * comprehensions, `lifecycle` to pravo's `lifecycle`, `depends_on` to
 * pravo's `depends_on`. `provisioner` and `connection` are refused.
 *
 * @module
 */

import { type Diagnostic, error, warning } from "../diag/diag.ts";
import type { HclFile } from "./hcl.ts";
import type { HclAttribute, HclBlock } from "./hcl_body.ts";
import { convertExpression, type ExprContext, type Scope } from "./expr.ts";
import { cueLabel, cueString, freshName, withVars } from "./expr_base.ts";
import { at, attr, type Located, type ModuleDecl } from "./convert_module.ts";

/** A field of a CUE file: `path: value`, from a `.tf` file. */
export interface Entry {
  /** The `.tf` file it comes from (the `.cue` file it goes to). */
  file: string;
  path: string[];
  value: string;
  /** Comment lines above it. */
  comment?: string[];
  /** Where its block is in the `.tf` file: entries keep the blocks' order. */
  offset?: number;
}

/** A local module's package, for the calls to it. */
export interface ChildModule {
  importPath: string;
  alias: string;
  /** The definition: `#Vpc`. */
  def: string;
  /** The provider configurations it takes: `aws`, `aws.west`. */
  providers: string[];
}

/** A provider a module requires: `required_providers`, or implied by its name. */
export interface Requirement {
  /** `hashicorp/aws`, or `HOST/NAMESPACE/TYPE` off the default registry. */
  source: string;
  version: string;
}

/** Converting one module: what it declares, its scope, what it gathers. */
export interface ModuleCtx {
  decl: ModuleDecl;
  scope: Scope;
  /** A module's definition rather than the root. */
  inModule: boolean;
  top: string;
  diags: Diagnostic[];
  /** One per `.tf` file: its imports, helpers and reads. */
  ctxs: Map<string, ExprContext>;
  entries: Entry[];
  /** The provider configurations its nodes and calls use: `aws`, `aws.west`. */
  usedProviders: Set<string>;
  /** Variables' declared types, as written. */
  varTypes: Map<string, string>;
  /** Its local module calls' packages, by call name. */
  children: Map<string, ChildModule>;
  /** Providers by local name. */
  requirements: Map<string, Requirement>;
}

/** A provider's requirement: declared, or implied (`hashicorp/NAME`). */
export function requirementOf(m: ModuleCtx, local: string): Requirement {
  let req = m.requirements.get(local);
  if (!req) {
    req = { source: `hashicorp/${local}`, version: "" };
    m.requirements.set(local, req);
  }
  return req;
}

/** The expression context of a file. */
export function ctxFor(m: ModuleCtx, file: HclFile): ExprContext {
  let c = m.ctxs.get(file.name);
  if (!c) {
    c = { file, diags: m.diags, imports: new Set(), helpers: new Set(), reads: new Set() };
    m.ctxs.set(file.name, c);
  }
  return c;
}

/** An attribute's value in CUE. */
export async function value(
  m: ModuleCtx,
  file: HclFile,
  a: HclAttribute,
  scope: Scope,
): Promise<string> {
  return (await convertExpression(a.expr, a.exprOffset, scope, ctxFor(m, file))).text;
}

/** A provider configuration's CUE name: `$aws_west` in the root, `#aws_west` in a module. */
export function providerName(m: ModuleCtx, config: string): string {
  return (m.inModule ? "#" : "$") + config.replace(".", "_");
}

const NODE_META = new Set(["count", "for_each", "provider", "depends_on"]);

/** The blocks a module may not hold, only the root: what to write instead. */
const ROOT_ONLY = {
  moved:
    "pravo's moved is the root's: write the move at the root with the module call's address (from = module.NAME.aws_s3_bucket.a), then convert again.",
  provider:
    "A module takes its provider configurations from its caller (providers = {...}), as Terraform recommends. Move this configuration to the root module, then convert again.",
};

/**
 * True when `block`, of a kind only the root holds (`moved`, `provider`),
 * is in a module: the error says so, and what to write instead.
 */
export function refusedInModule(
  m: ModuleCtx,
  { file, block }: Located,
  kind: keyof typeof ROOT_ONLY,
): boolean {
  if (!m.inModule) return false;
  m.diags.push(
    error(
      `A ${kind} block in the module ${m.decl.rel} is not converted`,
      ROOT_ONLY[kind],
      at(file, block.offset),
    ),
  );
  return true;
}

/** A node's body as a CUE struct's fields. */
export async function nodeBody(
  m: ModuleCtx,
  file: HclFile,
  block: HclBlock,
  scope: Scope,
): Promise<string[]> {
  const lines = await body(m, file, block, scope, NODE_META);
  const dep = attr(block, "depends_on");
  if (dep) lines.push(`depends_on: ${await value(m, file, dep, scope)}`);
  for (const b of block.body.blocks) {
    if (b.type === "lifecycle") lines.push(`lifecycle: ${await lifecycle(m, file, b, scope)}`);
    if (b.type === "provisioner" || b.type === "connection") refuseProvisioner(m, file, b);
  }
  return lines;
}

function refuseProvisioner(m: ModuleCtx, file: HclFile, b: HclBlock): void {
  m.diags.push(
    error(
      `${
        b.type === "provisioner" ? `The provisioner "${b.labels[0] ?? ""}"` : "A connection"
      } is not converted`,
      "pravo runs no provisioners: they run commands on machines, outside the provider's model of them. Remove this block from the .tf file and do that work elsewhere (the machine's user data or image, a configuration tool, or a local_file and a script run after apply), then convert again.",
      at(file, b.offset),
    ),
  );
}

/**
 * The fields of a body: its attributes, and its nested blocks grouped by
 * type into lists, `dynamic` blocks as comprehensions among them.
 */
export async function body(
  m: ModuleCtx,
  file: HclFile,
  block: HclBlock,
  scope: Scope,
  skip: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const lines: string[] = [];
  for (const a of block.body.attributes) {
    if (skip.has(a.name)) continue;
    lines.push(`${cueLabel(a.name)}: ${await value(m, file, a, scope)}`);
  }
  const groups = new Map<string, string[]>();
  const add = (type: string, item: string) => {
    if (!groups.has(type)) groups.set(type, []);
    groups.get(type)!.push(item);
  };
  for (const b of block.body.blocks) {
    if (b.type === "lifecycle" || b.type === "provisioner" || b.type === "connection") continue;
    if (b.type === "dynamic") {
      const d = await dynamic(m, file, b, scope);
      if (d) add(b.labels[0], d);
      continue;
    }
    add(b.type, struct(await body(m, file, b, scope)));
  }
  for (const [type, items] of groups) lines.push(`${cueLabel(type)}: [${items.join(", ")}]`);
  return lines;
}

/** Fields as a struct. */
export function struct(lines: string[]): string {
  return lines.length ? `{\n${lines.join("\n")}\n}` : "{}";
}

/** `dynamic "rule" { for_each = X, iterator = it, content {...} }` → `for ... {{...}}`. */
async function dynamic(
  m: ModuleCtx,
  file: HclFile,
  b: HclBlock,
  scope: Scope,
): Promise<string | undefined> {
  const each = attr(b, "for_each");
  const content = b.body.blocks.find((x) => x.type === "content");
  if (!each || !content || b.labels.length !== 1) {
    m.diags.push(
      error(
        "Malformed dynamic block",
        'A dynamic block has one label, for_each and a content block. Write it so (dynamic "NAME" { for_each = ..., content { ... } }), then convert again.',
        at(file, b.offset),
      ),
    );
    return undefined;
  }
  const labels = attr(b, "labels");
  if (labels) {
    m.diags.push(
      error(
        "labels in a dynamic block are not converted",
        "Nested blocks with labels have no form in pravo's provider schemas. Remove labels, or write the blocks in CUE by hand.",
        at(file, labels.offset),
      ),
    );
  }
  const itAttr = attr(b, "iterator");
  const it = itAttr ? itAttr.expr.trim() : b.labels[0];
  const avoid = new Set(scope.vars.values());
  const key = freshName(`${it}_key`, avoid), val = freshName(`${it}_value`, avoid);
  const iterators = new Map(scope.iterators);
  iterators.set(it, { key, value: val });
  const inner: Scope = { ...withVars(scope, {}), iterators };
  const coll = await value(m, file, each, scope);
  const fields = await body(m, file, content, inner);
  return `for ${key}, ${val} in ${coll} {${struct(fields)}}`;
}

/** `lifecycle { ... }` → pravo's `lifecycle: {...}`; what it has no form for is a warning. */
async function lifecycle(
  m: ModuleCtx,
  file: HclFile,
  b: HclBlock,
  scope: Scope,
): Promise<string> {
  const fields: string[] = [];
  for (const a of b.body.attributes) {
    if (a.name === "prevent_destroy" || a.name === "create_before_destroy") {
      fields.push(`${a.name}: ${await value(m, file, a, scope)}`);
    } else if (a.name === "ignore_changes") {
      fields.push(`ignore_changes: ${ignoreChanges(m, file, a)}`);
    } else {
      m.diags.push(
        warning(
          `lifecycle ${a.name} is not converted`,
          a.name === "replace_triggered_by"
            ? "pravo has no replace_triggered_by: a change of what it names does not replace this node. When it must, plan with --replace ADDR; the warning is all that remains of it."
            : `pravo's lifecycle has no ${a.name}: it is left out. Check the converted node.`,
          at(file, a.offset),
        ),
      );
    }
  }
  for (const c of b.body.blocks) {
    m.diags.push(
      warning(
        `lifecycle ${c.type} is not converted`,
        `pravo has no ${c.type} blocks: the condition is left out. Write it as a CUE constraint on the node's fields, or as a policy (pravo plan --policy), by hand.`,
        at(file, c.offset),
      ),
    );
  }
  return `{${fields.join(", ")}}`;
}

/** `ignore_changes = [tags, ami]` → `["tags", "ami"]`: top-level attributes by name. */
function ignoreChanges(m: ModuleCtx, file: HclFile, a: HclAttribute): string {
  const src = a.expr.trim();
  if (src === "all") {
    m.diags.push(
      error(
        "ignore_changes = all is not converted",
        "pravo's ignore_changes names the attributes to keep. List them (ignore_changes = [tags, ...]) in the .tf file, then convert again.",
        at(file, a.exprOffset),
      ),
    );
    return "[]";
  }
  const inner = src.replace(/^\[|\]$/g, "").split(",").map((s) => s.trim()).filter(Boolean);
  const names: string[] = [];
  for (const item of inner) {
    const top = /^"?([A-Za-z_][A-Za-z0-9_-]*)"?/.exec(item)?.[1];
    if (!top) continue;
    if (top !== item.replace(/"/g, "")) {
      m.diags.push(
        warning(
          `ignore_changes ${item} is widened to ${top}`,
          `pravo's ignore_changes names top-level attributes: ${item} is written as "${top}", which keeps all of ${top}. Check that this is what you want.`,
          at(file, a.exprOffset),
        ),
      );
    }
    names.push(cueString(top));
  }
  return `[${names.join(", ")}]`;
}
