/**
 * Provider source addresses, parsed as Terraform parses them
 * (`[HOSTNAME/]NAMESPACE/TYPE`, or a bare `TYPE`), and written in the
 * fully-qualified form that lock files and caches use.
 *
 * - `aws` is `registry.terraform.io/hashicorp/aws` (Terraform's implied
 *   namespace); `hashicorp/aws` is on the default host; three parts name the
 *   host (`registry.opentofu.org/hashicorp/aws`, `example.com:8443/acme/x`).
 * - Every part is compared in lower case (`HashiCorp/AWS` is
 *   `hashicorp/aws`), as Terraform folds them.
 * - A namespace or type holds letters, digits and dashes, not at either end
 *   and never two in a row; a type that starts with `terraform-` is refused
 *   (with a suggestion when it is `terraform-provider-NAME`).
 *
 * pravo accepts ASCII names only, where Terraform also accepts Unicode
 * letters (IDNA): no registry publishes such names today.
 *
 * @module
 */

/** The host of a source address that names none. */
export const DEFAULT_REGISTRY_HOST = "registry.terraform.io";

/** The namespace of a bare `TYPE`, as in Terraform. */
export const IMPLIED_NAMESPACE = "hashicorp";

/** A provider's address, every part in lower case. */
export interface ProviderAddress {
  /** `registry.terraform.io`; may carry a port: `example.com:8443`. */
  hostname: string;
  namespace: string;
  type: string;
}

/** Why a source address was refused: a summary and a detail that says what to do. */
export class AddressError extends Error {
  readonly summary: string;
  readonly detail: string;
  constructor(summary: string, detail: string) {
    super(`${summary}: ${detail}`);
    this.name = "AddressError";
    this.summary = summary;
    this.detail = detail;
  }
}

const PART = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const FORMAT = 'Write it as "[HOSTNAME/]NAMESPACE/TYPE", such as "hashicorp/aws".';

/**
 * Parses a source address.
 *
 * @example
 * ```ts
 * import { addressString, parseProviderSource } from "./address.ts";
 * const a = parseProviderSource("HashiCorp/AWS");
 * if (addressString(a) !== "registry.terraform.io/hashicorp/aws") throw new Error("not folded");
 * ```
 */
export function parseProviderSource(source: string): ProviderAddress {
  const parts = source.split("/");
  if (parts.length > 3 || parts.some((p) => p === "")) {
    throw new AddressError(`Invalid provider source "${source}"`, FORMAT);
  }
  const type = parsePart(parts[parts.length - 1], "type", source);
  const namespace = parts.length >= 2
    ? parsePart(parts[parts.length - 2], "namespace", source)
    : IMPLIED_NAMESPACE;
  const hostname = parts.length === 3 ? parseHostname(parts[0], source) : DEFAULT_REGISTRY_HOST;
  if (type.startsWith("terraform-")) {
    const rest = type.slice("terraform-provider-".length);
    if (type.startsWith("terraform-provider-") && PART.test(rest)) {
      const suggested = displayAddress({ hostname, namespace, type: rest });
      throw new AddressError(
        `Invalid provider type in "${source}"`,
        `The prefix "terraform-provider-" names repositories and executables, not providers. ` +
          `Write "${suggested}".`,
      );
    }
    throw new AddressError(
      `Invalid provider type in "${source}"`,
      `A provider type may not start with "terraform-". Name the provider without the prefix.`,
    );
  }
  return { hostname, namespace, type };
}

function parsePart(given: string, what: "namespace" | "type", source: string): string {
  if (given.includes(".")) {
    throw new AddressError(
      `Invalid provider ${what} "${given}" in "${source}"`,
      `Dots are not allowed in a ${what}. ${FORMAT}`,
    );
  }
  if (given.includes("--")) {
    throw new AddressError(
      `Invalid provider ${what} "${given}" in "${source}"`,
      `Two dashes in a row are not allowed in a ${what}. ${FORMAT}`,
    );
  }
  const part = given.toLowerCase();
  if (!PART.test(part) || part.length > 63) {
    throw new AddressError(
      `Invalid provider ${what} "${given}" in "${source}"`,
      `A ${what} holds up to 63 letters, digits and dashes, and starts and ends with a letter ` +
        `or digit. ${FORMAT}`,
    );
  }
  return part;
}

function parseHostname(given: string, source: string): string {
  const m = /^([^:]+)(?::(\d{1,5}))?$/.exec(given.toLowerCase());
  const labels = m ? m[1].replace(/\.$/, "").split(".") : [];
  const port = m?.[2] === undefined ? undefined : Number(m[2]);
  if (
    !m || labels.some((l) => !LABEL.test(l) || l.length > 63) ||
    (port !== undefined && (port < 1 || port > 65535))
  ) {
    throw new AddressError(
      `Invalid provider hostname "${given}" in "${source}"`,
      `A hostname is a DNS name with an optional port, such as "registry.opentofu.org". ${FORMAT}`,
    );
  }
  const host = labels.join(".");
  return port === undefined || port === 443 ? host : `${host}:${port}`;
}

/** `registry.terraform.io/hashicorp/aws`: the form of lock files and caches. */
export function addressString(a: ProviderAddress): string {
  return `${a.hostname}/${a.namespace}/${a.type}`;
}

/** `hashicorp/aws` on the default host, else the full address. */
export function displayAddress(a: ProviderAddress): string {
  return a.hostname === DEFAULT_REGISTRY_HOST ? `${a.namespace}/${a.type}` : addressString(a);
}

/** True when both name the same provider. */
export function sameAddress(a: ProviderAddress, b: ProviderAddress): boolean {
  return a.hostname === b.hostname && a.namespace === b.namespace && a.type === b.type;
}
