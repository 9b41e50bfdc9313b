/**
 * The module trees of Terraform's JSON plan (`planned_values` and
 * `prior_state`: a root module's resources and its child modules, each
 * with its own), and the order Terraform lists resources in.
 *
 * @module
 */

import type { Instance, TfIdentity } from "./plan_json_resources.ts";

type Key = string | number | undefined;

function compareKeys(a: Key, b: Key): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  if (typeof a !== typeof b) return typeof a === "number" ? -1 : 1;
  return a < b ? -1 : 1;
}

function compareText(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * Terraform's order of resource instances: by module (a shorter path first,
 * then call names and keys), then data sources before managed resources,
 * then type, name and key (numbers before strings).
 */
export function terraformOrder(x: { id: TfIdentity }, y: { id: TfIdentity }): number {
  const a = x.id, b = y.id;
  if (a.modules.length !== b.modules.length) return a.modules.length - b.modules.length;
  for (let i = 0; i < a.modules.length; i++) {
    const c = compareText(a.modules[i].name, b.modules[i].name) ||
      compareKeys(a.modules[i].key, b.modules[i].key);
    if (c) return c;
  }
  if (a.mode !== b.mode) return a.mode === "data" ? -1 : 1;
  return compareText(a.type, b.type) || compareText(a.name, b.name) ||
    compareKeys(a.index, b.index);
}

interface Module {
  address?: string;
  resources?: Record<string, unknown>[];
  child_modules?: Module[];
}

/**
 * The root module of `entry` for each instance that has one: resources in
 * their module, sorted by address (as `planned_values` and `prior_state`
 * list them), child modules under their parents, sorted by address.
 */
export function moduleTree(
  instances: readonly Instance[],
  entry: (inst: Instance) => Record<string, unknown> | undefined,
  order: "address" | "terraform" = "address",
): Module {
  const root: Module = {};
  const modules = new Map<string, Module>([["", root]]);
  const moduleOf = (id: TfIdentity): Module => {
    let parent = root;
    let address = "";
    for (const m of id.modules) {
      address += `${address ? "." : ""}module.${m.name}${
        m.key === undefined
          ? ""
          : typeof m.key === "number"
          ? `[${m.key}]`
          : `[${JSON.stringify(m.key)}]`
      }`;
      let mod = modules.get(address);
      if (!mod) {
        mod = { address };
        modules.set(address, mod);
        (parent.child_modules ??= []).push(mod);
      }
      parent = mod;
    }
    return parent;
  };
  const sorted = order === "terraform"
    ? [...instances].sort(terraformOrder)
    : [...instances].sort((a, b) => compareText(a.id.address, b.id.address));
  for (const inst of sorted) {
    const e = entry(inst);
    if (!e) continue;
    (moduleOf(inst.id).resources ??= []).push(e);
  }
  for (const m of modules.values()) {
    m.child_modules?.sort((a, b) => compareText(a.address!, b.address!));
  }
  return root;
}
