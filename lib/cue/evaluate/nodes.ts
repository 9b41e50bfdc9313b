/**
 * The nodes of an evaluated root, made from what the evaluations found:
 * each node's configuration (with what is known only after apply marked
 * unknown, and the templates that tell how it follows from the sentinels),
 * its provider instance, where it and its attributes are declared, and the
 * origin of its type.
 *
 * @module
 */

import { type Diagnostic, error, type SourcePos } from "../../diag/diag.ts";
import { ctyOf, type TypeSchema } from "../../providers/schema.ts";
import { formatPath, locate, pathKey } from "../errors.ts";
import { resolve, type Site } from "../syntax/mod.ts";
import { isCtyDefault } from "../plugin_cue.ts";
import type { Value } from "../program.ts";
import { DEPENDS_ON, isTracked, LIFECYCLE, NODE_MARKER, PROVIDER_MARKER } from "../provider_cue.ts";
import type { LifecycleSettings, Node } from "../spec.ts";
import { allFiles, type Sources } from "../sources/sources.ts";
import { explains, isUnknownDefault, markUnknown } from "../unknowns.ts";
import { dependsOnErrors } from "./depends_on.ts";
import { type Found, type FoundStruct, kindOf } from "./find.ts";
import type { KnownValues } from "./known.ts";
import { nodeOrigins } from "./origin.ts";
import type { SecretDependence } from "./secret_dependence.ts";
import type { Traced } from "./trace.ts";
import { hasUnknown, isObject, valueAt } from "./values.ts";

/** What the nodes are made from. */
export interface NodesInput {
  found: Found;
  known: KnownValues;
  traced: Traced;
  dependence?: SecretDependence;
}

/** The nodes found, in the order found; a `depends_on` or a computed attribute set wrongly is a diagnostic. */
export function buildNodes(
  sources: Sources,
  input: NodesInput,
): { nodes: Node[]; diagnostics: Diagnostic[] } {
  const originOf = nodeOrigins(sources);
  const diagnostics: Diagnostic[] = [];
  const nodes = input.found.nodes.map((n) => {
    const node = _node(sources, n, input, diagnostics);
    node.origin = originOf(n.path);
    return node;
  });
  return { nodes, diagnostics };
}

/** One node, but its origin. */
function _node(sources: Sources, n: FoundStruct, input: NodesInput, diags: Diagnostic[]): Node {
  const { index } = sources;
  const { m, provider, type } = kindOf(n.value, sources.registry);
  const address = formatPath(n.path);
  const range = locate(index, n.path)?.pos;
  const inputs = _inputs(n, { address, range, type, sources, input }, diags);
  const { config } = inputs;
  diags.push(..._computedSet(n, { address, range, type, sources, input }));
  const instance = _instance(sources, n.path, provider.source, input.found);
  return {
    address,
    path: n.path,
    secretForms: {},
    templates: inputs.templates,
    needsEvaluation: inputs.needsEvaluation,
    sensitiveInputs: [...(input.dependence?.attributes.get(address) ?? [])].filter((k) => {
      const a = type.attributes[k];
      return a !== undefined && (a.required || a.optional);
    }).sort(),
    mode: m.mode,
    type: type.name,
    name: n.path[n.path.length - 1],
    provider: provider.source,
    providerInstance: instance ? formatPath(instance.path) : undefined,
    config,
    lifecycle: (n.value[LIFECYCLE] as LifecycleSettings | undefined) ?? {},
    dependencies: [],
    range,
    attributeRanges: Object.fromEntries(
      Object.keys(config).flatMap((k) => {
        const loc = locate(index, [...n.path, k]);
        return loc?.exact ? [[k, loc.pos]] : [];
      }),
    ),
    schema: type,
  };
}

/** What the parts of a node are read with. */
interface NodeContext {
  address: string;
  range?: SourcePos;
  type: TypeSchema;
  sources: Sources;
  input: NodesInput;
}

/**
 * A node's configuration: its attributes as evaluated, what is known only
 * after apply marked unknown, with the templates that say how an input
 * follows from the sentinels or, where none does, that it needs the
 * evaluation again at apply.
 */
