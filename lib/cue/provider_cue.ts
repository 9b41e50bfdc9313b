/**
 * The CUE package of a provider, generated from its TypeScript schema, so
 * that the two never disagree and the package is inside every build.
 *
 * `#Provider` is the provider's configuration. An instance of it offers
 * `#Resource.<type>`, `#Data.<type>`, `#Ephemeral.<type>` and `#Call.<type>`.
 * Each type is a closed struct with a marker field, `"@pravo"`, that says
 * what it is; the loader finds nodes by that marker after evaluation.
 *
 * @module
 */

import type { Attribute, AttrType, Mode, ProviderSchema, TypeSchema } from "../providers/schema.ts";
import { unknownDefault } from "./unknowns.ts";

/** The marker field's label in every node's value. */
export const NODE_MARKER = "@pravo";
/** The marker field's label in a provider instance's value. */
export const PROVIDER_MARKER = "@pravo_provider";
/** Per-node settings that every type accepts, besides its attributes. */
export const LIFECYCLE = "lifecycle";
/**
 * The nodes a node waits for besides those its values refer to, as
 * Terraform's `depends_on`: a list of nodes or structs of nodes; `null` is
 * unset. It adds dependency edges and nothing else.
 */
export const DEPENDS_ON = "depends_on";
/** The CUE of the per-node settings, in every type of every provider. */
export const NODE_SETTINGS =
  `${LIFECYCLE}?: {prevent_destroy?: bool, create_before_destroy?: bool, ignore_changes?: [...string], refresh_age?: string}\n` +
  `\t\t\t${DEPENDS_ON}?: _`;
/**
 * The hidden field of a node that holds the values of its computed-only
 * attributes: `result: _pravo_computed.result`, with `_pravo_computed:
 * *{result: DEFAULT, id: DEFAULT} | {result: int, id: string}`. The attribute is the value selected from the default struct,
 * not a disjunction, so a reference to it (`length: base.result`) unifies
 * with an attribute that has a default of its own (`length: *2 | int`)
 * instead of leaving two defaults that conflict. The state's values, or the
 * traced evaluation's sentinels, go in as `_pravo_computed: result: VALUE`;
 * given any, the second struct holds them, and the loader gives the others
 * the "unknown" default (or, traced, their sentinels).
 * One disjunction a node, not one an attribute: measured on a 1,000-node
 * chain, one an attribute made CUE's evaluation ~17% slower, one a node ~3%.
 */
export const COMPUTED_FIELD = "_pravo_computed";

/** The CUE of a computed-only attribute's field. */
export function computedField(label: string): string {
  return `${label}: ${COMPUTED_FIELD}.${label}`;
}

/** The CUE of a type's holder of its computed-only attributes (label, default and type each). */
export function computedHolder(
  attrs: readonly [string, string, string][],
  traced = false,
): string | undefined {
  if (attrs.length === 0) return undefined;
  // The traced evaluation gives every computed-only attribute of every node
  // a value (known or a sentinel): no default, and no disjunction to resolve.
  if (traced) return `${COMPUTED_FIELD}: {${attrs.map(([l, , t]) => `${l}: ${t}`).join(", ")}}`;
  const unknown = attrs.map(([l, d]) => `${l}: ${d}`).join(", ");
  const known = attrs.map(([l, , t]) => `${l}: ${t}`).join(", ");
  return `${COMPUTED_FIELD}: *{${unknown}} | {${known}}`;
}

/** The declaration that gives a node's computed-only attribute a value (`path` as CUE labels). */
export function computedValue(pathLabels: string, name: string, valueCue: string): string {
  return `${pathLabels}${COMPUTED_FIELD}: ${JSON.stringify(name)}: ${valueCue}`;
}

/** True for an attribute the configuration may set and the provider computes when it does not. */
export function isOptionalComputed(a: Attribute): boolean {
  return Boolean(a.optional && a.computed && !a.required);
}

/**
 * True for an attribute whose value, where the configuration leaves it
 * unset, is the provider's: known from the state, else unknown until
 * apply. Such an attribute is plainly optional in CUE (no CUE default, which
 * a module's own, `*null | string`, would conflict with); which nodes set it
 * the `setness` variant of the packages tells (each node lists its regular
 * fields in `"@set"`), and where it is unset the loader gives the node the
 * state's value or the "unknown" default as its own, so that references to
 * it evaluate.
 */
