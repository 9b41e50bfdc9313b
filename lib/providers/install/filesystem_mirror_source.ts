/**
 * A directory in Terraform's filesystem-mirror layout, as a {@link Source}.
 * It holds packages in either of two forms, side by side:
 *
 * - packed: `HOSTNAME/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip`;
 * - unpacked: `HOSTNAME/NAMESPACE/TYPE/VERSION/OS_ARCH/` (a directory, or a
 *   symbolic link to one, holding the executable).
 *
 * `terraform providers mirror DIR` writes the packed form; Terraform's
 * plugin cache (`$TF_PLUGIN_CACHE_DIR`) uses the unpacked one, so the same
 * code reads the cache. Names are matched as Terraform folds them (any case);
 * entries whose names do not parse are skipped. Where both forms of a
 * package are present, the unpacked one is used.
 *
 * @module
 */

import { join } from "node:path";
import type { ProviderAddress } from "./address.ts";
import { type Platform, platformString } from "./platform.ts";
import {
  type AvailableVersion,
  InstallError,
  type PackageMeta,
  type Source,
  type VersionList,
} from "./source.ts";
import { parseVersion, sameVersion, type Version, versionString } from "./version.ts";

interface Found {
  version: Version;
  platform: Platform;
  path: string;
  packed: boolean;
}

/** Lists a directory's entries by lower-cased name; empty when it is missing. */
function entries(dir: string): Map<string, Deno.DirEntry> {
  const out = new Map<string, Deno.DirEntry>();
  try {
    for (const e of Deno.readDirSync(dir)) out.set(e.name.toLowerCase(), e);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) return out;
    throw e;
  }
  return out;
}

function isDir(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** A filesystem mirror, or the plugin cache read as one. */
export class FilesystemMirrorSource implements Source {
  readonly name: string;
  readonly dir: string;
  readonly kind: "mirror" | "cache";

  /** `dir`: absolute. `kind` says how messages name it. */
  constructor(dir: string, kind: "mirror" | "cache" = "mirror") {
    this.dir = dir;
    this.kind = kind;
    this.name = kind === "mirror" ? `the mirror "${dir}"` : `the plugin cache "${dir}"`;
  }

  /** Every package of the provider here. Throws when the mirror cannot be read. */
  #search(provider: ProviderAddress): Found[] {
    try {
      Deno.statSync(this.dir);
    } catch (e) {
      if (this.kind === "cache" && e instanceof Deno.errors.NotFound) return [];
      throw new InstallError(
        "location",
        `Cannot read ${this.name}`,
        `${
          (e as Error).message
        }. Correct "provider_mirrors" in pravo.jsonc, or create the directory.`,
      );
    }
    const host = entries(this.dir).get(provider.hostname);
    if (!host) return [];
    const ns = entries(join(this.dir, host.name)).get(provider.namespace);
    if (!ns) return [];
    const typeDir = join(this.dir, host.name, ns.name);
    const type = entries(typeDir).get(provider.type);
    if (!type) return [];
    const base = join(typeDir, type.name);
    const found: Found[] = [];
    const zipName = new RegExp(
      `^terraform-provider-${provider.type}_([^_]+)_([a-z0-9]+)_([a-z0-9]+)\\.zip$`,
    );
    for (const [lower, e] of entries(base)) {
      const path = join(base, e.name);
      const packed = zipName.exec(lower);
      if (packed) {
        const version = parseVersion(packed[1]);
        if (version && (e.isFile || e.isSymlink)) {
          found.push({ version, platform: { os: packed[2], arch: packed[3] }, path, packed: true });
        }
        continue;
      }
      const version = parseVersion(e.name);
      if (!version || !isDir(path)) continue;
      for (const [platformName, p] of entries(path)) {
        const m = /^([a-z0-9]+)_([a-z0-9]+)$/.exec(platformName);
        const dir = join(path, p.name);
        if (m && isDir(dir)) {
          found.push({ version, platform: { os: m[1], arch: m[2] }, path: dir, packed: false });
        }
      }
    }
    return found;
  }

  /** The unpacked package of this version and platform, if the mirror holds one. */
  unpackedDir(provider: ProviderAddress, version: Version, platform: Platform): string | undefined {
    let found: Found[];
    try {
      found = this.#search(provider);
    } catch {
      return undefined;
    }
    return found.find((f) =>
      !f.packed && sameVersion(f.version, version) &&
      platformString(f.platform) === platformString(platform)
    )?.path;
  }

  // deno-lint-ignore require-await
  async availableVersions(provider: ProviderAddress): Promise<VersionList> {
    const byVersion = new Map<string, AvailableVersion>();
    for (const f of this.#search(provider)) {
      const key = versionString(f.version);
      const v = byVersion.get(key) ?? { version: f.version, platforms: [] };
      if (!v.platforms!.some((p) => platformString(p) === platformString(f.platform))) {
        v.platforms!.push(f.platform);
      }
      byVersion.set(key, v);
    }
    return { versions: [...byVersion.values()], warnings: [], origin: this.name };
  }

  // deno-lint-ignore require-await
  async packageMeta(
    provider: ProviderAddress,
    version: Version,
    platform: Platform,
  ): Promise<PackageMeta> {
    const matches = this.#search(provider).filter((f) =>
      sameVersion(f.version, version) && platformString(f.platform) === platformString(platform)
    ).sort((a, b) => Number(a.packed) - Number(b.packed));
    if (matches.length === 0) {
      throw new InstallError(
        "platform",
        `${this.name} has no package of ${provider.namespace}/${provider.type} ` +
          `${versionString(version)} for ${platformString(platform)}`,
        `Add the package for ${platformString(platform)} to the mirror, or choose another version.`,
      );
    }
    const m = matches[0];
    return {
      provider,
      version: m.version,
      platform,
      location: m.packed
        ? { kind: "local_archive", path: m.path }
        : { kind: "local_dir", path: m.path },
      origin: this.name,
      kind: this.kind,
    };
  }
}
