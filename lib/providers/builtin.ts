/**
 * The built-in providers (random, null, local, time) behind the provider
 * interface (resource_provider.ts): one adapter over their type handlers
 * (runtimes.ts), with the default planner that decides from the schema
 * what the engine used to decide itself.
 *
 * The default planner: an input whose configured value differs from the
 * state changes (an unset optional input with a computed or empty value
 * does not); a changed input marked `forceNew` forces a replacement; the
 * planned object is the configuration with the state's computed values on
 * an update, and with every computed attribute unknown on a create, unless
 * the handler's `plan` tells better. Apply dispatches to the handler's
 * create, update or delete by which of the prior object and the
 * configuration is absent.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { type Diagnostic, error } from "../diag/diag.ts";
import type {
  ApplyResourceRequest,
  Attrs,
  ConfigRequest,
  ImportResourceRequest,
  InputsRequest,
  PlanResourceRequest,
  ReadResourceRequest,
  ResourcePlan,
  ResourceProvider,
  Response,
  StoredObject,
} from "./resource_provider.ts";
import { UNKNOWN_INPUT } from "./resource_provider.ts";
import type { TypeHandler } from "./runtime.ts";
import { handlerFor } from "./runtimes.ts";
import type { Attribute, TypeSchema } from "./schema.ts";

function isInput(a: Attribute): boolean {
  return Boolean(a.required || a.optional);
}

function hasUnknown(v: unknown): boolean {
  if (v === UNKNOWN_INPUT) return true;
  if (Array.isArray(v)) return v.some(hasUnknown);
  if (v && typeof v === "object") return Object.values(v).some(hasUnknown);
  return false;
}

function missing(what: string, req: { address: string; type: TypeSchema }): Diagnostic {
  return error(
    `Cannot ${what} ${req.address}`,
    `pravo's ${req.type.name} has no ${what} operation. This is a bug in pravo; please report it.`,
    { address: req.address },
  );
}

/** A built-in provider, for one source (`hashicorp/random`). */
export class BuiltinProvider implements ResourceProvider {
  readonly source: string;

  constructor(source: string) {
    this.source = source;
  }

