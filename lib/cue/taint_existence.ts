/**
 * Existence decided by a secret, for the taint pass (taint.ts): a
 * comprehension clause or a dynamic label that refers to a secret, outside
 * the value of a node's attribute or of an output, decides which fields,
 * nodes or outputs exist; so does a value embedded at the top of the
 * package. Redacting a value cannot hide that: each is a diagnostic, once
 * per place. A clause that reads an input of the definition it is written
 * in is read as each instance of the definition gives that input.
 *
 * @module
 */

import { type Diagnostic, error } from "../diag/diag.ts";
import { formatPath, pathKey } from "./errors.ts";
import { type Generator, type Ref, resolve, type Site } from "./syntax/mod.ts";
import type { TaintTracer } from "./taint_trace.ts";

const SUMMARY = "Which fields exist depends on a sensitive value";

/** The nearest path among a site and the fields around it: where its value goes. */
function _ownerPath(site: Site | null): string[] {
  for (let s = site; s; s = s.owner) if (s.path) return s.path;
  return [];
}

/**
 * The diagnostics of the comprehensions and dynamic labels that decide from
 * a secret which fields exist, then those of the values embedded at the top
 * of a file that refer to one.
 */
export function existenceDiagnostics(tracer: TaintTracer): Diagnostic[] {
  return [..._generatorDiagnostics(tracer), ..._embeddingDiagnostics(tracer)];
}

function _generatorDiagnostics(tracer: TaintTracer): Diagnostic[] {
  const out: Diagnostic[] = [];
  const reported = new Set<string>();
  /** The comprehensions found to decide from a secret. */
  const deciding = new Set<Generator>();
  /** A reference to a variable of a comprehension already reported: said once, there. */
  const ofReported = (r: Ref): boolean => {
    const decls = resolve(r) ?? [];
    return decls.length > 0 && decls.every((d) => d.generator && deciding.has(d.generator));
  };
  for (const g of tracer.index.generators) {
    const where = _ownerPath(g.owner);
    if (tracer.index.insideValue(where)) continue;
    const decides = g.clauseRefs.some((r) => !ofReported(r) && _clauseDecides(tracer, g, r, where));
    if (!decides) continue;
    deciding.add(g);
    const key = `${g.file}:${g.line}:${g.column}`;
    if (reported.has(key)) continue;
    reported.add(key);
    out.push(
      error(
        SUMMARY,
        `A comprehension or a dynamic field name in ${
          where.length ? formatPath(where) : "the package"
        } decides from a secret (a password, a sensitive file's content, or a value computed from one) which fields, nodes or outputs exist, so the plan would reveal part of the secret. Decide it from a tag or a plain field instead.`,
        { range: { file: g.file, line: g.line, column: g.column } },
      ),
    );
  }
  return out;
}

/** Whether the clause reference `r` of `g`, written at `where`, decides from a secret. */
function _clauseDecides(tracer: TaintTracer, g: Generator, r: Ref, where: string[]): boolean {
  // Whether a field is there is no value of it.
  if (g.presence?.includes(r)) return false;
  // Before apply a value the provider computes is not null (its stand-ins
  // are not): a test of that decides nothing unknown. A secret's is still
  // its own.
  if (!tracer.schemaSensitive && g.nullTests?.includes(r)) return false;
  if (_instanceTaint(tracer, g, r, where)) return true;
  const index = tracer.index;
  if (g.iterated.includes(r) && (index.iteratesNodes(r) || index.staticKeys(r))) return false;
  return tracer.refTaint(r, []);
}

/** Values embedded at the top of a file decide fields too. */
function _embeddingDiagnostics(tracer: TaintTracer): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const f of tracer.index.files) {
    const r = f.topRefs.find((r) => !tracer.index.clauses.has(r) && tracer.refTaint(r, []));
    if (!r) continue;
    out.push(
      error(
        SUMMARY,
        "A value embedded at the top of the package refers to a secret (a password, a sensitive file's content, or a value computed from one), so which fields exist may reveal part of it. Put the value in a field of its own instead.",
        { range: { file: f.file, line: r.line, column: r.column } },
      ),
    );
  }
  return out;
}

/**
 * A clause reference to an input of the definition the comprehension is
 * written in (`if #var.n > 5`, `for k in #var.names`), read as each
 * instance gives it.
 */
function _instanceTaint(tracer: TaintTracer, g: Generator, r: Ref, where: string[]): boolean {
  return (resolve(r) ?? []).some((d) =>
    d.path !== null &&
    definedTaint(tracer, [...d.path, ...r.selectors], {
      keysOnly: g.iterated.includes(r),
      within: where,
    })
  );
}

/** How {@link definedTaint} reads a value. */
export interface DefinedOptions {
  /**
   * The value is iterated: a struct written out or a struct of nodes
   * decides its keys only.
   */
  keysOnly: boolean;
  /**
   * Only the definitions that are a prefix of this path (where the
   * comprehension that reads the value is written).
   */
  within?: string[];
  /** How many instances deep this is (at most 8). */
  depth?: number;
}

/**
 * Whether a value declared inside a definition (its input `#M.#var.n`)
 * is computed from a secret in an instance of it (`m: #M & {#var: n:
 * base.result}`), also through an instance inside another definition
 * (`#Outer: inner: #M & {#var: n: #in}`, `o: #Outer & {#in: ...}`).
 */
export function definedTaint(
  tracer: TaintTracer,
  target: string[],
  options: DefinedOptions,
): boolean {
  const { keysOnly, within } = options;
  const depth = options.depth ?? 0;
  if (depth > 8) return false;
  const index = tracer.index;
  for (let k = 1; k < target.length; k++) {
    if (!target[k - 1].startsWith("#")) continue;
    const def = target.slice(0, k);
    if (within && (within.length < k || pathKey(within.slice(0, k)) !== pathKey(def))) continue;
    const rest = target.slice(k);
    for (const inst of index.instancesOf(def)) {
      let decls: Site[];
      if (inst.path) {
        const p = [...inst.path, ...rest];
        decls = index.at(p);
        if (
          keysOnly && decls.length && decls.every((x) => index.literal(x) || index.ofNodes(x))
        ) continue;
        if (tracer.pathTaint(p)) return true;
      } else {
        // Under a dynamic label: the declarations written in the instance
        // with the input's name (`#var: n: x` is one chain of labels).
        decls = index.writtenIn(inst.site).filter((c) => c.label === rest[rest.length - 1]);
        if (decls.some((s) => tracer.siteTaint(s))) return true;
      }
      // What the instance gives, when it is itself inside a definition.
      if (_givenInDefinition(tracer, decls, depth)) return true;
    }
  }
  return false;
}

/** Whether the references of `decls` read a value of a definition computed from a secret. */
function _givenInDefinition(tracer: TaintTracer, decls: Site[], depth: number): boolean {
  for (const d of decls) {
    for (const r of d.refs) {
      for (const x of resolve(r) ?? []) {
        if (!x.path) continue;
        const t = [...x.path, ...r.selectors];
        if (
          t.some((l) => l.startsWith("#")) &&
          definedTaint(tracer, t, { keysOnly: false, depth: depth + 1 })
        ) {
          return true;
        }
      }
    }
  }
  return false;
}
