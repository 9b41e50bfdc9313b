/**
 * Whether a Terraform state can be taken over by a root: each managed
 * instance at the pravo address the converted root gives it (address.ts),
 * where the root declares a resource of the same type, on a provider of the
 * same source (tfstate_provider.ts), with a schema version the root's
 * provider can read, and where pravo's state holds nothing yet. Data
 * sources are skipped (Terraform and pravo read them again at the next
 * plan). Every refusal is gathered, with the pravo address, the Terraform
 * address it came from and where the state file holds it; nothing is read
 * from or written to any provider or store here.
 *
 * @module
 */

import { type Diagnostic, error, nearest } from "../diag/diag.ts";
import type { Node, Spec } from "../cue/loader.ts";
import { formatAddress } from "../addr/address.ts";
import { pravoPath, TerraformAddressError } from "./address.ts";
import type { TfInstance, TfResource, TfState } from "./tfstate.ts";
import { sameProvider } from "./tfstate_provider.ts";
import { displayAddress, parseProviderSource } from "../providers/install/address.ts";
import { builtinSchemaVersion } from "./tfstate_builtin.ts";

/** One object of the state and the node that takes it over. */
export interface Takeover {
  /** The pravo address. */
  address: string;
  resource: TfResource;
  instance: TfInstance;
  node: Node;
}

/** An object of the state left out, and why. */
export interface Skipped {
  terraform_address: string;
  /** The pravo address it would have. */
  address: string;
  why: string;
}

export interface TakeoverCheck {
  takeovers: Takeover[];
  skipped: Skipped[];
  /** The refusals: when there is any, nothing is to be written. */
  diagnostics: Diagnostic[];
}

/** Terraform's built-in provider (`terraform_data`): pravo has none. */
const TERRAFORM_BUILTIN = "terraform.io/builtin/terraform";

const DATA_SKIPPED = "a data source: pravo reads it again at the next plan, as Terraform does";

/** What the check knows of pravo's side. */
export interface RootSide {
  spec: Pick<Spec, "nodes" | "providers">;
  /** The addresses pravo's state holds. */
  existing: ReadonlySet<string>;
  /**
   * The full address of a root's provider source (`hashicorp/aws`, a
   * plugin's `pravo/fake` as its lock pins it: `example.com/pravo/fake`);
   * default: on registry.terraform.io.
   */
  fullAddress?: (source: string) => string;
}

/**
 * Checks the state against the evaluated root and the addresses pravo's
 * state already holds.
 */
export function checkTakeover(state: TfState, root: RootSide): TakeoverCheck {
  const { spec, existing } = root;
  const full = root.fullAddress ?? ((s: string) => s);
  const out: TakeoverCheck = { takeovers: [], skipped: [], diagnostics: [] };
  const nodes = new Map(spec.nodes.map((n) => [n.address, n]));
  const managed = spec.nodes.filter((n) => n.mode === "managed").map((n) => n.address);
  const sources = new Set(
    [...spec.providers.map((p) => p.source), ...spec.nodes.map((n) => n.provider)].map(full),
  );
  const missingProviders = new Set<string>();
  const seen = new Map<string, string>();
  for (const res of state.resources) {
    for (const inst of res.instances) {
      const address = pravoAddressOf(inst, out.diagnostics);
      if (address === undefined) continue;
      if (res.mode === "data") {
        out.skipped.push({ terraform_address: inst.address, address, why: DATA_SKIPPED });
        continue;
      }
      const where = { address, range: inst.at };
      const twin = seen.get(address);
      seen.set(address, inst.address);
      if (twin !== undefined && !inst.deposed) {
        out.diagnostics.push(error(
          `${inst.address} and ${twin} both come to ${address}`,
          "A pravo address holds one object, and the converted root gives both the same one. " +
            "Move one of them in Terraform's state (`terraform state mv`), then import again.",
          where,
        ));
        continue;
      }
      const refusal = instanceRefusal(inst, address) ??
        providerRefusal(res, inst, address, sources, missingProviders);
      if (refusal !== undefined) {
        if (refusal) out.diagnostics.push(refusal);
        continue;
      }
      const node = nodes.get(address);
      const problem = node
        ? nodeRefusal(res, inst, { node, provider: full(node.provider) }, existing)
        : notDeclared(res, inst, address, managed);
      if (problem) out.diagnostics.push(problem);
      else out.takeovers.push({ address, resource: res, instance: inst, node: node! });
    }
  }
  return out;
}

/** The pravo address of an instance, or undefined (reported) when its address cannot be read. */
function pravoAddressOf(inst: TfInstance, diags: Diagnostic[]): string | undefined {
  try {
    return formatAddress(pravoPath(inst.address));
  } catch (e) {
    if (!(e instanceof TerraformAddressError)) throw e;
    diags.push(error(
      `The state's address ${inst.address} cannot be read`,
      `${e.message}. Give the state file as Terraform or OpenTofu wrote it ` +
        "(`terraform state pull > terraform.tfstate`).",
      { range: inst.at },
    ));
    return undefined;
  }
}

