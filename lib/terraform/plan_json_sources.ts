/**
 * The sources a plan was made from (its root's CUE files), read for
 * Terraform's `configuration`: which declarations write each attribute of
 * each node, and what they refer to, in Terraform's terms (`var.region`,
 * `aws_s3_bucket.logs.arn`, `module.vpc.vpc_id`, `count.index`).
 *
 * Read with pravo's structural parser (lib/cue/syntax): nothing is
 * evaluated, so `show` loads no CUE engine. The values come from the plan.
 *
 * @module
 */

import {
  type Generator,
  newTopScope,
  type ParsedFile,
  parseFile,
  type Ref,
  resolve,
  type Site,
} from "../cue/syntax/mod.ts";
import { formatAddress } from "../addr/address.ts";
import { keyText } from "./address.ts";
import type { TfIdentity } from "./plan_json_resources.ts";

/** Where a reference leads: a Terraform reference, and the resource attribute it reads, if any. */
export interface TfRef {
  /** The strings Terraform lists in `references`, longest first. */
  strings: string[];
  /** The resource instance and attribute path read, for `relevant_attributes`. */
  attribute?: { resource: string; path: string[] };
}

/** The nodes by pravo address, for references. */
export type NodeIndex = ReadonlyMap<string, TfIdentity>;

/** The declarations of the root's files, indexed for the JSON plan. */
export class SourceSites {
  readonly files: ParsedFile[];
  /** The declarations written inside each declaration's value, in source order. */
  readonly children = new Map<Site, Site[]>();
  /** By node address (or the path of the comprehension that makes them): attribute → sites. */
  readonly #byNode = new Map<string, Map<string, Site[]>>();
  readonly #byPath = new Map<string, Site[]>();
  readonly #nodes: NodeIndex;

  constructor(files: ParsedFile[], nodes: NodeIndex) {
    this.files = files;
    this.#nodes = nodes;
    for (const f of files) {
      for (const s of f.sites) {
        if (s.owner) {
          const list = this.children.get(s.owner) ?? [];
          list.push(s);
          this.children.set(s.owner, list);
        }
        if (s.path) {
          const k = JSON.stringify(s.path);
          this.#byPath.set(k, [...(this.#byPath.get(k) ?? []), s]);
        }
        this.#assign(s);
      }
    }
  }

  /** Files the structural parser read; undefined when one does not parse (then no expressions). */
  static read(sources: readonly { name: string; src: string }[], nodes: NodeIndex) {
    const top = newTopScope();
    const parsed: ParsedFile[] = [];
    try {
      for (const f of sources) {
        if (f.name.includes("/") || !f.name.endsWith(".cue")) continue;
        parsed.push(parseFile(f.name, f.src, top));
      }
    } catch {
      return undefined;
    }
    return new SourceSites(parsed, nodes);
  }

  /** Files sites under a node: the node and attribute it writes, found up its owners. */
  #assign(s: Site): void {
    const chain: Site[] = [];
    for (let x: Site | null = s; x; x = x.owner) chain.push(x);
    for (let i = chain.length - 1; i >= 0; i--) {
      const x = chain[i];
      if (x.kind === "dynamic" && x.owner?.path && i > 0) {
        // A comprehension's node: every instance under the owner shares these.
        this.#add(`${formatAddress(x.owner.path)}.*`, chain[i - 1].label, s);
        return;
      }
      if (!x.path) continue;
      for (let j = 1; j < x.path.length; j++) {
        const node = formatAddress(x.path.slice(0, j));
        if (this.#nodes.has(node)) {
          this.#add(node, x.path[j], s);
          return;
        }
      }
    }
  }

  #add(node: string, attr: string, s: Site): void {
    const m = this.#byNode.get(node) ?? new Map<string, Site[]>();
    m.set(attr, [...(m.get(attr) ?? []), s]);
    this.#byNode.set(node, m);
  }

  /** The sites that write each attribute of a node, by attribute. */
  attributes(labels: readonly string[]): Map<string, Site[]> {
    return this.#byNode.get(formatAddress(labels)) ??
      this.#byNode.get(`${formatAddress(labels.slice(0, -1))}.*`) ?? new Map();
  }

  /** The declarations of a static path: `["outputs", "arn"]`. */
  at(path: readonly string[]): Site[] {
    return this.#byPath.get(JSON.stringify(path)) ?? [];
  }

  /** The fields declared under a static path, by label, in source order. */
  fieldsUnder(path: readonly string[]): string[] {
    const out: string[] = [];
    for (const f of this.files) {
      for (const s of f.sites) {
        if (
          s.path?.length === path.length + 1 && path.every((p, i) => s.path![i] === p) &&
          !out.includes(s.label) && s.kind === "regular"
        ) out.push(s.label);
      }
    }
    return out;
  }

  /** The provider configuration a node's declaration takes its type from: `$aws_west`. */
  providerOf(labels: readonly string[]): string | undefined {
    const decls = [
      ...this.at(labels),
      ...this.at(labels.slice(0, -1)).flatMap((s) =>
        (this.children.get(s) ?? []).filter((c) => c.kind === "dynamic")
      ),
    ];
    for (const s of decls) {
      const r = s.refs.find((r) => r.name.startsWith("$"));
      if (r) return r.name;
    }
    return undefined;
  }

  /** The comprehension that makes the instances under a path (count, for_each). */
  generatorOf(labels: readonly string[]): Generator | undefined {
    const owner = JSON.stringify(labels.slice(0, -1));
    for (const f of this.files) {
      for (const g of f.generators) {
        if (g.owner?.path && JSON.stringify(g.owner.path) === owner) return g;
      }
    }
    return undefined;
  }

  /** Every site of a node's attribute and what is written inside it. */
  within(sites: readonly Site[]): Site[] {
    const out: Site[] = [];
    const walk = (s: Site) => {
      out.push(s);
      for (const c of this.children.get(s) ?? []) walk(c);
    };
    sites.forEach(walk);
    return [...new Set(out)];
  }

  /** The references of these sites in Terraform's terms, in source order. */
  references(sites: readonly Site[]): TfRef[] {
    const out: TfRef[] = [];
    for (const s of sites) {
      for (const r of s.refs) {
        const t = this.reference(r);
        if (t) out.push(t);
      }
    }
    return out;
  }

  /** One reference in Terraform's terms; undefined for an import or a builtin. */
  reference(r: Ref): TfRef | undefined {
    const decl = resolve(r)?.[0];
    if (!decl) return undefined;
    if (decl.kind === "for") return { strings: [iteratorRef(decl, r.selectors)] };
    if (decl.kind === "let" || decl.kind === "alias" || !decl.path) {
      return subject(`local.${decl.label}`, r.selectors);
    }
    const path = [...decl.path, ...r.selectors];
    return pathReference(path, this.#nodes);
  }
}

