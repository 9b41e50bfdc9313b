/**
 * CUE's scoping trap: a name is looked up in the innermost struct that
 * declares it, so in `triggers: {pause: pause.id}`, `replicas:
 * "\(replicas)"` or `team: team` the name is the field being defined, not
 * the node or field of that name outside. CUE then reports a cycle, an
 * undefined field or an incomplete value; this finds the reference, so that
 * the message says what happened and how to refer to the outer one.
 *
 * @module
 */

import { type Diagnostic, error } from "../diag/diag.ts";
import { type ParsedFile, type Ref, resolve, type Scope, type Site } from "./syntax/mod.ts";

/** The declarations of `name` outside `scope`, nearest first. */
function outer(scope: Scope, name: string): Site[] {
  for (let s = scope.parent; s; s = s.parent) {
    const found = s.sites.get(name)?.filter((x) => !x.quoted && x.kind !== "let");
    if (found?.length) return found;
  }
  return [];
}

function where(s: Site): string {
  return `${s.file}:${s.line}:${s.column}`;
}

/**
 * The references that name the field they are the value of, each as a
 * diagnostic at the reference.
 */
export function selfReferences(files: readonly ParsedFile[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const f of files) {
    for (const site of f.sites) {
      if (site.kind !== "regular") continue;
      const seen = new Set<string>();
      for (const r of site.refs) {
        const found = resolve(r);
        if (!found?.some((d) => d === site || (d.scope === site.scope && d.label === site.label))) {
          continue;
        }
        if (seen.has(r.name)) continue;
        seen.add(r.name);
        out.push(trap(site, r, outer(site.scope, r.name)));
      }
    }
  }
  return out;
}

function trap(site: Site, r: Ref, outside: Site[]): Diagnostic {
  const path = site.path?.join(".") ?? site.label;
  const written = [r.name, ...r.selectors].join(".");
  const range = { file: site.file, line: r.line, column: r.column };
  if (outside.length === 0) {
    return error(
      `"${r.name}" here is the field being defined`,
      `In ${path}, \`${written}\` refers to ${path} itself (CUE looks a name up in the ` +
        "innermost struct that declares it), so its value depends on itself. Refer to " +
        "another field, or give the value directly.",
      { address: path, range },
    );
  }
  const o = outside[0];
  const what = o.path?.join(".") ?? o.label;
  const alias = r.name.length > 1 ? r.name[0].toUpperCase() + r.name.slice(1) : "X";
  return error(
    `"${r.name}" here is the field being defined`,
    `In ${path}, \`${written}\` refers to the field ${path} itself, not to ${what} declared at ` +
      `${where(o)}: CUE looks a name up in the innermost struct that declares it. To refer to ` +
      `${what}, write the label in quotes, \`"${site.label}": ${written}\` (a quoted label ` +
      `declares no name), or give ${what} an alias where it is declared, \`${alias}=${o.label}: ` +
      `...\`, and write \`${[alias, ...r.selectors].join(".")}\` here.`,
    { address: path, range },
  );
}
