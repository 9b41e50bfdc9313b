/**
 * Terraform's `configuration` for a pravo plan: the provider configurations
 * (`provider_config`, keyed `aws` or `aws.west` for `$aws` and `$aws_west`),
 * and the root module's resources, module calls, outputs and variables,
 * each attribute an expression: `references` (what it refers to, as
 * Terraform writes references) or `constant_value` (the value the plan
 * gives it); a sensitive value's expression is empty.
 *
 * Also `relevant_attributes` (the resources' attributes that the changing
 * nodes and outputs read) and `variables` (the values of the root's
 * `var` fields), which come from the same reading of the sources.
 *
 * @module
 */

import type { ParsedFile, Site } from "../cue/syntax/mod.ts";
import type { Attrs, Plan } from "../plan/types.ts";
import type { Block } from "../plugin/schema.ts";
import type { ProviderSchema } from "../providers/schema.ts";
import type { Instance } from "./plan_json_resources.ts";
import type { SourceSites, TfRef } from "./plan_json_sources.ts";
import { isObject } from "./plan_json_types.ts";
import type { Json } from "./plan_json_values.ts";

/** The attributes and nested blocks of a configuration, as far as expressions need them. */
interface BlockShape {
  attributes: ReadonlySet<string>;
  /** The attributes the schema marks sensitive. */
  sensitive: ReadonlySet<string>;
  blocks: Record<string, { nesting: string; block: BlockShape }>;
}

function shapeOf(b: Block): BlockShape {
  const blocks: BlockShape["blocks"] = {};
  for (const [k, nb] of Object.entries(b.blockTypes)) {
    blocks[k] = { nesting: nb.nesting, block: shapeOf(nb.block) };
  }
  const sensitive = Object.entries(b.attributes).filter(([, a]) => a.sensitive).map(([k]) => k);
  return { attributes: new Set(Object.keys(b.attributes)), sensitive: new Set(sensitive), blocks };
}

/** What expressions are read with: the sources, and what must not be written. */
export interface ExprContext {
  sites: SourceSites;
  /** True when the value of this top-level attribute must not be written. */
  hidden(attr: string, value: unknown): boolean;
  /** True when a value holds a secret, at any depth. */
  secret(value: unknown): boolean;
}

/** The expression of one attribute: what it refers to, or its value. */
function expression(refs: TfRef[], value: unknown, hidden: boolean): Record<string, Json> {
  if (refs.length) return { references: refs.flatMap((r) => r.strings) };
  if (hidden) return {};
  return { constant_value: (value ?? null) as Json };
}

/** How many blocks the declarations write: the most times one label is written under them. */
function elementCount(sites: SourceSites, parent: readonly Site[]): number {
  const counts = new Map<string, number>();
  for (const p of parent) {
    for (const c of sites.children.get(p) ?? []) {
      counts.set(c.label, (counts.get(c.label) ?? 0) + 1);
    }
  }
  return Math.max(0, ...counts.values());
}

/** The nth declaration of each label among `sites`' children, for the elements of a block. */
function elementSites(sites: SourceSites, parent: readonly Site[], index: number) {
  const byLabel = new Map<string, Site[]>();
  for (const p of parent) {
    for (const c of sites.children.get(p) ?? []) {
      byLabel.set(c.label, [...(byLabel.get(c.label) ?? []), c]);
    }
  }
  const out = new Map<string, Site[]>();
  for (const [k, list] of byLabel) if (list[index]) out.set(k, [list[index]]);
  return out;
}

/**
 * The expressions of a body: one per attribute its sources write, and for
 * each nested block, one body per element (a list; one body for a single
 * block).
 */
