/**
 * Where provider packages come from. A {@link Source} answers two questions,
 * as OpenTofu's `getproviders.Source` does: which versions of a provider it
 * offers, and where the package of one version for one platform is. There is
 * one implementation per place: a filesystem mirror (also used for the
 * plugin cache), a registry, a multi-source that asks them in order, and a
 * memoizing source.
 *
 * Failures are {@link InstallError}s: each carries a diagnostic whose detail
 * ends with what to do.
 *
 * @module
 */

import type { Diagnostic } from "../../diag/diag.ts";
import { error } from "../../diag/diag.ts";
import type { ProviderAddress } from "./address.ts";
import type { Platform } from "./platform.ts";
import type { Version } from "./version.ts";

/** One version a source offers. */
export interface AvailableVersion {
  version: Version;
  /** Plugin protocol versions (`"5.0"`), when the source knows them. */
  protocols?: string[];
  /** The platforms it is built for, when the source knows them. */
  platforms?: Platform[];
}

/** What a source says about a provider's versions. */
export interface VersionList {
  versions: AvailableVersion[];
  /** Warnings the source passes on (a registry's `warnings`). */
  warnings: string[];
  /** The source that answered, for messages (set by a multi-source). */
  origin?: string;
}

/** Where a package is. */
export type PackageLocation =
  | { kind: "local_dir"; path: string }
  | { kind: "local_archive"; path: string }
  | { kind: "http"; url: string };

/** How a registry package is authenticated once downloaded. */
export interface RegistryAuthentication {
  /** The SHA-256 (hex) of the zip archive that the registry announced. */
  sha256: string;
  /** The archive's file name, as `SHA256SUMS` lists it. */
  filename: string;
  /** The `SHA256SUMS` document. */
  shasums: Uint8Array;
  /** Its detached OpenPGP signature. */
  signature: Uint8Array;
  /** The signing keys the registry named, ASCII-armored. */
  signingKeys: string[];
  /** Where the signature may be skipped (no key named): see `authentication.ts`. */
  registryHost: string;
}

/** A package of one version for one platform, and where it is. */
export interface PackageMeta {
  provider: ProviderAddress;
  version: Version;
  platform: Platform;
  location: PackageLocation;
  /** Where it was found, for messages: `the mirror "/opt/tf-plugins"`. */
  origin: string;
  kind: "mirror" | "cache" | "registry";
  protocols?: string[];
  authentication?: RegistryAuthentication;
}

/** A place provider packages come from. */
export interface Source {
  /** Names the source in messages. */
  readonly name: string;
  availableVersions(provider: ProviderAddress): Promise<VersionList>;
  /** The package, or an {@link InstallError} of kind `platform` when there is none. */
  packageMeta(
    provider: ProviderAddress,
    version: Version,
    platform: Platform,
  ): Promise<PackageMeta>;
}

/** What went wrong, so that callers can tell the cases apart. */
export type InstallErrorKind =
  | "not_found"
  | "no_version"
  | "platform"
  | "protocol"
  | "network"
  | "registry"
  | "checksum"
  | "signature"
  | "lock"
  | "package"
  | "location";

/** A failure of installation, with the diagnostic to show. */
export class InstallError extends Error {
  readonly kind: InstallErrorKind;
  readonly diagnostic: Diagnostic;
  constructor(kind: InstallErrorKind, summary: string, detail: string) {
    super(`${summary}: ${detail}`);
    this.name = "InstallError";
    this.kind = kind;
    this.diagnostic = error(summary, detail);
  }
}
