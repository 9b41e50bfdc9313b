/**
 * `pravo import --from terraform FILE.tfstate`: takes over every object of
 * a Terraform (or OpenTofu) state, at the addresses the converted root
 * gives them, as `pravo import ADDR ID` does one object.
 *
 * Everything is checked before anything is written: the state against the
 * root (tfstate_check.ts), then, under the state lock, each object through
 * its provider (tfstate_records.ts). Then all the records are written in one
 * transaction, with one log entry (command `import --from terraform`) whose
 * changes say where each came from: the file, its lineage and serial,
 * Terraform's version and the object's Terraform address. A refusal
 * anywhere writes nothing.
 *
 * Terraform's outputs that the root declares too are recorded as the last
 * apply's (when pravo's state has none yet), so that the next plan shows
 * only those the root computes otherwise; a sensitive one, or one holding a
 * secret of the objects, is recorded redacted, as pravo's apply records it.
 *
 * @module
 */

import { type Diagnostic, DiagnosticsError, error, hasErrors } from "../diag/diag.ts";
import type { Sources } from "../cue/loader.ts";
import { ProviderSession } from "../providers/session.ts";
import type { Registry } from "../providers/registry.ts";
import { instancesOf } from "../plan/session.ts";
import { mustEvaluateWithState } from "../plan/known.ts";
import type { StateStore } from "../state/store.ts";
import { type ImportRun, withImportLock } from "../import/import.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { REDACTED, redactOutputs, sensitiveStrings } from "../secrets/paths.ts";
import type { Spec } from "../cue/loader.ts";
import type { RecordInput } from "../state/store.ts";
import type { TfState } from "./tfstate.ts";
import { checkTakeover, type Skipped } from "./tfstate_check.ts";
import { type TakeoverRecord, takeoverRecord } from "./tfstate_records.ts";

export interface TfImportOptions extends ImportRun {
  /** The command's workspace: its registry, and its plugin providers' catalog and inputs. */
  workspace: ImportRun["workspace"] & Pick<Workspace, "catalog">;
  /** When Terraform last wrote the file (its modification time): the records' refresh time. */
  writtenAt?: string;
}

/** One object taken over. */
export interface TfImported {
  address: string;
  terraform_address: string;
  type: string;
  provider: string;
  /** The schema version in Terraform's state, and the one recorded (plugin types). */
  schema_version: { from: number; to: number | null };
  /** The attributes sealed in pravo's state. */
  sensitive: string[];
}

export interface TfImportResult {
  imported: TfImported[];
  skipped: Skipped[];
  /** The resources of the root that have no object after the import: the next plan creates them. */
  not_in_state: string[];
  /** The outputs of Terraform's state recorded as the last apply's (those the root declares). */
  outputs: string[];
  /** pravo's serial after the import. */
  serial: number;
  /** Warnings. */
  diagnostics: Diagnostic[];
}

/** How many objects go to their providers at once. */
const AT_ONCE = 8;

/**
 * Takes the objects of `state` over into `store`. Throws a DiagnosticsError
 * when the root is invalid (`invalid`), when an object cannot be taken over
 * (`error`: every refusal at once), or when the state is locked or an
 * address reserved (`locked`); nothing is written then.
 */
