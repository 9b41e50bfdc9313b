/**
 * Importing an existing object into the state (`pravo import ADDR ID`), as
 * `terraform import` does: the node must be declared in the root, the
 * provider reads the object by its ID (`TypeHandler.import`, an operation of
 * the provider interface, so that plugin providers take part in the same
 * way), and the record is written in one transaction with an `import`
 * change in the log, under the state lock.
 *
 * The record holds what the provider read and the node's configuration for
 * the inputs the ID does not carry, with the dependencies, lifecycle and
 * configuration digest a create would have recorded: a plan made after it
 * is a no-op when the configuration agrees with the imported object. A
 * plugin provider reads the whole object (`ImportResourceState`, then
 * `ReadResource`); its record's digest is left empty, so that the next plan
 * asks the provider how the configuration differs, as Terraform does after
 * an import.
 *
 * @module
 */

import { type Diagnostic, DiagnosticsError, didYouMean, error, hasErrors } from "../diag/diag.ts";
import type { Node, Sources } from "../cue/loader.ts";
import type { Value } from "../cue/program.ts";
import { handlerFor } from "../providers/runtimes.ts";
import { ProviderSession } from "../providers/session.ts";
import { instancesOf } from "../plan/session.ts";
import { providerDiagnostics } from "../cue/errors.ts";
import type { AcquiredLock, StateStore } from "../state/store.ts";
import { nodeDigest } from "../plan/digest.ts";
import { reservationError } from "../state/reservation.ts";
import { scrubDiagnostics } from "../secrets/paths.ts";
import { mustEvaluateWithState } from "../plan/known.ts";
import { inputsOf, providerConfigOf, withoutUnknown } from "../plan/node_values.ts";
import type { SourcesWorkspace } from "../cue/loader.ts";
import type { StoredObject } from "../providers/resource_provider.ts";

type Attrs = Record<string, unknown>;

/** What every import takes (of one object, and of a Terraform state): the root and who runs it. */
export interface ImportRun {
  root: string;
  /** The command's workspace: its registry, and what its plugin providers start from. */
  workspace: SourcesWorkspace;
  tags: Record<string, string>;
  actor: string;
  reason: string;
  /** How long to wait for the state lock (default 0: refused at once, as Terraform). */
  lockTimeoutMs?: number;
  /** Told when the state lock is taken, to warn of a lock taken over from a dead holder. */
  onLocked?: (lock: AcquiredLock) => void;
  signal?: AbortSignal;
}

export interface ImportOptions extends ImportRun {
  /**
   * The providers of the run, when the caller has started them already
   * (`import --generate-config` read the object with them): not started
   * again.
   */
  session?: ProviderSession;
}

export interface Imported {
  address: string;
  mode: Node["mode"];
  type: string;
  provider: string;
  /** The attributes recorded. */
  attributes: Attrs;
  /** The paths of the attributes whose values are sensitive. */
  sensitive: string[];
  /** The serial the state reached. */
  serial: number;
  /** Warnings of the provider. */
  diagnostics: Diagnostic[];
}

/** The error for an address that names no managed node of the root. */
function notDeclared(address: string, nodes: readonly Node[]): DiagnosticsError {
  const managed = nodes.filter((n) => n.mode === "managed");
  const same = nodes.find((n) => n.address === address);
  if (same) {
    return new DiagnosticsError([
      error(
        `Cannot import into ${address}`,
        `${address} is a ${same.mode === "data" ? "data source" : `${same.mode} node`} ` +
          `(${same.type}), and only resources are imported: a ${same.mode} node is not kept ` +
          "as an object in the state. Give the address of a resource.",
        { address, range: same.range },
      ),
    ], "error");
  }
  const hint = didYouMean(address, managed.map((n) => n.address));
  return new DiagnosticsError([
    error(
      `${address} is not declared in the root`,
      `The root declares no resource at ${address}${hint ? ` (${hint})` : ""}. As with ` +
        "`terraform import`, the node must be declared before an object is imported into it: " +
        `add it to a .cue file, such as \`${address.split(".").pop()}: ` +
        "$random.#Resource.random_integer & {min: 1, max: 9}`, then import again.",
      { address },
    ),
  ], "error");
}

/** Records the imported object at its node, with its log entry, in one transaction. */
async function recordImported(
  store: StateStore,
  node: Node,
  object: StoredObject,
  how: { inputs: Record<string, Value>; sensitive: string[]; plugin: boolean },
  opts: ImportOptions,
): Promise<void> {
  const { inputs, sensitive, plugin } = how;
  const address = node.address;
  await store.transaction(
    { actor: opts.actor, reason: opts.reason, command: "import" },
    async (tx) => {
      const now = await tx.getRecord(address);
      if (now) throw alreadyManaged(address, now.type);
      const sensitivePaths = sensitive.map((k) => [k]);
      await tx.putRecord({
        address,
        mode: node.mode,
        type: node.type,
        provider: node.provider,
        attributes: object.attributes,
        sensitivePaths,
        dependencies: node.dependencies,
        // The digest of the inputs as imported: equal to the configuration's
        // when the two agree (the next plan skips the node), different when
        // they do not (the next plan asks the provider what that changes).
        configDigest: plugin ? "" : nodeDigest(
          Object.fromEntries(
            Object.entries(inputs).map((
              [k, v],
            ) => [k, object.attributes[k] === undefined ? v : object.attributes[k]]),
          ),
          node.lifecycle,
          sensitive,
        ),
        refreshAge: node.lifecycle.refresh_age ?? node.schema.refreshAge ?? null,
        ...(object.schemaVersion !== undefined ? { schemaVersion: object.schemaVersion } : {}),
        ...(object.private ? { private: object.private } : {}),
        ...(plugin && node.providerInstance ? { providerInstance: node.providerInstance } : {}),
      });
      await tx.logChange({
        address,
        action: "import",
        before: null,
        after: object.attributes,
        sensitivePaths,
      });
    },
  );
}

