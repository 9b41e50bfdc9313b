/**
 * `pravo import ADDR ID --generate-config FILE.cue` (Terraform's `plan
 * -generate-config-out` with an `import` block, then `apply`): for an
 * address the root does not declare yet, read the object from the provider
 * (its import, then its read, as `pravo import` does), write the CUE that
 * declares it into a new file of the root, and import it, in one command,
 * so that the next plan has nothing to do.
 *
 * The type comes from `--type`, or from the address when it ends in
 * `TYPE.NAME` (or `TYPE.NAME.KEY`), as a converted root's addresses do; the
 * provider configuration from `--provider`, or the one of the root that
 * offers the type. What is written is chosen by generate.ts; for a plugin
 * type the provider says which defaults and deprecated attributes it plans
 * the same without (a plan against the object read, with and without
 * them), and checks the result (its validation, and a plan that must
 * change nothing). The file is checked against the root before it is
 * written (nothing is written when it would not fit), then written whole
 * (never over an existing file), then the object is imported.
 *
 * Not imported, the file written all the same: when a secret had to be left
 * out (the file has a placeholder to fill), or when the provider refuses
 * the configuration as written. The caller says so and what to do.
 *
 * @module
 */

import { basename, dirname, isAbsolute, resolve } from "node:path";
import { lstatSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import {
  type Diagnostic,
  DiagnosticsError,
  didYouMean,
  error,
  hasErrors,
  warning,
} from "../diag/diag.ts";
import { UsageError } from "../diag/usage.ts";
import { addressLabels, formatAddress } from "../addr/address.ts";
import { type Node, parseSources, readRoot, type Sources, type Spec } from "../cue/loader.ts";
import { UNKNOWN } from "../cue/program.ts";
import { findType, typeNamesOfMode } from "../providers/registry.ts";
import type { TypeSchema } from "../providers/schema.ts";
import { ProviderSession } from "../providers/session.ts";
import type { ResourceProvider, StoredObject } from "../providers/resource_provider.ts";
import { tryCatalogFor } from "../providers/catalog.ts";
import { instancesOf } from "../plan/session.ts";
import { evaluateWithState, mustEvaluateWithState } from "../plan/known.ts";
import { scrubDiagnostics } from "../plan/document.ts";
import type { StateStore } from "../state/store.ts";
import { pluginInputs } from "../workspace/lock.ts";
import { writeNewFile } from "../files/new_file.ts";
import { alreadyManaged, type Imported, importNode, type ImportOptions } from "./import.ts";
import {
  chooseAttributes,
  type Chosen,
  configOf,
  type LeftOut,
  type NodeFile,
  nodeFileText,
  type OutField,
  secretsOf,
} from "./generate.ts";

type Attrs = Record<string, unknown>;

export interface GenerateOptions extends ImportOptions {
  /** The file to write, as given: relative to the root, or absolute inside it. */
  file: string;
  /** The node's type, when its address does not end in `TYPE.NAME`. */
  type?: string;
  /** The provider configuration (`aws` or `$aws`), when several offer the type. */
  provider?: string;
}

export interface GeneratedConfig {
  /** The file written, relative to the root. */
  file: string;
  address: string;
  type: string;
  provider: string;
  /** The provider configuration the node is declared on: `$aws`. */
  providerInstance: string;
  /** The top-level attributes written. */
  attributes: string[];
  /** The top-level attributes left out, by why. */
  leftOut: Record<LeftOut, string[]>;
  /** Where the file has a placeholder for a secret, to fill in. */
  secrets: string[];
  /** What the provider would still change, as written (none: the next plan is a no-op). */
  changes: string[];
  /** The ID is a secret's value (a password's): it is not to be printed. */
  idIsSecret: boolean;
  /** The import, when it was done (not while secrets are to fill or the provider refuses the file). */
  imported?: Imported;
  /** The provider's warnings, and its refusal when it refuses the file. */
  diagnostics: Diagnostic[];
}

/** The file to write: a new `.cue` file in the root's folder. */
function targetFile(root: string, file: string): { abs: string; name: string } {
  const refuse = (why: string) => new UsageError(`--generate-config "${file}" ${why}`, "import");
  if (file === "") throw refuse("is empty: give a file name such as imported.cue");
  const abs = isAbsolute(file) ? resolve(file) : resolve(root, file);
  if (!abs.endsWith(".cue")) {
    throw refuse("is not a .cue file: give a name that ends in .cue, such as imported.cue");
  }
  if (dirname(abs) !== resolve(root)) {
    throw refuse(
      `is not in the root's folder "${root}": a root is the .cue files of its folder, and pravo ` +
        "writes none elsewhere; give a file name such as imported.cue",
    );
  }
  let exists = true;
  try {
    lstatSync(abs);
  } catch {
    exists = false;
  }
  if (exists) {
    throw refuse(
      "exists already: pravo does not write over a file, as Terraform's -generate-config-out " +
        "does not; give a new name, or move the file away",
    );
  }
  return { abs, name: basename(abs) };
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((l, i) => path[i] === l);
}

/** Refuses an address the root declares, or one that would sit inside a node or over nodes. */
function checkUndeclared(address: string, labels: string[], nodes: readonly Node[]): void {
  const refuse = (summary: string, detail: string, n: Node) =>
    new DiagnosticsError([error(summary, detail, { address, range: n.range })], "error");
  if (labels[0] === "outputs" || labels[0] === "moved") {
    throw new DiagnosticsError([
      error(
        `${address} is under the root's ${labels[0]}`,
        `The top-level field "${labels[0]}" holds the root's ${
          labels[0] === "outputs" ? "outputs" : "renamed nodes"
        }, not nodes. Nothing was written. Give an address outside it.`,
        { address },
      ),
    ], "error");
  }
  const same = nodes.find((n) => n.address === address);
  if (same) {
    throw refuse(
      `${address} is declared in the root`,
      `The root declares ${address} already (a ${same.type}), and --generate-config writes the ` +
        "CUE of a node the root does not declare yet. Nothing was written. Import into it " +
        `without the flag: \`pravo import ${address} ID\`.`,
      same,
    );
  }
  const outer = nodes.find((n) => startsWith(labels, n.path));
  if (outer) {
    throw refuse(
      `${address} is inside the node ${outer.address}`,
      `${outer.address} is a node (a ${outer.type}), and a node holds attributes, not other ` +
        "nodes. Nothing was written. Give an address of its own, such as " +
        `\`${formatAddress([...outer.path.slice(0, -1), labels[labels.length - 1]])}\`.`,
      outer,
    );
  }
  const inner = nodes.find((n) => startsWith(n.path, labels));
  if (inner) {
    throw refuse(
      `${address} holds nodes of the root`,
      `The root declares ${inner.address} under ${address}, so ${address} is a struct of nodes. ` +
        "Nothing was written. Give an address of its own, such as " +
        `\`${formatAddress([...labels, "imported"])}\`.`,
      inner,
    );
  }
}

/** The provider configurations of the root that offer a managed type of this name. */
function offering(spec: Spec, type: string) {
  return spec.providers.filter((p) => findType(p.source, "managed", type) !== undefined);
}

/** The node's type and the provider configuration it is declared on. */
function resolveTarget(
  spec: Spec,
  address: string,
  labels: string[],
  opts: GenerateOptions,
): { type: TypeSchema; instance: Spec["providers"][number] } {
  let name = opts.type;
  if (name === undefined) {
    for (const i of [labels.length - 2, labels.length - 3]) {
      if (i >= 0 && offering(spec, labels[i]).length) {
        name = labels[i];
        break;
      }
    }
  }
  if (name === undefined) {
    throw new DiagnosticsError([
      error(
        `The type of ${address} is not in its address`,
        "pravo reads the type from an address that ends in TYPE.NAME (or TYPE.NAME.KEY), as " +
          "Terraform's do (`aws_s3_bucket.logs`), and none of the root's providers has a " +
          `resource type named by ${address}'s labels. Nothing was written. Name it with ` +
          "--type TYPE.",
        { address },
      ),
    ], "usage");
  }
  const found = offering(spec, name);
  if (found.length === 0) {
    const hint = didYouMean(name, typeNamesOfMode("managed"));
    const providers = spec.providers.map((p) => `${p.address} (${p.source})`).join(", ");
    throw new DiagnosticsError([
      error(
        `No provider configuration of the root offers ${name}`,
        `${name} is not a resource type of the root's providers${hint ? ` (${hint})` : ""}` +
          `; the root configures ${providers || "none"}. Nothing was written. Check the type, ` +
          "or declare the provider's configuration in a .cue file (such as `$random: " +
          "rnd.#Provider`, with its import), then run the command again.",
        { address },
      ),
    ], "error");
  }
  let instance = found[0];
  if (opts.provider !== undefined) {
    const want = opts.provider.startsWith("$") ? opts.provider : `$${opts.provider}`;
    const named = spec.providers.find((p) => p.address === want);
    if (!named || !found.includes(named)) {
      throw new DiagnosticsError([
        error(
          named
            ? `${want} does not offer ${name}`
            : `The root has no provider configuration ${want}`,
          `--provider names the configuration the node is declared on; of the root's, ${
            found.map((p) => p.address).join(", ")
          } ${found.length === 1 ? "offers" : "offer"} ${name}. Nothing was written. Name one ` +
            "of them.",
          { address },
        ),
      ], "usage");
    }
    instance = named;
  } else if (found.length > 1) {
    throw new DiagnosticsError([
      error(
        `Several provider configurations offer ${name}`,
        `${
          found.map((p) => p.address).join(", ")
        } all offer ${name}. Nothing was written. Name the one the node is declared on with ` +
          `--provider (such as --provider ${found[1].address.slice(1)}).`,
        { address },
      ),
    ], "usage");
  }
  if (!/^\$[A-Za-z_][A-Za-z0-9_]*$/.test(instance.address)) {
    throw new DiagnosticsError([
      error(
        `pravo cannot refer to ${instance.address} from a new file`,
        "The node would be declared on that provider configuration, whose path is not a name " +
          "at the top of the package. Nothing was written. Declare a configuration at the top " +
          "(such as `$aws: aws.#Provider & {...}`) and name it with --provider.",
        { address },
      ),
    ], "error");
  }
  return { type: findType(instance.source, "managed", name)!, instance };
}

function hasUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(hasUnknown);
  if (v && typeof v === "object") return Object.values(v).some(hasUnknown);
  return false;
}

