/**
 * The CUE package of a plugin provider (`pravo.dev/providers/hashicorp/aws`),
 * generated from its schema, with only the types a root uses: the AWS
 * provider has 2,100 types, and a package of all of them would make every
 * evaluation slow.
 *
 * The shape is that of the built-in providers' packages (provider_cue.ts):
 * `#Provider` is the provider's configuration; an instance of it offers
 * `#Resource.<type>`, `#Data.<type>` and `#Ephemeral.<type>`, closed structs
 * with the marker field. Attributes are typed from the provider's type
 * expressions; nested blocks are written as in Terraform's JSON syntax: an
 * object for a `single` or `group` block, a list of objects for a `list` or
 * `set` block (with its minimum and maximum number of items), an object of
 * objects for a `map` block. Inside blocks every attribute but the required
 * ones is optional.
 *
 * At the top level of a type:
 * - a required attribute must be set; an optional one may be, or be null
 *   (unset);
 * - a computed-only attribute is selected from the node's holder
 *   (provider_cue.ts `COMPUTED_FIELD`), which stands for "unknown" (see
 *   unknowns.ts) until the state or a sentinel gives it a value, and admits
 *   null;
 * - an optional and computed attribute (`bucket` of `aws_s3_bucket`, `id`
 *   of most resources) is plainly optional, with no CUE default that a
 *   module's own would conflict with. Whether the configuration sets it,
 *   the `setness` variant tells: each node lists its regular fields in
 *   `"@set"`. Where it does not, the loader gives the node the state's
 *   value or the "unknown" default as its own, so that references to it
 *   work before and after it is known (and it is sent to the provider as
 *   null).
 *
 * @module
 */

import type { Block, NestedBlock } from "../plugin/schema.ts";
import { attributeType } from "../plugin/schema.ts";
import type { CtyType } from "../plugin/value.ts";
import type { Mode } from "../providers/schema.ts";
import { builtinName } from "./program.ts";
import {
  computedField,
  computedHolder,
  NODE_MARKER,
  NODE_SETTINGS,
  PROVIDER_MARKER,
  SET_FIELD,
} from "./provider_cue.ts";
import { sentinelNumber, sentinelString } from "./unknowns.ts";
import { KEYWORDS } from "./literal.ts";

const DEFAULT_STRING = "⟦pravo:?⟧";
const DEFAULT_NUMBER = 7_000_000_000_000_000;
/** Leaves of a complex value unknown in the traced evaluation: no sentinel, so apply evaluates again. */
const MARK_STRING = "⟦pravo~⟧";
const MARK_NUMBER = DEFAULT_NUMBER + 1;

/** A field label, quoted where CUE needs it. */
export function label(name: string): string {
  return /^[A-Za-z][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name) ? name : JSON.stringify(name);
}

/** A type expression as a CUE type. */
export function ctyCue(t: CtyType): string {
  if (typeof t === "string") return t === "dynamic" ? "_" : t;
  switch (t[0]) {
    case "list":
    case "set":
      return `[...${ctyCue(t[1])}]`;
    case "map":
      return `{[string]: ${ctyCue(t[1])}}`;
    case "tuple":
      return `[${t[1].map(ctyCue).join(", ")}]`;
    case "object":
      return `{${Object.entries(t[1]).map(([k, v]) => `${label(k)}?: ${ctyCue(v)}`).join(", ")}}`;
  }
}

/** The value that stands for "unknown" while a computed value of type `t` is not known. */
export function ctyDefaultValue(t: CtyType): unknown {
  if (typeof t === "string") {
    return t === "number" ? DEFAULT_NUMBER : t === "bool" ? false : DEFAULT_STRING;
  }
  switch (t[0]) {
    case "list":
    case "set":
      return [ctyDefaultValue(t[1])];
    case "map":
      return { [DEFAULT_STRING]: ctyDefaultValue(t[1]) };
    case "tuple":
      return t[1].map(ctyDefaultValue);
    case "object":
      return Object.fromEntries(Object.entries(t[1]).map(([k, v]) => [k, ctyDefaultValue(v)]));
  }
}

