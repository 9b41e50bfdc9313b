/**
 * Terraform's ProposedNew: what the core proposes to a provider's
 * PlanResourceChange. The configuration, with the prior state's value for
 * every computed attribute the configuration leaves null; nested blocks
 * correlated with the prior ones (single and group blocks directly, list
 * blocks by index, map blocks by key, set blocks by equal non-computed
 * attributes), so that computed values inside them carry over too.
 *
 * On a create the prior is null: computed attributes the configuration
 * leaves null are proposed null, and the provider plans them (unknown, or a
 * default). On a destroy the configuration is null and so is the proposal.
 *
 * @module
 */

import {
  type Attribute,
  type Block,
  blockValue,
  type NestedBlock,
  type NestedObject,
} from "./schema.ts";
import { isUnknown, Typed, Unknown, type Value } from "./value.ts";

type Obj = Record<string, Value>;

function isObj(v: Value): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Unknown) &&
    !(v instanceof Typed);
}

/** The proposed new state of a resource: see the module doc. */
export function proposedNewState(block: Block, prior: Value, config: Value): Value {
  // A destroy proposes nothing (Terraform does not call ProposedNew then).
  if (config === null || config === undefined) return null;
  const c = blockValue(config, block);
  const p = blockValue(prior ?? null, block);
  return proposed(block, p, c);
}

function emptyPrior(block: Block): Obj {
  return blockValue({}, block) as Obj;
}

function proposed(block: Block, prior: Value, config: Value): Value {
  if (config === null && prior === null) return null;
  return proposedObject(
    block,
    isObj(prior) ? prior : prior === null ? emptyPrior(block) : prior,
    config,
  );
}

function proposedObject(block: Block, prior: Value, config: Value): Value {
  if (config === null || isUnknown(config)) return prior;
  if (!isObj(config)) return config;
  const out = proposedAttributes(block.attributes, prior, config);
  for (const [name, nb] of Object.entries(block.blockTypes)) {
    out[name] = proposedBlock(nb, isObj(prior) ? prior[name] ?? null : prior, config[name] ?? null);
  }
  return out;
}

function proposedAttributes(attrs: Record<string, Attribute>, prior: Value, config: Obj): Obj {
  const out: Obj = {};
  for (const [name, a] of Object.entries(attrs)) {
    const priorV = isObj(prior) ? prior[name] ?? null : isUnknown(prior) ? prior : null;
    const configV = config[name] ?? null;
    if (a.computed && configV === null) out[name] = priorV;
    else if (a.nestedType && !isUnknown(configV)) {
      out[name] = proposedNested(a.nestedType, priorV, configV);
    } else out[name] = configV;
  }
  return out;
}

function proposedNested(n: NestedObject, prior: Value, config: Value): Value {
  if (config === null) return null;
  const one = (p: Value, c: Value) => (isObj(c) ? proposedAttributes(n.attributes, p, c) : c);
  switch (n.nesting) {
    case "single":
      return one(prior, config);
    case "list":
      if (!Array.isArray(config)) return config;
      return config.map((c, i) =>
        Array.isArray(prior) && i < prior.length
          ? one(prior[i], c)
          : isUnknown(prior)
          ? one(prior, c)
          : c
      );
    case "map":
      if (!isObj(config)) return config;
      return Object.fromEntries(
        Object.entries(config).map(([k, c]) => [
          k,
          isObj(prior) && k in prior ? one(prior[k], c) : isUnknown(prior) ? one(prior, c) : c,
        ]),
      );
    case "set": {
      if (!Array.isArray(config)) return config;
      const pairs = Array.isArray(prior)
        ? prior.map((p) => [p, withoutComputed(n.attributes, {}, p)])
        : [];
      const used = new Set<number>();
      return config.map((c) => {
        const i = pairs.findIndex(([, cmp], j) => !used.has(j) && equal(cmp, c));
        if (i < 0) return c;
        used.add(i);
        return one(pairs[i][0], c);
      });
    }
  }
}

