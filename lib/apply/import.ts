/**
 * Importing an object made outside pravo into the state: `pravo import
 * ADDR ID`. The node must be a managed node of the configuration (its type
 * and its provider configuration come from there); its provider finds the
 * object by the id the provider knows it by and reads it whole (the
 * provider interface's `importResource`), and the record is written in one
 * transaction under the state lock, with who and why.
 *
 * The record's configuration digest is left empty, so that the next plan
 * runs the node: it compares the configuration with what was imported and
 * plans what differs, as Terraform does after an import.
 *
 * @module
 */

import { Exit } from "../cli/exit.ts";
import { type Diagnostic, DiagnosticsError, didYouMean, error, hasErrors } from "../diag/diag.ts";
import { evaluateRoot, readRoot } from "../cue/loader.ts";
import { computedOf, instancesOf } from "../plan/planner.ts";
import { ProviderSession } from "../providers/session.ts";
import type { StoredObject } from "../providers/resource_provider.ts";
import type { StateStore } from "../state/store.ts";
import { scrubDiagnostics } from "../plan/document.ts";
import { providerDiagnostics } from "../cue/errors.ts";

export interface ImportOptions {
  root: string;
  tags: Record<string, string>;
  actor: string;
  reason: string;
  signal?: AbortSignal;
  /** How long to wait for the state lock. */
  lockTimeoutMs?: number;
}

export interface ImportResult {
  address: string;
  type: string;
  provider: string;
  id: string;
  /** The object as imported (sensitive values included: views redact them). */
  object: StoredObject;
  /** Its sensitive attributes. */
  sensitive: string[];
  serial: number;
  diagnostics: Diagnostic[];
}

/** Imports the object `id` into the node at `address`; throws DiagnosticsError when it cannot. */
export async function importNode(
  store: StateStore,
  address: string,
  id: string,
  opts: ImportOptions,
): Promise<ImportResult> {
  const sources = readRoot(opts.root);
  if (!sources.ok) throw new DiagnosticsError(sources.diagnostics, Exit.INVALID);
  const records = await store.listRecords();
  if (records.some((r) => r.address === address)) {
    throw new DiagnosticsError([
      error(
        `${address} is already in the state`,
        `The state has a record for ${address}, so there is nothing to import into it. Import ` +
          "into another node, or let pravo manage this one as it is.",
        { address },
      ),
    ], Exit.ERROR);
  }
  const known = new Map(
    records.filter((r) => r.mode === "managed").map((r) => [r.address, computedOf(r)]),
  );
  const knownKinds = new Map(records.map((r) => [r.address, r]));
  let res = await evaluateRoot(sources.value, {
    tags: opts.tags,
    known,
    knownKinds,
    trace: false,
  });
  if (!res.ok) res = await evaluateRoot(sources.value, { tags: opts.tags, trace: false });
  if (!res.ok) throw new DiagnosticsError(res.diagnostics, Exit.INVALID);
  const spec = res.value;
  const node = spec.nodes.find((n) => n.address === address);
  if (!node || node.mode !== "managed") {
    const managed = spec.nodes.filter((n) => n.mode === "managed").map((n) => n.address);
    const hint = didYouMean(address, managed);
    throw new DiagnosticsError([
      error(
        node ? `${address} is not a resource` : `No resource "${address}" in the configuration`,
        node
          ? `${address} is a ${node.mode} node; only managed nodes (#Resource) are imported. ` +
            "Give the address of a resource."
          : `Declare the resource first (its type and provider come from the configuration), ` +
            `then import into it${hint ? ` (${hint})` : ""}. The resources are: ${
              managed.join(", ") || "none"
            }.`,
        { address },
      ),
    ], Exit.USAGE);
  }
  const session = new ProviderSession(opts.root, () => Promise.resolve(instancesOf(spec)));
  session.bind(spec.nodes);
  const provider = await session.providerFor(node);
  const inst = spec.providers.find((p) => p.address === node.providerInstance);
  const r = await provider.importResource({
    type: node.schema,
    address,
    root: opts.root,
    providerConfig: (inst?.config ?? {}) as Record<string, unknown>,
    signal: opts.signal,
    id,
  });
  const sensitive = Object.entries(node.schema.attributes).filter(([, a]) => a.sensitive)
    .map(([k]) => k).sort();
  const diagnostics = scrubDiagnostics(
    r.diagnostics.map((d) =>
      providerDiagnostics(sources.value.index, node.path, d, address, node.range)
    ),
    sensitive.map((k) => r.value?.attributes[k]),
  );
  if (hasErrors(diagnostics) || !r.value) throw new DiagnosticsError(diagnostics, Exit.ERROR);
  const object = r.value;
  const lock = await store.acquireLock({
    actor: opts.actor,
    reason: opts.reason,
    command: "import",
    timeoutMs: opts.lockTimeoutMs ?? 10_000,
  });
  try {
    await store.transaction(
      { actor: opts.actor, reason: opts.reason, command: "import" },
      async (tx) => {
        if (await tx.getRecord(address)) {
          throw new DiagnosticsError([
            error(
              `${address} is already in the state`,
              "Another run recorded it meanwhile. Nothing was imported.",
              { address },
            ),
          ], Exit.ERROR);
        }
        await tx.putRecord({
          address,
          mode: "managed",
          type: node.type,
          provider: node.provider,
          attributes: object.attributes,
          sensitivePaths: sensitive.map((k) => [k]),
          dependencies: node.dependencies,
          configDigest: "",
          refreshAge: node.lifecycle.refresh_age ?? node.schema.refreshAge ?? null,
          ...(object.schemaVersion !== undefined ? { schemaVersion: object.schemaVersion } : {}),
          ...(object.private ? { private: object.private } : {}),
        });
        await tx.logChange({
          address,
          action: "import",
          before: null,
          after: object.attributes,
          sensitivePaths: sensitive.map((k) => [k]),
        });
      },
    );
  } finally {
    await store.releaseLock(lock);
  }
  return {
    address,
    type: node.type,
    provider: node.provider,
    id,
    object,
    sensitive,
    serial: (await store.identity()).serial,
    diagnostics,
  };
}
