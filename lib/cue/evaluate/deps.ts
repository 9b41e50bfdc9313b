/**
 * Reading the sources for where values flow: which declarations count for
 * a path (through the definitions and comprehensions it embeds), and which
 * nodes a declaration's value refers to, followed transitively. The
 * dependencies of nodes (dependencies.ts), the reads of a failed evaluation
 * (pins.ts) and the origins of nodes' types (origin.ts) are read with it.
 *
 * @module
 */

import type { Registry } from "../../providers/registry.ts";
import type { Mode, TypeSchema } from "../../providers/schema.ts";
import { pathKey } from "../errors.ts";
import { type Generator, type Ref, resolve, type Site } from "../syntax/mod.ts";
import type { Node } from "../spec.ts";
import { allFiles, type Sources } from "../sources/sources.ts";

/** The provider types a field refers to (`$aws.#Resource.aws_sqs_queue`), by mode. */
export const TYPE_MODES: Record<string, Mode> = {
  "#Resource": "managed",
  "#Data": "data",
  "#Ephemeral": "ephemeral",
};

/**
 * The provider's type a field's value refers to (`$aws.#Resource.aws_sqs_queue`,
 * of the mode it is referred to with), when one is known: a node is declared there.
 */
export function declaredType(site: Site, registry: Registry): TypeSchema | undefined {
  for (const r of site.refs) {
    const i = r.selectors.findIndex((x) => x in TYPE_MODES);
    if (i < 0 || i + 1 >= r.selectors.length) continue;
    const t = registry.findTypes(r.selectors[i + 1]).find((x) =>
      x.type.mode === TYPE_MODES[r.selectors[i]]
    );
    if (t) return t.type;
  }
  return undefined;
}

/**
 * The labels from the nearest field with a static path down to a field
 * declared without one: a label as written, or null where it is computed
 * (a dynamic or pattern label). Undefined for what is no field (a let).
 */
function looseLabels(s: Site): (string | null)[] | undefined {
  const out: (string | null)[] = [];
  for (let x: Site | null = s; x && !x.path; x = x.owner) {
    if (x.kind === "let" || x.kind === "alias" || x.kind === "for") return undefined;
    out.unshift(x.kind === "dynamic" || x.kind === "pattern" || x.quoted ? null : x.label);
  }
  return out;
}

/** The dependencies of what refers to nothing: one set for all. */
const NO_DEPS: ReadonlySet<string> = new Set();

/** A rewriting of paths: each `[from, to]` in turn replaces a leading `from` by `to`. */
export type Subst = readonly (readonly [string[], string[]])[];

/** A declaration read for an instance: the site, and how its paths map onto the instance. */
export interface Item {
  site: Site;
  subst: Subst;
}