/** The secret values of an object: what diagnostics must not show. */
function secretValues(type: TypeSchema, attrs: Attrs, fields: readonly OutField[]): unknown[] {
  const out: unknown[] = Object.entries(type.attributes).filter(([, a]) => a.sensitive)
    .map(([k]) => attrs[k]);
  const walk = (o: OutField["out"]) => {
    if (o.kind === "secret") out.push(o.value);
    else if (o.kind === "struct") o.fields.forEach((f) => walk(f.out));
    else if (o.kind === "list") o.items.forEach(walk);
  };
  fields.forEach((f) => walk(f.out));
  return out;
}

/** What the provider is asked about the object, beside the configuration. */
interface Asking {
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
async function settleWithProvider(
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
async function readObject(ask: Omit<Asking, "prior">, id: string): Promise<StoredObject> {
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

/** Checks the file against the root, with stand-ins for the secrets, before it is written. */
async function checkFits(
  sources: Sources,
  file: { name: string; text: string },
  want: { address: string; type: string },
  state: { records: Parameters<typeof evaluateWithState>[1]; tags: Record<string, string> },
): Promise<void> {
  const lead = error(
    `The CUE of ${want.address} does not fit the root`,
    `pravo checked the file it would write, ${file.name}, with the root's others, and the ` +
      "root would not be valid with it (below). Nothing was written. Give another address, " +
      "or correct what the diagnostics below name.",
    { address: want.address },
  );
  const probe = parseSources(sources.root, [...sources.given, { name: file.name, src: file.text }]);
  if (!probe.ok) throw new DiagnosticsError([lead, ...probe.diagnostics], "invalid");
  const res = await evaluateWithState(probe.value, state.records, state.tags);
  if (!res.ok) throw new DiagnosticsError([lead, ...res.diagnostics], "invalid");
  const node = res.value.nodes.find((n) => n.address === want.address);
  if (!node || node.mode !== "managed" || node.type !== want.type) {
    throw new DiagnosticsError([
      error(
        `${want.address} would not be a resource of the root`,
        `With ${file.name}, the root would ${
          node ? `declare a ${node.mode} ${node.type}` : "declare no node"
        } at ${want.address} (a field of that name may be taken by something else, such as ` +
          "`outputs`). Nothing was written. Give another address.",
        { address: want.address },
      ),
    ], "error");
  }
}

/** The header comment of the file. */
function header(type: string, provider: string, id: string | undefined): string {
  return `Generated by \`pravo import --generate-config\`: the ${type}${
    id === undefined ? "" : ` with ID ${JSON.stringify(id)}`
  }, as the ${provider} provider read it. Review it, and move it where it belongs.`;
}

/**
 * Writes the CUE of the object `id` at `address` into a new file, then
 * imports it (lib/import/import.ts). Throws a DiagnosticsError (nothing
 * written) when the address is declared or does not fit, the type or the
 * provider configuration cannot be told, or the object is not found; a
 * UsageError for a file that is not a new `.cue` file of the root's folder.
 */
export async function generateConfig(
  sources: Sources,
  store: StateStore,
  address: string,
  id: string,
  opts: GenerateOptions,
): Promise<GeneratedConfig> {
  const target = targetFile(opts.root, opts.file);
  const labels = addressLabels(address);
  if (!labels) {
    throw new UsageError(
      `"${address}" is not an address: labels joined by dots, quoted where they are not names ` +
        '(a.b, web."0")',
      "import",
    );
  }
  address = formatAddress(labels);
  const existing = await store.getRecord(address);
  if (existing) throw alreadyManaged(address, existing.type);
  const records = await store.listRecords();
  const spec = await mustEvaluateWithState(sources, records, opts.tags);
  checkUndeclared(address, labels, spec.nodes);
  const inputs = pluginInputs(opts.root);
  const { catalog } = tryCatalogFor(opts.root, inputs);
  if (catalog) {
    const diags = await catalog.ensureSchemas(spec.providers.map((p) => p.source));
    if (hasErrors(diags)) throw new DiagnosticsError(diags, "error");
  }
  const { type, instance } = resolveTarget(spec, address, labels, opts);
  const providerConfig: Attrs = {};
  for (const [k, v] of Object.entries(instance.config)) {
    if (!hasUnknown(v)) providerConfig[k] = v;
  }
  const session = opts.session ??
    new ProviderSession(opts.root, () => Promise.resolve(instancesOf(spec)), inputs);
  const provider = await session.providerFor({
    address,
    provider: instance.source,
    providerInstance: instance.address,
  });
  const base = { provider, address, type, root: opts.root, providerConfig, signal: opts.signal };
  const object = await readObject(base, id);
  const chosen = chooseAttributes(type, object.attributes);
  const settled = await settleWithProvider({ ...base, prior: object }, chosen);
  const secretsRead = secretValues(type, object.attributes, chosen.fields);
  const shownId = secretsRead.some((v) => typeof v === "string" && id !== "" && v.includes(id))
    ? undefined
    : id;
  const file: NodeFile = {
    packageName: sources.packageName,
    path: labels,
    instance: instance.address,
    type: type.name,
    fields: settled.fields,
    header: header(type.name, instance.source, shownId),
    secretNote: "Sensitive (TYPE): pravo writes no secret into a file. Give its value (a " +
      `@tag field, or a reference to where it is kept), then run \`pravo import ${address} ID\`.`,
  };
  await checkFits(
    sources,
    { name: target.name, text: nodeFileText(file, { standIns: true }) },
    { address, type: type.name },
    { records, tags: opts.tags },
  );
  writeNewFile(target.abs, nodeFileText(file), 0o644);

  const leftOut: Record<LeftOut, string[]> = {
    computed: [],
    id: [],
    unset: [],
    default: [],
    deprecated: [],
    derived: [],
  };
  for (const [k, why] of Object.entries(chosen.leftOut)) leftOut[why].push(k);
  for (const k of settled.dropped) leftOut[chosen.removable[k]].push(k);
  for (const l of Object.values(leftOut)) l.sort();
  const diagnostics = scrubDiagnostics(settled.diagnostics, secretsRead).map((d) => ({
    ...d,
    address: d.address ?? address,
  }));
  const secrets = secretsOf(settled.fields);
  const result: GeneratedConfig = {
    file: target.name,
    address,
    type: type.name,
    provider: instance.source,
    providerInstance: instance.address,
    attributes: settled.fields.map((f) => f.name),
    leftOut,
    secrets,
    changes: settled.changes,
    idIsSecret: shownId === undefined,
    diagnostics,
  };
  if (secrets.length || hasErrors(diagnostics)) return result;
  if (settled.changes.length) {
    result.diagnostics.push(
      warning(
        `The next plan will change ${address}`,
        `The ${instance.source} provider plans ${
          settled.changes.join(", ")
        } differently from the object as read, with the configuration written. Compare ` +
          `${target.name} with \`pravo state show ${address}\`, and change what differs.`,
        { address },
      ),
    );
  }
  const fresh = readRoot(opts.root);
  if (!fresh.ok) throw new DiagnosticsError(fresh.diagnostics, "invalid");
  result.imported = await importNode(fresh.value, store, address, id, { ...opts, session });
  return result;
}
