/**
 * The provider of a resource in a Terraform state
 * (`provider["registry.terraform.io/hashicorp/aws"]`, with an alias
 * `provider["registry.terraform.io/hashicorp/aws"].west`, or a module's own
 * configuration `module.m.provider["..."]`), and whether it is the provider
 * a pravo root requires.
 *
 * The same provider: the same namespace and type, on the same registry host,
 * or one on `registry.terraform.io` and the other on `registry.opentofu.org`.
 * OpenTofu's registry republishes the providers of Terraform's under the
 * same names, built from the same sources, so that OpenTofu writes
 * `registry.opentofu.org/hashicorp/aws` where Terraform writes
 * `registry.terraform.io/hashicorp/aws` for one provider; whether the
 * release the root pins can read the object is then the schema version's
 * to say, as it is between two releases of one registry. Any other host
 * (a private registry) must be the root's own.
 *
 * @module
 */

import {
  addressString,
  parseProviderSource,
  type ProviderAddress,
} from "../providers/install/address.ts";

/** A resource's provider configuration, as a state names it. */
export interface TfProviderRef extends ProviderAddress {
  /** As the state writes it. */
  text: string;
  /** `registry.terraform.io/hashicorp/aws`. */
  address: string;
  /** The configuration's alias (`west`), when it has one. */
  alias?: string;
  /** The module whose own provider block it is (`module.m`), when not the root's. */
  module?: string;
}

/** Why a provider reference cannot be read, and what to do. */
export interface ProviderProblem {
  summary: string;
  detail: string;
}

/** The registries that publish the same providers under the same names. */
export const PUBLIC_REGISTRIES: readonly string[] = [
  "registry.terraform.io",
  "registry.opentofu.org",
];

const REF = /^(?:(module\..+)\.)?provider\["([^"]+)"\](?:\.([A-Za-z_][A-Za-z0-9_-]*))?$/;
const LEGACY = /^(?:module\..+\.)?provider\.([A-Za-z0-9_-]+)(?:\.[A-Za-z0-9_-]+)?$/;

/**
 * Reads a state's provider reference.
 *
 * @example
 * ```ts
 * import { parseProviderRef } from "./tfstate_provider.ts";
 * const p = parseProviderRef('provider["registry.terraform.io/hashicorp/aws"].west');
 * if (!("address" in p) || p.alias !== "west") throw new Error("not read");
 * ```
 */
export function parseProviderRef(text: string): TfProviderRef | { problem: ProviderProblem } {
  const legacy = LEGACY.exec(text);
  if (legacy) {
    return {
      problem: {
        summary: `The provider "${text}" is written as Terraform 0.12 wrote it`,
        detail: "States of Terraform 0.12 name providers without their source. Run " +
          "`terraform apply -refresh-only` with Terraform 0.13 or later (or OpenTofu), which " +
          'writes the full source (`provider["registry.terraform.io/hashicorp/' +
          `${legacy[1]}"]\`), then import the file it writes.`,
      },
    };
  }
  const m = REF.exec(text);
  if (!m) {
    return {
      problem: {
        summary: `"${text}" is not a provider configuration's address`,
        detail: 'A state names a resource\'s provider as provider["HOST/NAMESPACE/TYPE"], ' +
          "with .ALIAS for an alias. Give the state file as Terraform or OpenTofu wrote it " +
          "(`terraform state pull > terraform.tfstate`).",
      },
    };
  }
  const [, module, source, alias] = m;
  const parts = source.split("/");
  if (parts.length === 3 && parts[1] === "-") {
    return {
      problem: {
        summary: `The provider "${source}" is a legacy provider without a namespace`,
        detail: "Terraform 0.13 names the providers of older states this way until they are " +
          "replaced. Run `terraform state replace-provider " +
          `${source} registry.terraform.io/hashicorp/${parts[2]}\` (or the provider's real ` +
          "namespace), then import the state again.",
      },
    };
  }
  let addr: ProviderAddress;
  try {
    addr = parseProviderSource(source);
  } catch (e) {
    return {
      problem: {
        summary: `The provider "${source}" is not a provider's address`,
        detail: `${(e as Error).message}. Give the state file as Terraform or OpenTofu wrote it ` +
          "(`terraform state pull > terraform.tfstate`).",
      },
    };
  }
  const out: TfProviderRef = { ...addr, text, address: addressString(addr) };
  if (alias) out.alias = alias;
  if (module) out.module = module;
  return out;
}

/**
 * True when the state's provider is the root's provider of source `source`
 * (`hashicorp/aws`, `example.com/acme/x`): as this module's doc says.
 */
export function sameProvider(ref: ProviderAddress, source: string): boolean {
  let root: ProviderAddress;
  try {
    root = parseProviderSource(source);
  } catch {
    return false;
  }
  if (root.namespace !== ref.namespace || root.type !== ref.type) return false;
  return root.hostname === ref.hostname ||
    (PUBLIC_REGISTRIES.includes(root.hostname) && PUBLIC_REGISTRIES.includes(ref.hostname));
}
