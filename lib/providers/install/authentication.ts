/**
 * Authenticating a registry package, as Terraform does:
 *
 * 1. the registry's `SHA256SUMS` lists the package's file with the same
 *    SHA-256 as the registry announced (`shasum`);
 * 2. `SHA256SUMS` carries a valid OpenPGP signature by one of the keys the
 *    registry named (`openpgp.ts`);
 * 3. the downloaded archive has that SHA-256.
 *
 * Then every hash `SHA256SUMS` lists (one archive per platform) may be
 * recorded as a `zh:` hash in the lock, so that the lock also vouches for
 * the packages of other platforms.
 *
 * OpenTofu's registry serves some providers whose authors published no key;
 * for `registry.opentofu.org` alone, as OpenTofu does, a package without a
 * key is accepted on the strength of the registry's TLS, with a warning.
 * Anywhere else a missing key is refused.
 *
 * @module
 */

import { displayAddress, type ProviderAddress } from "./address.ts";
import { type Hash, zhOfSha256 } from "./hash.ts";
import { OpenPgpError, readPublicKeys, type Signer, verifyDetached } from "./openpgp.ts";
import { InstallError, type RegistryAuthentication } from "./source.ts";
import { type Version, versionString } from "./version.ts";

/** The registry whose keyless providers are accepted, as OpenTofu does. */
export const KEYLESS_REGISTRY = "registry.opentofu.org";

/** `SHA256SUMS` read: by file name, the SHA-256 (hex, lower case). */
export function parseShasums(doc: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of new TextDecoder().decode(doc).split("\n")) {
    const parts = line.trim().split(/\s+/);
    if (parts.length >= 2 && /^[0-9a-fA-F]{64}$/.test(parts[0])) {
      out.set(parts[1].replace(/^\*/, ""), parts[0].toLowerCase());
    }
  }
  return out;
}

/** What checking the checksums document found. */
export interface ChecksumsResult {
  /** Every archive's hash that the document lists, as `zh:`. */
  zh: Hash[];
  /** Who signed it; undefined when the signature was skipped. */
  signer?: Signer;
  /** Why the signature was skipped, when it was. */
  skipped?: string;
}

/** Checks steps 1 and 2, before the download. */
export function checkChecksums(
  provider: ProviderAddress,
  version: Version,
  auth: RegistryAuthentication,
): ChecksumsResult {
  const name = `${displayAddress(provider)} ${versionString(version)}`;
  const sums = parseShasums(auth.shasums);
  const listed = sums.get(auth.filename);
  if (listed === undefined) {
    throw new InstallError(
      "checksum",
      `The SHA256SUMS of ${name} does not list "${auth.filename}"`,
      `${auth.registryHost} announced a package its own checksums do not cover, so it cannot be ` +
        "trusted. Try again later; if it persists, report it to the provider's author.",
    );
  }
  if (listed !== auth.sha256) {
    throw new InstallError(
      "checksum",
      `Checksum mismatch for ${name}`,
      `The registry announced SHA-256 ${auth.sha256} for "${auth.filename}", but its signed ` +
        `SHA256SUMS says ${listed}. Do not use this package; report it to the provider's author.`,
    );
  }
  const zh = [...new Set(sums.values())].map(zhOfSha256);
  if (auth.signingKeys.length === 0) {
    if (auth.registryHost === KEYLESS_REGISTRY) {
      return {
        zh,
        skipped: `${KEYLESS_REGISTRY} named no signing key for ${name}, so its signature was ` +
          "not checked (as OpenTofu does); the checksums are trusted on the strength of the " +
          "registry's TLS",
      };
    }
    throw new InstallError(
      "signature",
      `${name} cannot be authenticated: the registry named no signing key`,
      `${auth.registryHost} gave no key to check the signature of its SHA256SUMS with. Ask the ` +
        'provider\'s author to publish one, or install the package from a mirror ("provider_mirrors").',
    );
  }
  const keys = [];
  for (const armored of auth.signingKeys) {
    try {
      keys.push(...readPublicKeys(armored));
    } catch (e) {
      throw new InstallError(
        "signature",
        `Cannot read the signing key of ${name}`,
        `${(e as Error).message}. Try again later; if it persists, report it to the registry.`,
      );
    }
  }
  try {
    const signer = verifyDetached(auth.shasums, auth.signature, keys);
    return { zh, signer };
  } catch (e) {
    if (!(e instanceof OpenPgpError)) throw e;
    throw new InstallError(
      "signature",
      `Bad signature on the checksums of ${name}`,
      `${e.message}. The package may have been tampered with: it was not installed. If the ` +
        "provider's author changed keys, wait for the registry to name the new one; otherwise " +
        "report it to the registry.",
    );
  }
}

/** Checks step 3, after the download. */
export function checkArchive(
  provider: ProviderAddress,
  version: Version,
  auth: RegistryAuthentication,
  sha256: string,
): void {
  if (sha256 !== auth.sha256) {
    throw new InstallError(
      "checksum",
      `Checksum mismatch for ${displayAddress(provider)} ${versionString(version)}`,
      `The downloaded "${auth.filename}" has SHA-256 ${sha256}, but the signed SHA256SUMS says ` +
        `${auth.sha256}. The download was damaged or tampered with, and was not installed. Run ` +
        "`pravo init` again; if it persists, report it to the registry.",
    );
  }
}
