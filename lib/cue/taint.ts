/**
 * Which values of a root are computed from a secret, read from the
 * references in the sources (see parser.ts) and not from any value: the
 * answer is the same whatever the secrets hold, so it tells nothing of them.
 *
 * A secret is an attribute that a node's schema marks sensitive, one that
 * the state records as sensitive, or any attribute of a data source whose
 * inputs are computed from a secret (what it reads depends on one). A value
 * is tainted when its declarations refer, directly or through other fields,
 * lets, definitions, comprehension variables or the structs around them, to
 * a secret or to a whole node that holds one. Where the sources do not say
 * where a value goes (a field under a dynamic label, a struct inside a
 * list), its references count for the field whose value holds it.
 *
 * A field, a node or an output whose existence is decided by a secret (a
 * comprehension clause or a dynamic label that refers to one, outside the
 * value of a node's attribute or of an output) cannot be hidden by redacting
 * a value: that is a diagnostic.
 *
 * The loader adds what an evaluation with stand-ins finds (secrets.ts); this
 * pass is the part whose answer does not depend on the secrets' values.
 *
 * @module
 */

import { DEPENDS_ON } from "./provider_cue.ts";
import { type Diagnostic, error } from "../diag/diag.ts";
import type { Mode, TypeSchema } from "../providers/schema.ts";
import { formatPath, pathKey } from "./errors.ts";
import { type Generator, type ParsedFile, type Ref, resolve, type Site } from "./syntax/mod.ts";

/** A node as the taint pass needs it. */
export interface TaintNode {
  address: string;
  path: string[];
  mode: Mode;
  schema: TypeSchema;
}

export interface TaintInput {
  files: ParsedFile[];
  nodes: TaintNode[];
  /** Attributes that hold secrets beyond those the schemas mark, by node address. */
  secretAttrs: Map<string, Set<string>>;
  /**
   * Whether the attributes the schemas mark sensitive are secrets too
   * (default true). False to trace other values through the same roads:
   * the loader traces the values known only after apply so, to find what
   * they decide.
   */
  schemaSensitive?: boolean;
}

export interface Taint {
  /** By node address: the inputs whose values are computed from a secret. */
  inputs: Map<string, Set<string>>;
  /** The outputs whose values are computed from a secret. */
  outputs: Set<string>;
  /**
   * True when outputs that the sources do not name (under a dynamic label)
   * may be computed from a secret: every output is then.
   */
  allOutputs: boolean;
  /** Fields, nodes and outputs whose existence a secret decides. */
  diagnostics: Diagnostic[];
}

function isInput(t: TypeSchema, k: string): boolean {
  const a = t.attributes[k];
  return a !== undefined && Boolean(a.required || a.optional);
}

/** The nearest path among a site and the fields around it: where its value goes. */
function ownerPath(site: Site | null): string[] {
  for (let s = site; s; s = s.owner) if (s.path) return s.path;
  return [];
}

