/**
 * Applying one node of a plan: the provider asked to create, update,
 * replace, delete, read or open it, the state and the log written in one
 * transaction for what it did, its progress told, its secrets kept out of
 * every message and id shown.
 *
 * @module
 */

import { type Diagnostic, DiagnosticsError, hasErrors } from "../diag/diag.ts";
import type { StateStore, TxMeta } from "../state/store.ts";
import type { Attrs as ProviderAttrs } from "../providers/runtime.ts";
import type { ResourceProvider, StoredObject } from "../providers/resource_provider.ts";
import type { ProviderSession } from "../providers/session.ts";
import type { Attrs, Plan, PlannedNode } from "../plan/types.ts";
import { digestInputs, nodeDigest, secretSources } from "../plan/digest.ts";
import type { AttrPath } from "../cue/secrets.ts";
import { REDACTED, scrubDiagnostics, SENSITIVE_TEXT } from "../secrets/paths.ts";
import type { ApplyOptions, Evaluated, NodeOutcome, NodeStatus } from "./apply.ts";
import { resolveConfig, typeOf } from "./apply.ts";

/** What applying one node needs of the run. */
export interface NodeRunInputs {
  n: PlannedNode;
  plan: Plan;
  store: StateStore;
  /** Every node's values now; the node's own is set (or deleted) once it is applied. */
  values: Map<string, Attrs>;
  opts: ApplyOptions;
  meta: TxMeta;
  evaluateAgain: (n: PlannedNode) => Promise<Evaluated | undefined>;
  session: ProviderSession;
  storedPrior: Pick<StoredObject, "schemaVersion" | "private"> | undefined;
  /** The names of each node's sensitive attributes; the node's own is set once it is applied. */
  secretNames: Map<string, string[]>;
}

/** Applies one node (see the module's doc). */
export function applyNode(inputs: NodeRunInputs): Promise<NodeOutcome> {
  return new NodeRun(inputs).run();
}

