/**
 * A {@link Source} that remembers what another answered, so that one run of
 * `pravo init` asks a registry once per question, however many times the
 * installer needs the answer. Failures are remembered too.
 *
 * @module
 */

import { addressString, type ProviderAddress } from "./address.ts";
import { type Platform, platformString } from "./platform.ts";
import type { PackageMeta, Source, VersionList } from "./source.ts";
import { type Version, versionString } from "./version.ts";

/** Remembers the answers of `source` for the life of this object. */
export class MemoizeSource implements Source {
  readonly name: string;
  readonly #source: Source;
  readonly #versions = new Map<string, Promise<VersionList>>();
  readonly #metas = new Map<string, Promise<PackageMeta>>();

  constructor(source: Source) {
    this.#source = source;
    this.name = source.name;
  }

  availableVersions(provider: ProviderAddress): Promise<VersionList> {
    const key = addressString(provider);
    let p = this.#versions.get(key);
    if (!p) {
      p = this.#source.availableVersions(provider);
      this.#versions.set(key, p);
    }
    return p;
  }

  packageMeta(
    provider: ProviderAddress,
    version: Version,
    platform: Platform,
  ): Promise<PackageMeta> {
    const key = `${addressString(provider)} ${versionString(version)} ${platformString(platform)}`;
    let p = this.#metas.get(key);
    if (!p) {
      p = this.#source.packageMeta(provider, version, platform);
      this.#metas.set(key, p);
    }
    return p;
  }
}