export function expressions(
  shape: BlockShape | undefined,
  values: Attrs,
  bySite: Map<string, Site[]>,
  ctx: ExprContext,
  top = true,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [attr, sites] of [...bySite].sort(([a], [b]) => a < b ? -1 : 1)) {
    const block = shape?.blocks[attr];
    if (shape && !block && !shape.attributes.has(attr)) continue; // depends_on, lifecycle, ...
    const within = ctx.sites.within(sites);
    const hidden = (top && ctx.hidden(attr, values[attr])) || !!shape?.sensitive.has(attr) ||
      ctx.secret(values[attr]);
    if (!block || sites.every((s) => !ctx.sites.children.get(s)?.length)) {
      out[attr] = expression(ctx.sites.references(within), values[attr], hidden);
      continue;
    }
    // One body per block the sources write (or the value holds).
    const value = values[attr];
    const elems = Array.isArray(value) ? value : isObject(value) ? [value] : [];
    const written = Math.max(elems.length, elementCount(ctx.sites, sites));
    const bodies = Array.from({ length: written }, (_, i) => {
      const e = elems[i];
      return expressions(
        block.block,
        isObject(e) ? e : {},
        elementSites(ctx.sites, sites, i),
        ctx,
        false,
      );
    });
    out[attr] = block.nesting === "single" || block.nesting === "group" ? bodies[0] ?? {} : bodies;
  }
  return out;
}

/** `aws` for `$aws`, `aws.west` for `$aws_west` (BRIEF's provider rule), else `aws.NAME`. */
export function providerKey(instance: string | undefined, source: string): string {
  const type = source.split("/").pop()!;
  const name = (instance ?? `$${type}`).replace(/^\$/, "");
  if (name === type) return type;
  return `${type}.${name.startsWith(`${type}_`) ? name.slice(type.length + 1) : name}`;
}

/** `provider_config`: one entry per provider configuration of the sources. */
export function providerConfigs(
  instances: Plan["providers"],
  opts: {
    sites?: SourceSites;
    schema(source: string): ProviderSchema | undefined;
    fullName(source: string): string;
    constraints: Record<string, string>;
    secrets: ReadonlySet<string>;
  },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of instances) {
    const key = providerKey(p.address, p.source);
    const [type, alias] = key.split(".");
    const schema = opts.schema(p.source);
    const block = schema?.plugin?.config;
    const sensitive = new Set([
      ...p.sensitive,
      ...Object.entries(schema?.config ?? {}).filter(([, a]) => a.sensitive).map(([k]) => k),
    ]);
    const entry: Record<string, unknown> = {
      name: type,
      full_name: opts.fullName(p.source),
      alias,
      version_constraint: opts.constraints[opts.fullName(p.source)],
    };
    if (opts.sites) {
      const bySite = new Map<string, Site[]>();
      for (const k of opts.sites.fieldsUnder([p.address])) {
        bySite.set(k, opts.sites.at([p.address, k]));
      }
      const exprs = expressions(block ? shapeOf(block) : undefined, p.config as Attrs, bySite, {
        sites: opts.sites,
        hidden: (k) => sensitive.has(k),
        secret: (v) => holdsSecret(v, opts.secrets),
      });
      if (Object.keys(exprs).length) entry.expressions = exprs;
    }
    out[key] = entry;
  }
  return out;
}

/** True when a value holds one of the secrets. */
export function holdsSecret(v: unknown, secrets: ReadonlySet<string>): boolean {
  if (typeof v === "string") return [...secrets].some((s) => v.includes(s));
  if (Array.isArray(v)) return v.some((x) => holdsSecret(x, secrets));
  if (isObject(v)) return Object.values(v).some((x) => holdsSecret(x, secrets));
  return false;
}

/** The shape of a node's type for expressions. */
export function nodeShape(inst: Instance, types: {
  block(inst: Instance): Block | undefined;
  attributes(inst: Instance): string[] | undefined;
}): BlockShape | undefined {
  const b = types.block(inst);
  if (b) return shapeOf(b);
  const names = types.attributes(inst);
  return names ? { attributes: new Set(names), sensitive: new Set(), blocks: {} } : undefined;
}

