/**
 * Tracing secrets through the references of a root's sources, for the taint
 * pass (taint.ts): whether a declaration, the value at a path, a node or one
 * of its inputs is computed from a secret. A reference reads the
 * declarations it names (and, selected into, only the fields it selects); a
 * value reads the declarations under its path and what the structs around
 * it embed. Each answer is kept; a value that refers to itself adds nothing.
 *
 * A secret is an attribute that a node's schema marks sensitive (unless
 * told not to count those), one of `secretAttrs`, or any attribute of a data
 * source whose inputs are computed from a secret, found by
 * {@link TaintTracer.settleDataSources}.
 *
 * @module
 */

import { DEPENDS_ON } from "./provider_cue.ts";
import { pathKey } from "./errors.ts";
import { type Ref, resolve, type Site } from "./syntax/mod.ts";
import type { TypeSchema } from "../providers/schema.ts";
import type { TaintIndex, TaintNode } from "./taint_index.ts";

/** What holds a secret, beside the index. */
export interface TracerOptions {
  /** Attributes that hold secrets beyond those the schemas mark, by node address. */
  secretAttrs: Map<string, Set<string>>;
  /** Whether the attributes the schemas mark sensitive are secrets too (default true). */
  schemaSensitive?: boolean;
}

/** An attribute the configuration sets (required or optional), not one the provider computes alone. */
export function isInput(t: TypeSchema, k: string): boolean {
  const a = t.attributes[k];
  return a !== undefined && Boolean(a.required || a.optional);
}

/** Answers what is computed from a secret (see the module's doc). */
export class TaintTracer {
  readonly index: TaintIndex;
  /** Whether the attributes the schemas mark sensitive are secrets. */
  readonly schemaSensitive: boolean;
  readonly #secretAttrs: Map<string, Set<string>>;
  /** Data sources whose inputs are computed from a secret: every attribute of theirs is one. */
  readonly #dataTainted = new Set<string>();
  #memoSite = new Map<Site, boolean>();
  #memoPath = new Map<string, boolean>();
  #memoInput = new Map<string, boolean>();
  /**
   * What is being traced, a set for each memo: a node's input and the path
   * to it have the same key (`b\u0000input`), and a reference to exactly an
   * input must not read as a cycle while the input is traced through it.
   */
  readonly #visiting = new Map<Map<unknown, boolean>, Set<unknown>>();

  constructor(index: TaintIndex, options: TracerOptions) {
    this.index = index;
    this.#secretAttrs = options.secretAttrs;
    this.schemaSensitive = options.schemaSensitive !== false;
  }

  /**
   * Finds the data sources whose inputs are computed from a secret, by
   * iterating until nothing changes: what they read depends on it, so each
   * of their attributes is a secret. Call it once, before any question.
   */
  settleDataSources(): void {
    const nodes = this.index.nodes;
    for (let round = 0; round <= nodes.length; round++) {
      this.#memoSite = new Map();
      this.#memoPath = new Map();
      this.#memoInput = new Map();
      let more = false;
      for (const n of nodes) {
        if (n.mode !== "data" || this.#dataTainted.has(n.address)) continue;
        if (this.#anyInputTainted(n)) {
          this.#dataTainted.add(n.address);
          more = true;
        }
      }
      if (!more) break;
    }
  }

  /** The secret attributes of a node. */
  secretsOf(n: TaintNode): Set<string> {
    const out = new Set(this.#secretAttrs.get(n.address) ?? []);
    if (this.schemaSensitive) {
      for (const [k, a] of Object.entries(n.schema.attributes)) if (a.sensitive) out.add(k);
    }
    if (this.#dataTainted.has(n.address)) {
      for (const k of Object.keys(n.schema.attributes)) out.add(k);
    }
    return out;
  }

  /** The inputs of a node computed from a secret. */
  taintedInputs(n: TaintNode): Set<string> {
    const set = new Set<string>();
    for (const k of Object.keys(n.schema.attributes)) {
      if (isInput(n.schema, k) && this.inputTaint(n, k)) set.add(k);
    }
    return set;
  }

  #anyInputTainted(n: TaintNode): boolean {
    return Object.keys(n.schema.attributes).some((k) =>
      isInput(n.schema, k) && this.inputTaint(n, k)
    );
  }

  /** Guards against cycles: a value that refers to itself adds nothing. */
  #guarded<K>(memo: Map<K, boolean>, key: K, fn: () => boolean): boolean {
    const got = memo.get(key);
    if (got !== undefined) return got;
    let visiting = this.#visiting.get(memo as Map<unknown, boolean>);
    if (!visiting) this.#visiting.set(memo as Map<unknown, boolean>, visiting = new Set());
    if (visiting.has(key)) return false;
    visiting.add(key);
    let r: boolean;
    try {
      r = fn();
    } finally {
      visiting.delete(key);
    }
    memo.set(key, r);
    return r;
  }

