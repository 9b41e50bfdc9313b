/**
 * Sources asked in order, as one {@link Source}.
 *
 * - Versions: the first source that offers any version of the provider
 *   answers alone. A mirror that holds a provider is thus the only place its
 *   versions come from, as Terraform treats its local mirror directories.
 * - A package: the first source that has it for the platform.
 * - A source that cannot be reached (no network) or does not know the
 *   provider is passed over, and the next one asked; when none answers, the
 *   first failure is reported. When a later source answered after an earlier
 *   one could not be reached, the answer carries a warning that says so.
 *
 * pravo's installer orders them: the mirrors of `provider_mirrors`, the
 * registry, then the plugin cache (see `installer.ts` for why the cache
 * comes after the registry unless the lock vouches for it).
 *
 * @module
 */

import type { ProviderAddress } from "./address.ts";
import type { Platform } from "./platform.ts";
import { InstallError, type PackageMeta, type Source, type VersionList } from "./source.ts";
import type { Version } from "./version.ts";

/** Failures after which the next source is asked. */
const PASS_OVER = new Set(["network", "not_found", "platform"]);

/** Several sources, asked in order. */
export class MultiSource implements Source {
  readonly name: string;
  readonly sources: readonly Source[];

  constructor(sources: readonly Source[]) {
    this.sources = sources;
    this.name = sources.map((s) => s.name).join(", ");
  }

  async availableVersions(provider: ProviderAddress): Promise<VersionList> {
    const failures: InstallError[] = [];
    for (const source of this.sources) {
      let list: VersionList;
      try {
        list = await source.availableVersions(provider);
      } catch (e) {
        if (e instanceof InstallError && PASS_OVER.has(e.kind)) {
          failures.push(e);
          continue;
        }
        throw e;
      }
      if (list.versions.length === 0) continue;
      const unreachable = failures.filter((f) => f.kind === "network");
      return {
        versions: list.versions,
        warnings: [
          ...list.warnings,
          ...unreachable.map((f) =>
            `${f.diagnostic.summary}, so the versions come from ${list.origin ?? source.name}`
          ),
        ],
        origin: list.origin ?? source.name,
      };
    }
    if (failures.length > 0) throw failures.find((f) => f.kind === "network") ?? failures[0];
    return { versions: [], warnings: [] };
  }

  async packageMeta(
    provider: ProviderAddress,
    version: Version,
    platform: Platform,
  ): Promise<PackageMeta> {
    const failures: InstallError[] = [];
    for (const source of this.sources) {
      try {
        return await source.packageMeta(provider, version, platform);
      } catch (e) {
        if (e instanceof InstallError && PASS_OVER.has(e.kind)) {
          failures.push(e);
          continue;
        }
        throw e;
      }
    }
    throw failures.find((f) => f.kind === "network") ?? failures[0] ??
      new InstallError("platform", "No source has the package", "Check pravo.jsonc.");
  }
}