/** Why the instance itself cannot be taken over (tainted, deposed, flat), or undefined. */
function instanceRefusal(
  inst: TfInstance,
  address: string,
): Diagnostic | undefined {
  const where = { address, range: inst.at };
  if (inst.deposed) {
    return error(
      `${inst.address} has a deposed object (${inst.deposed})`,
      "Terraform replaced this object with create_before_destroy and has not destroyed the " +
        "old one yet; pravo keeps no deposed objects, and taking the state over would leave it " +
        "behind unmanaged. Finish with `terraform apply` (which destroys it), then import again.",
      where,
    );
  }
  if (inst.tainted) {
    return error(
      `${inst.address} is tainted`,
      "Terraform would replace it at its next apply; pravo keeps no taint in its state. Either " +
        `let Terraform replace it first (\`terraform apply -replace=${inst.address}\`), or ` +
        `untaint it (\`terraform untaint ${inst.address}\`), import again, and replace it with ` +
        `\`pravo plan --replace ${address}\` then \`pravo apply\`.`,
      where,
    );
  }
  if (inst.attributesFlat) {
    return error(
      `${inst.address} holds the flat attributes of Terraform 0.11`,
      "Its attributes were last written by Terraform 0.11 (attributes_flat), which pravo does " +
        `not read: their types are only in the provider's schema. Run \`terraform apply ` +
        "-refresh-only` with Terraform 0.12 or later (or OpenTofu), which writes them as " +
        `JSON, then import again.`,
      where,
    );
  }
  return undefined;
}

/**
 * Why the instance's provider is not one of the root's: a diagnostic, null
 * when it was said already for another of its resources, undefined when the
 * root has it.
 */
function providerRefusal(
  res: TfResource,
  inst: TfInstance,
  address: string,
  sources: ReadonlySet<string>,
  said: Set<string>,
): Diagnostic | null | undefined {
  if ([...sources].some((s) => sameProvider(res.provider, s))) return undefined;
  if (said.has(res.provider.address)) return null;
  said.add(res.provider.address);
  const where = { address, range: res.at };
  if (res.provider.address === TERRAFORM_BUILTIN) {
    return error(
      `${inst.address} is of Terraform's built-in provider`,
      `pravo has no ${res.type}: it is part of Terraform itself (${TERRAFORM_BUILTIN}). ` +
        `Remove it from Terraform's state (\`terraform state rm ${inst.address}\`) and declare ` +
        "what it stood for in pravo's terms (a null_resource, a local value), then import again.",
      where,
    );
  }
  return error(
    `The root has no provider ${res.provider.address}`,
    `${inst.address} (and every other object of ${res.provider.text}) belongs to ` +
      `${res.provider.address}, which the root does not require. Add it to pravo.jsonc's ` +
      `providers ("${displayAddress(res.provider)}": "VERSION", the version ` +
      "Terraform used, from .terraform.lock.hcl), run `pravo init`, declare its " +
      "configuration, then import again.",
    where,
  );
}

/** Why `node` cannot take the instance over, or undefined. */
function nodeRefusal(
  res: TfResource,
  inst: TfInstance,
  root: { node: Node; provider: string },
  existing: ReadonlySet<string>,
): Diagnostic | undefined {
  const { node, provider } = root;
  const address = node.address;
  const shown = displayAddress(parseProviderSource(provider));
  const where = { address, range: inst.at };
  const declared = node.range ? ` (${node.range.file} line ${node.range.line})` : "";
  if (node.mode !== "managed" || node.type !== res.type) {
    const what = node.mode === "managed" ? node.type : `${node.type} (${node.mode})`;
    return error(
      `${address} is of type ${what} in the root, and ${res.type} in Terraform's state`,
      `The root declares ${address}${declared} as ${what}; Terraform's ${inst.address} is ` +
        `of type ${res.type}. Declare ${address} as $${res.provider.type}.#Resource.${res.type} ` +
        "(as `pravo convert --from terraform` writes it), then import again.",
      where,
    );
  }
  if (!sameProvider(res.provider, provider)) {
    return error(
      `${address} is of ${shown} in the root, and of ${res.provider.address} in ` +
        "Terraform's state",
      `The root declares ${address}${declared} with the provider ${shown}; ` +
        `Terraform's ${inst.address} belongs to ${res.provider.address}. Declare it with a ` +
        `configuration of ${res.provider.namespace}/${res.provider.type}, then import again.`,
      where,
    );
  }
  const plugin = node.schema.plugin;
  const readable = plugin ? plugin.version : builtinSchemaVersion(node.type);
  if (plugin && inst.schemaVersion > readable) {
    return error(
      `${inst.address} was written by a newer release of ${shown}`,
      `Its schema version is ${inst.schemaVersion}, and the release of ${shown} that ` +
        `the root pins reads ${node.type} up to version ${readable}. Pin the release Terraform ` +
        "used (.terraform.lock.hcl) or a later one in pravo.jsonc, run `pravo init`, then " +
        "import again.",
      where,
    );
  }
  if (existing.has(address)) {
    return error(
      `${address} is already in the state`,
      `pravo's state holds an object at ${address}, and an address holds one object. Nothing ` +
        "was imported. Forget it first with `pravo state rm " +
        `${address}\` (the object itself is left as it is), then import again.`,
      where,
    );
  }
  return undefined;
}

/** The error for an instance whose address the root does not declare. */
function notDeclared(
  res: TfResource,
  inst: TfInstance,
  address: string,
  managed: readonly string[],
): Diagnostic {
  const near = nearest(address, managed);
  const hint = near === undefined ? "" : `did you mean ${near}?`;
  return error(
    `${address} is not declared in the root`,
    (inst.address === address
      ? `The root declares no resource at ${address}, where a converted root keeps ` +
        `Terraform's ${inst.address}`
      : `Terraform's ${inst.address} comes to ${address} in the converted root, and the root ` +
        "declares no resource there") +
      `${hint ? ` (${hint})` : ""}. Declare it as ` +
      "`pravo convert --from terraform` writes it from the configuration (" +
      `${res.type}: ${res.name}: $${res.provider.type}.#Resource.${res.type} & {...}` +
      `${res.module ? ` in ${res.module}'s definition` : ""}), or ` +
      `remove it from Terraform's state (\`terraform state rm ${inst.address}\`), then import ` +
      "again.",
    { address, range: inst.at },
  );
}