/**
 * Imports the object `id` into the node at `address`. Throws a
 * DiagnosticsError when the root is invalid (3), the node is not declared,
 * the type cannot be imported, the ID is refused or the address already has
 * a record (1), or the state is locked or the address reserved by someone
 * else (4).
 */
export async function importNode(
  sources: Sources,
  store: StateStore,
  address: string,
  id: string,
  opts: ImportOptions,
): Promise<Imported> {
  const existing = await store.getRecord(address);
  if (existing) throw alreadyManaged(address, existing.type);
  const spec = await mustEvaluateWithState(sources, await store.listRecords(), opts.tags);
  const node = spec.nodes.find((n) => n.address === address && n.mode === "managed");
  if (!node) throw notDeclared(address, spec.nodes);
  const plugin = node.schema.plugin !== undefined;
  const handler = plugin ? undefined : handlerFor(node.provider, node.mode, node.type);
  if (!plugin && !handler?.import) {
    throw new DiagnosticsError([
      error(
        `${node.type} cannot be imported`,
        `The ${node.provider} provider does not import ${node.type}, as Terraform's does not: ` +
          `${notImportableWhy(node.type)} Let pravo create it with \`pravo apply\`.`,
        { address, range: node.range },
      ),
    ], "error");
  }
  const inputs = inputsOf(node);
  const config = withoutUnknown(inputs);
  const providerConfig = providerConfigOf(spec, node);
  const sensitive = [
    ...new Set([
      ...Object.entries(node.schema.attributes).filter(([, a]) => a.sensitive).map(([k]) => k),
      ...node.sensitiveInputs,
    ]),
  ].sort();

  return await withImportLock(store, { ...opts, addresses: [address] }, async () => {
    const session = opts.session ?? new ProviderSession(
      opts.root,
      () => Promise.resolve(instancesOf(spec)),
      opts.workspace.inputs,
    );
    session.bind(spec.nodes);
    const provider = await session.providerFor(node);
    const res = await provider.importResource({
      type: node.schema,
      address,
      root: opts.root,
      providerConfig,
      signal: opts.signal,
      ranges: node.attributeRanges,
      id,
      config,
    });
    // The ID of a type with secrets (a password's value) may be one itself.
    const secrets: unknown[] = [
      ...(sensitive.length ? [id] : []),
      ...sensitive.map((k) => config[k]),
      ...sensitive.map((k) => res.value?.attributes[k]),
    ];
    const diagnostics = scrubDiagnostics(res.diagnostics, secrets).map((d) =>
      plugin
        ? providerDiagnostics(sources.index, node.path, d, address, node.range)
        : { ...d, address: d.address ?? address, range: d.range ?? node.range }
    );
    if (hasErrors(diagnostics)) throw new DiagnosticsError(diagnostics, "error");
    if (res.value === null || res.value === undefined) {
      throw new DiagnosticsError([
        error(
          "Cannot import a missing object",
          `The ${node.provider} provider found no ${node.type} with the ID given. Nothing was ` +
            "imported. Check the ID, in the type's format: " +
            `${handler?.importFormat ?? "see the provider's documentation"}.`,
          { address, range: node.range },
        ),
      ], "error");
    }
    const object = res.value;
    await recordImported(store, node, object, { inputs, sensitive, plugin }, opts);
    return {
      address,
      mode: node.mode,
      type: node.type,
      provider: node.provider,
      attributes: object.attributes,
      sensitive,
      serial: (await store.identity()).serial,
      diagnostics,
    };
  });
}

/**
 * Runs `fn` under the state lock, taken for an import (and told to
 * `opts.onLocked`), once no one else has reserved any of `opts.addresses`;
 * releases the lock after. Throws a `locked` DiagnosticsError when the state
 * is locked or an address reserved.
 */
export async function withImportLock<T>(
  store: StateStore,
  opts: ImportRun & { addresses: readonly string[] },
  fn: () => Promise<T>,
): Promise<T> {
  const lock = await store.acquireLock({
    actor: opts.actor,
    reason: opts.reason,
    command: "import",
    timeoutMs: opts.lockTimeoutMs ?? 0,
  });
  try {
    opts.onLocked?.(lock);
    const conflicts = await store.findReservationConflicts([...opts.addresses], {
      actor: opts.actor,
    });
    if (conflicts.length) {
      throw new DiagnosticsError(conflicts.map((c) => reservationError(c, "import")), "locked");
    }
    return await fn();
  } finally {
    await store.releaseLock(lock);
  }
}

/** The error for an address whose record is there already. */
export function alreadyManaged(address: string, type: string): DiagnosticsError {
  return new DiagnosticsError([
    error(
      `${address} is already in the state`,
      `The state holds a ${type} at ${address}, and an address holds one object. Nothing was ` +
        "imported. To import another object there, first forget the one it holds with " +
        `\`pravo state rm ${address}\` (the object itself is left as it is).`,
      { address },
    ),
  ], "error");
}

/** Why a built-in type cannot be imported, for the message. */
function notImportableWhy(type: string): string {
  switch (type) {
    case "random_pet":
    case "random_shuffle":
      return "its value is made by pravo and lives only in the state, and nothing outside it " +
        "can be read back.";
    case "null_resource":
      return "it stands for nothing outside the state.";
    case "local_file":
    case "local_sensitive_file":
      return "a file is written from its configuration, so there is nothing to read back that " +
        "a create would not write again.";
    default:
      return "the provider has no import operation for it.";
  }
}
