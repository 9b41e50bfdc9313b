/**
 * A plugin provider behind the provider interface (../resource_provider.ts),
 * for one provider configuration.
 *
 * The process starts on the first call that needs it (plugin/processes.ts:
 * the executable verified against the lock first), then the configuration
 * is validated and the provider configured, once; a failure there answers
 * every later call with the same diagnostics. Calls run concurrently on the
 * one process.
 *
 * What the core checks, as Terraform does: a planned object keeps every
 * value the configuration sets (relaxed for providers of the legacy SDK,
 * which Terraform tolerates too); at apply, the provider plans again with
 * the final configuration and the plan must keep what the saved plan
 * showed; write-only attributes are null in every planned and new object;
 * a state written with an older version of the type's schema goes through
 * UpgradeResourceState before anything else reads it. Private data is
 * passed back as the provider gave it.
 *
 * @module
 */

import { toBase64 } from "../../bytes.ts";
import { type Diagnostic, error, hasErrors } from "../../diag/diag.ts";
import type { PluginProvider } from "../../plugin/provider.ts";
import type { Block } from "../../plugin/schema.ts";
import { type PathStep, Unknown, type Value } from "../../plugin/value.ts";
import type { PluginEntry } from "../catalog.ts";
import type {
  ApplyResourceRequest,
  Attrs,
  ConfigRequest,
  ImportResourceRequest,
  InputsRequest,
  NodeRequest,
  PlanResourceRequest,
  ReadResourceRequest,
  ResourcePlan,
  ResourceProvider,
  Response,
  StoredObject,
  UpgradeResourceRequest,
} from "../resource_provider.ts";
import type { TypeSchema } from "../schema.ts";
import { startPlugin } from "./processes.ts";
import {
  agrees,
  fromState,
  plannedView,
  sameValue,
  toProviderValue,
  toState,
  valueAt,
} from "./values.ts";
import type { PluginInputs } from "./inputs.ts";

/** Time spent in this process's provider work, for benchmarks. */
export const pluginTimings = { configureMs: 0, calls: 0, callsMs: 0 };

/** What an adapter needs to start and configure its provider. */
export interface PluginInstance {
  root: string;
  entry: PluginEntry;
  /** What the provider starts from (the lock, the pins, the mirrors, the signal). */
  inputs: PluginInputs;
  /** The address of the provider configuration in the root (`$aws`), for messages. */
  instance?: string;
  /** The configuration, known; or diagnostics (a value known only after apply). */
  config: () => Promise<{ config?: Attrs; diagnostics: Diagnostic[] }>;
  /** The cached schema to hand the provider, if any. */
  schema?: () => import("../../plugin/provider.ts").ProviderSchema | undefined;
}

function b64(bytes: Uint8Array | undefined): string | undefined {
  return bytes && bytes.length ? toBase64(bytes) : undefined;
}

