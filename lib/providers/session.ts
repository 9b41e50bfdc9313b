/**
 * The providers of one run: for each node, the provider of its
 * configuration, whatever its kind.
 *
 * Built-in providers are in-process and cost nothing. A plugin provider is
 * one adapter per provider configuration (a `$aws` field of the root),
 * whose process starts on the first call that needs it: a plan with nothing
 * due for refresh and nothing changed starts none. The configurations of a
 * root come from its evaluation, which the session asks for only when a
 * plugin provider is first needed (`instances`). Every process is closed
 * when the command ends (plugin/running.ts); Stop goes to them all on the
 * first interrupt.
 *
 * @module
 */

import { type Diagnostic, error } from "../diag/diag.ts";
import { builtinProvider } from "./builtin.ts";
import { catalogFor } from "./catalog.ts";
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
  UpgradeResourceRequest,
} from "./resource_provider.ts";
import type { TypeSchema } from "./schema.ts";
import type { PluginResourceProvider } from "./plugin/adapter.ts";
import type { PluginInputs } from "./plugin/inputs.ts";

/** A provider configuration of the root, as the loader finds it. */
export interface InstanceConfig {
  /** Its address: `$aws`. */
  address: string;
  /** `hashicorp/aws`. */
  source: string;
  /** Its configuration, as evaluated (values known only after apply marked). */
  config: Record<string, unknown>;
}

/** What the session needs to know of a node to find its provider. */
export interface NodeProviderRef {
  address: string;
  /** The provider's source: `hashicorp/aws`. */
  provider: string;
  /**
   * The provider configuration the node's type comes from, when known: for
   * a record, the one that made its object (`$aws_west`).
   */
  providerInstance?: string;
}

function hasUnknown(v: unknown): boolean {
  if (v === Symbol.for("pravo.unknown")) return true;
  if (Array.isArray(v)) return v.some(hasUnknown);
  if (v && typeof v === "object") return Object.values(v).some(hasUnknown);
  return false;
}

/**
 * The refusal of a record whose provider configuration (`n.instance`) the
 * root no longer declares, `declared` being the provider's others.
 */
export function undeclaredConfiguration(
  n: { address: string; instance?: string },
  declared: readonly string[],
): Diagnostic {
  return error(
    `The provider configuration ${n.instance} is not declared`,
    `The state says ${n.address} was made with ${n.instance}, and the root no longer ` +
      `declares it. pravo does not guess which of the others (${declared.join(", ")}) ` +
      "reaches the object: another region, account or endpoint may not. Declare " +
      `${n.instance} again, as it was, to read or delete what it made, or forget the record ` +
      `with \`pravo state rm ${n.address}\` (the object is left as it is).`,
    { address: n.address },
  );
}

/**
 * The configuration of `n.provider` at `n.instance` (none: the source's
 * first), or diagnostics: none declared; one the state names that is no
 * longer declared (pravo does not guess another: it may not reach the
 * object); values known only after apply.
 */
function configOf(
  all: readonly InstanceConfig[],
  n: { address: string; provider: string; instance?: string },
): { config?: Attrs; diagnostics: Diagnostic[] } {
  const ofSource = all.filter((i) => i.source === n.provider);
  const found = n.instance === undefined
    ? ofSource[0]
    : ofSource.find((i) => i.address === n.instance);
  if (!found && n.instance !== undefined && ofSource.length) {
    return { diagnostics: [undeclaredConfiguration(n, ofSource.map((i) => i.address))] };
  }
  if (!found) {
    const short = n.provider.split("/").pop();
    return {
      diagnostics: [
        error(
          `No configuration of the provider ${n.provider}`,
          `${n.address} needs ${n.provider}, and the root declares no instance of it ` +
            `(such as \`$${short}: ${short}.#Provider & {...}\`). Declare one, even ` +
            "to destroy what it made.",
          { address: n.address },
        ),
      ],
    };
  }
  if (hasUnknown(found.config)) {
    return {
      diagnostics: [
        error(
          `The configuration of ${found.address} is known only after apply`,
          `${found.address} refers to values that apply will make, and pravo ` +
            "configures a provider before it plans. Give it values known now " +
            "(literals, tags, data sources).",
          { address: found.address },
        ),
      ],
    };
  }
  return { config: found.config as Attrs, diagnostics: [] };
}

/**
 * The provider of a plugin node asked for before the root's configurations
 * are known: it chooses the node's configuration when first called, once
 * they are (`resolve`). What it answers without a call (whether a type can
 * be read, when a value expires) is the same for every configuration of a
 * source: `tentative` answers it.
 */
class UnboundPlugin implements ResourceProvider {
  readonly source: string;
  readonly #tentative: ResourceProvider;
  readonly #resolve: () => Promise<ResourceProvider>;
  #resolved?: Promise<ResourceProvider>;

  constructor(tentative: ResourceProvider, resolve: () => Promise<ResourceProvider>) {
    this.source = tentative.source;
    this.#tentative = tentative;
    this.#resolve = resolve;
  }