/** `count.index`, `each.key` or `each.value` (with what follows) for a comprehension's variable. */
function iteratorRef(decl: Site, selectors: readonly string[]): string {
  // `for k, v in x`: the first of the clause's two variables is the key.
  const pair = [...decl.scope.sites.values()].flat()
    .filter((x) => x.kind === "for" && x.generator === decl.generator)
    .sort((a, b) => a.line - b.line || a.column - b.column);
  if (decl.keyOf || (pair.length === 2 && pair[0] === decl)) return "each.key";
  const clause = decl.generator?.clauseRefs ?? [];
  if (clause.some((c) => c.name === "list" && c.selectors[0] === "Range")) return "count.index";
  return `each.value${traversal(selectors)}`;
}

/** `.name` or `["a b"]` for each step. */
function traversal(steps: readonly string[]): string {
  return steps.map((s) => /^[A-Za-z_][A-Za-z0-9_-]*$/.test(s) ? `.${s}` : keyText(s)).join("");
}

/** A subject and what follows it, as Terraform lists them: every prefix, longest first. */
function subject(head: string, rest: readonly string[], also: string[] = []): TfRef {
  const strings: string[] = [];
  for (let n = rest.length; n > 0; n--) strings.push(head + traversal(rest.slice(0, n)));
  strings.push(head, ...also);
  return { strings };
}

/** A reference to a path of the root: a node's attribute, a variable, a local, a module's output. */
export function pathReference(path: readonly string[], nodes: NodeIndex): TfRef {
  for (let n = path.length; n > 0; n--) {
    const id = nodes.get(formatAddress(path.slice(0, n)));
    if (!id) continue;
    const rest = path.slice(n);
    const plain = id.index === undefined ? [] : [id.address.replace(/\[[^\]]*\]$/, "")];
    const ref = subject(id.address, rest, plain);
    ref.attribute = { resource: id.address, path: rest };
    return ref;
  }
  if (path[0] === "var" || path[0] === "#var") {
    return subject(`var.${path[1] ?? ""}`, path.slice(2));
  }
  if (path[0] === "local" || path[0] === "#local") {
    return subject(`local.${path[1] ?? ""}`, path.slice(2));
  }
  if (path[0] === "module" && path.length >= 2) {
    const call = `module.${path[1]}`;
    if (path.length === 2) return subject(call, []);
    // module.NAME.OUTPUT, or module.NAME.KEY.OUTPUT when the call has instances.
    const keyed = path.length >= 4 &&
      [...nodes.values()].some((id) => id.moduleAddress?.startsWith(`${call}[`));
    const inst = keyed ? call + keyText(path[2]) : call;
    const out = path[keyed ? 3 : 2];
    return subject(`${inst}.${out}`, path.slice(keyed ? 4 : 3), [call]);
  }
  return subject(`local.${path[0]}`, path.slice(1));
}