function fromB64(s: string | undefined): Uint8Array | undefined {
  if (!s) return undefined;
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function block(t: TypeSchema): Block {
  if (!t.plugin) throw new Error(`bug: ${t.name} is not a plugin type`);
  return t.plugin.block;
}

/** Write-only attributes are never kept: null in every planned and new object. */
function withoutWriteOnly(v: Value, b: Block): Value {
  if (!v || typeof v !== "object" || Array.isArray(v) || v instanceof Unknown) return v;
  const out = { ...(v as Record<string, Value>) };
  for (const [k, a] of Object.entries(b.attributes)) if (a.writeOnly) out[k] = null;
  return out;
}

function isInputName(t: TypeSchema, k: string): boolean {
  const a = t.attributes[k];
  return Boolean(a && (a.required || a.optional));
}

/** A plugin provider for one provider configuration. */
export class PluginResourceProvider implements ResourceProvider {
  readonly source: string;
  readonly #inst: PluginInstance;
  #ready?: Promise<{ provider?: PluginProvider; diagnostics: Diagnostic[] }>;

  constructor(inst: PluginInstance) {
    this.#inst = inst;
    this.source = inst.entry.source;
  }

  /** True once the provider process was asked to start. */
  get started(): boolean {
    return this.#ready !== undefined;
  }

  /** The provider, started and configured (once). */
  ready(): Promise<{ provider?: PluginProvider; diagnostics: Diagnostic[] }> {
    this.#ready ??= this.#start();
    return this.#ready;
  }

  async #start(): Promise<{ provider?: PluginProvider; diagnostics: Diagnostic[] }> {
    const cfg = await this.#inst.config();
    if (!cfg.config) return { diagnostics: cfg.diagnostics };
    const started = await startPlugin(
      this.#inst.root,
      this.#inst.entry.address,
      this.#inst.inputs,
      {
        schema: this.#inst.schema?.(),
      },
    );
    // Why the provider did not start is about its configuration, not a node.
    const here = (d: Diagnostic): Diagnostic =>
      this.#inst.instance ? { ...d, address: d.address ?? this.#inst.instance } : d;
    if (!started.value) return { diagnostics: started.diagnostics.map(here) };
    const p = started.value.provider;
    const t0 = performance.now();
    const config = toProviderValue(cfg.config);
    const where = (d: Diagnostic): Diagnostic =>
      this.#inst.instance ? { ...d, address: d.address ?? this.#inst.instance } : d;
    const v = await p.validateProviderConfig({ config });
    const diagnostics = v.diagnostics.map(where);
    if (hasErrors(diagnostics)) return { diagnostics };
    const c = await p.configureProvider({ config });
    diagnostics.push(...c.diagnostics.map(where));
    pluginTimings.configureMs += performance.now() - t0;
    if (hasErrors(diagnostics)) return { diagnostics };
    return { provider: p, diagnostics: diagnostics.filter((d) => d.severity !== "error") };
  }

  /** Runs `body` with the ready provider; its setup's errors answer otherwise. */
  async #with<T>(
    req: NodeRequest,
    body: (p: PluginProvider) => Promise<Response<T>>,
  ): Promise<Response<T>> {
    const r = await this.ready();
    if (!r.provider) return { diagnostics: r.diagnostics };
    const t0 = performance.now();
    try {
      const out = await body(r.provider);
      out.diagnostics = out.diagnostics.map((d) => ({ ...d, address: d.address ?? req.address }));
      return out;
    } finally {
      pluginTimings.calls++;
      pluginTimings.callsMs += performance.now() - t0;
    }
  }

  /**
   * The prior object as a value of the type's current schema: upgraded
   * when it was written with an older version (and always passed through
   * UpgradeResourceState when the provider needs it); null where there is
   * none, and no value where upgrading it failed.
   */
  async #prior(
    p: PluginProvider,
    req: NodeRequest,
    prior: StoredObject | null,
  ): Promise<{ value?: Value; diagnostics: Diagnostic[] }> {
    if (!prior) return { value: null, diagnostics: [] };
    const t = req.type;
    const version = prior.schemaVersion ?? t.plugin!.version;
    if (version >= t.plugin!.version) {
      try {
        return { value: fromState(prior.attributes, block(t)), diagnostics: [] };
      } catch {
        // Not of the current shape (an attribute gone from the schema): upgrade it.
      }
    }
    const u = await p.upgradeResourceState({
      typeName: t.name,
      version,
      rawStateJSON: JSON.stringify(prior.attributes),
    }, { signal: req.signal });
    if (hasErrors(u.diagnostics)) return { diagnostics: u.diagnostics };
    return { value: u.upgradedState ?? null, diagnostics: u.diagnostics };
  }

  /** The error of a provider that answered a plan without the object it was to plan. */
  #plannedNothing(address: string, consequence: string): Diagnostic {
    return error(
      `The provider planned no object for ${address}`,
      `${this.#inst.entry.address} answered PlanResourceChange without a planned state. ` +
        `${consequence}Report this to the provider's authors.`,
    );
  }

  #stored(t: TypeSchema, v: Value, priv: Uint8Array | undefined): StoredObject {
    const out: StoredObject = {
      attributes: toState(withoutWriteOnly(v, block(t))),
      schemaVersion: t.plugin!.version,
    };
    const p = b64(priv);
    if (p) out.private = p;
    return out;
  }

  validateResource(req: InputsRequest): Promise<Diagnostic[]> {
    return this.#with(req, async (p) => {
      const config = toProviderValue(req.inputs);
      const r = req.type.mode === "managed"
        ? await p.validateResourceConfig({ typeName: req.type.name, config })
        : req.type.mode === "data"
        ? await p.validateDataResourceConfig({ typeName: req.type.name, config })
        : await p.validateEphemeralResourceConfig({ typeName: req.type.name, config });
      return { diagnostics: withoutUnsupportedValidation(r.diagnostics) };
    }).then((r) => r.diagnostics);
  }

  planResource(req: PlanResourceRequest): Promise<Response<ResourcePlan>> {
    return this.#with(req, async (p) => {
      const t = req.type;
      const pr = await this.#prior(p, req, req.prior);
      const diagnostics = [...pr.diagnostics];
      if (pr.value === undefined) return { diagnostics };
      const prior = pr.value;
      const inputs: Record<string, unknown> = { ...req.inputs };
      // ignore_changes: the configured value is not applied; the state's stays.
      if (prior && typeof prior === "object" && !Array.isArray(prior)) {
        for (const k of req.ignoreChanges) {
          const pv = (prior as Record<string, Value>)[k];
          if (pv === null || pv === undefined) delete inputs[k];
          else inputs[k] = toState({ v: pv } as Value)["v"];
        }
      }
      const config = toProviderValue(inputs);
      const b = block(t);
      const { proposedNewState } = await import("../../plugin/proposed.ts");
      let proposed: Value;
      try {
        proposed = proposedNewState(b, prior, config);
      } catch (e) {
        return {
          diagnostics: [
            ...diagnostics,
            error(
              `The configuration of ${req.address} does not fit ${t.name}`,
              `${(e as Error).message}. Check it against \`pravo schema ${t.name}\`.`,
            ),
          ],
        };
      }
      const r = await p.planResourceChange({
        typeName: t.name,
        priorState: prior,
        proposedNewState: proposed,
        config,
        priorPrivate: fromB64(req.prior?.private),
      }, { signal: req.signal });
      diagnostics.push(...r.diagnostics);
      if (hasErrors(diagnostics)) return { diagnostics };
      if (r.deferred) return { diagnostics: [...diagnostics, deferredError(req, r.deferred)] };
      if (r.plannedState === null || r.plannedState === undefined) {
        return { diagnostics: [...diagnostics, this.#plannedNothing(req.address, "")] };
      }
      const planned = withoutWriteOnly(r.plannedState, b);
      if (!r.legacyTypeSystem) diagnostics.push(...invalidPlan(req, t, config, planned));
      if (hasErrors(diagnostics)) return { diagnostics };
      const view = plannedView(planned);
      const priorObj = prior as Record<string, Value> | null;
      // What the configuration changes: its inputs whose planned value
      // differs (a computed one only where the configuration sets it).
      const changed = Object.keys(t.attributes).filter((k) =>
        isInputName(t, k) && !req.ignoreChanges.includes(k) &&
        (k in req.inputs || !t.attributes[k].computed) &&
        (priorObj === null || !sameValue(priorObj[k] ?? null, valueAt(planned, [{ name: k }])))
      ).sort();
      const requiresReplace = priorObj === null ? [] : [
        ...new Set(
          r.requiresReplace.filter((path) =>
            path.length > 0 && !sameValue(valueAt(prior, path), valueAt(planned, path))
          ).map((path) => firstName(path)),
        ),
      ].filter((k): k is string => k !== undefined).sort();
      const value: ResourcePlan = { ...view, changed, requiresReplace };
      const priv = b64(r.plannedPrivate);
      if (priv) value.private = priv;
      if (req.prior) value.prior = this.#stored(t, prior, fromB64(req.prior.private));
      return { value, diagnostics };
    });
  }

  applyResource(req: ApplyResourceRequest): Promise<Response<StoredObject | null>> {
    return this.#with(req, async (p) => {
      const t = req.type;
      const b = block(t);
      const pr = await this.#prior(p, req, req.prior);
      const diagnostics = [...pr.diagnostics];
      if (pr.value === undefined) return { diagnostics };
      const prior = pr.value;
      const priorPrivate = fromB64(req.prior?.private);
      const config = req.config === null ? null : toProviderValue(req.config);
      // Plan again, with every value known now: what apply does is what the
      // provider plans now (a destroy too, when the provider asks to plan it).
      let planned: Value = null;
      let plannedPrivate = priorPrivate;
      let legacy = false;
      const caps = (await p.getProviderSchema()).schema?.serverCapabilities;
      if (config !== null || caps?.planDestroy) {
        const { proposedNewState } = await import("../../plugin/proposed.ts");
        const r = await p.planResourceChange({
          typeName: t.name,
          priorState: prior,
          proposedNewState: config === null ? null : proposedNewState(b, prior, config),
          config,
          priorPrivate,
        }, { signal: req.signal });
        diagnostics.push(...r.diagnostics);
        if (hasErrors(diagnostics)) return { diagnostics };
        planned = r.plannedState === undefined ? null : withoutWriteOnly(r.plannedState, b);
        plannedPrivate = r.plannedPrivate;
        legacy = r.legacyTypeSystem;
        if (config !== null && planned === null) {
          const d = this.#plannedNothing(req.address, "Nothing was changed. ");
          return { diagnostics: [...diagnostics, d] };
        }
        if (config !== null && !legacy && req.planned?.after) {
          diagnostics.push(...inconsistentFinalPlan(req, planned, req.planned));
          if (hasErrors(diagnostics)) return { diagnostics };
        }
      }
      const a = await p.applyResourceChange({
        typeName: t.name,
        priorState: prior,
        plannedState: planned,
        config,
        plannedPrivate,
      }, { signal: req.signal });
      diagnostics.push(...a.diagnostics);
      const newState = a.newState ?? null;
      if (config === null) {
        // A destroy that failed leaves the object: the state keeps it.
        return hasErrors(diagnostics) ? { diagnostics } : { value: null, diagnostics };
      }
      if (newState === null) {
        if (!hasErrors(diagnostics)) {
          diagnostics.push(
            error(
              `The provider returned no object for ${req.address}`,
              `${this.#inst.entry.address} answered ApplyResourceChange without the new object. ` +
                "Run `pravo plan` to see what exists, and report this to the provider's authors.",
            ),
          );
        }
        return { value: req.prior === null ? undefined : null, diagnostics };
      }
      // Even with errors, an object that exists is recorded (half made).
      return { value: this.#stored(t, newState, a.private), diagnostics };
    });
  }

  readResource(req: ReadResourceRequest): Promise<Response<StoredObject | null>> {
    return this.#with(req, async (p) => {
      const pr = await this.#prior(p, req, req.prior);
      if (pr.value === undefined) return { diagnostics: pr.diagnostics };
      const r = await p.readResource({
        typeName: req.type.name,
        currentState: pr.value,
        private: fromB64(req.prior.private),
      }, { signal: req.signal });
      const diagnostics = [...pr.diagnostics, ...r.diagnostics];
      if (hasErrors(diagnostics)) return { diagnostics };
      if (r.deferred) return { diagnostics: [...diagnostics, deferredError(req, r.deferred)] };
      const now = r.newState ?? null;
      return { value: now === null ? null : this.#stored(req.type, now, r.private), diagnostics };
    });
  }

  readData(req: ConfigRequest): Promise<Response<Attrs>> {
    return this.#with(req, async (p) => {
      const config = toProviderValue(req.config);
      const v = await p.validateDataResourceConfig({ typeName: req.type.name, config });
      v.diagnostics = withoutUnsupportedValidation(v.diagnostics);
      if (hasErrors(v.diagnostics)) return { diagnostics: v.diagnostics };
      const r = await p.readDataSource({ typeName: req.type.name, config }, {
        signal: req.signal,
      });
      const diagnostics = [...v.diagnostics, ...r.diagnostics];
      if (hasErrors(diagnostics)) return { diagnostics };
      if (r.deferred) return { diagnostics: [...diagnostics, deferredError(req, r.deferred)] };
      return { value: toState(r.state ?? {}), diagnostics };
    });
  }

  openEphemeral(req: ConfigRequest): Promise<Response<Attrs>> {
    return this.#with(req, async (p) => {
      const config = toProviderValue(req.config);
      const r = await p.openEphemeralResource({ typeName: req.type.name, config }, {
        signal: req.signal,
      });
      if (hasErrors(r.diagnostics)) return { diagnostics: r.diagnostics };
      if (r.private !== undefined) {
        // Closed at once: pravo keeps an ephemeral value for the call that opened it.
        await p.closeEphemeralResource({ typeName: req.type.name, private: r.private });
      }
      return { value: toState(r.result ?? {}), diagnostics: r.diagnostics };
    });
  }

  importResource(req: ImportResourceRequest): Promise<Response<StoredObject>> {
    return this.#with(req, async (p) => {
      const t = req.type;
      const r = await p.importResourceState({ typeName: t.name, id: req.id }, {
        signal: req.signal,
      });
      const diagnostics = [...r.diagnostics];
      if (hasErrors(diagnostics)) return { diagnostics };
      if (r.deferred) return { diagnostics: [...diagnostics, deferredError(req, r.deferred)] };
      const found = r.importedResources.filter((x) => x.typeName === t.name);
      if (found.length !== 1) {
        return {
          diagnostics: [
            ...diagnostics,
            error(
              found.length === 0
                ? `${t.name} "${req.id}" cannot be imported`
                : `Importing ${t.name} "${req.id}" gives ${found.length} objects`,
              found.length === 0
                ? `The provider found no ${t.name} with the id "${req.id}". Check the id (the ` +
                  "provider's documentation says what it is for this type)."
                : "pravo imports one object into one node. Import each into its own node.",
            ),
          ],
        };
      }
      // The provider's import gives little more than the id: read the rest.
      const read = await p.readResource({
        typeName: t.name,
        currentState: found[0].state,
        private: found[0].private,
      }, { signal: req.signal });
      diagnostics.push(...read.diagnostics);
      if (hasErrors(diagnostics)) return { diagnostics };
      if (read.newState === null || read.newState === undefined) {
        return {
          diagnostics: [
            ...diagnostics,
            error(
              `There is no ${t.name} "${req.id}"`,
              `The provider found no object with the id "${req.id}" in the real world (it read ` +
                "nothing back). Check the id, and that the provider configuration points at the " +
                "account and region that hold it.",
            ),
          ],
        };
      }
      return { value: this.#stored(t, read.newState, read.private), diagnostics };
    });
  }

  /** An object of another tool's state, as the provider upgrades it (UpgradeResourceState). */
  upgradeResource(req: UpgradeResourceRequest): Promise<Response<StoredObject>> {
    return this.#with(req, async (p) => {
      const u = await p.upgradeResourceState({ ...req, typeName: req.type.name }, req);
      if (hasErrors(u.diagnostics) || !u.upgradedState) return { diagnostics: u.diagnostics };
      const value = this.#stored(req.type, u.upgradedState, fromB64(req.private));
      return { value, diagnostics: u.diagnostics };
    });
  }

  canRead(): boolean {
    return true;
  }

  expiresAt(): string | undefined {
    return undefined;
  }

  /** Asks the provider to stop what it is doing. */
  async stop(): Promise<void> {
    if (!this.#ready) return;
    const r = await this.#ready;
    await r.provider?.stopProvider();
  }
}