  #p(): Promise<ResourceProvider> {
    this.#resolved ??= this.#resolve();
    return this.#resolved;
  }

  async validateResource(req: InputsRequest): Promise<Diagnostic[]> {
    return await (await this.#p()).validateResource(req);
  }
  async planResource(req: PlanResourceRequest): Promise<Response<ResourcePlan>> {
    return await (await this.#p()).planResource(req);
  }
  async applyResource(req: ApplyResourceRequest): Promise<Response<StoredObject | null>> {
    return await (await this.#p()).applyResource(req);
  }
  async readResource(req: ReadResourceRequest): Promise<Response<StoredObject | null>> {
    return await (await this.#p()).readResource(req);
  }
  async readData(req: ConfigRequest): Promise<Response<Attrs>> {
    return await (await this.#p()).readData(req);
  }
  async openEphemeral(req: ConfigRequest): Promise<Response<Attrs>> {
    return await (await this.#p()).openEphemeral(req);
  }
  async importResource(req: ImportResourceRequest): Promise<Response<StoredObject | null>> {
    return await (await this.#p()).importResource(req);
  }
  async upgradeResource(req: UpgradeResourceRequest): Promise<Response<StoredObject>> {
    const p = await this.#p();
    if (!p.upgradeResource) throw new Error(`bug: ${p.source} cannot upgrade`);
    return await p.upgradeResource(req);
  }
  canRead(type: TypeSchema): boolean {
    return this.#tentative.canRead(type);
  }
  expiresAt(type: TypeSchema, attributes: Attrs): string | undefined {
    return this.#tentative.expiresAt(type, attributes);
  }
}

/** The providers of one run on one root. */
export class ProviderSession {
  readonly root: string;
  readonly #instances: () => Promise<InstanceConfig[]>;
  /** Which instance each node's type comes from, once known. */
  readonly #nodeInstances = new Map<string, string>();
  readonly #plugins = new Map<string, Promise<PluginResourceProvider>>();
  readonly #inputs: PluginInputs;
  #loaded?: Promise<InstanceConfig[]>;
  /** True once the configurations are loaded: what binds nodes with them has. */
  #settled = false;

  /**
   * `instances` gives the root's provider configurations: called at most
   * once, when a plugin provider is first needed; an evaluation that gives
   * them may {@linkcode bind} its nodes before it answers. `inputs` are what
   * the root's plugin providers start from (lib/workspace/ gives them).
   */
  constructor(root: string, instances: () => Promise<InstanceConfig[]>, inputs: PluginInputs) {
    this.root = root;
    this.#instances = instances;
    this.#inputs = inputs;
  }

  /** Tells the session which provider configuration each node's type comes from. */
  bind(nodes: readonly NodeProviderRef[]): void {
    for (const n of nodes) {
      if (n.providerInstance) this.#nodeInstances.set(n.address, n.providerInstance);
    }
  }

  /** True when `source` is a plugin provider of the root. */
  isPlugin(source: string): boolean {
    return catalogFor(this.root, this.#inputs).entries.has(source);
  }

  /**
   * The provider of a node: built in, or its plugin provider configuration.
   * The configuration is the one the session was told the node's type comes
   * from ({@linkcode bind}); else `n.providerInstance` (a record's: the one
   * that made its object); else the source's first. A plugin node not bound
   * before the root's configurations are loaded is answered by a provider
   * that chooses when first called, once they are: the evaluation that
   * gives them may bind it.
   */
  async providerFor(n: NodeProviderRef): Promise<ResourceProvider> {
    const catalog = catalogFor(this.root, this.#inputs);
    if (!catalog.entries.has(n.provider)) return builtinProvider(n.provider);
    const chosen = () => this.#nodeInstances.get(n.address) ?? n.providerInstance;
    if (this.#nodeInstances.has(n.address) || this.#settled) return await this.#plugin(n, chosen());
    const tentative = await this.#plugin(n, chosen());
    return new UnboundPlugin(tentative, async () => {
      await this.#configurations();
      return await this.#plugin(n, chosen());
    });
  }

  /** The root's provider configurations, loaded once. */
  #configurations(): Promise<InstanceConfig[]> {
    this.#loaded ??= this.#instances().then((all) => {
      this.#settled = true;
      return all;
    });
    return this.#loaded;
  }

  /** The adapter of a plugin provider configuration (undefined: the source's first). */
  async #plugin(n: NodeProviderRef, instance: string | undefined): Promise<PluginResourceProvider> {
    const catalog = catalogFor(this.root, this.#inputs);
    const entry = catalog.entries.get(n.provider)!;
    const key = `${n.provider}\u0000${instance ?? ""}`;
    let p = this.#plugins.get(key);
    if (!p) {
      p = (async () => {
        const { PluginResourceProvider } = await import("./plugin/adapter.ts");
        return new PluginResourceProvider({
          root: this.root,
          entry,
          inputs: this.#inputs,
          instance,
          schema: () => catalog.pluginSchema(n.provider),
          config: async () => configOf(await this.#configurations(), { ...n, instance }),
        });
      })();
      this.#plugins.set(key, p);
    }
    return await p;
  }

  /** Runs a call with the provider of a node. */
  async with<T>(
    n: NodeProviderRef,
    f: (p: ResourceProvider) => Promise<Response<T>>,
  ): Promise<Response<T>> {
    return await f(await this.providerFor(n));
  }

  /** How many plugin provider configurations started a process in this run. */
  async startedCount(): Promise<number> {
    let n = 0;
    for (const p of this.#plugins.values()) if ((await p).started) n++;
    return n;
  }
}
