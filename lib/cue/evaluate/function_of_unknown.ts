/**
 * The diagnostic for a plan that fails at a function of a value known only
 * after apply: Terraform's functions of an unknown value are unknown; CUE's
 * are evaluated on the value pravo stands in for it, and may fail there.
 *
 * @module
 */

import { type Diagnostic, error } from "../../diag/diag.ts";
import { formatPath, locate, pathKey } from "../errors.ts";
import { resolve } from "../syntax/mod.ts";
import { WRAP } from "../program.ts";
import type { Sources } from "../sources/sources.ts";
import type { Deps } from "./deps.ts";
import { declaredPath } from "./failures.ts";

/** What {@link functionOfUnknown} reads besides CUE's message. */
export interface UnknownsAtPlan {
  /** CUE's word on the failure: the message, or the evaluation's without `null` when it says more. */
  said: string;
  deps: Deps;
  sources: Sources;
  /** The values known from the state, by node address. */
  known: ReadonlyMap<string, Record<string, unknown>>;
  /** Which optional and computed attributes the configuration sets, by node address. */
  setness: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * The diagnostic for an evaluation at plan time that fails at a field whose
 * value is computed from an attribute known only after apply (a computed
 * attribute of a node not applied yet, which the configuration leaves
 * unset): a function of it (`json.Unmarshal`, `strconv.Atoi`, a division)
 * that fails on the value pravo evaluates it with before apply. Terraform's
 * functions of an unknown value are unknown; CUE's are evaluated, so pravo
 * refuses and says what to write. Undefined when the failing field refers to
 * no such attribute (directly, or through a field or let it refers to).
 */
export function functionOfUnknown(message: string, state: UnknownsAtPlan): Diagnostic | undefined {
  const path = declaredPath(message, state.sources.index);
  const found = path ? _unknownsRead(path, state) : [];
  if (!path || !found.length) return _failedCall(state);
  const names = [...new Set(found.map(formatPath))].sort();
  return error(
    "A function of a value known only after apply",
    `${formatPath(path)} is computed from ${
      _unknowns(names)
    }, and it does not evaluate with the value that stands for ${
      names.length === 1 ? "it" : "them"
    } at plan time (CUE says: ${_cueSays(state.said)}). ${_fix(formatPath(path), names)}`,
    { address: formatPath(path), range: locate(state.sources.index, path)?.pos },
  );
}

/**
 * What the failing field's declarations refer to that is known only after
 * apply, and what the fields and lets they refer to do, a few steps deep.
 */
function _unknownsRead(path: string[], state: UnknownsAtPlan): string[][] {
  const { deps } = state;
  const found: string[][] = [];
  const seen = new Set<string>();
  let frontier = [...deps.sitesFor(path), ...deps.sitesUnder(path)];
  for (let depth = 0; depth < 4 && frontier.length && !found.length; depth++) {
    const next: typeof frontier = [];
    for (const { site, subst } of frontier) {
      for (const t of deps.targetsOf(site, subst)) {
        const k = pathKey(t);
        if (seen.has(k)) continue;
        seen.add(k);
        if (_unknownAt(t, state)) found.push(t);
        else next.push(...deps.sitesFor(t));
      }
    }
    frontier = next;
  }
  return found;
}

/**
 * The declaration that calls the function CUE names with an argument
 * known only after apply: where CUE names no field (a failed call in a let
 * or a hidden field), or names a field that reads the call through a let.
 */
function _failedCall(state: UnknownsAtPlan): Diagnostic | undefined {
  const { said, deps } = state;
  const call = /^(?:cue: marshal error: )?error in call to (?:[\w./-]+\.)?(\w+):/.exec(said);
  if (!call) return undefined;
  for (const f of state.sources.files) {
    for (const site of [...f.parsed.sites, ...f.parsed.lets]) {
      const fn = site.refs.find((r) => r.selectors[0] === call[1] && !resolve(r)?.length);
      if (!fn) continue;
      const names = [
        ...new Set(deps.targetsOf(site, []).filter((t) => _unknownAt(t, state)).map(formatPath)),
      ].sort();
      if (!names.length) continue;
      return error(
        "A function of a value known only after apply",
        `${site.kind === "let" ? "The let " : ""}${site.label} calls ${fn.name}.${call[1]} on ${
          _unknowns(names)
        }, and the call fails with the value that stands for ${
          names.length === 1 ? "it" : "them"
        } at plan time (CUE says: ${_cueSays(said)}). ${_fix(site.label, names)}`,
        { range: { file: site.file, line: site.line, column: site.column } },
      );
    }
  }
  return undefined;
}

/** Whether a path is a node's computed attribute not known yet, which the configuration leaves unset. */
function _unknownAt(target: string[], state: UnknownsAtPlan): boolean {
  if (target.length < 2) return false;
  const node = target.slice(0, -1);
  const name = target[target.length - 1];
  const a = state.deps.typeOf(node)?.attributes[name];
  if (!a?.computed || a.required) return false;
  const address = formatPath(node);
  const v = state.known.get(address)?.[name];
  if (v !== undefined && v !== null) return false;
  if (a.optional) {
    const set = state.setness.get(address);
    if (!set || set.has(name)) return false;
  }
  return true;
}

/** CUE's message as quoted: without its prefix, its count of more errors and the program's wrap. */
function _cueSays(said: string): string {
  return said.replace(/^cue: marshal error: /, "").replace(/ \(and \d+ more errors?\)$/, "")
    .replaceAll(`${WRAP}.`, "");
}

/** What to do about a function of the values `names`, computed at `what`. */
function _fix(what: string, names: string[]): string {
  return `Where Terraform makes a function of an unknown value unknown, CUE evaluates it, so pravo cannot plan this before the value exists. Compute ${what} from values the configuration gives (the inputs the provider computes ${
    names.length === 1 ? "it" : "them"
  } from), or apply the node ${
    names.length === 1 ? "it comes" : "they come"
  } from first and add this afterwards.`;
}

/** The values known only after apply, named. */
function _unknowns(names: string[]): string {
  return `${names.join(", ")}, which ${
    names.length === 1 ? "is" : "are"
  } known only after apply (computed by the provider, and not applied yet)`;
}
