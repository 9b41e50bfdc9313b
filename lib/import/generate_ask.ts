/**
 * What `import --generate-config` asks the provider: the object by its ID
 * (the provider's import, then its read), and which attributes the file
 * may leave out. A plugin's schema carries no defaults, and an optional and
 * computed attribute may be one the provider computes from the rest: pravo
 * plans without each candidate (a create for the computed ones, against
 * the object for defaults and deprecated ones) and leaves out those whose
 * absence changes nothing; then it checks the result, a plan against the
 * object that must change nothing. Diagnostics never show the object's
 * secrets.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { type Diagnostic, DiagnosticsError, error, hasErrors } from "../diag/diag.ts";
import type { TypeSchema } from "../providers/schema.ts";
import type { ResourceProvider, StoredObject } from "../providers/resource_provider.ts";
import { scrubDiagnostics } from "../secrets/paths.ts";
import { type Chosen, configOf, type OutField } from "./generate.ts";

type Attrs = Record<string, unknown>;

/** What the provider is asked about the object, beside the configuration. */
export interface Asking {
  provider: ResourceProvider;
  address: string;
  type: TypeSchema;
  root: string;
  providerConfig: Attrs;
  signal?: AbortSignal;
  prior: StoredObject;
}

/** The inputs CUE gives the provider for these fields: a built-in type's defaults filled in. */
function inputsOf(type: TypeSchema, fields: readonly OutField[]): Attrs {
  const config = configOf(fields);
  if (type.plugin) return config;
  for (const [k, a] of Object.entries(type.attributes)) {
    if (a.optional && a.default !== undefined && !(k in config)) config[k] = a.default;
  }
  return config;
}

interface Planned {
  /** The inputs whose planned value differs from the object's (none for a create). */
  changes: string[];
  /** The values planned, known now. */
  after: Attrs;
  /** What only apply would know. */
  afterUnknown: string[];
  diagnostics: Diagnostic[];
}

/**
 * The provider's validation and plan of these fields: against the object
 * read (what it would change), or as a create (`create`: what it would
 * compute).
 */
async function planOf(
  ask: Asking,
  fields: readonly OutField[],
  create = false,
): Promise<Planned> {
  const config = inputsOf(ask.type, fields);
  const base = { ...ask, inputs: config, config, unknown: [] };
  const none = { changes: [], after: {}, afterUnknown: [] };
  const diagnostics = await ask.provider.validateResource(base);
  if (hasErrors(diagnostics)) return { ...none, diagnostics };
  const r = await ask.provider.planResource({
    ...base,
    prior: create ? null : ask.prior,
    ignoreChanges: [],
  });
  diagnostics.push(...r.diagnostics);
  if (!r.value || hasErrors(diagnostics)) return { ...none, diagnostics };
  const changes = create ? [] : [...new Set([...r.value.changed, ...r.value.requiresReplace])];
  return {
    changes: changes.sort(),
    after: r.value.after,
    afterUnknown: r.value.afterUnknown,
    diagnostics,
  };
}

/** True when a create of the rest plans the attribute as the object has it. */
function computesSame(p: Planned, name: string, value: unknown): boolean {
  if (hasErrors(p.diagnostics)) return false;
  if (
    p.afterUnknown.some((u) => u === name || u.startsWith(`${name}.`) || u.startsWith(`${name}[`))
  ) {
    return false;
  }
  return isDeepStrictEqual(p.after[name] ?? null, value ?? null);
}

/**
 * The fields to keep, asking the provider: an optional and computed one
 * goes where a create of the rest computes the same value (one at a time,
 * each test without those gone before it); the defaults and deprecated ones
 * go together where a plan against the object changes nothing without
 * them. Then the result is checked: a plan against the object that must
 * change nothing; where it would, everything read is tried instead.
 */
export async function settleWithProvider(
  ask: Asking,
  chosen: Chosen,
): Promise<
  { fields: OutField[]; dropped: string[]; changes: string[]; diagnostics: Diagnostic[] }
> {
  let fields = chosen.fields;
  const dropped: string[] = [];
  const removable = Object.entries(chosen.removable);
  for (const [name] of removable.filter(([, why]) => why === "derived")) {
    const rest = fields.filter((f) => f.name !== name);
    if (computesSame(await planOf(ask, rest, true), name, ask.prior.attributes[name])) {
      fields = rest;
      dropped.push(name);
    }
  }
  const others = new Set(removable.filter(([, why]) => why !== "derived").map(([k]) => k));
  const trial = fields.filter((f) => !others.has(f.name));
  const first = await planOf(ask, trial);
  const needed = new Set(first.changes);
  const kept = hasErrors(first.diagnostics)
    ? fields
    : fields.filter((f) => !others.has(f.name) || needed.has(f.name));
  const gone = [...dropped, ...fields.filter((f) => !kept.includes(f)).map((f) => f.name)];
  const check = kept.length === trial.length ? first : await planOf(ask, kept);
  if ((!hasErrors(check.diagnostics) && check.changes.length === 0) || gone.length === 0) {
    return { fields: kept, dropped: gone, ...check };
  }
  // Without them the provider plans a change or refuses: everything read, then.
  const everything = await planOf(ask, chosen.fields);
  const better = !hasErrors(everything.diagnostics) &&
    (hasErrors(check.diagnostics) || everything.changes.length < check.changes.length);
  return better
    ? { fields: chosen.fields, dropped: [], ...everything }
    : { fields: kept, dropped: gone, ...check };
}

/** Reads the object by its ID: the provider's import, then its read. */
export async function readObject(ask: Omit<Asking, "prior">, id: string): Promise<StoredObject> {
  const res = await ask.provider.importResource({ ...ask, id, config: {} });
  const secrets = [...Object.entries(ask.type.attributes).filter(([, a]) => a.sensitive)]
    .map(([k]) => res.value?.attributes[k]);
  if (secrets.some((v) => v !== undefined && v !== null)) secrets.push(id);
  const diagnostics = scrubDiagnostics(res.diagnostics, secrets).map((d) => ({
    ...d,
    address: d.address ?? ask.address,
  }));
  if (hasErrors(diagnostics)) throw new DiagnosticsError(diagnostics, "error");
  if (!res.value) {
    throw new DiagnosticsError([
      error(
        "Cannot import a missing object",
        `The ${ask.type.name} with the ID given was not found by its provider. Nothing was ` +
          "written. Check the ID, in the format the provider's documentation gives for the type.",
        { address: ask.address },
      ),
    ], "error");
  }
  return res.value;
}