function _inputs(
  n: FoundStruct,
  ctx: NodeContext,
  diags: Diagnostic[],
): Pick<Node, "config" | "templates" | "needsEvaluation"> {
  const { address, range, type } = ctx;
  const { index } = ctx.sources;
  const { traced, sentinels } = ctx.input.traced;
  const u = traced ? valueAt(traced, n.path) : undefined;
  const config: Record<string, Value> = {};
  const templates: Record<string, unknown> = {};
  const needsEvaluation: string[] = [];
  for (const [k, v] of Object.entries(n.value)) {
    if (k === NODE_MARKER || k === LIFECYCLE) continue;
    if (k === DEPENDS_ON) {
      diags.push(
        ...dependsOnErrors(v, { address, range: locate(index, [...n.path, k])?.pos ?? range }),
      );
      continue;
    }
    // null is unset, as in Terraform: the attribute's default, or no value.
    const na = type.attributes[k];
    if (v === null && na && !na.required && (na.optional || !type.plugin)) {
      if (na.optional && na.default !== undefined) config[k] = na.default as Value;
      continue;
    }
    // An optional and computed attribute that the configuration leaves
    // unset is no input: the provider computes it.
    if (na && isTracked(type, na) && !ctx.input.known.isSet(address, k, { value: v, type })) {
      continue;
    }
    const uv = isObject(u) ? u[k] : undefined;
    const marked = markUnknown(v, traced ? uv : undefined);
    config[k] = marked;
    const a = type.attributes[k];
    if (!a || !(a.required || a.optional) || !hasUnknown(marked)) continue;
    if (traced && explains(marked, uv, sentinels, v)) templates[k] = uv;
    else needsEvaluation.push(k);
  }
  // A built-in attribute's default, where the configuration leaves it
  // unset (provider_cue.ts: not a CUE default, which a module's own would
  // conflict with).
  if (!type.plugin) {
    for (const [name, a] of Object.entries(type.attributes)) {
      if (a.optional && a.default !== undefined && !(name in config)) {
        config[name] = a.default as Value;
      }
    }
  }
  return { config, templates, needsEvaluation };
}

/** A computed-only attribute the configuration sets: neither unknown's default nor known. */
function _computedSet(n: FoundStruct, ctx: NodeContext): Diagnostic[] {
  const { address, range, type } = ctx;
  const out: Diagnostic[] = [];
  for (const [name, a] of Object.entries(type.attributes)) {
    const v = n.value[name];
    if (a.required || a.optional || v === undefined) continue;
    if (ctx.input.known.valueOf(address, name) !== undefined) continue;
    const cty = ctyOf(a);
    if (cty !== undefined ? v === null || isCtyDefault(v, cty) : isUnknownDefault(v, a.type)) {
      continue;
    }
    out.push(
      error(
        `Computed attribute "${name}" is set`,
        `${type.name}.${name} is computed by the provider and cannot be set in the configuration. Remove it from ${address}.`,
        { address, range: locate(ctx.sources.index, [...n.path, name])?.pos ?? range },
      ),
    );
  }
  return out;
}

/** The provider instance of a node: the one its type comes from, else the first of its provider. */
function _instance(
  sources: Sources,
  path: string[],
  source: string,
  found: Found,
): FoundStruct | undefined {
  const instancePath = instanceOf(sources, path);
  return (instancePath
    ? found.providers.find((p) =>
      p.value[PROVIDER_MARKER] === source && pathKey(p.path) === pathKey(instancePath)
    )
    : undefined) ??
    found.providers.find((p) => p.value[PROVIDER_MARKER] === source);
}

/**
 * The provider instance a node's type comes from, as the sources say it:
 * `b: $aws2.#Resource.aws_s3_bucket & {...}` comes from `$aws2`.
 */
export function instanceOf(sources: Sources, path: string[]): string[] | undefined {
  for (const site of sources.index.sites.get(pathKey(path)) ?? _computedSites(sources, path)) {
    for (const r of site.refs) {
      const i = r.selectors.findIndex((x) =>
        x === "#Resource" || x === "#Data" || x === "#Ephemeral" || x === "#Call"
      );
      if (i < 0) continue;
      for (const d of resolve(r) ?? []) {
        if (d.path) return [...d.path, ...r.selectors.slice(0, i)];
      }
    }
  }
  return undefined;
}

/** Per root: the fields without a path of their own, by the field that holds them. */
const heldBy = new WeakMap<Sources, Map<Site, Site[]>>();

/**
 * The fields without a path of their own that may declare `path`: those a
 * comprehension's body or a computed label declares in the field that holds
 * `path` (`b: {for k in ks {(k): $aws2.#Resource.aws_s3_bucket & {...}}}`
 * declares `b.x`, of `$aws2`).
 */
function _computedSites(sources: Sources, path: string[]): Site[] {
  if (path.length < 2) return [];
  let held = heldBy.get(sources);
  if (!held) {
    held = new Map();
    for (const f of allFiles(sources)) {
      for (const s of f.parsed.sites) {
        if (s.path || !s.owner) continue;
        held.set(s.owner, [...(held.get(s.owner) ?? []), s]);
      }
    }
    heldBy.set(sources, held);
  }
  return (sources.index.sites.get(pathKey(path.slice(0, -1))) ?? [])
    .flatMap((owner) => held.get(owner) ?? []);
}
