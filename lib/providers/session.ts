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

import { error } from "../diag/diag.ts";
import { builtinProvider } from "./builtin.ts";
import { catalogFor } from "./catalog.ts";
import type { Attrs, ResourceProvider, Response } from "./resource_provider.ts";
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
  /** The provider configuration the node's type comes from, when known. */
  providerInstance?: string;
}

function hasUnknown(v: unknown): boolean {
  if (v === Symbol.for("pravo.unknown")) return true;
  if (Array.isArray(v)) return v.some(hasUnknown);
  if (v && typeof v === "object") return Object.values(v).some(hasUnknown);
  return false;
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

  /**
   * `instances` gives the root's provider configurations: called at most
   * once, when a plugin provider is first needed. `inputs` are what the
   * root's plugin providers start from (lib/workspace/ gives them).
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

  /** The provider of a node: built in, or its plugin provider configuration. */
  async providerFor(n: NodeProviderRef): Promise<ResourceProvider> {
    const catalog = catalogFor(this.root, this.#inputs);
    const entry = catalog.entries.get(n.provider);
    if (!entry) return builtinProvider(n.provider);
    const instance = n.providerInstance ?? this.#nodeInstances.get(n.address);
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
          config: async () => {
            this.#loaded ??= this.#instances();
            const all = await this.#loaded;
            const found = all.find((i) => i.address === instance && i.source === n.provider) ??
              all.find((i) => i.source === n.provider);
            if (!found) {
              return {
                diagnostics: [
                  error(
                    `No configuration of the provider ${n.provider}`,
                    `${n.address} needs ${n.provider}, and the root declares no instance of it ` +
                      `(such as \`$${n.provider.split("/").pop()}: ` +
                      `${n.provider.split("/").pop()}.#Provider & {...}\`). Declare one, even ` +
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
          },
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
