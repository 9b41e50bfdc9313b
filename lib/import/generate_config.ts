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
 * Where it writes and what it declares: generate_target.ts; what it asks
 * the provider: generate_ask.ts; what it writes: generate.ts.
 *
 * Not imported, the file written all the same: when a secret had to be left
 * out (the file has a placeholder to fill), or when the provider refuses
 * the configuration as written. The caller says so and what to do.
 *
 * @module
 */

import { type Diagnostic, DiagnosticsError, error, hasErrors, warning } from "../diag/diag.ts";
import { UsageError } from "../diag/usage.ts";
import { addressLabels, formatAddress } from "../addr/address.ts";
import { parseSources, readRoot, type Sources, type Spec } from "../cue/loader.ts";
import type { TypeSchema } from "../providers/schema.ts";
import { ProviderSession } from "../providers/session.ts";
import { instancesOf } from "../plan/session.ts";
import { evaluateWithState, mustEvaluateWithState } from "../plan/known.ts";
import { scrubDiagnostics } from "../secrets/paths.ts";
import { withoutUnknown } from "../plan/node_values.ts";
import type { StateStore } from "../state/store.ts";
import { writeNewFile } from "../files/new_file.ts";
import { shellWord } from "../diag/hint.ts";
import { alreadyManaged, type Imported, importNode, type ImportOptions } from "./import.ts";
import {
  chooseAttributes,
  type Chosen,
  type LeftOut,
  type NodeFile,
  nodeFileText,
  type OutField,
  secretsOf,
} from "./generate.ts";
import { checkUndeclared, resolveTarget, targetFile } from "./generate_target.ts";
import { readObject, settleWithProvider } from "./generate_ask.ts";

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
  const probe = parseSources(
    sources.root,
    [...sources.given, { name: file.name, src: file.text }],
    sources.workspace,
  );
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

/** The labels of an address as given, or a usage error. */
function labelsOf(address: string): string[] {
  const labels = addressLabels(address);
  if (labels) return labels;
  throw new UsageError(
    `"${address}" is not an address: labels joined by dots, quoted where they are not names ` +
      '(a.b, web."0")',
    "import",
  );
}

/** Why each top-level attribute is left out: by the schema, or by the provider's plans. */
function leftOutOf(chosen: Chosen, dropped: readonly string[]): Record<LeftOut, string[]> {
  const leftOut: Record<LeftOut, string[]> = {
    computed: [],
    id: [],
    unset: [],
    default: [],
    deprecated: [],
    derived: [],
  };
  for (const [k, why] of Object.entries(chosen.leftOut)) leftOut[why].push(k);
  for (const k of dropped) leftOut[chosen.removable[k]].push(k);
  for (const l of Object.values(leftOut)) l.sort();
  return leftOut;
}

/** The provider of the node's configuration, started, and what every request to it carries. */
async function providerOf(
  spec: Spec,
  target: { address: string; type: TypeSchema; instance: Spec["providers"][number] },
  opts: GenerateOptions,
) {
  const { address, type, instance } = target;
  const providerConfig = withoutUnknown(instance.config);
  const session = opts.session ??
    new ProviderSession(
      opts.root,
      () => Promise.resolve(instancesOf(spec)),
      opts.workspace.inputs,
    );
  const provider = await session.providerFor({
    address,
    provider: instance.source,
    providerInstance: instance.address,
  });
  return {
    session,
    base: { provider, address, type, root: opts.root, providerConfig, signal: opts.signal },
  };
}

/**
 * Imports the node whose file is written. Where the import fails, the file
 * stays, and a warning says that the import is the step left.
 */
async function importWritten(
  store: StateStore,
  node: { address: string; id: string; shownId?: string; file: string },
  opts: GenerateOptions & { session: ProviderSession },
): Promise<Imported> {
  const { address, id } = node;
  try {
    const fresh = readRoot(opts.root, opts.workspace);
    if (!fresh.ok) throw new DiagnosticsError(fresh.diagnostics, "invalid");
    return await importNode(fresh.value, store, address, id, opts);
  } catch (e) {
    if (!(e instanceof DiagnosticsError)) throw e;
    throw new DiagnosticsError([
      ...e.diagnostics,
      warning(
        `${node.file} was written, and ${address} not imported`,
        `pravo wrote the CUE of ${address} into ${node.file}, then the import failed (above). ` +
          `Once that is resolved, import it: \`pravo import ${shellWord(address)} ${
            node.shownId === undefined ? "ID" : shellWord(node.shownId)
          }\`.`,
        { address },
      ),
    ], e.kind);
  }
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
  const labels = labelsOf(address);
  address = formatAddress(labels);
  const existing = await store.getRecord(address);
  if (existing) throw alreadyManaged(address, existing.type);
  const records = await store.listRecords();
  const spec = await mustEvaluateWithState(sources, records, opts.tags);
  checkUndeclared(address, labels, spec.nodes);
  const { catalog } = opts.workspace.registry;
  if (catalog) {
    const diags = await catalog.ensureSchemas(spec.providers.map((p) => p.source));
    if (hasErrors(diags)) throw new DiagnosticsError(diags, "error");
  }
  const { type, instance } = resolveTarget(spec, address, labels, opts);
  const { session, base } = await providerOf(spec, { address, type, instance }, opts);
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
      `@tag field, or a reference to where it is kept), then run \`pravo import ${
        shellWord(address)
      } ID\`.`,
  };
  await checkFits(
    sources,
    { name: target.name, text: nodeFileText(file, { standIns: true }) },
    { address, type: type.name },
    { records, tags: opts.tags },
  );
  writeNewFile(target.abs, nodeFileText(file), 0o644);

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
    leftOut: leftOutOf(chosen, settled.dropped),
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
  result.imported = await importWritten(
    store,
    { address, id, shownId, file: target.name },
    { ...opts, session },
  );
  return result;
}
