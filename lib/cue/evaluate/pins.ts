/**
 * Pins: values put into the program where a reference reads an attribute
 * that the configuration leaves unset. A built-in attribute's default is
 * the provider's, not CUE's; an optional and computed attribute of a plugin
 * node is unknown until apply: each is pinned (the state's value, the
 * provider's default, or the "unknown" default) so that what refers to it
 * evaluates.
 *
 * @module
 */

import { addressPath } from "../../addr/address.ts";
import { type Diagnostic, error } from "../../diag/diag.ts";
import { ctyOf, type TypeSchema } from "../../providers/schema.ts";
import { formatPath, pathKey, type SourceIndex, splitPath } from "../errors.ts";
import { resolve } from "../syntax/mod.ts";
import { ctyDefault } from "../plugin_cue.ts";
import { WRAP } from "../program.ts";
import { DEPENDS_ON, isTracked, tracksSetness } from "../provider_cue.ts";
import { unknownDefault } from "../unknowns.ts";
import type { Deps } from "./deps.ts";
import type { KnownValues } from "./known.ts";
import { nested } from "./values.ts";

/** The declaration of the "unknown" default of a node's attribute, at its path (`[...node, name]`). */
export function pinDefault(at: string[], t: TypeSchema): string {
  const a = t.attributes[at[at.length - 1]];
  const cty = ctyOf(a);
  return nested(at, cty !== undefined ? ctyDefault(cty) : unknownDefault(a.type));
}

/**
 * The "unknown" default of each optional and computed attribute of a
 * node that the configuration leaves unset and the state does not give
 * (provider_cue.ts `isTracked`): the node's own value, so that references
 * to it evaluate. The traced evaluation puts sentinels there instead.
 */
export function defaultPins(
  known: KnownValues,
  where: { index: SourceIndex; deps: () => Deps },
): string[] {
  const out: string[] = [];
  for (const [address, set] of known.setness) {
    const path = addressPath(address);
    const t = _trackedTypeAt(known, where, address, path);
    if (!t) continue;
    for (const [name, a] of Object.entries(t.attributes)) {
      if (!isTracked(t, a) || a.required || set.has(name)) continue;
      const v = known.valueOf(address, name);
      if (v !== undefined && v !== null && known.injected(address, name)) continue;
      out.push(pinDefault([...path, name], t));
    }
  }
  return out;
}

/**
 * The type of a node whose setness is asked, from its kind or from where
 * the sources declare it (a node a comprehension or a definition makes:
 * through the dependency reading's aliases).
 */
function _trackedTypeAt(
  known: KnownValues,
  where: { index: SourceIndex; deps: () => Deps },
  address: string,
  path: string[],
): TypeSchema | undefined {
  const t = known.pluginKinds.get(address);
  if (t) return t;
  const declared = where.index.attributesOf?.(path);
  if (!declared) {
    const made = where.deps().typeOf(path);
    return made && tracksSetness(made) ? made : undefined;
  }
  // Of the mode it is declared with: a data source's type often shares its
  // name with a resource's (aws_vpc, aws_ami), whose attributes differ.
  return where.index.registry.findTypes(declared.type).find((x) =>
    tracksSetness(x.type) && (declared.mode === undefined || x.type.mode === declared.mode)
  )?.type;
}

/**
 * The diagnostic for a reference to an attribute that the configuration
 * leaves unset and whose default is the provider's (`two: {length:
 * pet.length}` where `pet` sets no length): that default is filled in by
 * pravo, not by CUE (provider_cue.ts), so the reference has no value.
 */
export function unsetDefault(
  message: string,
  index: SourceIndex,
): { diagnostic: Diagnostic; pin: string } | undefined {
  const m =
    /^(?:cue: marshal error: )?(\S+?):? (?:incomplete|cannot convert incomplete value|cannot reference optional field)/
      .exec(message);
  if (!m) return undefined;
  let path = splitPath(m[1]);
  if (path[0] === WRAP) path = path.slice(1);
  for (const site of index.sites.get(pathKey(path)) ?? []) {
    for (const r of site.refs) {
      for (const d of resolve(r) ?? []) {
        if (!d.path || r.selectors.length === 0) continue;
        const target = [...d.path, ...r.selectors];
        const owner = index.attributesOf?.(target.slice(0, -1));
        const name = target[target.length - 1];
        const a = owner?.attributes?.[name];
        if (!owner || !a?.optional || a.default === undefined) continue;
        const node = formatPath(target.slice(0, -1));
        const pin = nested(target, JSON.stringify(a.default));
        const diagnostic = error(
          `${node}.${name} is not set`,
          `${
            formatPath(path)
          } refers to ${node}.${name}, which the configuration of ${node} leaves unset; its default (${
            JSON.stringify(a.default)
          }) is the provider's and has no value in CUE. Set ${name}: ${
            JSON.stringify(a.default)
          } in ${node} to refer to it.`,
          {
            address: formatPath(path),
            range: { file: site.file, line: r.line, column: r.column },
          },
        );
        return { diagnostic, pin };
      }
    }
  }
  return undefined;
}

/**
 * What a failed evaluation's "cannot reference optional field: NAME" read
 * (or what was "incomplete", or a "cycle error", which CUE reports for a
 * comprehension whose condition reads such a field): the nodes whose
 * optional and computed attribute the configuration leaves unset, found
 * through the sources (with the aliases of definitions and comprehensions,
 * {@link Deps}).
 */
export function optionalReads(
  message: string,
  deps: Deps,
): { node: string[]; name: string; type: TypeSchema }[] {
  const m =
    /^(?:cue: marshal error: )?(\S+): (?:(?:invalid interpolation: )?cannot reference optional field: (\S+)(?: \(and \d+ more errors?\))?$|incomplete|cycle error)/
      .exec(message);
  if (!m) return [];
  let path = splitPath(m[1]);
  if (path[0] === WRAP) path = path.slice(1);
  const name = m[2]?.replace(/^"|"$/g, "");
  // A node named in a depends_on list is evaluated there too: the read is
  // then the named node's (`acl.depends_on."0".bucket` is `ownership.bucket`).
  const paths = [path];
  const d = path.indexOf(DEPENDS_ON);
  if (d > 0 && d + 1 < path.length) {
    for (const { site, subst } of deps.sitesFor(path.slice(0, d + 1))) {
      for (const target of deps.targetsOf(site, subst)) {
        paths.push([...target, ...path.slice(d + 2)]);
      }
    }
  }
  const out: { node: string[]; name: string; type: TypeSchema }[] = [];
  // A cycle error is reported at the struct whose comprehension failed:
  // what it reads is declared anywhere under it.
  const cycle = m[0].endsWith("cycle error");
  for (const p of paths) {
    for (let k = p.length; k > 0 && out.length === 0; k--) {
      const sites = cycle && k === p.length ? deps.sitesUnder(p) : deps.sitesFor(p.slice(0, k));
      for (const { site, subst } of sites) {
        for (const target of deps.targetsOf(site, subst)) {
          const last = target[target.length - 1];
          if (name !== undefined && last !== name) continue;
          const node = target.slice(0, -1);
          const type = deps.typeOf(node);
          const a = type?.attributes[last];
          if (type && a?.optional && !a.required && isTracked(type, a)) {
            out.push({ node, name: last, type });
          }
        }
      }
    }
  }
  return out;
}
