/**
 * `module_calls` of Terraform's configuration for a pravo plan: one call per
 * module (`module: vpc: ...` in a converted root; each label before a
 * node's name in a root written by hand, docs/reference/show.md), with its
 * source (the package the definition comes from), the inputs the call
 * gives (`#var`), and the resources and calls inside it.
 *
 * @module
 */

import { addressLabels } from "../addr/address.ts";
import { resolve, type Site } from "../cue/syntax/mod.ts";
import type { Instance } from "./plan_json_resources.ts";
import type { SourceSites } from "./plan_json_sources.ts";
import { literalOf, providerKey } from "./plan_json_config.ts";

interface Call {
  source?: string;
  expressions?: Record<string, unknown>;
  count_expression?: unknown;
  for_each_expression?: unknown;
  module: { resources?: Record<string, unknown>[]; module_calls?: Record<string, Call> };
}

/** The labels of each module call's declaration along a node's path: `[["module", "vpc"]]`. */
export function callPaths(
  labels: readonly string[],
  modules: readonly { name: string; key?: unknown }[],
) {
  const out: string[][] = [];
  let i = 0;
  for (const m of modules) {
    if (labels[i] === "module" && labels[i + 1] === m.name) {
      i += 2;
      out.push(labels.slice(0, i));
      if (m.key !== undefined) i++;
    } else {
      i++;
      out.push(labels.slice(0, i));
    }
  }
  return out;
}

/** Where a call's definition comes from: its package's import path, or the definition's name. */
function sourceOf(sites: SourceSites, decls: readonly Site[]): string | undefined {
  for (const s of sites.within(decls)) {
    const file = sites.files.find((f) => f.file === s.file);
    for (const r of s.refs) {
      const imp = file?.imports.find((i) => i.name === r.name);
      if (imp && r.selectors[0]?.startsWith("#")) return imp.path;
      const d = resolve(r)?.[0];
      if (d?.kind === "definition" && d.path?.length === 1) return d.label;
    }
  }
  return undefined;
}

/** The inputs a call gives (`#var: {...}`), as expressions. */
function inputsOf(sites: SourceSites, call: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of sites.fieldsUnder([...call, "#var"])) {
    const decls = sites.at([...call, "#var", name]);
    const refs = sites.references(sites.within(decls));
    if (refs.length) out[name] = { references: refs.flatMap((r) => r.strings) };
    else {
      const file = sites.files.find((f) => f.file === decls[0]?.file);
      const lit = file && decls[0] ? literalOf(file, decls[0]) : undefined;
      out[name] = lit ? { constant_value: lit.value } : {};
    }
  }
  return out;
}

/** `module_calls` of the root module, nested as the modules are; undefined when there are none. */
export function moduleCalls(
  instances: readonly Instance[],
  sites: SourceSites | undefined,
): Record<string, Call> | undefined {
  const root: Record<string, Call> = {};
  const seen = new Set<string>();
  for (const inst of instances) {
    if (!inst.id.modules.length) continue;
    const labels = addressLabels(inst.address) ?? [inst.address];
    const paths = callPaths(labels, inst.id.modules);
    let calls = root;
    let call: Call | undefined;
    inst.id.modules.forEach((m, i) => {
      call = calls[m.name];
      if (!call) {
        call = calls[m.name] = { module: {} };
        if (sites) {
          const decls = sites.at(paths[i]);
          call.source = sourceOf(sites, decls);
          const inputs = inputsOf(sites, paths[i]);
          if (Object.keys(inputs).length) call.expressions = inputs;
          if (m.key !== undefined) {
            const g = sites.generatorOf([...paths[i], String(m.key)]);
            const refs = (g?.clauseRefs ?? []).flatMap((r) => sites.reference(r)?.strings ?? [])
              .filter((s) => !s.startsWith("each.") && s !== "count.index");
            const expr = refs.length ? { references: refs } : {};
            if (typeof m.key === "number") call.count_expression = expr;
            else call.for_each_expression = expr;
          }
        }
      }
      calls = call.module.module_calls ??= {};
    });
    const key = `${inst.id.moduleAddress}|${inst.id.resource}`;
    if (!call || seen.has(key.replace(/\[[^\]]*\]/g, ""))) continue;
    seen.add(key.replace(/\[[^\]]*\]/g, ""));
    (call.module.resources ??= []).push({
      address: inst.id.resource,
      mode: inst.id.mode,
      type: inst.id.type,
      name: inst.id.name,
      provider_config_key: providerKey(undefined, inst.provider),
      schema_version: inst.schemaVersion,
    });
  }
  const tidy = (calls: Record<string, Call>) => {
    for (const c of Object.values(calls)) {
      if (c.module.module_calls && !Object.keys(c.module.module_calls).length) {
        delete c.module.module_calls;
      }
      c.module.resources?.sort((a, b) => (a.address as string) < (b.address as string) ? -1 : 1);
      if (c.module.module_calls) tidy(c.module.module_calls);
    }
  };
  tidy(root);
  return Object.keys(root).length ? root : undefined;
}