/** Reads the taint of every node input and output of a root. */
export function taint(input: TaintInput): Taint {
  const sites = input.files.flatMap((f) => f.sites);
  const generators: Generator[] = input.files.flatMap((f) => f.generators);
  /** The references of comprehension clauses: they decide which fields exist, not what they hold. */
  const clauses = new Set(generators.flatMap((g) => g.clauseRefs));

  // Indexes, so that the work grows with the number of sites.
  const byKey = new Map<string, Site[]>();
  const children = new Map<string, Set<string>>();
  /** Declarations without a static path, by the nearest declaration with one that holds them. */
  const owned = new Map<Site | null, Site[]>();
  /** Every declaration by the one whose value it is written in (a let's struct, say). */
  const within = new Map<Site, Site[]>();
  for (const s of [...sites, ...input.files.flatMap((f) => f.lets)]) {
    if (s.owner) within.set(s.owner, [...(within.get(s.owner) ?? []), s]);
  }
  for (const s of sites) {
    if (!s.path) {
      let o = s.owner;
      while (o && !o.path) o = o.owner;
      owned.set(o, [...(owned.get(o) ?? []), s]);
      continue;
    }
    const k = pathKey(s.path);
    byKey.set(k, [...(byKey.get(k) ?? []), s]);
    for (let i = 1; i <= s.path.length; i++) {
      const parent = pathKey(s.path.slice(0, i - 1));
      if (!children.has(parent)) children.set(parent, new Set());
      children.get(parent)!.add(pathKey(s.path.slice(0, i)));
    }
  }
  const nodeByKey = new Map(input.nodes.map((n) => [pathKey(n.path), n]));
  const nodesUnder = new Map<string, TaintNode[]>();
  for (const n of input.nodes) {
    for (let i = 0; i < n.path.length; i++) {
      const k = pathKey(n.path.slice(0, i));
      nodesUnder.set(k, [...(nodesUnder.get(k) ?? []), n]);
    }
  }
  /** A reference to a node or a struct of nodes: its keys are in the sources. */
  const iteratesNodes = (r: Ref): boolean => {
    const decls = resolve(r);
    if (!decls || decls.length === 0) return false;
    return decls.every((d) => {
      if (!d.path) return false;
      const key = pathKey([...d.path, ...r.selectors]);
      return nodeByKey.has(key) || nodesUnder.has(key);
    });
  };
  /**
   * True when what `r` names is written out as a struct with its labels in
   * the sources (`modules: {"a": a, "b": b}`), every declaration of it:
   * iterating it decides its keys, which the sources give, and not its values.
   */
  const ownerOf = new Set(generators.map((g) => g.owner));
  const staticKeys = (r: Ref): boolean => {
    const decls = resolve(r);
    if (!decls || decls.length === 0) return false;
    const literal = (site: Site) =>
      site.refs.length === 0 && !ownerOf.has(site) && (within.get(site) ?? []).length > 0 &&
      (within.get(site) ?? []).every((c) => c.kind === "regular");
    return decls.every((d) => {
      // A let (`let modules = {...}`): its own struct.
      if (!d.path) return r.selectors.length === 0 && literal(d);
      const here = byKey.get(pathKey([...d.path, ...r.selectors])) ?? [];
      return here.length > 0 && here.every(literal);
    });
  };
  const sitesUnder = (key: string): Site[] => {
    const out: Site[] = [];
    const stack = [key];
    const seen = new Set<string>();
    while (stack.length) {
      const k = stack.pop()!;
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(...(byKey.get(k) ?? []));
      for (const c of children.get(k) ?? []) stack.push(c);
    }
    return out;
  };

  // Data sources whose inputs are tainted hold secrets in every attribute:
  // found by iterating until nothing changes.
  const dataTainted = new Set<string>();
  const secretsOf = (n: TaintNode): Set<string> => {
    const out = new Set(input.secretAttrs.get(n.address) ?? []);
    if (input.schemaSensitive !== false) {
      for (const [k, a] of Object.entries(n.schema.attributes)) if (a.sensitive) out.add(k);
    }
    if (dataTainted.has(n.address)) {
      for (const k of Object.keys(n.schema.attributes)) {
        out.add(k);
      }
    }
    return out;
  };

  let memoSite = new Map<Site, boolean>();
  let memoPath = new Map<string, boolean>();
  let memoInput = new Map<string, boolean>();
  const visiting = new Set<unknown>();

  /** Guards against cycles: a value that refers to itself adds nothing. */
  const guarded = <K>(memo: Map<K, boolean>, key: K, fn: () => boolean): boolean => {
    const got = memo.get(key);
    if (got !== undefined) return got;
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
  };

  const refTaint = (ref: Ref, extra: readonly string[]): boolean => {
    const decls = resolve(ref);
    if (!decls) return false; // an import or a builtin
    return decls.some((d) =>
      d.path ? pathTaint([...d.path, ...ref.selectors, ...extra]) : selectedTaint(d, [
        ...ref.selectors,
        ...extra,
      ])
    );
  };

  /**
   * A declaration without a path (a let, a comprehension variable), selected
   * into: its own references whole, and of the fields written in its value,
   * those the selectors name.
   */
  const selectedTaint = (d: Site, sel: readonly string[]): boolean => {
    if (sel.length === 0) return siteTaint(d);
    if (d.keyOf && (iteratesNodes(d.keyOf) || staticKeys(d.keyOf))) return false;
    if (d.valuesOf) return d.refs.some((r) => refTaint(r, sel));
    if (d.refs.some((r) => refTaint(r, []))) return true;
    return (within.get(d) ?? []).some((c) => c.label === sel[0] && selectedTaint(c, sel.slice(1)));
  };

  /** A declaration's references, and those of the declarations written in its value without a path. */
  const siteTaint = (site: Site): boolean =>
    guarded(memoSite, site, () => {
      if (site.keyOf && (iteratesNodes(site.keyOf) || staticKeys(site.keyOf))) return false;
      // A node's depends_on carries no value to the node: only edges.
      if (site.label === DEPENDS_ON) return false;
      if (site.refs.some((r) => refTaint(r, []))) return true;
      if ((within.get(site) ?? []).some(siteTaint)) return true;
      return site.path !== null && (owned.get(site) ?? []).some(siteTaint);
    });

  /** What a node's input is computed from. */
  const inputTaint = (n: TaintNode, k: string): boolean =>
    guarded(memoInput, `${n.address}\u0000${k}`, () => valueTaint([...n.path, k]));

  const nodeTaint = (n: TaintNode): boolean =>
    secretsOf(n).size > 0 ||
    Object.keys(n.schema.attributes).some((k) => isInput(n.schema, k) && inputTaint(n, k));

  /** The declarations of a value at `p`: under it, and the embeddings of the structs around it. */
  const valueTaint = (p: string[]): boolean => {
    if (sitesUnder(pathKey(p)).some(siteTaint)) return true;
    for (let q = 0; q < p.length; q++) {
      const prefix = p.slice(0, q);
      for (const s of byKey.get(pathKey(prefix)) ?? []) {
        // An embedding is selected into; a clause is read whole (selecting
        // into it would grow the path at each turn: `if #in.on {...}`).
        if (s.refs.some((r) => refTaint(r, clauses.has(r) ? [] : p.slice(q)))) return true;
        if ((owned.get(s) ?? []).some(siteTaint)) return true;
      }
    }
    // Declarations at the top of a file without a path (under a dynamic label).
    return (owned.get(null) ?? []).some(siteTaint);
  };

  /** What a reference to the path `p` reads. */
  const pathTaint = (p: string[]): boolean =>
    guarded(memoPath, pathKey(p), () => {
      for (let k = p.length; k > 0; k--) {
        const n = nodeByKey.get(pathKey(p.slice(0, k)));
        if (!n) continue;
        if (k === p.length) return nodeTaint(n);
        const attr = p[k];
        if (secretsOf(n).has(attr)) return true;
        if (isInput(n.schema, attr)) return inputTaint(n, attr);
        if (attr in n.schema.attributes) return false; // computed, not a secret
        return valueTaint(p);
      }
      if ((nodesUnder.get(pathKey(p)) ?? []).some(nodeTaint)) return true;
      return valueTaint(p);
    });

  for (let round = 0; round <= input.nodes.length; round++) {
    memoSite = new Map();
    memoPath = new Map();
    memoInput = new Map();
    let more = false;
    for (const n of input.nodes) {
      if (n.mode !== "data" || dataTainted.has(n.address)) continue;
      if (Object.keys(n.schema.attributes).some((k) => isInput(n.schema, k) && inputTaint(n, k))) {
        dataTainted.add(n.address);
        more = true;
      }
    }
    if (!more) break;
  }

  const out: Taint = { inputs: new Map(), outputs: new Set(), allOutputs: false, diagnostics: [] };
  for (const n of input.nodes) {
    const set = new Set<string>();
    for (const k of Object.keys(n.schema.attributes)) {
      if (isInput(n.schema, k) && inputTaint(n, k)) set.add(k);
    }
    if (set.size) out.inputs.set(n.address, set);
  }
  const outputNames = new Set<string>();
  for (const s of sites) {
    if (s.path && s.path.length >= 2 && s.path[0] === "outputs") outputNames.add(s.path[1]);
  }
  for (const k of outputNames) if (valueTaint(["outputs", k])) out.outputs.add(k);
  // Outputs whose names the sources do not give (under a dynamic label)
  // are computed from what the struct "outputs" embeds and holds.
  out.allOutputs = (byKey.get(pathKey(["outputs"])) ?? []).some((s) =>
    s.refs.some((r) => refTaint(r, [])) || (owned.get(s) ?? []).some(siteTaint)
  );

  // Existence decided by a secret, outside a node attribute's or an output's value.
  /** A node declared in a definition (`#M: queue: $aws.#Resource.aws_sqs_queue & {...}`). */
  const NODE_KINDS = new Set(["#Resource", "#Data", "#Ephemeral", "#Call"]);
  const declaresNode = (p: string[]): boolean =>
    p.some((l) => l.startsWith("#")) &&
    (byKey.get(pathKey(p)) ?? []).some((s) =>
      s.refs.some((r) => !clauses.has(r) && r.selectors.some((x) => NODE_KINDS.has(x)))
    );
  const insideValue = (p: string[]): boolean => {
    if (p[0] === "outputs" && p.length >= 2) return true;
    for (let k = p.length - 1; k > 0; k--) {
      const at = p.slice(0, k);
      if (nodeByKey.has(pathKey(at)) || declaresNode(at)) return true;
    }
    return false;
  };
  /**
   * The declarations that instantiate the definition at `def` (`m: #M &
   * {...}`, an embedding): each with its static path, or the declaration
   * itself when its path is not static (under a comprehension's label).
   */
  const instanceMemo = new Map<string, { path: string[] | null; site: Site }[]>();
  const instancesOf = (def: string[]): { path: string[] | null; site: Site }[] => {
    const key = pathKey(def);
    const memo = instanceMemo.get(key);
    if (memo) return memo;
    const got = sites.filter((s) =>
      s.refs.some((r) =>
        !clauses.has(r) &&
        (resolve(r) ?? []).some((x) => x.path && pathKey([...x.path, ...r.selectors]) === key)
      )
    ).map((s) => ({ path: s.path, site: s }));
    instanceMemo.set(key, got);
    return got;
  };
  /** Every declaration written in the value of `site`, at any depth. */
  const writtenIn = (site: Site): Site[] => {
    const out: Site[] = [];
    const stack = [site];
    while (stack.length) {
      for (const c of within.get(stack.pop()!) ?? []) {
        out.push(c);
        stack.push(c);
      }
    }
    return out;
  };
  const literal = (x: Site) =>
    x.refs.length === 0 && !ownerOf.has(x) && (within.get(x) ?? []).length > 0 &&
    (within.get(x) ?? []).every((c) => c.kind === "regular");
  const ofNodes = (x: Site) =>
    x.refs.length > 0 && x.refs.every(iteratesNodes) && !(within.get(x) ?? []).length;
  /**
   * Whether a value declared inside a definition (its input `#M.#var.n`)
   * is computed from a secret in an instance of it (`m: #M & {#var: n:
   * base.result}`), also through an instance inside another definition
   * (`#Outer: inner: #M & {#var: n: #in}`, `o: #Outer & {#in: ...}`).
   * `within`: only the definitions that are a prefix of it (where the
   * comprehension that reads the value is written). `keysOnly`: the value is
   * iterated, so a struct written out or a struct of nodes decides its keys
   * only.
   */
  const definedTaint = (
    target: string[],
    keysOnly: boolean,
    within?: string[],
    depth = 0,
  ): boolean => {
    if (depth > 8) return false;
    for (let k = 1; k < target.length; k++) {
      if (!target[k - 1].startsWith("#")) continue;
      const def = target.slice(0, k);
      if (within && (within.length < k || pathKey(within.slice(0, k)) !== pathKey(def))) continue;
      const rest = target.slice(k);
      for (const inst of instancesOf(def)) {
        let decls: Site[];
        if (inst.path) {
          const p = [...inst.path, ...rest];
          decls = byKey.get(pathKey(p)) ?? [];
          if (keysOnly && decls.length && decls.every((x) => literal(x) || ofNodes(x))) continue;
          if (pathTaint(p)) return true;
        } else {
          // Under a dynamic label: the declarations written in the instance
          // with the input's name (`#var: n: x` is one chain of labels).
          decls = writtenIn(inst.site).filter((c) => c.label === rest[rest.length - 1]);
          if (decls.some(siteTaint)) return true;
        }
        // What the instance gives, when it is itself inside a definition.
        for (const d of decls) {
          for (const r of d.refs) {
            for (const x of resolve(r) ?? []) {
              if (!x.path) continue;
              const t = [...x.path, ...r.selectors];
              if (
                t.some((l) => l.startsWith("#")) && definedTaint(t, false, undefined, depth + 1)
              ) {
                return true;
              }
            }
          }
        }
      }
    }
    return false;
  };
  /**
   * A clause reference to an input of the definition the comprehension is
   * written in (`if #var.n > 5`, `for k in #var.names`), read as each
   * instance gives it.
   */
  const instanceTaint = (g: Generator, r: Ref, where: string[]): boolean =>
    (resolve(r) ?? []).some((d) =>
      d.path !== null &&
      definedTaint([...d.path, ...r.selectors], g.iterated.includes(r), where)
    );
  const reported = new Set<string>();
  /** The comprehensions found to decide from a secret. */
  const deciding = new Set<Generator>();
  /** A reference to a variable of a comprehension already reported: said once, there. */
  const ofReported = (r: Ref): boolean => {
    const decls = resolve(r) ?? [];
    return decls.length > 0 && decls.every((d) => d.generator && deciding.has(d.generator));
  };
  for (const g of generators) {
    const where = ownerPath(g.owner);
    if (insideValue(where)) continue;
    const decides = g.clauseRefs.some((r) => {
      if (ofReported(r)) return false;
      // Whether a field is there is no value of it.
      if (g.presence?.includes(r)) return false;
      // Before apply a value the provider computes is not null (its
      // stand-ins are not): a test of that decides nothing unknown. A
      // secret's is still its own.
      if (input.schemaSensitive === false && g.nullTests?.includes(r)) return false;
      if (instanceTaint(g, r, where)) return true;
      if (g.iterated.includes(r) && (iteratesNodes(r) || staticKeys(r))) return false;
      return refTaint(r, []);
    });
    if (!decides) continue;
    deciding.add(g);
    const key = `${g.file}:${g.line}:${g.column}`;
    if (reported.has(key)) continue;
    reported.add(key);
    out.diagnostics.push(
      error(
        "Which fields exist depends on a sensitive value",
        `A comprehension or a dynamic field name in ${
          where.length ? formatPath(where) : "the package"
        } decides from a secret (a password, a sensitive file's content, or a value computed from one) which fields, nodes or outputs exist, so the plan would reveal part of the secret. Decide it from a tag or a plain field instead.`,
        { range: { file: g.file, line: g.line, column: g.column } },
      ),
    );
  }
  // Embeddings at the top of a file decide fields too.
  for (const f of input.files) {
    const r = f.topRefs.find((r) => !clauses.has(r) && refTaint(r, []));
    if (!r) continue;
    out.diagnostics.push(
      error(
        "Which fields exist depends on a sensitive value",
        "A value embedded at the top of the package refers to a secret (a password, a sensitive file's content, or a value computed from one), so which fields exist may reveal part of it. Put the value in a field of its own instead.",
        { range: { file: f.file, line: r.line, column: r.column } },
      ),
    );
  }
  return out;
}