/**
 * A provider that does not implement a validation call has nothing to say
 * about the configuration: its calls to plan and read still check it.
 */
function withoutUnsupportedValidation(diags: Diagnostic[]): Diagnostic[] {
  return diags.filter((d) => !/ does not support Validate\w*Config$/.test(d.summary));
}

function firstName(path: PathStep[]): string | undefined {
  const s = path[0];
  return s && "name" in s ? s.name : undefined;
}

function deferredError(req: NodeRequest, why: string): Diagnostic {
  return error(
    `The provider deferred ${req.address}`,
    `It cannot act on it yet (${why}). pravo does not carry deferred changes over to a later ` +
      "run: make the values it depends on known (apply the nodes it depends on first), then " +
      "plan again.",
  );
}

/** A planned object must keep every value the configuration sets (non-legacy providers). */
function invalidPlan(
  req: NodeRequest,
  t: TypeSchema,
  config: Value,
  planned: Value,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const c = config as Record<string, Value>;
  for (const [k, a] of Object.entries(t.plugin!.block.attributes)) {
    if (a.computed || a.writeOnly) continue;
    const cv = c?.[k] ?? null;
    const pv = valueAt(planned, [{ name: k }]) ?? null;
    if (!agrees(cv, pv)) {
      out.push(
        error(
          "Provider produced an invalid plan",
          `The provider planned ${req.address}.${k} as a value other than the configuration ` +
            "sets. This is a bug in the provider: report it to its authors.",
          { address: req.address, attribute: [{ name: k }] },
        ),
      );
    }
  }
  return out;
}

/** What apply plans now must keep what the saved plan showed. */
function inconsistentFinalPlan(
  req: ApplyResourceRequest,
  planned: Value,
  saved: { after: Attrs | null; afterUnknown: string[] },
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const now = plannedView(planned);
  for (const [k, v] of Object.entries(saved.after ?? {})) {
    const unknownInside = saved.afterUnknown.some((u) =>
      u === k || u.startsWith(`${k}[`) || u.startsWith(`${k}.`)
    );
    if (unknownInside) continue;
    if (now.afterUnknown.includes(k)) {
      out.push(inconsistent(req, k));
      continue;
    }
    if (JSON.stringify(now.after[k] ?? null) !== JSON.stringify(v ?? null)) {
      out.push(inconsistent(req, k));
    }
  }
  return out;
}

function inconsistent(req: ApplyResourceRequest, k: string): Diagnostic {
  return error(
    "Provider produced an inconsistent final plan",
    `When planned again with every value known, ${req.address}.${k} is not what the saved plan ` +
      "showed. Nothing was changed for this node. Make a new plan and apply it; if this " +
      "happens again, report it to the provider's authors.",
    { address: req.address, attribute: [{ name: k }] },
  );
}