/** The default as CUE: structs closed, so that a known value never merges with it. */
export function ctyDefault(t: CtyType): string {
  if (typeof t === "string") return JSON.stringify(ctyDefaultValue(t));
  switch (t[0]) {
    case "list":
    case "set":
      return `[${ctyDefault(t[1])}]`;
    case "map":
      return `close({${JSON.stringify(DEFAULT_STRING)}: ${ctyDefault(t[1])}})`;
    case "tuple":
      return `[${t[1].map(ctyDefault).join(", ")}]`;
    case "object":
      return `close({${
        Object.entries(t[1]).map(([k, v]) => `${label(k)}: ${ctyDefault(v)}`).join(", ")
      }})`;
  }
}

/** True when `v` is the "unknown" default of type `t`. */
export function isCtyDefault(v: unknown, t: CtyType): boolean {
  return JSON.stringify(v) === JSON.stringify(ctyDefaultValue(t));
}

function markValue(t: CtyType): unknown {
  if (typeof t === "string") {
    return t === "number" ? MARK_NUMBER : t === "bool" ? true : MARK_STRING;
  }
  switch (t[0]) {
    case "list":
    case "set":
      // Two elements where the default has one: the whole list is unknown.
      return [markValue(t[1]), markValue(t[1])];
    case "map":
      return { [MARK_STRING]: markValue(t[1]), [`${MARK_STRING}2`]: markValue(t[1]) };
    case "tuple":
      return t[1].map(markValue);
    case "object":
      return Object.fromEntries(Object.entries(t[1]).map(([k, v]) => [k, markValue(v)]));
  }
}

/**
 * What the traced evaluation puts in an unknown computed attribute: a
 * sentinel (unknowns.ts) for a string, number, bool or dynamic value, so
 * that what is computed from it is a template apply fills in; for a
 * collection or an object, a value that differs from the default and holds
 * no sentinel (what depends on it is evaluated again at apply).
 */
export function ctySentinel(t: CtyType, i: number): string {
  if (t === "string" || t === "dynamic") return JSON.stringify(sentinelString(i));
  if (t === "number") return String(sentinelNumber(i));
  if (t === "bool") return "true";
  return JSON.stringify(markValue(t));
}

/** What a node's type needs in the package. */
export interface PluginTypeInput {
  mode: Exclude<Mode, "call">;
  name: string;
  block: Block;
}

/** What the package is generated from. */
export interface PluginPackageInput {
  source: string;
  /** The provider's configuration schema. */
  config: Block;
  /** The types the root uses. */
  types: PluginTypeInput[];
  /** `main`, or `setness` (see the module doc). */
  variant: "main" | "setness";
  /** Without `null` on optional attributes: CUE's messages about a value are then precise. */
  strict?: boolean;
  /** Holders for the traced evaluation, which gives every computed-only value. */
  traced?: boolean;
}

const LIST = builtinName("list");

/**
 * What the generation of one package carries: whether it uses CUE's `list`
 * package (found on the way), what goes before an optional attribute's type
 * (`null | `, or nothing in the strict variant, for CUE's messages), and
 * whether the holders are the traced variant's (provider_cue.ts
 * `computedHolder`).
 */
interface Gen {
  list: boolean;
  nulls: string;
  traced: boolean;
}

const MODE_DEF: Record<Exclude<Mode, "call">, string> = {
  managed: "#Resource",
  data: "#Data",
  ephemeral: "#Ephemeral",
};

function blockField(name: string, n: NestedBlock, indent: string, out: Gen): string {
  const body = blockBody(n.block, indent + "\t", out);
  const required = n.minItems > 0 && n.nesting !== "group";
  const q = required ? "" : "?";
  switch (n.nesting) {
    case "single":
    case "group":
      return `${label(name)}${q}: ${body}`;
    case "map":
      return `${label(name)}${q}: {[string]: ${body}}`;
    default: {
      // CUE 0.4.3 checks list.MinItems on the definition's own open list
      // and fails, so a minimum is written as that many leading elements.
      const lead = Array.from({ length: n.minItems }, () => body);
      let t = n.minItems > 0 && n.minItems === n.maxItems
        ? `[${lead.join(", ")}]`
        : `[${[...lead, `...${body}`].join(", ")}]`;
      if (n.maxItems > 0 && n.maxItems !== n.minItems) {
        out.list = true;
        t += ` & ${LIST}.MaxItems(${n.maxItems})`;
      }
      return `${label(name)}${q}: ${t}`;
    }
  }
}