function proposedBlock(nb: NestedBlock, prior: Value, config: Value): Value {
  if (isUnknown(config)) return config;
  switch (nb.nesting) {
    case "single":
      if (config === null) return null;
      return proposed(nb.block, prior, config);
    case "group":
      return proposed(nb.block, prior, config);
    case "list": {
      if (!Array.isArray(config) || !config.length) return [];
      return config.map((c, i) => {
        if (!isUnknown(prior) && !(Array.isArray(prior) && i < prior.length)) return c;
        return proposed(nb.block, Array.isArray(prior) ? prior[i] : prior, c);
      });
    }
    case "map": {
      if (!isObj(config)) return {};
      const out: Obj = {};
      for (const [k, c] of Object.entries(config)) {
        if (!isUnknown(prior) && !(isObj(prior) && k in prior)) out[k] = c;
        else out[k] = proposed(nb.block, isObj(prior) ? prior[k] : prior, c);
      }
      return out;
    }
    case "set": {
      if (!Array.isArray(config) || !config.length) return [];
      const pairs = Array.isArray(prior)
        ? prior.map((p) =>
          [p, withoutComputed(nb.block.attributes, nb.block.blockTypes, p)] as const
        )
        : [];
      const used = new Set<number>();
      return config.map((c) => {
        const i = pairs.findIndex(([, cmp], j) => !used.has(j) && equal(cmp, c));
        const priorEV = i < 0 ? null : pairs[i][0];
        if (i >= 0) used.add(i);
        return proposed(nb.block, priorEV, c);
      });
    }
  }
}

/** A prior set element with its computed attributes nulled, to compare with a config element. */
function withoutComputed(
  attrs: Record<string, Attribute>,
  blocks: Record<string, NestedBlock>,
  v: Value,
): Value {
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, a] of Object.entries(attrs)) {
    const x = v[k] ?? null;
    if (a.computed) out[k] = null;
    else if (a.nestedType && x !== null) {
      const n = a.nestedType;
      const strip = (e: Value) => withoutComputed(n.attributes, {}, e);
      out[k] = n.nesting === "single"
        ? strip(x)
        : Array.isArray(x)
        ? x.map(strip)
        : isObj(x)
        ? Object.fromEntries(Object.entries(x).map(([kk, e]) => [kk, strip(e)]))
        : x;
    } else out[k] = x;
  }
  for (const [k, nb] of Object.entries(blocks)) {
    const x = v[k] ?? null;
    const strip = (e: Value) => withoutComputed(nb.block.attributes, nb.block.blockTypes, e);
    out[k] = Array.isArray(x)
      ? x.map(strip)
      : nb.nesting === "map" && isObj(x)
      ? Object.fromEntries(Object.entries(x).map(([kk, e]) => [kk, strip(e)]))
      : strip(x);
  }
  return out;
}

/** Deep equality of known values; an unknown equals nothing. */
function equal(a: Value, b: Value): boolean {
  if (a instanceof Unknown || b instanceof Unknown) return false;
  if (a instanceof Typed || b instanceof Typed) {
    return a instanceof Typed && b instanceof Typed &&
      JSON.stringify(a.type) === JSON.stringify(b.type) &&
      equal(a.value, b.value);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length &&
      a.every((x, i) => equal(x, b[i]));
  }
  if (isObj(a) || isObj(b)) {
    if (!isObj(a) || !isObj(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && equal(a[k], b[k]));
  }
  return a === b;
}

/**
 * Terraform's PlannedDataResourceObject: a data source read that must wait
 * for apply (its configuration holds unknowns) plans as its configuration
 * with every computed attribute it leaves null unknown.
 */
export function plannedDataSourceState(block: Block, config: Value): Value {
  return proposedObject(block, new Unknown(), blockValue(config ?? null, block));
}
