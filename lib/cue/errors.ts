/**
 * Turning cue-wasm's error strings into diagnostics with positions.
 *
 * cue-wasm throws the first error as a string with a field path and no
 * position (`_p.base.min: conflicting values 2 and 1`). The path is mapped
 * back to the declaration that the parser found for it.
 *
 * @module
 */

import { type Diagnostic, error, nearest, type SourcePos } from "../diag/diag.ts";
import type { Registry } from "../providers/registry.ts";
import { resolve, type Site } from "./syntax/mod.ts";
import { type Attribute, typeString } from "../providers/schema.ts";
import { WRAP } from "./program.ts";
import { NODE_MARKER } from "./provider_cue.ts";
import { packageField, packageName } from "./modules.ts";

/** Where declarations are, by path, and where references are, by name. */
export interface SourceIndex {
  /** Sites by path joined with "\u0000". */
  sites: Map<string, Site[]>;
  /** Positions of references by their first identifier. */
  refs: Map<string, SourcePos[]>;
  /** `let` declarations by name. */
  lets: Map<string, SourcePos[]>;
  /** The attribute names of a node's type, by node path, when known. */
  attributesOf?: (
    path: string[],
  ) =>
    | { type: string; names: string[]; attributes?: Record<string, Attribute>; mode?: string }
    | undefined;
  /** The types of each mode, for did-you-mean on a misspelt type: by `#Resource` and so on. */
  typesOf?: (def: string) => string[];
  /** The providers the sources were checked against (the workspace's): every type lookup's. */
  registry: Registry;
}

export function pathKey(path: readonly string[]): string {
  return path.join("\u0000");
}

/** The declaration of the longest prefix of `path` that has one. */
export function locate(
  index: SourceIndex,
  path: string[],
): { pos: SourcePos; exact: boolean } | undefined {
  for (let n = path.length; n > 0; n--) {
    const sites = index.sites.get(pathKey(path.slice(0, n)));
    if (sites && sites.length) {
      const s = sites[sites.length - 1];
      return { pos: { file: s.file, line: s.line, column: s.column }, exact: n === path.length };
    }
  }
  return undefined;
}

/** The label under which the sites of the package whose program field is `field` lie. */
function packageLabelOf(index: SourceIndex, field: string): string | undefined {
  for (const key of index.sites.keys()) {
    const first = key.split("\u0000")[0];
    if (first.startsWith("\u0001") && packageField(first.slice(1)) === field) return first;
  }
  return undefined;
}

/** Splits `a.b."c d".e` into its labels. */
export function splitPath(p: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < p.length) {
    if (p[i] === '"') {
      let j = i + 1;
      while (j < p.length && p[j] !== '"') j += p[j] === "\\" ? 2 : 1;
      out.push(JSON.parse(p.slice(i, j + 1)));
      i = j + 2;
    } else {
      let j = p.indexOf(".", i);
      if (j < 0) j = p.length;
      out.push(p.slice(i, j));
      i = j + 1;
    }
  }
  return out;
}