function startsWith(path: readonly (string | null)[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((l, i) => path[i] === l);
}

function rebase(path: string[], subst: Subst): string[] {
  let out = path;
  for (const [from, to] of subst) {
    if (startsWith(out, from)) out = [...to, ...out.slice(from.length)];
  }
  return out;
}

/**
 * The dependency reading of the sources, with its indexes and memos (see
 * dependencies.ts `dependencies` for what counts).
 */
export class Deps {
  /** Sites by path; one without a static path counts for the field its value is written in. */
  #byKey = new Map<string, Site[]>();
  /** Child labels by parent path. */
  #children = new Map<string, Set<string>>();
  #nodeKeys: Map<string, string>;
  readonly #registry: Registry;
  #nodesUnder = new Map<string, string[]>();
  /** Whether `r` is a clause of a comprehension written in a field's value. */
  #generatorRef(r: Ref): boolean {
    return this.#ownedClauses.has(r);
  }
  /** The clause references of comprehensions that have an owning field. */
  #ownedClauses = new Set<Ref>();

  /** The references that are comprehension clauses: they decide which fields exist. */
  #clauses = new Set<Ref>();
  #aliasMemo = new Map<string, { path: string[]; subst: Subst }[]>();
  #aliasBusy = new Set<string>();
  #underMemo = new Map<string, Item[]>();
  /** Whether anything is declared at a path or under it, through its aliases. */
  #fruitfulMemo = new Map<string, boolean>();
  /** {@link Deps.#refDeps} without a mapping, by site: most of them. */
  #refMemo0 = new Map<Site, ReadonlySet<string>>();
  #underBusy = new Set<string>();
  #refMemo = new Map<Site, Map<string, ReadonlySet<string>>>();
  /**
   * Fields declared without a static path (in a comprehension's body, or
   * under a dynamic or pattern label), by the path of the field that holds
   * them, with the labels between: null for a label not known statically.
   */
  #loose = new Map<string, { site: Site; rel: (string | null)[] }[]>();
  /** The comprehensions written in each field's value, by that field's declaration. */
  #generatorsOf = new Map<Site, Generator[]>();
  /** Where each field is declared, as {@link Deps.patternOf} gives it. */
  #patterns = new Map<Site, (string | null)[]>();

  constructor(sources: Sources, nodes: readonly Pick<Node, "path" | "address">[]) {
    this.#registry = sources.registry;
    this.#nodeKeys = new Map(nodes.map((n) => [pathKey(n.path), n.address]));
    for (const f of allFiles(sources)) {
      for (const g of f.parsed.generators) {
        g.clauseRefs.forEach((r) => this.#clauses.add(r));
        if (g.owner) {
          this.#generatorsOf.set(g.owner, [...(this.#generatorsOf.get(g.owner) ?? []), g]);
          g.clauseRefs.forEach((r) => this.#ownedClauses.add(r));
        }
      }
      for (const s of f.parsed.sites) {
        let at = s.path;
        if (!at) {
          let o = s.owner;
          while (o && !o.path) o = o.owner;
          // A pattern or dynamic label written as a chain (`pets: [string]: x`)
          // has no owner: the struct of its scope holds what it declares.
          at = o?.path ?? null;
          for (let sc: Site["scope"] | null = s.scope; !at && sc; sc = sc.parent) at = sc.path;
          if (!at) continue;
          const rel = looseLabels(s);
          if (rel) {
            const lk = pathKey(at);
            if (!this.#loose.has(lk)) this.#loose.set(lk, []);
            this.#loose.get(lk)!.push({ site: s, rel });
            this.#patterns.set(s, [...at, ...rel]);
          }
        } else {
          this.#patterns.set(s, at);
        }
        const k = pathKey(at);
        if (!this.#byKey.has(k)) this.#byKey.set(k, []);
        this.#byKey.get(k)!.push(s);
        if (!s.path) continue;
        for (let i = 1; i <= s.path.length; i++) {
          const parent = pathKey(s.path.slice(0, i - 1));
          if (!this.#children.has(parent)) this.#children.set(parent, new Set());
          this.#children.get(parent)!.add(s.path[i - 1]);
        }
      }
    }
    for (const n of nodes) {
      for (let i = 1; i < n.path.length; i++) {
        const k = pathKey(n.path.slice(0, i));
        if (!this.#nodesUnder.has(k)) this.#nodesUnder.set(k, []);
        this.#nodesUnder.get(k)!.push(n.address);
      }
    }
  }

  /** The nodes a reference to `path` names: the node it is in, or the nodes under it. */
  #nodesAt(path: string[]): string[] {
    for (let k = path.length; k > 0; k--) {
      const a = this.#nodeKeys.get(pathKey(path.slice(0, k)));
      if (a) return [a];
    }
    return this.#nodesUnder.get(pathKey(path)) ?? [];
  }

  /** Where the values of a site's references come from, with the site's paths mapped. */
  #targets(site: Site, subst: Subst, only?: (r: Ref) => boolean): string[][] {
    const out: string[][] = [];
    for (const ref of site.refs) {
      if (only && !only(ref)) continue;
      for (const d of resolve(ref) ?? []) {
        if (d.path) out.push(rebase([...d.path, ...ref.selectors], subst));
      }
    }
    return out;
  }

  /**
   * The paths whose declarations count for `path`: itself, and for each
   * struct around it (or itself) that embeds or unifies a value, that value's
   * field at the same place, with the mapping of its paths onto `path`.
   */
  aliases(path: string[]): { path: string[]; subst: Subst }[] {
    const key = pathKey(path);
    const memo = this.#aliasMemo.get(key);
    if (memo) return memo;
    const out: { path: string[]; subst: Subst }[] = [{ path, subst: [] }];
    if (this.#aliasBusy.has(key)) return out;
    this.#aliasBusy.add(key);
    const seen = new Set([key + "\u0001[]"]);
    /** The aliases that what `site` (declared at `at`) embeds gives the fields under it. */
    const embed = (site: Site, at: string[], rest: string[]) => {
      for (const t of this.#targets(site, [], (r) => !this.#clauses.has(r))) {
        if (startsWith(at, t) || this.#nodesAt(t).length || !this.#fruitful(t)) continue;
        for (const a of this.aliases([...t, ...rest])) {
          const subst: Subst = [...a.subst, [t, at]];
          const k = pathKey(a.path) + "\u0001" + JSON.stringify(subst);
          if (seen.has(k)) continue;
          seen.add(k);
          out.push({ path: a.path, subst });
        }
      }
    };
    for (let i = 1; i <= path.length; i++) {
      const at = path.slice(0, i);
      const rest = path.slice(i);
      for (const site of this.#byKey.get(pathKey(at)) ?? []) {
        // A field's own declaration embeds what it refers to; what its
        // comprehensions' clauses refer to decides which fields exist.
        if (!site.path) continue;
        embed(site, at, rest);
      }
      // A field a comprehension declares (`(k): #Queue & {...}`) stands for
      // the fields whose labels its own match.
      for (const { site, rel } of this.#loose.get(pathKey(at)) ?? []) {
        if (rel.length > rest.length || !rel.every((l, j) => l === null || l === rest[j])) continue;
        embed(site, [...at, ...rest.slice(0, rel.length)], rest.slice(rel.length));
      }
    }
    this.#aliasBusy.delete(key);
    // Most paths have no alias but themselves: not worth keeping.
    if (out.length > 1) this.#aliasMemo.set(key, out);
    return out;
  }

  /**
   * Whether the sources declare anything at `t` or under it, through its
   * aliases: a provider's type (`$random.#Resource.random_pet`) is not
   * among the sources, and embedding it adds nothing to read.
   */
  #fruitful(t: string[]): boolean {
    const key = pathKey(t);
    let got = this.#fruitfulMemo.get(key);
    if (got === undefined) {
      this.#fruitfulMemo.set(key, false); // while it is being found: a cycle adds nothing
      got = this.aliases(t).some((a) => {
        const k = pathKey(a.path);
        return this.#byKey.has(k) || this.#children.has(k) || this.#loose.has(k);
      });
      this.#fruitfulMemo.set(key, got);
    }
    return got;
  }

  /** The declarations at `path`, through its aliases, with their mappings onto it. */
  sitesFor(path: string[]): Item[] {
    const out: Item[] = [];
    for (const a of this.aliases(path)) {
      for (const site of this.#byKey.get(pathKey(a.path)) ?? []) {
        out.push({ site, subst: a.subst });
      }
      // A field declared in a comprehension whose labels are those of the path.
      for (let i = 0; i < a.path.length; i++) {
        const rest = a.path.slice(i);
        for (const { site, rel } of this.#loose.get(pathKey(a.path.slice(0, i))) ?? []) {
          if (rel.length === rest.length && rel.every((l, j) => l === null || l === rest[j])) {
            out.push({ site, subst: a.subst });
          }
        }
      }
    }
    return out;
  }

  /**
   * The paths a field is declared at: its path, or, for a field declared
   * without one (in a comprehension's body, under a dynamic or pattern
   * label), the path of the field that holds it and the labels below, null
   * where a label is computed. Undefined for what is no field (a let).
   */
  patternOf(site: Site): readonly (string | null)[] | undefined {
    return this.#patterns.get(site);
  }

  /**
   * The values that fields embed or unify (`m: #M & {...}`, `(k): #M`,
   * `copy: base`), as {@link Deps.aliases} reads them: each field's paths
   * ({@link Deps.patternOf}) and the path of the value, whose fields are
   * then also the field's. Not a value read through an index (`id:
   * b[k].id`), which is inside the one named.
   */
  embeddings(): { at: readonly (string | null)[]; value: string[] }[] {
    const out: { at: readonly (string | null)[]; value: string[] }[] = [];
    for (const [site, at] of this.#patterns) {
      for (const t of this.#targets(site, [], (r) => !this.#clauses.has(r) && !r.indexed)) {
        if (startsWith(at, t) || !this.#fruitful(t)) continue;
        out.push({ at, value: t });
      }
    }
    return out;
  }

  /** Every declaration at `path` and under it, through its aliases. */
  sitesUnder(path: string[]): Item[] {
    return this.#under(path);
  }

  /** Where a declaration's references lead, mapped onto the instance. */
  targetsOf(site: Site, subst: Subst): string[][] {
    return this.#targets(site, subst);
  }

  /** The plugin type a node at `path` is declared with, through its aliases. */
  pluginTypeOf(path: string[]): TypeSchema | undefined {
    const t = this.typeOf(path);
    return t?.plugin ? t : undefined;
  }

  /** The type, built-in or plugin, a node at `path` is declared with, through its aliases. */
  typeOf(path: string[]): TypeSchema | undefined {
    for (const { site } of this.sitesFor(path)) {
      const t = declaredType(site, this.#registry);
      if (t) return t;
    }
    return undefined;
  }

  /** Every declaration at `path` and under it, through its aliases. */
  #under(path: string[], keep = true): Item[] {
    const key = pathKey(path);
    const memo = this.#underMemo.get(key);
    if (memo) return memo;
    if (this.#underBusy.has(key)) return [];
    this.#underBusy.add(key);
    const out: Item[] = [];
    for (const a of this.aliases(path)) {
      for (const site of this.#byKey.get(pathKey(a.path)) ?? []) out.push({ site, subst: a.subst });
      for (const c of this.#children.get(pathKey(a.path)) ?? []) {
        for (const it of this.#under([...a.path, c], keep)) {
          out.push(
            a.subst.length === 0 ? it : { site: it.site, subst: [...it.subst, ...a.subst] },
          );
        }
      }
    }
    this.#underBusy.delete(key);
    if (keep) this.#underMemo.set(key, out);
    return out;
  }

  /** The nodes a declaration's value refers to, read for an instance through `subst`. */
  #refDeps(site: Site, subst: Subst, stack: Set<unknown>): ReadonlySet<string> {
    if (site.refs.length === 0) return NO_DEPS;
    const plain = subst.length === 0;
    const skey = plain ? "" : JSON.stringify(subst);
    let bySubst = plain ? undefined : this.#refMemo.get(site);
    const cached = plain ? this.#refMemo0.get(site) : bySubst?.get(skey);
    if (cached) return cached;
    const out = new Set<string>();
    const me = plain ? site : `${site.file}:${site.line}:${site.column}:${site.label}\u0001${skey}`;
    if (stack.has(me)) return out;
    stack.add(me);
    for (const ref of site.refs) {
      for (const d of resolve(ref) ?? []) {
        if (!d.path) {
          // A let, an alias, a comprehension's variable: what its value refers to.
          this.#refDeps(d, subst, stack).forEach((a) => out.add(a));
          continue;
        }
        const path = rebase([...d.path, ...ref.selectors], subst);
        const hit = this.#nodesAt(path);
        if (hit.length) {
          hit.forEach((a) => out.add(a));
          continue;
        }
        for (const it of this.#under(path)) {
          this.#refDeps(it.site, it.subst, stack).forEach((a) => out.add(a));
        }
      }
    }
    stack.delete(me);
    const result = out.size ? out : NO_DEPS;
    if (plain) {
      this.#refMemo0.set(site, result);
    } else {
      if (!bySubst) this.#refMemo.set(site, bySubst = new Map());
      bySubst.set(skey, result);
    }
    return result;
  }

  /**
   * What the node at `path` depends on: what its declarations and those
   * under it refer to, and, of the structs around it, what their
   * comprehensions' clauses and bodies refer to.
   */
  ofNode(path: string[]): Set<string> {
    const out = new Set<string>();
    const stack = new Set<unknown>();
    // Read once for the node: not kept (references to it are hits, not reads).
    for (const it of this.#under(path, false)) {
      this.#refDeps(it.site, it.subst, stack).forEach((a) => out.add(a));
    }
    for (let i = 1; i < path.length; i++) {
      for (const a of this.aliases(path.slice(0, i))) {
        for (const site of this.#byKey.get(pathKey(a.path)) ?? []) {
          const own = site.path !== null;
          // Of a struct around the node, the clauses of the comprehensions
          // that declare the field toward it (or may: labels not all known).
          const deciding = new Set(
            (this.#generatorsOf.get(site) ?? [])
              .filter((g) => g.declares == null || g.declares.includes(path[i]))
              .flatMap((g) => g.clauseRefs),
          );
          const view: Site = own
            ? {
              ...site,
              refs: site.refs.filter((r) =>
                this.#clauses.has(r) && (deciding.has(r) || !this.#generatorRef(r))
              ),
            }
            : site;
          if (own && view.refs.length === 0) continue;
          this.#refDeps(view, a.subst, stack).forEach((x) => out.add(x));
        }
      }
    }
    return out;
  }
}