/** A nested block's struct: required attributes required, everything else optional. */
function blockBody(b: Block, indent: string, out: Gen): string {
  const lines = configFields(b, indent, out);
  if (lines.length === 0) return "{}";
  return `{\n${lines.join("\n")}\n${indent.slice(1)}}`;
}

/** The fields of a node's type, at its top level. */
function topFields(
  b: Block,
  indent: string,
  out: Gen,
): string[] {
  const lines: string[] = [];
  const computed: [string, string, string][] = [];
  for (const [k, a] of Object.entries(b.attributes)) {
    const t = attributeType(a);
    const l = label(k);
    if (a.required) lines.push(`${indent}${l}: ${ctyCue(t)}`);
    else if (a.computed && !a.optional) {
      lines.push(indent + computedField(l));
      computed.push([l, ctyDefault(t), `null | ${ctyCue(t)}`]);
    } else {
      // Optional, computed or not: no CUE default, which a module's own
      // (`*null | string`) would conflict with. Where the configuration
      // leaves an optional and computed one unset, the loader gives it the
      // state's value or the "unknown" default, as the node's own value.
      lines.push(`${indent}${l}?: ${out.nulls}${ctyCue(t)}`);
    }
  }
  for (const [k, n] of Object.entries(b.blockTypes)) {
    lines.push(`${indent}${blockField(k, n, indent, out)}`);
  }
  const holder = computedHolder(computed, out.traced);
  if (holder) lines.push(indent + holder);
  return lines;
}

/**
 * The provider's configuration, or a nested block's fields: every attribute
 * and block an input, required attributes required, the others optional.
 */
function configFields(b: Block, indent: string, out: Gen): string[] {
  const lines: string[] = [];
  for (const [k, a] of Object.entries(b.attributes)) {
    lines.push(
      `${indent}${label(k)}${a.required ? "" : "?"}: ${a.required ? "" : out.nulls}${
        ctyCue(attributeType(a))
      }`,
    );
  }
  for (const [k, n] of Object.entries(b.blockTypes)) {
    lines.push(`${indent}${blockField(k, n, indent, out)}`);
  }
  return lines;
}

/**
 * The body of the provider's package (`#Provider: {...}`), and whether it
 * uses CUE's `list` package (which the program must then import).
 */
export function pluginPackage(input: PluginPackageInput): { body: string; usesList: boolean } {
  const out: Gen = {
    list: false,
    nulls: input.strict ? "" : "null | ",
    traced: input.traced ?? false,
  };
  const lines: string[] = [`#Provider: {`];
  lines.push(`\t${JSON.stringify(PROVIDER_MARKER)}: ${JSON.stringify(input.source)}`);
  lines.push(...configFields(input.config, "\t", out));
  for (const mode of ["managed", "data", "ephemeral"] as const) {
    lines.push(`\t${MODE_DEF[mode]}: {`);
    for (const t of input.types.filter((t) => t.mode === mode)) {
      const self = input.variant === "setness" ? "S=" : "";
      lines.push(`\t\t${label(t.name)}: ${self}{`);
      lines.push(
        `\t\t\t${JSON.stringify(NODE_MARKER)}: {mode: ${JSON.stringify(mode)}, type: ${
          JSON.stringify(t.name)
        }, provider: ${JSON.stringify(input.source)}}`,
      );
      lines.push(`\t\t\t${NODE_SETTINGS}`);
      lines.push(...topFields(t.block, "\t\t\t", out));
      if (input.variant === "setness") {
        lines.push(`\t\t\t${SET_FIELD}`);
      }
      lines.push(`\t\t}`);
    }
    lines.push(`\t}`);
  }
  lines.push(`\t#Call: {}`);
  lines.push(`}`);
  return { body: lines.join("\n"), usesList: out.list };
}

/**
 * The names of a plugin provider's types that the sources may use: every
 * identifier and label of the files that is one of its type names (so that
 * `$aws.#Resource.aws_s3_bucket`, and an alias `R.aws_s3_bucket`, both
 * count).
 */
export function usedTypes(
  words: ReadonlySet<string>,
  names: Record<Mode, readonly string[]>,
): { mode: Exclude<Mode, "call">; name: string }[] {
  const out: { mode: Exclude<Mode, "call">; name: string }[] = [];
  for (const mode of ["managed", "data", "ephemeral"] as const) {
    for (const n of names[mode]) if (words.has(n)) out.push({ mode, name: n });
  }
  return out;
}