export function isTracked(t: { plugin?: unknown }, a: Attribute): boolean {
  if (t.plugin) return Boolean(a.computed && (a.required || a.optional));
  return isOptionalComputed(a) && a.default === undefined;
}

/** True for a type with an attribute {@link isTracked}: its nodes' setness is asked. */
export function tracksSetness(t: TypeSchema): boolean {
  return t.plugin !== undefined || Object.values(t.attributes).some((a) => isTracked(t, a));
}

/** The field that lists, in the `setness` variant, the regular fields of a node. */
export const SET_MARKER = "@set";

/** The field of the `setness` variant that lists a node's regular fields (its struct is `S`). */
export const SET_FIELD = `${JSON.stringify(SET_MARKER)}: [for k, _ in S if k != ${
  JSON.stringify(SET_MARKER)
} {k}]`;

const MODE_DEF: Record<Mode, string> = {
  managed: "#Resource",
  data: "#Data",
  ephemeral: "#Ephemeral",
  call: "#Call",
};

export function cueType(t: AttrType): string {
  if (typeof t === "string") return t === "number" ? "number" : t;
  if ("cty" in t) throw new Error("bug: a plugin type's CUE comes from plugin_cue.ts");
  if ("list" in t) return `[...${cueType(t.list)}]`;
  if ("set" in t) return `[...${cueType(t.set)}]`;
  return `{[string]: ${cueType(t.map)}}`;
}

function labelOf(name: string): string {
  return /^[A-Za-z][A-Za-z0-9_]*$/.test(name) ? name : JSON.stringify(name);
}

/** `nulls`: what follows an optional attribute's type, ` | null` (or nothing, strict). */
function field(name: string, a: Attribute, nulls: string): string {
  const label = labelOf(name);
  if (!a.required && !a.optional) {
    // Computed only: the provider sets it. Its value is selected from the
    // node's holder (see COMPUTED_FIELD), which stands for "unknown" (see
    // unknowns.ts) until the state or a sentinel gives it one.
    return computedField(label);
  }
  // Optional and computed: plainly optional too (see isTracked).
  return inputField(label, a, nulls);
}

function inputField(label: string, a: Attribute, nulls: string): string {
  const t = cueType(a.type);
  if (a.required) return `${label}: ${t}`;
  // null is unset, as in Terraform: the default then, or no value. The
  // default is the loader's to fill in, not a CUE default: a module's own
  // default for the attribute (`*null | int`, `*"_" | string`) would
  // conflict with it and leave neither.
  return `${label}?: ${t}${nulls}`;
}

/** The body of the provider's package: `#Provider: {...}`. */
export function providerPackage(
  p: ProviderSchema,
  opts: { strict?: boolean; traced?: boolean; setness?: boolean } = {},
): string {
  const nulls = opts.strict ? "" : " | null";
  const lines: string[] = [];
  lines.push(`#Provider: {`);
  lines.push(`\t${JSON.stringify(PROVIDER_MARKER)}: ${JSON.stringify(p.source)}`);
  for (const [name, a] of Object.entries(p.config)) lines.push(`\t${field(name, a, nulls)}`);
  for (const mode of ["managed", "data", "ephemeral", "call"] as Mode[]) {
    lines.push(`\t${MODE_DEF[mode]}: {`);
    for (const t of p.types.filter((t) => t.mode === mode)) {
      const setness = opts.setness && tracksSetness(t);
      lines.push(`\t\t${t.name}: ${setness ? "S=" : ""}{`);
      lines.push(
        `\t\t\t${JSON.stringify(NODE_MARKER)}: {mode: ${JSON.stringify(mode)}, type: ${
          JSON.stringify(t.name)
        }, provider: ${JSON.stringify(p.source)}}`,
      );
      lines.push(`\t\t\t${NODE_SETTINGS}`);
      for (const [name, a] of Object.entries(t.attributes)) {
        lines.push(`\t\t\t${field(name, a, nulls)}`);
      }
      const holder = computedHolder(
        Object.entries(t.attributes).filter(([, a]) => !a.required && !a.optional).map((
          [name, a],
        ) => [labelOf(name), unknownDefault(a.type), cueType(a.type)]),
        opts.traced,
      );
      if (holder) lines.push(`\t\t\t${holder}`);
      if (setness) {
        lines.push(`\t\t\t${SET_FIELD}`);
      }
      lines.push(`\t\t}`);
    }
    lines.push(`\t}`);
  }
  lines.push(`}`);
  return lines.join("\n");
}
