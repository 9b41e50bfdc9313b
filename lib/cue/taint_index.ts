/**
 * The sources of a root indexed for the taint pass (taint.ts): the field
 * declarations by path, the declarations written in each one's value, the
 * nodes by path, and the questions of structure the pass asks of them (does
 * a reference name nodes, or a struct written out with its labels; which
 * declarations instantiate a definition; is a path inside a node's or an
 * output's value). Built once, so that the pass's work grows with the number
 * of declarations; nothing here depends on what a secret holds.
 *
 * @module
 */

import { pathKey } from "./errors.ts";
import { type Generator, type ParsedFile, type Ref, resolve, type Site } from "./syntax/mod.ts";
import type { Mode, TypeSchema } from "../providers/schema.ts";

/** A node as the taint pass needs it. */
export interface TaintNode {
  address: string;
  path: string[];
  mode: Mode;
  schema: TypeSchema;
}

/**
 * A declaration that instantiates a definition (`m: #M & {...}`, an
 * embedding): its static path, or null when it has none (under a
 * comprehension's label).
 */
export interface Instance {
  path: string[] | null;
  site: Site;
}

/** A node declared in a definition (`#M: queue: $aws.#Resource.aws_sqs_queue & {...}`). */
const NODE_KINDS = new Set(["#Resource", "#Data", "#Ephemeral", "#Call"]);

