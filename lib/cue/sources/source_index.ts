/**
 * The index of a root's declarations and references, by which a CUE message
 * (a field path, a name) is mapped back to a place in the files (errors.ts).
 *
 * @module
 */

import type { Mode } from "../../providers/schema.ts";
import type { Registry } from "../../providers/registry.ts";
import { pathKey, type SourceIndex } from "../errors.ts";
import { DEPENDS_ON, LIFECYCLE } from "../provider_cue.ts";
import { allFiles, pos, type Sources } from "./sources.ts";

/** The mode of the nodes each of a provider's definitions makes: `#Resource` makes managed ones. */
export const DEFINITION_MODES: Readonly<Record<string, Mode>> = {
  "#Resource": "managed",
  "#Data": "data",
  "#Ephemeral": "ephemeral",
  "#Call": "call",
};

/** Where the files declare each path, refer to each name and declare each let; and the types. */
export function sourceIndex(
  parsed: Pick<Sources, "files" | "packages">,
  registry: Registry,
): SourceIndex {
  const index: SourceIndex = { sites: new Map(), refs: new Map(), lets: new Map(), registry };
  for (const f of allFiles(parsed)) {
    for (const s of f.parsed.sites) {
      if (!s.path) continue;
      const k = pathKey(s.path);
      if (!index.sites.has(k)) index.sites.set(k, []);
      index.sites.get(k)!.push(s);
      for (const r of s.refs) {
        if (!index.refs.has(r.name)) index.refs.set(r.name, []);
        index.refs.get(r.name)!.push(pos(f.name, r.line, r.column));
      }
    }
    for (const l of f.parsed.lets) {
      index.lets.set(l.label, [...(index.lets.get(l.label) ?? []), pos(f.name, l.line, l.column)]);
    }
  }
  index.attributesOf = (path) => {
    for (const site of index.sites.get(pathKey(path)) ?? []) {
      for (const r of site.refs) {
        const i = r.selectors.findIndex((x) => x in DEFINITION_MODES);
        if (i < 0 || i + 1 >= r.selectors.length) continue;
        const typeName = r.selectors[i + 1];
        for (const p of registry.allProviders()) {
          const t = registry.findType(p.source, DEFINITION_MODES[r.selectors[i]], typeName);
          if (t) {
            return {
              type: t.name,
              names: [...Object.keys(t.attributes), LIFECYCLE, DEPENDS_ON],
              attributes: t.attributes,
              mode: t.mode,
            };
          }
        }
      }
    }
    return undefined;
  };
  index.typesOf = (def) => registry.typeNamesOfMode(DEFINITION_MODES[def]);
  return index;
}
