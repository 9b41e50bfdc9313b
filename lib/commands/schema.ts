/**
 * `pravo schema TYPE... [--required]`: the attributes of one or more types,
 * read from the TypeScript schemas of the providers pravo ships and, for
 * the plugin providers the root's lock pins, from the schema cache (no CUE
 * is loaded). A plugin provider starts only when its schema is not cached
 * yet (once: it is cached then).
 *
 * A plugin type's nested blocks are listed after its attributes, each
 * nested attribute by its path (`versioning_configuration.status`), the
 * block itself with its nesting and how many it takes.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { type Diagnostic, DiagnosticsError, error, nearest } from "../diag/diag.ts";
import { MODES, type Registry } from "../providers/registry.ts";
import type { Block } from "../plugin/schema.ts";
import { attributesOf } from "../providers/plugin/convert.ts";
import {
  type Attribute,
  type Mode,
  type ProviderSchema,
  type TypeSchema,
  typeString,
} from "../providers/schema.ts";
import { type AttributeDoc, renderSchema, type SchemaDoc, type TypeDoc } from "../render/schema.ts";

type Found = { provider: ProviderSchema; type: TypeSchema };

export const run: CommandRun = async (ctx, opts, args) => {
  // The root's plugin providers: their schemas from the cache, or fetched once.
  const { catalog } = ctx.workspace;
  if (catalog) {
    const missing = catalog.sources().filter((s) => !catalog.hasSchema(s));
    if (missing.length) {
      const diags = await catalog.ensureSchemas(missing);
      if (diags.some((d) => d.severity === "error")) throw new DiagnosticsError(diags, "error");
    }
  }
  const found: Found[] = [];
  const diags: Diagnostic[] = [];
  const seen = new Set<TypeSchema>();
  for (const arg of args) {
    const r = resolve(ctx.workspace.registry, arg);
    if ("diag" in r) {
      diags.push(r.diag);
      continue;
    }
    for (const f of r.found) {
      if (seen.has(f.type)) continue;
      seen.add(f.type);
      found.push(f);
    }
  }
  if (diags.length > 0) throw new DiagnosticsError(diags, "usage");
  const doc = schemaDoc(found, { requiredOnly: Boolean(opts.required) });
  emit(ctx, doc, () => renderSchema(doc, ctx.style));
  return Exit.OK;
};

/** Builds the document for the types found, all attributes or the required ones. */
export function schemaDoc(found: readonly Found[], options: { requiredOnly: boolean }): SchemaDoc {
  return {
    format_version: "1.0",
    types: found.map(({ provider, type }) => {
      const attributes: Record<string, AttributeDoc> = {};
      for (const name of Object.keys(type.attributes).sort()) {
        const a = type.attributes[name];
        if (options.requiredOnly && !a.required) continue;
        attributes[name] = attributeDoc(a);
      }
      // A plugin type's nested blocks: their attributes by path.
      if (type.plugin) {
        for (const [name, n] of Object.entries(type.plugin.block.blockTypes).sort()) {
          const a = type.attributes[name];
          if (options.requiredOnly && !a?.required) continue;
          nested(n.block, name, attributes, options.requiredOnly);
        }
      }
      const t: TypeDoc = {
        name: type.name,
        mode: type.mode,
        provider: provider.source,
        description: type.description,
        // By name, a nested attribute right after its block.
        attributes: Object.fromEntries(
          Object.entries(attributes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        ),
      };
      if (type.refreshAge !== undefined) t.refresh_age = type.refreshAge;
      return t;
    }),
  };
}

function attributeDoc(a: Attribute): AttributeDoc {
  const n = a.block?.nesting;
  const d: AttributeDoc = {
    type: n === undefined
      ? typeString(a.type)
      : n === "single" || n === "group"
      ? "block"
      : `${n}(block)`,
    description: a.description,
    required: a.required === true,
    optional: a.optional === true,
    computed: a.computed === true,
    sensitive: a.sensitive === true,
    force_new: a.forceNew === true,
  };
  if (a.default !== undefined) d.default = a.default;
  if (a.writeOnly) d.write_only = true;
  if (a.deprecated) d.deprecated = true;
  if (a.block) {
    d.block = {
      nesting: a.block.nesting,
      min_items: a.block.minItems,
      max_items: a.block.maxItems,
    };
  }
  return d;
}

/** The attributes of a nested block, by path, and its own nested blocks. */
function nested(
  b: Block,
  prefix: string,
  out: Record<string, AttributeDoc>,
  requiredOnly: boolean,
): void {
  const attrs = attributesOf(b);
  for (const name of Object.keys(attrs).sort()) {
    const a = attrs[name];
    if (requiredOnly && !a.required) continue;
    out[`${prefix}.${name}`] = attributeDoc(a);
    const inner = b.blockTypes[name];
    if (inner) nested(inner.block, `${prefix}.${name}`, out, requiredOnly);
  }
}

/**
 * The types an argument names: `local_file` (every mode), or with a mode
 * prefix `data.local_file`; else a diagnostic that says what exists.
 */
function resolve(registry: Registry, arg: string): { found: Found[] } | { diag: Diagnostic } {
  const dot = arg.indexOf(".");
  const prefix = dot > 0 ? arg.slice(0, dot) : "";
  const mode = (MODES as readonly string[]).includes(prefix) ? prefix as Mode : undefined;
  const name = mode ? arg.slice(dot + 1) : arg;
  const all = registry.findTypes(name);
  const found = mode ? all.filter((f) => f.type.mode === mode) : all;
  if (found.length > 0) return { found };
  const listHint = "Run `pravo providers` to list every type.";
  let detail: string;
  if (mode && all.length > 0) {
    const others = all.map((f) => `"${f.type.mode}.${name}"`);
    detail = `No provider offers a type named "${name}" in mode ${mode}; it exists as ` +
      `${others.join(" and ")}. ${listHint}`;
  } else if (mode) {
    const near = nearest(name, registry.typeNamesOfMode(mode));
    detail = `No provider offers a type named "${name}" in mode ${mode}` +
      (near ? `; did you mean "${mode}.${near}"?` : ".") + ` ${listHint}`;
  } else {
    // Mode-qualified names are candidates too, so that a typo in the mode
    // (`dat.local_file`) finds `data.local_file`.
    const qualified = MODES.flatMap((m) => registry.typeNamesOfMode(m).map((t) => `${m}.${t}`));
    const near = nearest(name, [...registry.allTypeNames(), ...qualified]);
    detail = `No provider offers a type named "${name}"` +
      (near ? `; did you mean "${near}"?` : ".") + ` ${listHint}`;
  }
  return { diag: error(`Unknown type "${arg}"`, detail) };
}