  #handler(type: TypeSchema): TypeHandler | undefined {
    return handlerFor(this.source, type.mode, type.name);
  }

  validateResource(req: InputsRequest): Promise<Diagnostic[]> {
    const h = this.#handler(req.type);
    if (!h?.validate) return Promise.resolve([]);
    return Promise.resolve(h.validate({ ...req, config: req.config, unknown: req.unknown }));
  }

  planResource(req: PlanResourceRequest): Promise<Response<ResourcePlan>> {
    const type = req.type;
    const inputs = req.inputs;
    const computed = Object.entries(type.attributes).filter(([, a]) => !isInput(a)).map(([k]) => k);
    const prior = req.prior?.attributes ?? null;
    if (prior === null) {
      const p = this.#planned(req, null, computed);
      return Promise.resolve({
        value: { ...p, changed: Object.keys(inputs).sort(), requiresReplace: [] },
        diagnostics: [],
      });
    }
    const ignore = new Set(req.ignoreChanges);
    const changed: string[] = [];
    const requiresReplace: string[] = [];
    for (const [k, a] of Object.entries(type.attributes)) {
      if (!isInput(a) || ignore.has(k)) continue;
      const cv = inputs[k];
      const pv = prior[k];
      if (cv === undefined && (a.computed || pv === undefined || pv === null)) continue;
      const differs = hasUnknown(cv) || !isDeepStrictEqual(cv ?? null, pv ?? null);
      if (!differs) continue;
      changed.push(k);
      if (a.forceNew) requiresReplace.push(k);
    }
    changed.sort();
    if (changed.length === 0) {
      return Promise.resolve({
        value: { after: prior, afterUnknown: [], changed: [], requiresReplace: [] },
        diagnostics: [],
      });
    }
    // A replacement's planned object is that of a create; the planner asks
    // for it with no prior object. An update keeps the computed values.
    const p = this.#planned(req, requiresReplace.length ? null : prior, computed);
    return Promise.resolve({ value: { ...p, changed, requiresReplace }, diagnostics: [] });
  }

  /** The planned object of a create (prior null) or an update. */
  #planned(
    req: PlanResourceRequest,
    prior: Attrs | null,
    computed: string[],
  ): { after: Attrs; afterUnknown: string[] } {
    const inputs = req.inputs;
    const known = req.config;
    const unknownInputs = Object.keys(inputs).filter((k) => hasUnknown(inputs[k]));
    // Inputs left unset keep their value in an update (optional computed ones).
    const kept = prior
      ? Object.fromEntries(
        Object.entries(prior).filter(([k]) => inputs[k] === undefined && !computed.includes(k)),
      )
      : {};
    let after: Attrs = { ...kept, ...known };
    let afterUnknown = [...unknownInputs];
    if (prior) {
      for (const k of computed) if (prior[k] !== undefined) after[k] = prior[k];
    } else {
      afterUnknown.push(...computed);
    }
    const h = this.#handler(req.type);
    if (h?.plan) {
      const r = h.plan({
        type: req.type,
        address: req.address,
        root: req.root,
        providerConfig: req.providerConfig,
        config: known,
        unknown: unknownInputs,
        prior,
      });
      if (r.value) {
        after = { ...after, ...r.value.attributes };
        afterUnknown = [...new Set([...unknownInputs, ...r.value.unknown])].filter((k) =>
          !(k in r.value!.attributes)
        );
        for (const k of afterUnknown) delete after[k];
      }
    }
    return { after, afterUnknown: [...new Set(afterUnknown)].sort() };
  }

  async applyResource(req: ApplyResourceRequest): Promise<Response<StoredObject | null>> {
    const h = this.#handler(req.type);
    const base = {
      type: req.type,
      address: req.address,
      root: req.root,
      providerConfig: req.providerConfig,
      signal: req.signal,
    };
    if (req.config === null) {
      if (!h?.delete) return { diagnostics: [missing("delete", req)] };
      const r = await h.delete({ ...base, prior: req.prior?.attributes ?? {} });
      return { value: null, diagnostics: r.diagnostics };
    }
    if (req.prior === null) {
      if (!h?.create) return { diagnostics: [missing("create", req)] };
      const r = await h.create({ ...base, config: req.config });
      return { value: r.value ? { attributes: r.value } : undefined, diagnostics: r.diagnostics };
    }
    if (!h?.update) return { diagnostics: [missing("update", req)] };
    const r = await h.update({ ...base, config: req.config, prior: req.prior.attributes });
    return { value: r.value ? { attributes: r.value } : undefined, diagnostics: r.diagnostics };
  }

  async readResource(req: ReadResourceRequest): Promise<Response<StoredObject | null>> {
    const h = this.#handler(req.type);
    if (!h?.read) return { value: req.prior, diagnostics: [] };
    const r = await h.read({
      type: req.type,
      address: req.address,
      root: req.root,
      providerConfig: req.providerConfig,
      signal: req.signal,
      prior: req.prior.attributes,
    });
    return {
      value: r.value === undefined ? undefined : r.value === null ? null : { attributes: r.value },
      diagnostics: r.diagnostics,
    };
  }

  async readData(req: ConfigRequest): Promise<Response<Attrs>> {
    const h = this.#handler(req.type);
    if (!h?.readData) return { diagnostics: [missing("read", req)] };
    return await h.readData(req);
  }

  async openEphemeral(req: ConfigRequest): Promise<Response<Attrs>> {
    const h = this.#handler(req.type);
    if (!h?.open) return { diagnostics: [missing("open", req)] };
    return await h.open(req);
  }

  async importResource(req: ImportResourceRequest): Promise<Response<StoredObject | null>> {
    const h = this.#handler(req.type);
    if (!h?.import) {
      return {
        diagnostics: [
          error(
            `${req.type.name} cannot be imported`,
            `pravo's ${req.type.name} keeps its value in the state alone, so there is nothing in ` +
              "the real world to import. Let pravo create it: remove the import and plan.",
            { address: req.address },
          ),
        ],
      };
    }
    const r = await h.import({
      type: req.type,
      address: req.address,
      root: req.root,
      providerConfig: req.providerConfig,
      signal: req.signal,
      ranges: req.ranges,
      id: req.id,
      config: req.config ?? {},
    });
    return {
      value: r.value === undefined ? undefined : r.value === null ? null : { attributes: r.value },
      diagnostics: r.diagnostics,
    };
  }

  canRead(type: TypeSchema): boolean {
    return Boolean(this.#handler(type)?.read);
  }

  expiresAt(type: TypeSchema, attributes: Attrs): string | undefined {
    return this.#handler(type)?.expiresAt?.(attributes);
  }
}

const builtins = new Map<string, BuiltinProvider>();

/** The adapter of a built-in provider (one per source: they keep no state). */
export function builtinProvider(source: string): BuiltinProvider {
  let p = builtins.get(source);
  if (!p) builtins.set(source, p = new BuiltinProvider(source));
  return p;
}