/** A literal written as a field's value or its default (`*"x" | string`): its value, else undefined. */
export function literalOf(file: ParsedFile, site: Site): { value: unknown } | undefined {
  const toks = file.tokens;
  let i = toks.findIndex((t) => t.line === site.line && t.column === site.column);
  if (i < 0) return undefined;
  i++;
  while (toks[i] && toks[i].kind === "punct" && ["?", "!"].includes(toks[i].text)) i++;
  if (toks[i]?.text !== ":") return undefined;
  i++;
  const value: typeof toks = [];
  for (; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind === "comma" || t.kind === "eof" || t.kind === "attr" || t.text === "}") break;
    value.push(t);
  }
  const lit = (t: (typeof toks)[number] | undefined): { value: unknown } | undefined => {
    if (!t) return undefined;
    if (t.kind === "string" && t.value !== undefined && !t.interpolations?.length) {
      return { value: t.value };
    }
    if (t.kind === "number" && /^-?[0-9.]+([eE][-+]?[0-9]+)?$/.test(t.text)) {
      return { value: Number(t.text) };
    }
    if (t.kind === "ident" && ["true", "false", "null"].includes(t.text)) {
      return { value: JSON.parse(t.text) };
    }
    return undefined;
  };
  if (value.length === 1) return lit(value[0]);
  if (value[0]?.text === "*" && value[2]?.text === "|") return lit(value[1]);
  return undefined;
}

/** The tag a field is filled from (`@tag(NAME)`, `@tag(NAME,type=int)`), and its type. */
export function tagOf(site: Site): { name: string; type?: string } | undefined {
  for (const a of site.attrs) {
    const m = /^@tag\(\s*([^,)\s]+)\s*(?:,\s*type=(\w+))?/.exec(a.text);
    if (m) return { name: m[1], type: m[2] };
  }
  return undefined;
}

/** The root's variables: `configuration.root_module.variables` and the plan's `variables`. */
export function variablesOf(sites: SourceSites, plan: Plan) {
  const config: Record<string, Record<string, unknown>> = {};
  const values: Record<string, { value: unknown }> = {};
  for (const name of sites.fieldsUnder(["var"])) {
    const decls = sites.at(["var", name]);
    const entry: Record<string, unknown> = {};
    let value: { value: unknown } | undefined;
    for (const d of decls) {
      const file = sites.files.find((f) => f.file === d.file);
      const lit = file ? literalOf(file, d) : undefined;
      if (lit) entry.default = value = lit;
      const tag = tagOf(d);
      if (tag && Object.hasOwn(plan.tags, tag.name)) {
        const raw = plan.tags[tag.name];
        value = {
          value: tag.type === "int" || tag.type === "number"
            ? Number(raw)
            : tag.type === "bool"
            ? raw === "true"
            : raw,
        };
      }
    }
    if (entry.default) entry.default = (entry.default as { value: unknown }).value;
    config[name] = entry;
    if (value) values[name] = { value: value.value };
  }
  return { config, values };
}

/** The outputs of the root: `configuration.root_module.outputs`. */
export function outputsConfig(
  sites: SourceSites,
  plan: Plan,
  sensitive: (name: string) => boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const names = new Set([...Object.keys(plan.outputs), ...plan.outputsUnknown]);
  for (const name of [...names].sort()) {
    const s = sensitive(name);
    const refs = sites.references(sites.within(sites.at(["outputs", name])));
    out[name] = {
      sensitive: s || undefined,
      expression: expression(refs, plan.outputs[name], s),
    };
  }
  return out;
}

/** `relevant_attributes`: the resource attributes that these references read, once each, sorted. */
export function relevantAttributes(
  refs: readonly TfRef[],
): { resource: string; attribute: string[] }[] {
  const seen = new Map<string, { resource: string; attribute: string[] }>();
  for (const r of refs) {
    if (!r.attribute) continue;
    const e = { resource: r.attribute.resource, attribute: r.attribute.path };
    seen.set(JSON.stringify(e), e);
  }
  return [...seen.entries()].sort(([a], [b]) => a < b ? -1 : 1).map(([, e]) => e);
}