class NodeRun {
  readonly #in: NodeRunInputs;
  #started = Date.now();
  #attempted = false;
  #finalId: string | undefined;
  /** The sensitive values a provider's message might quote: none of them is shown. */
  readonly #secrets: unknown[];
  /** Evaluated again and found computed from a secret, an input is recorded sensitive too. */
  #sensitivePaths: AttrPath[];
  #forms: PlannedNode["secretForms"];
  #provider!: ResourceProvider;
  #base!: {
    type: ReturnType<typeof typeOf>;
    address: string;
    root: string;
    providerConfig: PlannedNode["providerConfig"];
    signal?: AbortSignal;
  };

  constructor(inputs: NodeRunInputs) {
    this.#in = inputs;
    const n = inputs.n;
    this.#secrets = n.sensitive.flatMap((k) => [n.config[k], n.before?.[k], n.after?.[k]]);
    this.#sensitivePaths = n.sensitive.map((k) => [k]);
    this.#forms = n.secretForms;
  }

  get #prior(): StoredObject | null {
    const { n, storedPrior } = this.#in;
    return n.before === null ? null : { attributes: n.before, ...(storedPrior ?? {}) };
  }

  /** The secrets of a node as they are now: for the digest of those computed from them. */
  #secretsOf(a: string) {
    const attributes = this.#in.values.get(a);
    const sensitive = this.#in.secretNames.get(a);
    return attributes && sensitive ? { attributes, sensitive } : undefined;
  }

  /** The id of an object for the progress lines: redacted when it is, or holds, a secret. */
  #idOf(attrs: Attrs | null | undefined): string | undefined {
    const id = attrs?.id;
    if (typeof id !== "string" && typeof id !== "number") return undefined;
    const text = String(id);
    if (text === "" || text === REDACTED) return text === REDACTED ? SENSITIVE_TEXT : undefined;
    if (this.#sensitivePaths.some((p) => p.length === 1 && p[0] === "id")) return SENSITIVE_TEXT;
    const leaks = this.#secrets.some((v) =>
      (typeof v === "string" || typeof v === "number") && String(v).length >= 4 &&
      text.includes(String(v))
    );
    return leaks ? SENSITIVE_TEXT : text;
  }

  /** The provider starts acting: the node's progress starts here (Terraform's `Creating...`). */
  #starting(): void {
    const { n, opts } = this.#in;
    this.#started = Date.now();
    opts.progress?.({
      address: n.address,
      action: n.action,
      mode: n.mode,
      phase: "start",
      id: n.action === "create" ? undefined : this.#idOf(n.before),
    });
  }

  #outcome(status: NodeStatus, found: Diagnostic[]): NodeOutcome {
    const { n, opts } = this.#in;
    const diagnostics = scrubDiagnostics(found, this.#secrets);
    const failure = diagnostics.find((d) => d.severity === "error");
    opts.progress?.({
      address: n.address,
      action: n.action,
      mode: n.mode,
      phase: status === "applied" ? "done" : opts.signal?.aborted ? "cancelled" : "failed",
      ms: Date.now() - this.#started,
      ...(status === "applied" && this.#finalId !== undefined ? { id: this.#finalId } : {}),
      ...(status !== "applied" && failure ? { summary: failure.summary } : {}),
    });
    return {
      address: n.address,
      action: n.action,
      status,
      diagnostics: diagnostics.map((d) => ({ ...d, address: d.address ?? n.address })),
      attempted: this.#attempted,
    };
  }

  #record(obj: StoredObject, config: Attrs) {
    const n = this.#in.n;
    return {
      address: n.address,
      mode: n.mode,
      type: n.type,
      provider: n.provider,
      attributes: obj.attributes,
      sensitivePaths: this.#sensitivePaths,
      dependencies: n.dependencies,
      // As the next plan computes it: inputs computed from a secret by what
      // they are made of and the secrets they read, not by their values.
      configDigest: nodeDigest(
        digestInputs(
          config,
          this.#forms,
          () => secretSources(n.dependencies, (a) => this.#secretsOf(a)),
        ),
        n.lifecycle,
        n.mode === "data" ? [] : this.#sensitivePaths.map((p) => String(p[0])),
      ),
      refreshAge: n.refreshAge,
      ...(obj.schemaVersion !== undefined ? { schemaVersion: obj.schemaVersion } : {}),
      ...(obj.private ? { private: obj.private } : {}),
      // The plugin provider configuration that made it: what deletes it once
      // its node is gone (a built-in provider takes no configuration).
      ...(n.providerInstance && this.#base.type.plugin
        ? { providerInstance: n.providerInstance }
        : {}),
    };
  }

  /** Records the node as it now is, with its change, in one transaction. */
  async #save(
    action: "create" | "update" | "replace" | "read",
    obj: StoredObject,
    config: Attrs,
  ): Promise<void> {
    const { n, store, meta, values, secretNames } = this.#in;
    const sensitivePaths = this.#sensitivePaths;
    await store.transaction(meta, async (tx) => {
      await tx.putRecord(this.#record(obj, config));
      await tx.logChange({
        address: n.address,
        action,
        before: action === "create" ? null : n.before,
        after: obj.attributes,
        sensitivePaths,
      });
    });
    values.set(n.address, obj.attributes);
    secretNames.set(n.address, sensitivePaths.map((p) => String(p[0])));
    this.#finalId = this.#idOf(obj.attributes);
  }

  /** Records that the node no longer exists. */
  async #forget(): Promise<void> {
    const { n, store, meta, values } = this.#in;
    await store.transaction(meta, async (tx) => {
      await tx.deleteRecord(n.address);
      await tx.logChange({
        address: n.address,
        action: "delete",
        before: n.before,
        after: null,
        sensitivePaths: this.#sensitivePaths,
      });
    });
    values.delete(n.address);
  }

  async #destroy(): Promise<Diagnostic[]> {
    this.#attempted = true;
    const r = await this.#provider.applyResource({
      ...this.#base,
      config: null,
      prior: this.#prior,
    });
    return r.diagnostics;
  }

  /** Asks the provider to make the planned object from `from` (null: a new one). */
  #apply(config: Attrs, from: StoredObject | null) {
    const n = this.#in.n;
    return this.#provider.applyResource({
      ...this.#base,
      config,
      prior: from,
      planned: { after: n.after, afterUnknown: n.afterUnknown },
    });
  }

  /** Creates the object (or updates it); an object made despite errors is recorded. */
  async #make(
    action: "create" | "update",
    config: Attrs,
    from: StoredObject | null,
  ): Promise<NodeOutcome> {
    const r = await this.#apply(config, from);
    if (r.value) await this.#save(action, r.value, config);
    if (hasErrors(r.diagnostics) || !r.value) return this.#outcome("failed", r.diagnostics);
    return this.#outcome("applied", r.diagnostics);
  }

  /** Replace: destroy then create, or the other way round when the lifecycle asks. */
  async #replace(config: Attrs): Promise<NodeOutcome> {
    if (!this.#in.n.lifecycle.create_before_destroy) {
      const d = await this.#destroy();
      if (hasErrors(d)) return this.#outcome("failed", d);
      // Destroyed first, the old object is gone: the state must say so
      // whatever the create does.
      const r = await this.#apply(config, null);
      if (r.value) await this.#save("replace", r.value, config);
      else await this.#forget();
      return this.#outcome(
        hasErrors(r.diagnostics) || !r.value ? "failed" : "applied",
        r.diagnostics,
      );
    }
    const r = await this.#apply(config, null);
    if (hasErrors(r.diagnostics) || !r.value) {
      if (r.value) await this.#save("replace", r.value, config);
      return this.#outcome("failed", r.diagnostics);
    }
    // The new object exists: it is recorded even when destroying the old one fails.
    const d = await this.#destroy();
    await this.#save("replace", r.value, config);
    return this.#outcome(hasErrors(d) ? "failed" : "applied", [...r.diagnostics, ...d]);
  }

  async run(): Promise<NodeOutcome> {
    const { n, plan, values, evaluateAgain, session, opts } = this.#in;
    this.#base = {
      type: typeOf(n, opts.workspace.registry),
      address: n.address,
      root: plan.root,
      providerConfig: n.providerConfig,
      signal: opts.signal,
    };
    this.#provider = await session.providerFor(n);
    try {
      if (n.action === "delete") {
        this.#starting();
        if (n.mode === "managed") {
          const d = await this.#destroy();
          if (hasErrors(d)) return this.#outcome("failed", d);
        }
        await this.#forget();
        return this.#outcome("applied", []);
      }
      let resolved;
      try {
        resolved = await resolveConfig(n, plan, values, evaluateAgain);
      } catch (e) {
        if (!(e instanceof DiagnosticsError)) throw e;
        return { ...this.#outcome("failed", e.diagnostics), evaluationFailed: true };
      }
      if (!resolved.config) return this.#outcome("failed", resolved.diagnostics);
      const more = (resolved.sensitive ?? []).filter((k) => !n.sensitive.includes(k));
      if (more.length) this.#sensitivePaths = [...n.sensitive, ...more].sort().map((k) => [k]);
      if (resolved.forms) this.#forms = resolved.forms;
      for (const [k] of this.#sensitivePaths) this.#secrets.push(resolved.config[k as string]);
      const config = resolved.config as ProviderAttrs;
      // From here on the provider acts: a failure may have changed the real world.
      this.#attempted = true;
      this.#starting();
      if (n.action === "open") {
        const r = await this.#provider.openEphemeral({ ...this.#base, config });
        return this.#outcome(hasErrors(r.diagnostics) ? "failed" : "applied", r.diagnostics);
      }
      if (n.action === "read") {
        let attrs = n.after ?? {};
        if (n.afterUnknown.length) {
          const r = await this.#provider.readData({ ...this.#base, config });
          if (hasErrors(r.diagnostics) || !r.value) return this.#outcome("failed", r.diagnostics);
          attrs = { ...config, ...r.value };
        }
        await this.#save("read", { attributes: attrs }, config);
        return this.#outcome("applied", []);
      }
      if (n.action === "create" || n.action === "update") {
        return await this.#make(n.action, config, n.action === "create" ? null : this.#prior);
      }
      return await this.#replace(config);
    } catch (e) {
      if (e instanceof DiagnosticsError) return this.#outcome("failed", e.diagnostics);
      throw e;
    }
  }
}