function _push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The declarations and nodes of a root, indexed (see the module's doc). */
export class TaintIndex {
  readonly files: readonly ParsedFile[];
  readonly nodes: readonly TaintNode[];
  /** Every field declaration of every file, in the files' order. */
  readonly sites: readonly Site[];
  /** Every comprehension and dynamic label of every file. */
  readonly generators: readonly Generator[];
  /** The references of comprehension clauses: they decide which fields exist, not what they hold. */
  readonly clauses: ReadonlySet<Ref>;
  readonly #byKey = new Map<string, Site[]>();
  /** The paths one label longer than a path, by its key. */
  readonly #children = new Map<string, Set<string>>();
  /** Declarations without a static path, by the nearest declaration with one that holds them. */
  readonly #owned = new Map<Site | null, Site[]>();
  /** Every declaration by the one whose value it is written in (a let's struct, say). */
  readonly #within = new Map<Site, Site[]>();
  readonly #nodeByKey: Map<string, TaintNode>;
  /** The nodes strictly under a path, by its key. */
  readonly #nodesUnder = new Map<string, TaintNode[]>();
  /** The fields that hold a comprehension or a dynamic label. */
  readonly #generatorOwners: Set<Site | null>;
  readonly #instances = new Map<string, Instance[]>();

  constructor(files: readonly ParsedFile[], nodes: readonly TaintNode[]) {
    this.files = files;
    this.nodes = nodes;
    this.sites = files.flatMap((f) => f.sites);
    this.generators = files.flatMap((f) => f.generators);
    this.clauses = new Set(this.generators.flatMap((g) => g.clauseRefs));
    this.#generatorOwners = new Set(this.generators.map((g) => g.owner));
    for (const s of [...this.sites, ...files.flatMap((f) => f.lets)]) {
      if (s.owner) _push(this.#within, s.owner, s);
    }
    for (const s of this.sites) this.#indexSite(s);
    this.#nodeByKey = new Map(nodes.map((n) => [pathKey(n.path), n]));
    for (const n of nodes) {
      for (let i = 0; i < n.path.length; i++) {
        _push(this.#nodesUnder, pathKey(n.path.slice(0, i)), n);
      }
    }
  }

  #indexSite(s: Site): void {
    if (!s.path) {
      let o = s.owner;
      while (o && !o.path) o = o.owner;
      _push(this.#owned, o, s);
      return;
    }
    _push(this.#byKey, pathKey(s.path), s);
    for (let i = 1; i <= s.path.length; i++) {
      const parent = pathKey(s.path.slice(0, i - 1));
      if (!this.#children.has(parent)) this.#children.set(parent, new Set());
      this.#children.get(parent)!.add(pathKey(s.path.slice(0, i)));
    }
  }

  /** The declarations at the static path `p`. */
  at(p: readonly string[]): Site[] {
    return this.#byKey.get(pathKey(p)) ?? [];
  }

  /** The declarations written in the value of `site`, one level down. */
  within(site: Site): Site[] {
    return this.#within.get(site) ?? [];
  }

  /**
   * The declarations without a static path that `site` (null: the top of a
   * file) is the nearest declaration with one to hold.
   */
  owned(site: Site | null): Site[] {
    return this.#owned.get(site) ?? [];
  }

  /** The node at the path `p`. */
  node(p: readonly string[]): TaintNode | undefined {
    return this.#nodeByKey.get(pathKey(p));
  }

  /** The nodes strictly under the path `p`. */
  nodesUnder(p: readonly string[]): TaintNode[] {
    return this.#nodesUnder.get(pathKey(p)) ?? [];
  }

  /** The declarations at the path `p` and at every path under it. */
  sitesUnder(p: readonly string[]): Site[] {
    const out: Site[] = [];
    const stack = [pathKey(p)];
    const seen = new Set<string>();
    while (stack.length) {
      const k = stack.pop()!;
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(...(this.#byKey.get(k) ?? []));
      for (const c of this.#children.get(k) ?? []) stack.push(c);
    }
    return out;
  }

  /** Every declaration written in the value of `site`, at any depth. */
  writtenIn(site: Site): Site[] {
    const out: Site[] = [];
    const stack = [site];
    while (stack.length) {
      for (const c of this.within(stack.pop()!)) {
        out.push(c);
        stack.push(c);
      }
    }
    return out;
  }

  /** The names the sources give to outputs (`outputs: name: ...`), in the sources' order. */
  outputNames(): Set<string> {
    const out = new Set<string>();
    for (const s of this.sites) {
      if (s.path && s.path.length >= 2 && s.path[0] === "outputs") out.add(s.path[1]);
    }
    return out;
  }

  /** A reference to a node or a struct of nodes: its keys are in the sources. */
  iteratesNodes(r: Ref): boolean {
    const decls = resolve(r);
    if (!decls || decls.length === 0) return false;
    return decls.every((d) => {
      if (!d.path) return false;
      const key = pathKey([...d.path, ...r.selectors]);
      return this.#nodeByKey.has(key) || this.#nodesUnder.has(key);
    });
  }

  /**
   * True when what `r` names is written out as a struct with its labels in
   * the sources (`modules: {"a": a, "b": b}`), every declaration of it:
   * iterating it decides its keys, which the sources give, and not its values.
   */
  staticKeys(r: Ref): boolean {
    const decls = resolve(r);
    if (!decls || decls.length === 0) return false;
    return decls.every((d) => {
      // A let (`let modules = {...}`): its own struct.
      if (!d.path) return r.selectors.length === 0 && this.literal(d);
      const here = this.at([...d.path, ...r.selectors]);
      return here.length > 0 && here.every((s) => this.literal(s));
    });
  }

  /** A struct written out: no references, no comprehension, regular fields only. */
  literal(site: Site): boolean {
    return site.refs.length === 0 && !this.#generatorOwners.has(site) &&
      this.within(site).length > 0 && this.within(site).every((c) => c.kind === "regular");
  }

  /** A value made of references to nodes or structs of nodes only. */
  ofNodes(site: Site): boolean {
    return site.refs.length > 0 && site.refs.every((r) => this.iteratesNodes(r)) &&
      !this.within(site).length;
  }

  /** The declarations that instantiate the definition at `def` (see {@link Instance}). */
  instancesOf(def: readonly string[]): Instance[] {
    const key = pathKey(def);
    const memo = this.#instances.get(key);
    if (memo) return memo;
    const got = this.sites.filter((s) =>
      s.refs.some((r) =>
        !this.clauses.has(r) &&
        (resolve(r) ?? []).some((x) => x.path && pathKey([...x.path, ...r.selectors]) === key)
      )
    ).map((s) => ({ path: s.path, site: s }));
    this.#instances.set(key, got);
    return got;
  }

  /** A node declared in a definition (`#M: queue: $aws.#Resource.aws_sqs_queue & {...}`). */
  declaresNode(p: readonly string[]): boolean {
    return p.some((l) => l.startsWith("#")) &&
      this.at(p).some((s) =>
        s.refs.some((r) => !this.clauses.has(r) && r.selectors.some((x) => NODE_KINDS.has(x)))
      );
  }

  /** Whether the path `p` is inside an output's value or a node's (also one in a definition). */
  insideValue(p: readonly string[]): boolean {
    if (p[0] === "outputs" && p.length >= 2) return true;
    for (let k = p.length - 1; k > 0; k--) {
      const at = p.slice(0, k);
      if (this.#nodeByKey.has(pathKey(at)) || this.declaresNode(at)) return true;
    }
    return false;
  }
}
