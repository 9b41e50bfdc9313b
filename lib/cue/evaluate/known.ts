/**
 * The values known from the state, as an evaluation is given them: CUE
 * declarations unified into the program, so that references to the
 * computed attributes of applied nodes are concrete. A secret among them is
 * given as itself (apply) or as a stand-in (plan time, secrets.ts).
 *
 * @module
 */

import { addressPath } from "../../addr/address.ts";
import { ctyOf, type TypeSchema } from "../../providers/schema.ts";
import type { SourceIndex } from "../errors.ts";
import { ctyDefault, isCtyDefault } from "../plugin_cue.ts";
import type { Value } from "../program.ts";
import { computedValue, isTracked, tracksSetness } from "../provider_cue.ts";
import { type AttrPath, holdsSecret, replaceAt } from "../secrets.ts";
import type { EvaluateOptions } from "../spec.ts";
import { isUnknownDefault, unknownDefault } from "../unknowns.ts";
import type { Setness } from "./setness.ts";
import { cueView, nested } from "./values.ts";

/**
 * The known values of an evaluation, with what tells how each is given:
 * the kinds of the nodes, and which fields the configuration sets in them
 * ({@link KnownValues.setness}, learnt as the evaluation goes).
 */
export class KnownValues {
  /** Values known from the state, by node address. */
  readonly values: ReadonlyMap<string, Record<string, unknown>>;
  /** Which of the values are secrets: by node address, the paths in its attributes. */
  readonly secrets: ReadonlyMap<string, AttrPath[]>;
  /**
   * Which optional and computed attributes of plugin nodes the configuration
   * sets (see plugin_cue.ts): those it leaves unset take their value from
   * the state, or are unknown until apply.
   */
  readonly setness: Setness = new Map();
  /** The known nodes whose setness is asked, with their types. */
  readonly pluginKinds = new Map<string, TypeSchema>();
  /** The type of each node of `known`, when `knownKinds` says it. */
  readonly #types = new Map<string, TypeSchema>();
  readonly #index: SourceIndex;
  #holdsSecrets: boolean | undefined;

  /** The options' known values; the types of their nodes read from the registry now. */
  constructor(index: SourceIndex, opts: EvaluateOptions) {
    this.values = opts.known ?? new Map();
    this.secrets = opts.secrets ?? new Map<string, AttrPath[]>();
    this.#index = index;
    for (const [a, k] of opts.knownKinds ?? []) {
      const t = index.registry.findType(k.provider, k.mode, k.type);
      if (t) this.#types.set(a, t);
      if (t && tracksSetness(t)) this.pluginKinds.set(a, t);
    }
  }

  /** Whether a secret of the known values holds a value. */
  get holdsSecrets(): boolean {
    return this.#holdsSecrets ??= [...this.values].some(([a, attrs]) =>
      holdsSecret(attrs, this.secrets.get(a) ?? [])
    );
  }

  /** The known value of a node's attribute. */
  valueOf(address: string, name: string): unknown {
    return this.values.get(address)?.[name];
  }

  /** Whether a known value of a node's attribute is unified in: not where the configuration sets it. */
  injected(address: string, name: string): boolean {
    const t = this.pluginKinds.get(address);
    const a = t?.attributes[name];
    if (!t || !a) return true;
    if (!a.required && !a.optional) return true;
    if (!isTracked(t, a)) return false;
    const set = this.setness.get(address);
    return set !== undefined && !set.has(name);
  }

  /** Whether a plugin node's optional and computed attribute is set by the configuration. */
  isSet(
    address: string,
    name: string,
    of: { value: Value | undefined; type: TypeSchema },
  ): boolean {
    const { value: v, type: t } = of;
    const set = this.setness.get(address);
    if (set) return set.has(name);
    // Not known (the node was not found where the sources declare nodes):
    // set unless it holds the default that stands for unknown.
    const a = t.attributes[name];
    const cty = ctyOf(a);
    return v !== undefined &&
      !(cty !== undefined ? isCtyDefault(v, cty) : isUnknownDefault(v, a.type));
  }

  /**
   * The known values as declarations, each secret replaced by `f` of it when
   * given. With `complete`, a node given some of its computed-only values
   * gets the "unknown" default for the others: its holder's second struct
   * has no defaults of its own (provider_cue.ts). The traced evaluation puts
   * sentinels in those instead.
   */
  declarations(f?: (v: unknown) => unknown, complete = true): string[] {
    const out: string[] = [];
    for (const [address, attrs] of this.values) {
      if (complete) out.push(...this.#completion(address, Object.keys(attrs)));
      const paths = this.secrets.get(address) ?? [];
      const given = f && paths.length ? replaceAt(attrs, paths, f) : attrs;
      const path = addressPath(address);
      const t = this.pluginKinds.get(address);
      for (const [k, v] of Object.entries(given)) {
        if (t) {
          if (!this.injected(address, k)) continue;
          const a = t.attributes[k];
          // An optional and computed attribute admits no null: a null stays unknown.
          if (v === null && a && (a.required || a.optional)) continue;
          out.push(this.#declaration(address, path, k, JSON.stringify(cueView(v, a))));
          continue;
        }
        out.push(this.#declaration(address, path, k, JSON.stringify(v)));
      }
    }
    return out;
  }

  /** The type of a node of `known`: its kind's, else the one the sources declare it with. */
  #typeOf(address: string, path: string[]) {
    return this.#types.get(address)?.attributes ?? this.#index.attributesOf?.(path)?.attributes;
  }

  /** Declarations of the "unknown" default for the computed-only attributes not in `given`. */
  #completion(address: string, given: readonly string[]): string[] {
    const path = addressPath(address);
    const attrs = this.#typeOf(address, path);
    if (!attrs) return [];
    const computedOnly = Object.entries(attrs).filter(([, a]) => !a.required && !a.optional);
    if (!computedOnly.some(([k]) => given.includes(k))) return [];
    return computedOnly.filter(([k]) => !given.includes(k)).map(([k, a]) => {
      const cty = ctyOf(a);
      return computedValue(
        nested(path, ""),
        k,
        cty !== undefined ? ctyDefault(cty) : unknownDefault(a.type),
      );
    });
  }

  /** A declaration of a known value: a computed-only attribute's goes into its holder. */
  #declaration(address: string, path: string[], k: string, cue: string): string {
    // Without its kind, the type the sources declare the node with.
    const a = this.#typeOf(address, path)?.[k];
    return a && !a.required && !a.optional
      ? computedValue(nested(path, ""), k, cue)
      : nested([...path, k], cue);
  }
}