  /** What a reference reads, selected further into by `extra`. */
  refTaint(ref: Ref, extra: readonly string[]): boolean {
    const decls = resolve(ref);
    if (!decls) return false; // an import or a builtin
    return decls.some((d) =>
      d.path
        ? this.pathTaint([...d.path, ...ref.selectors, ...extra])
        : this.#selectedTaint(d, [...ref.selectors, ...extra])
    );
  }

  /**
   * A declaration without a path (a let, a comprehension variable), selected
   * into: its own references whole, and of the fields written in its value,
   * those the selectors name.
   */
  #selectedTaint(d: Site, sel: readonly string[]): boolean {
    if (sel.length === 0) return this.siteTaint(d);
    if (d.keyOf && (this.index.iteratesNodes(d.keyOf) || this.index.staticKeys(d.keyOf))) {
      return false;
    }
    if (d.valuesOf) return d.refs.some((r) => this.refTaint(r, sel));
    if (d.refs.some((r) => this.refTaint(r, []))) return true;
    return this.index.within(d).some((c) =>
      c.label === sel[0] && this.#selectedTaint(c, sel.slice(1))
    );
  }

  /** A declaration's references, and those of the declarations written in its value without a path. */
  siteTaint(site: Site): boolean {
    return this.#guarded(this.#memoSite, site, () => {
      const index = this.index;
      if (site.keyOf && (index.iteratesNodes(site.keyOf) || index.staticKeys(site.keyOf))) {
        return false;
      }
      // A node's depends_on carries no value to the node: only edges.
      if (site.label === DEPENDS_ON) return false;
      if (site.refs.some((r) => this.refTaint(r, []))) return true;
      if (index.within(site).some((s) => this.siteTaint(s))) return true;
      return site.path !== null && index.owned(site).some((s) => this.siteTaint(s));
    });
  }

  /** What a node's input is computed from. */
  inputTaint(n: TaintNode, k: string): boolean {
    return this.#guarded(
      this.#memoInput,
      `${n.address}\u0000${k}`,
      () => this.valueTaint([...n.path, k]),
    );
  }

  /** A whole node: whether it holds a secret or an input computed from one. */
  nodeTaint(n: TaintNode): boolean {
    return this.secretsOf(n).size > 0 || this.#anyInputTainted(n);
  }

  /** The declarations of a value at `p`: under it, and the embeddings of the structs around it. */
  valueTaint(p: string[]): boolean {
    const index = this.index;
    if (index.sitesUnder(p).some((s) => this.siteTaint(s))) return true;
    for (let q = 0; q < p.length; q++) {
      for (const s of index.at(p.slice(0, q))) {
        // An embedding is selected into; a clause is read whole (selecting
        // into it would grow the path at each turn: `if #in.on {...}`).
        if (s.refs.some((r) => this.refTaint(r, index.clauses.has(r) ? [] : p.slice(q)))) {
          return true;
        }
        if (index.owned(s).some((o) => this.siteTaint(o))) return true;
      }
    }
    // Declarations at the top of a file without a path (under a dynamic label).
    return index.owned(null).some((s) => this.siteTaint(s));
  }

  /** What a reference to the path `p` reads. */
  pathTaint(p: string[]): boolean {
    return this.#guarded(this.#memoPath, pathKey(p), () => {
      for (let k = p.length; k > 0; k--) {
        const n = this.index.node(p.slice(0, k));
        if (!n) continue;
        if (k === p.length) return this.nodeTaint(n);
        const attr = p[k];
        if (this.secretsOf(n).has(attr)) return true;
        if (isInput(n.schema, attr)) return this.inputTaint(n, attr);
        if (attr in n.schema.attributes) return false; // computed, not a secret
        return this.valueTaint(p);
      }
      if (this.index.nodesUnder(p).some((n) => this.nodeTaint(n))) return true;
      return this.valueTaint(p);
    });
  }
}
