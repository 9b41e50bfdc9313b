/**
 * The {@link Spec} of an evaluated root, assembled from what the passes
 * found: the nodes sorted by address, the provider instances, the outputs
 * and which of them are sensitive.
 *
 * @module
 */

import { formatPath } from "../errors.ts";
import type { Value } from "../program.ts";
import { PROVIDER_MARKER } from "../provider_cue.ts";
import type { MovedEntry } from "../moved.ts";
import type { Node, Spec } from "../spec.ts";
import { type Sources, specDigest } from "../sources/sources.ts";
import type { Taint } from "../taint.ts";
import type { SentinelRef } from "../unknowns.ts";
import type { Found } from "./find.ts";
import type { SecretDependence } from "./secret_dependence.ts";

/** What a spec is assembled from. */
export interface SpecParts {
  nodes: Node[];
  found: Found;
  outputs: Record<string, Value>;
  sentinels: SentinelRef[];
  moved: MovedEntry[];
  tainted: Taint;
  dependence?: SecretDependence;
  /** The `-t` values: with the sources' digest, the spec's configuration digest. */
  tags: Record<string, string>;
}

/** The spec of the sources: its nodes sorted (in place) by address. */
export function specOf(sources: Sources, parts: SpecParts): Spec {
  const { nodes, outputs, tainted, dependence } = parts;
  const configDigest = specDigest(sources.digest, parts.tags);
  return {
    root: sources.root,
    packageName: sources.packageName,
    nodes: nodes.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0)),
    providers: parts.found.providers.map((p) => ({
      address: formatPath(p.path),
      source: p.value[PROVIDER_MARKER] as string,
      config: Object.fromEntries(Object.entries(p.value).filter(([k]) => k !== PROVIDER_MARKER)),
      sensitive: [...(dependence?.attributes.get(formatPath(p.path)) ?? [])].sort(),
    })),
    outputs,
    outputsSensitive: Object.keys(outputs).filter((k) =>
      tainted.allOutputs || tainted.outputs.has(k) || dependence?.outputs.has(k)
    ).sort(),
    configDigest,
    sentinels: parts.sentinels,
    moved: parts.moved,
  };
}