/** Writes a path as CUE does: labels joined by dots, quoted where needed. */
export function formatPath(path: readonly string[]): string {
  return path.map((l) => (/^[A-Za-z_$#][A-Za-z0-9_$#]*$/.test(l) ? l : JSON.stringify(l))).join(
    ".",
  );
}

function article(word: string): string {
  return (/^[aeiou]/i.test(word) ? "an " : "a ") + word;
}

/**
 * The node attribute a path lies in: the node's path, what the index knows
 * of its type, the attribute and the rest of the path inside it.
 */
function nodeAttribute(index: SourceIndex, path: string[]) {
  for (let k = path.length - 1; k >= 1; k--) {
    const info = index.attributesOf?.(path.slice(0, k));
    if (!info) continue;
    const attr = path[k];
    const schema = info.attributes?.[attr];
    return schema
      ? { node: path.slice(0, k), info, attr, rest: path.slice(k + 1), schema }
      : undefined;
  }
  return undefined;
}

const TYPE_WORD = /^(string|int|bool|number|float|bytes|null|\[\.\.\.\w+\]|\{\.\.\.\})$/;

/** What a value of a type looks like, for "give ..." sentences. */
function exampleOf(t: string): string {
  if (t === "bool") return "true or false";
  if (t === "int") return "a whole number such as 3";
  if (t === "number") return "a number such as 1.5";
  if (t === "string") return 'a string in quotes such as "x"';
  if (t.startsWith("list") || t.startsWith("set")) return 'a list such as ["a", "b"]';
  if (t.startsWith("map")) return 'a struct such as {key: "value"}';
  return `a value of type ${t}`;
}

/** The diagnostic for a value of the wrong type in a node's attribute, when the path is one. */
function wrongType(
  index: SourceIndex,
  path: string[],
  given: { value: string; kind: string } | undefined,
  range: SourcePos | undefined,
  more: string,
): Diagnostic | undefined {
  const at = nodeAttribute(index, path);
  if (!at) return undefined;
  const full = typeString(at.schema.type);
  // Inside a map, list or set: the element's type.
  let want = full;
  let t = at.schema.type;
  for (let i = 0; i < at.rest.length && typeof t !== "string" && !("cty" in t); i++) {
    t = "map" in t ? t.map : "list" in t ? t.list : t.set;
    want = typeString(t);
  }
  if (at.rest.length && typeof at.schema.type === "string") return undefined;
  const where = formatPath(path);
  const def = at.schema.default !== undefined
    ? ` (default ${JSON.stringify(at.schema.default)})`
    : "";
  const of = at.rest.length
    ? `, so each of its ${"map" in (at.schema.type as object) ? "values" : "elements"} is ${
      article(want)
    }`
    : "";
  let fix = `Give ${exampleOf(want)}`;
  if (given && want === "string" && /^-?[\d.]+$|^true$|^false$/.test(given.value)) {
    fix = `Write it as a string: "${given.value}"`;
  } else if (
    given && (want === "int" || want === "number") && /^"-?\d+(\.\d+)?"$/.test(given.value)
  ) {
    fix = `Write it without quotes: ${given.value.slice(1, -1)}`;
  } else if (given && want === "bool" && /^"(true|false)"$/.test(given.value)) {
    fix = `Write it without quotes: ${given.value.slice(1, -1)}`;
  }
  return error(
    `Wrong type for ${[at.attr, ...at.rest].join(".")}`,
    `${at.info.type}.${at.attr} is ${article(full)}${def}${of}, and ${where} is ${
      given ? `${given.value}${given.kind ? ` (${article(given.kind)})` : ""}` : "not"
    }.${more} ${fix}.`,
    { address: where, range },
  );
}

/** The value written at a path, when the sources hold it as one literal token. */
function literalAt(
  index: SourceIndex,
  path: string[],
): { value: string; kind: string } | undefined {
  const site = index.sites.get(pathKey(path))?.at(-1);
  const text = site?.valueText;
  if (text === undefined) return undefined;
  const kind = /^"/.test(text)
    ? "string"
    : /^-?\d+$/.test(text)
    ? "int"
    : /^-?\d*\.\d+$/.test(text)
    ? "number"
    : /^(true|false)$/.test(text)
    ? "bool"
    : "";
  return kind ? { value: text, kind } : undefined;
}

/**
 * For `undefined field X` at `path`: a misspelt type after `#Resource` and
 * the like, or an attribute a node's type does not have.
 */
function undefinedField(
  index: SourceIndex,
  path: string[],
  field: string,
  range: SourcePos | undefined,
  more: string,
): Diagnostic | undefined {
  for (const site of index.sites.get(pathKey(path)) ?? []) {
    for (const r of site.refs) {
      const i = r.selectors.indexOf(field);
      if (i < 0) continue;
      const pos = { file: site.file, line: r.line, column: r.column };
      if (i > 0 && index.typesOf && /^#(Resource|Data|Ephemeral|Call)$/.test(r.selectors[i - 1])) {
        const types = index.typesOf(r.selectors[i - 1]);
        const hint = nearest(field, types);
        return error(
          `Unknown type "${field}"`,
          `${[r.name, ...r.selectors.slice(0, i)].join(".")} has no type "${field}"${
            hint ? `; did you mean "${hint}"?` : "."
          }${more} Correct the name; \`pravo providers\` lists the types of each provider, and ` +
            `\`pravo schema ${hint ?? "TYPE"}\` the attributes of one.`,
          { address: formatPath(path), range: pos },
        );
      }
      for (const d of resolve(r) ?? []) {
        if (!d.path) continue;
        const owner = [...d.path, ...r.selectors.slice(0, i)];
        const info = index.attributesOf?.(owner);
        if (!info) continue;
        const names = info.names.filter((n) =>
          n !== "lifecycle" && n !== "depends_on" && n !== NODE_MARKER
        );
        const hint = nearest(field, names);
        return error(
          `${info.type} has no attribute "${field}"`,
          `${[r.name, ...r.selectors.slice(0, i + 1)].join(".")} refers to "${field}" of ` +
            `${formatPath(owner)}, a ${info.type}, which has no such attribute${
              hint ? `; did you mean "${hint}"?` : `: its attributes are ${names.join(", ")}.`
            }${more} Correct the reference; \`pravo schema ${info.type}\` describes each attribute.`,
          { address: formatPath(path), range: pos },
        );
      }
    }
  }
  void range;
  return undefined;
}

/** The diagnostic for one error that cue-wasm reported. */
export function cueErrorDiagnostic(message: string, index: SourceIndex): Diagnostic {
  const d = cueErrorAt(message, index);
  // A package's label, as paths hold it, is shown by the package's name.
  const named = (t: string) => t.replace(/"\\u0001([^"\\]+)"/g, (_, p: string) => packageName(p));
  return {
    ...d,
    summary: named(d.summary),
    ...(d.detail !== undefined ? { detail: named(d.detail) } : {}),
    ...(d.address !== undefined ? { address: named(d.address) } : {}),
  };
}

/** Where a CUE error is, as readMessage reads it. */
type At = {
  path: string[];
  where: string;
  range: SourcePos | undefined;
  address: string | undefined;
  more: string;
};

/** What a CUE error message says: the message, its path (as the user writes it), and where that is. */
function readMessage(message: string, index: SourceIndex) {
  let msg = message.replace(/^cue: marshal error: /, "");
  let more = "";
  const m = /^(.*) \(and (\d+) more errors?\)$/s.exec(msg);
  if (m) {
    msg = m[1];
    more = ` CUE found ${m[2]} more error${
      m[2] === "1" ? "" : "s"
    } after this one; fix this one and validate again to see them.`;
  }
  let path: string[] = [];
  const pm =
    /^((?:[A-Za-z_$#][\w$#]*|"(?:[^"\\]|\\.)*")(?:\.(?:[A-Za-z_$#][\w$#]*|"(?:[^"\\]|\\.)*"|\d+))*): (.*)$/s
      .exec(msg);
  if (pm) {
    path = splitPath(pm[1]);
    msg = pm[2];
  }
  if (path[0] === WRAP) path = path.slice(1);
  else if (path.length && path[0].startsWith("_pkg_")) path = [];
  // A declaration of an imported package (modules.ts): its sites lie under
  // the package's label, and the user knows it by the package's name.
  if (path.length && path[0].startsWith("_mod_")) {
    const label = packageLabelOf(index, path[0]);
    if (label) path = [label, ...path.slice(1)];
  }
  const where = formatPath(path);
  const loc = path.length ? locate(index, path) : undefined;
  const range = loc?.pos;
  const address = where || undefined;
  return { msg, more, path, where, range, address };
}

/** The diagnostic of a field a closed struct does not allow: an attribute a type lacks, or a field of a definition. */
function fieldNotAllowed(index: SourceIndex, field: string, at: At): Diagnostic {
  const { path, where, range, address, more } = at;
  const attrs = index.attributesOf?.(path);
  const fieldLoc = locate(index, [...path, field]);
  if (field === NODE_MARKER) {
    // The provider's type is fine; a closed definition of the user's own
    // unified with it allows only the fields it declares.
    return error(
      "Closed definition unified with a node",
      `${where || "This node"} is a ${
        attrs?.type ?? "provider type"
      } unified with a definition of your own, and a definition is closed: it allows only the fields it declares, while a node also holds pravo's fields and every attribute of its type.${more} Leave the definition open by ending it with \`...\` (\`#Short: {prefix: string, ...}\`), or write its fields as constraints on the node itself.`,
      { address, range },
    );
  }
  if (attrs) {
    const names = attrs.names.filter((n) => n !== NODE_MARKER);
    const hint = nearest(field, names);
    return error(
      `Unsupported attribute "${field}"`,
      `${attrs.type} has no attribute "${field}"${
        hint ? `; did you mean "${hint}"?` : "."
      }${more} Remove it or correct its name; run \`pravo schema ${attrs.type}\` for the attributes of the type.`,
      { address: formatPath([...path, field]), range: fieldLoc?.pos ?? range },
    );
  }
  return error(
    `Field "${field}" not allowed`,
    `${
      where || "This struct"
    } is closed (a definition) and does not declare "${field}".${more} Remove the field or declare it in the definition.`,
    { address, range: fieldLoc?.pos ?? range },
  );
}

/** The diagnostic of a reference to a name this package does not declare. */
function undeclaredName(
  index: SourceIndex,
  name: string,
  at: Pick<At, "address" | "range" | "more">,
): Diagnostic {
  const { address, range, more } = at;
  const pos = index.refs.get(name)?.[0];
  const candidates = [...index.sites.keys()].filter((k) => !k.includes("\u0000"));
  if (candidates.includes(name)) {
    // Declared, but in another package of the root (the root's own fields
    // are not visible from a package it imports): "did you mean" the same
    // name would not help.
    return error(
      "Reference to an undeclared name",
      `"${name}" is not declared in this package; another package of the root declares it, and a package sees only its own declarations and what it imports.${more} Give the value to the definition as an input (a field such as #var), or declare it in this package.`,
      { address, range: pos ?? range },
    );
  }
  const hint = nearest(name, candidates);
  return error(
    "Reference to an undeclared name",
    `"${name}" is not declared in this package${
      hint ? `; did you mean "${hint}"?` : "."
    }${more} Declare it, import it, or correct the name.`,
    { address, range: pos ?? range },
  );
}

function cueErrorAt(message: string, index: SourceIndex): Diagnostic {
  const { msg, more, path, where, range, address } = readMessage(message, index);

  let r: RegExpExecArray | null;
  if (
    (r = /^conflicting values (.+?) and (.+?)(?: \(mismatched types (\S+) and (\S+)\))?$/s.exec(
      msg,
    ))
  ) {
    // A value against a type: in a node's attribute, say which attribute wants what.
    if (r[3] && (TYPE_WORD.test(r[1]) !== TYPE_WORD.test(r[2]))) {
      const valueFirst = TYPE_WORD.test(r[2]);
      const given = {
        value: valueFirst ? r[1] : r[2],
        kind: valueFirst ? r[3] : r[4],
      };
      const typed = wrongType(index, path, given, range, more);
      if (typed) return typed;
    }
    return error(
      "Conflicting values",
      `${where || "A value"} cannot be both ${r[1]} and ${r[2]}${
        r[3] ? ` (${article(r[3])} and ${article(r[4])})` : ""
      }.${more} Change one of the declarations so that they agree.`,
      { address, range },
    );
  }
  if ((r = /^field not allowed: (\S+)$/.exec(msg)) || (r = /^field (\S+) not allowed/.exec(msg))) {
    return fieldNotAllowed(index, r[1].replace(/^"|"$/g, ""), {
      path,
      where,
      range,
      address,
      more,
    });
  }
  if (/^\d+ errors? in empty disjunction:?$/.test(msg)) {
    // An attribute with a default (`*true | bool`) given a literal of another type.
    const at = nodeAttribute(index, path);
    const lit = literalAt(index, path);
    const want = at && typeof at.schema.type === "string" ? at.schema.type : undefined;
    if (
      at?.schema.default !== undefined && at.rest.length === 0 && want && lit &&
      lit.kind !== want && !(lit.kind === "int" && want === "number")
    ) {
      const typed = wrongType(index, path, lit, range, "");
      if (typed) return typed;
    }
    // cue-wasm gives no detail here, and its "more errors" are the alternatives.
    return error(
      "No alternative matches",
      `${
        where || "A value"
      } matches none of the alternatives of its disjunction (a | b). Give a value that one of them accepts.`,
      { address, range },
    );
  }
  if ((r = /^invalid value (.+) \(out of bound (.+)\)$/s.exec(msg))) {
    return error(
      "Value out of range",
      `${where || "A value"} is ${r[1]}, which is not ${
        r[2]
      }.${more} Change the value so that it is ${r[2]}.`,
      { address, range },
    );
  }
  if (
    (r = /^reference "([^"]+)" not found$/.exec(msg)) ||
    (r = /^reference "([^"]+)" not found/.exec(msg))
  ) {
    return undeclaredName(index, r[1], { address, range, more });
  }
  if ((r = /^undefined field:? (\S+)$/.exec(msg))) {
    const known = undefinedField(index, path, r[1].replace(/^"|"$/g, ""), range, more);
    if (known) return known;
    return error(
      "Reference to an undefined field",
      `${where || "A value"} refers to "${
        r[1]
      }", which is not defined there.${more} Correct the reference, or run \`pravo schema TYPE\` to see what a node's type offers.`,
      { address, range },
    );
  }
  if ((r = /^unreferenced alias or let clause (\S+)$/.exec(msg))) {
    const pos = index.lets.get(r[1])?.[0];
    return error(
      `Unused let "${r[1]}"`,
      `CUE refuses a let that nothing refers to.${more} Use "${r[1]}" or remove its let clause.`,
      { range: pos },
    );
  }
  if ((r = /^cannot use (.+)$/s.exec(msg))) {
    return error(
      "Wrong type",
      `${where ? where + ": " : ""}cannot use ${r[1]}.${more} Give a value of the type it expects.`,
      { address, range },
    );
  }
  if (/structural cycle|cycle/.test(msg)) {
    return error(
      "Cycle in the values",
      `${
        where ? where + ": " : ""
      }${msg}.${more} A value cannot depend on itself; break the cycle.`,
      { address, range },
    );
  }
  return error(
    "Invalid specification",
    `${where ? where + ": " : ""}${msg}.${more} Correct the value at this place.`,
    { address, range },
  );
}

/**
 * A provider's diagnostic pointed at the sources: the declaration of the
 * attribute it names (its `attribute` steps after the node's path: names
 * and map keys are labels, list indexes count), else of the node. What the
 * provider wrote is kept; the address is the node's when it names none.
 */
export function providerDiagnostics(
  index: SourceIndex,
  nodePath: readonly string[],
  d: Diagnostic,
  address: string,
  nodeRange?: SourcePos,
): Diagnostic {
  if (d.range) return { ...d, address: d.address ?? address };
  const steps = (d.attribute ?? []).map((s) =>
    "name" in s ? s.name : "key" in s ? s.key : String(s.index)
  );
  // A diagnostic of another declaration (the provider configuration `$aws`)
  // points there.
  const other = d.address !== undefined && d.address !== address;
  const at = locate(index, [...(other ? splitPath(d.address!) : nodePath), ...steps]);
  const range = at?.pos ?? (other ? undefined : nodeRange);
  return { ...d, address: d.address ?? address, ...(range ? { range } : {}) };
}
