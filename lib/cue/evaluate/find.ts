/**
 * Finding the nodes and the provider instances in an evaluated tree: the
 * structs that carry a provider's node marker or provider marker.
 *
 * @module
 */

import { type Diagnostic, error } from "../../diag/diag.ts";
import type { Registry } from "../../providers/registry.ts";
import type { Mode } from "../../providers/schema.ts";
import { formatPath, locate, type SourceIndex } from "../errors.ts";
import type { Value } from "../program.ts";
import { NODE_MARKER, PROVIDER_MARKER } from "../provider_cue.ts";
import { isObject, type Tree } from "./values.ts";

/** A struct found at a path of the tree. */
export interface FoundStruct {
  path: string[];
  value: Record<string, Value>;
}

/** What a tree holds. */
export interface Found {
  nodes: FoundStruct[];
  providers: FoundStruct[];
  /** Nodes inside lists, which have no address. */
  inLists: string[][];
}

/** The nodes and provider instances of a value, and the nodes in lists. */
export function structsOf(v: Value): Found {
  const out: Found = { nodes: [], providers: [], inLists: [] };
  _walk(v, [], out, false);
  return out;
}

function _walk(v: Value, path: string[], found: Found, inList: boolean): void {
  if (Array.isArray(v)) {
    v.forEach((e, i) => _walk(e, [...path, String(i)], found, true));
    return;
  }
  if (!isObject(v)) return;
  if (NODE_MARKER in v) {
    if (inList) found.inLists.push(path);
    else found.nodes.push({ path, value: v });
    return;
  }
  if (PROVIDER_MARKER in v) {
    found.providers.push({ path, value: v });
    return;
  }
  for (const [k, c] of Object.entries(v)) _walk(c, [...path, k], found, inList);
}

/** The nodes and provider instances of the evaluated package; a node in a list is a diagnostic. */
export function findNodes(
  tree: Tree,
  index: SourceIndex,
): { found: Found; diagnostics: Diagnostic[] } {
  const f = structsOf(tree);
  const diagnostics = f.inLists.map((p) =>
    error(
      "Node inside a list",
      `${
        formatPath(p)
      } is a node inside a list, which has no stable address. Put nodes in structs, keyed by name.`,
      { range: locate(index, p)?.pos },
    )
  );
  return { found: f, diagnostics };
}

/** What a node found is: its marker, provider and type. */
export function kindOf(v: Record<string, Value>, registry: Registry) {
  const m = v[NODE_MARKER] as { mode: Mode; type: string; provider: string };
  const provider = registry.findProvider(m.provider)!;
  const type = registry.findType(m.provider, m.mode, m.type)!;
  return { m, provider, type };
}