export async function importTerraformState(
  sources: Sources,
  store: StateStore,
  state: TfState,
  opts: TfImportOptions,
): Promise<TfImportResult> {
  const records = await store.listRecords();
  const spec = await mustEvaluateWithState(sources, records, opts.tags);
  const { catalog, inputs } = opts.workspace;
  const check = checkTakeover(state, {
    spec,
    existing: new Set(records.map((r) => r.address)),
    fullAddress: (source) => catalog?.entries.get(source)?.address ?? source,
  });
  if (hasErrors(check.diagnostics)) throw new DiagnosticsError(check.diagnostics, "error");
  const taken = new Set(check.takeovers.map((t) => t.address));
  const notInState = spec.nodes.filter((n) =>
    n.mode === "managed" && !taken.has(n.address) && !records.some((r) => r.address === n.address)
  ).map((n) => n.address).sort();
  return await withImportLock(store, { ...opts, addresses: [...taken] }, async () => {
    const session = new ProviderSession(
      opts.root,
      () => Promise.resolve(instancesOf(spec)),
      inputs,
    );
    session.bind(spec.nodes);
    const ctx = { spec, session, root: opts.root, writtenAt: opts.writtenAt, signal: opts.signal };
    const done: TakeoverRecord[] = [];
    const refused: Diagnostic[] = [];
    for (let i = 0; i < check.takeovers.length; i += AT_ONCE) {
      const batch = check.takeovers.slice(i, i + AT_ONCE);
      for (const r of await Promise.all(batch.map((t) => takeoverRecord(t, ctx)))) {
        if ("record" in r) done.push(r);
        else refused.push(...r.diagnostics);
      }
    }
    if (hasErrors(refused)) throw new DiagnosticsError(refused, "error");
    const outputs = done.length && (await store.readOutputs()) === null
      ? outputsOf(state, spec, [...records, ...done.map((d) => d.record)], sources.registry)
      : {};
    await writeRecords(store, { state, done, outputs }, opts);
    return {
      imported: done.map((d) => ({
        address: d.record.address,
        terraform_address: d.takeover.instance.address,
        type: d.record.type,
        provider: d.record.provider,
        schema_version: { from: d.fromVersion, to: d.record.schemaVersion ?? null },
        sensitive: d.record.sensitivePaths.map((p) => String(p[0])),
      })),
      skipped: check.skipped,
      not_in_state: notInState,
      outputs: Object.keys(outputs).sort(),
      serial: (await store.identity()).serial,
      diagnostics: [...check.diagnostics, ...done.flatMap((d) => d.diagnostics)],
    };
  });
}

/**
 * Terraform's outputs that the root declares, as pravo's apply would record
 * them: redacted when Terraform or the root marks them sensitive, or when
 * they hold a secret of the records.
 */
function outputsOf(
  state: TfState,
  spec: Pick<Spec, "outputs" | "outputsSensitive">,
  records: readonly Pick<
    RecordInput,
    "provider" | "type" | "mode" | "sensitivePaths" | "attributes"
  >[],
  registry: Registry,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(state.outputs)) {
    if (!(name in spec.outputs)) continue;
    out[name] = o.sensitive || spec.outputsSensitive.includes(name) ? REDACTED : o.value;
  }
  return redactOutputs(out, sensitiveStrings(records, registry.findType));
}

/** Writes the records, their log entry and the outputs in one transaction. */
async function writeRecords(
  store: StateStore,
  what: { state: TfState; done: readonly TakeoverRecord[]; outputs: Record<string, unknown> },
  opts: TfImportOptions,
): Promise<void> {
  const { state, done, outputs } = what;
  await store.transaction(
    { actor: opts.actor, reason: opts.reason, command: "import --from terraform" },
    async (tx) => {
      for (const { record, takeover } of done) {
        if (await tx.getRecord(record.address)) {
          throw new DiagnosticsError([
            error(
              `${record.address} is already in the state`,
              "Another run wrote it while this one checked the objects. Nothing was imported. " +
                "Look at it with `pravo state show " +
                `${record.address}\`, then import again.`,
              { address: record.address },
            ),
          ], "error");
        }
        await tx.putRecord(record);
        await tx.logChange({
          address: record.address,
          action: "import",
          before: {
            from: "terraform",
            file: state.file,
            lineage: state.lineage,
            serial: state.serial,
            terraform_version: state.terraformVersion,
            terraform_address: takeover.instance.address,
          },
          after: record.attributes,
          sensitivePaths: record.sensitivePaths,
        });
      }
      if (Object.keys(outputs).length) await tx.setOutputs(outputs);
    },
  );
}
