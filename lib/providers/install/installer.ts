/**
 * Installing providers into the plugin cache, and what to pin in the lock,
 * as OpenTofu's `providercache.Installer` does.
 *
 * For each provider that `pravo.jsonc` requires:
 *
 * 1. The version. A locked version is kept (unless `upgrade`), provided it
 *    still meets the constraints; otherwise the newest acceptable version
 *    that the sources offer: the mirrors of `provider_mirrors` (a mirror that
 *    holds the provider is the only place its versions come from), else the
 *    registry, else, when the registry cannot be reached, the plugin cache.
 * 2. The package. When the lock vouches for the version (its hashes) and the
 *    cache holds a package that matches them, it is used as it is: no
 *    network. Otherwise it comes from a mirror, or from the registry
 *    (checksums signed, downloaded, checked, extracted into the cache); the
 *    cache is the last resort. A cache entry the lock does not vouch for is
 *    not trusted over the registry, as in Terraform. A mirror's unpacked
 *    package is used where it is, not copied (Terraform links it into its
 *    cache with a symbolic link, which Deno allows only to programs that may
 *    read and write everywhere, and a copy of the AWS provider is 700 MB):
 *    `executable.ts` looks in the mirrors too. A packed one is extracted
 *    into the cache.
 * 3. The check. A package of the locked version must match one of the
 *    locked hashes (`h1:`, or `zh:` for an archive).
 * 4. The pin: the version, the constraints in canonical form, and the hashes:
 *    those already locked for this version, the package's `h1:`, and from a
 *    registry every `zh:` its signed `SHA256SUMS` lists.
 *
 * Mirrors and the cache inside the root are refused: see `cache_dir.ts`.
 *
 * @module
 */

import { join } from "node:path";
import { type Diagnostic, DiagnosticsError, type SourcePos, warning } from "../../diag/diag.ts";
import { addressString, displayAddress, type ProviderAddress } from "./address.ts";
import { checkArchive, checkChecksums } from "./authentication.ts";
import { isInsideRoot, packageDirIn } from "./cache_dir.ts";
import { FilesystemMirrorSource } from "./filesystem_mirror_source.ts";
import { h1OfFiles, hashPackageDir, sha256File, zhOfSha256 } from "./hash.ts";
import type { FileHashCache } from "./hash_cache.ts";
import { download } from "./http.ts";
import { MemoizeSource } from "./memoize_source.ts";
import { MultiSource } from "./multi_source.ts";
import { type Platform, platformString } from "./platform.ts";
import type { LockedPlugin } from "./lock.ts";
import { InstallError, type PackageMeta, type Source } from "./source.ts";
import {
  acceptable,
  type Condition,
  constraintsString,
  newestAcceptable,
  newestFirst,
  parseVersion,
  type Version,
  versionString,
} from "./version.ts";
import { extractZip, ZipError } from "./zip.ts";

/** A provider that the configuration requires. */
export interface Requirement {
  address: ProviderAddress;
  /** As written in `pravo.jsonc`, for messages. */
  source: string;
  constraints: Condition[];
  /** Where `pravo.jsonc` requires it. */
  range?: SourcePos;
}

export type { LockedPlugin } from "./lock.ts";

/** What happened to one provider. */
export interface InstalledProvider {
  /** `registry.terraform.io/hashicorp/aws`. */
  address: string;
  lock: LockedPlugin;
  /**
   * `installed`: written into the cache now, from `origin`; `used`: used
   * where it is (a mirror's unpacked package, or the cache).
   */
  action: "installed" | "used";
  /** The package was checked against hashes the lock held already. */
  matchedLock: boolean;
  origin: string;
  kind: "mirror" | "cache" | "registry";
  /** The package's directory: in the cache, or a mirror's unpacked package. */
  packageDir: string;
  /** The executable, absolute, symbolic links resolved. */
  executable: string;
  /** The primary key ID that signed the registry's checksums. */
  signedBy?: string;
}

/** Progress, for a human watching a download. */
export type InstallEvent = { kind: "download"; address: string; version: string; url: string };

export interface InstallOptions {
  root: string;
  requirements: readonly Requirement[];
  /** The lock's plugin entries, by address. */
  locked: Readonly<Record<string, LockedPlugin>>;
  /** Choose the newest acceptable versions, even where a version is locked. */
  upgrade?: boolean;
  /** Filesystem mirrors, absolute, in the order to ask them. */
  mirrors: readonly { path: string; range?: SourcePos }[];
  /** The plugin cache, absolute. */
  cacheDir: string;
  hashCache: FileHashCache;
  platform: Platform;
  /** The registries (default: none, so only mirrors and the cache serve). */
  registry?: Source;
  onEvent?: (e: InstallEvent) => void;
}

/** The result: one entry per requirement, in order, and warnings. */
export interface InstallResult {
  providers: InstalledProvider[];
  warnings: Diagnostic[];
}

/** Plugin protocol majors that pravo speaks. */
const PROTOCOLS = new Set(["5", "6"]);

function speaksOurProtocol(protocols: readonly string[] | undefined): boolean {
  return protocols === undefined || protocols.length === 0 ||
    protocols.some((p) => PROTOCOLS.has(p.split(".")[0]));
}

function refuseInsideRoot(path: string, root: string, what: string, range?: SourcePos): void {
  if (isInsideRoot(path, root)) {
    throw new DiagnosticsError([{
      severity: "error",
      summary: `${what} "${path}" is inside the root`,
      detail: "Anyone who may edit the root (an agent, too) could plant an executable there, and " +
        "pravo never runs one from inside the root. Keep provider mirrors and the plugin cache " +
        "outside the root.",
      ...(range ? { range } : {}),
    }], "error");
  }
}

/**
 * Installs every required provider into the cache and returns what to lock.
 * Throws a {@link DiagnosticsError} (exit 1) that lists every provider that
 * failed.
 */
export async function installProviders(options: InstallOptions): Promise<InstallResult> {
  const { root, cacheDir } = options;
  refuseInsideRoot(cacheDir, root, "The plugin cache");
  // Made now, so that its real path (links resolved) is checked again.
  await Deno.mkdir(cacheDir, { recursive: true });
  refuseInsideRoot(cacheDir, root, "The plugin cache");
  for (const m of options.mirrors) refuseInsideRoot(m.path, root, "The provider mirror", m.range);
  const mirrors = options.mirrors.map((m) => new FilesystemMirrorSource(m.path, "mirror"));
  const cache = new FilesystemMirrorSource(cacheDir, "cache");
  const sources = new MultiSource([
    ...mirrors,
    ...(options.registry ? [new MemoizeSource(options.registry)] : []),
    cache,
  ]);
  const providers: InstalledProvider[] = [];
  const warnings: Diagnostic[] = [];
  const errors: Diagnostic[] = [];
  for (const req of options.requirements) {
    try {
      providers.push(await installOne(req, sources, options, warnings));
    } catch (e) {
      if (e instanceof InstallError) errors.push({ ...e.diagnostic, ...where(req) });
      else if (e instanceof DiagnosticsError) errors.push(...e.diagnostics);
      else if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) {
        errors.push({
          severity: "error",
          summary: `pravo may not read or write what ${displayAddress(req.address)} needs`,
          detail:
            `${(e as Error).message}. Run \`pravo init\` through scripts/pravo (it grants the ` +
            "plugin cache and the mirrors), or grant that path to the process that runs pravo.",
          ...where(req),
        });
      } else throw e;
    }
  }
  options.hashCache.save();
  if (errors.length > 0) throw new DiagnosticsError(errors, "error");
  return { providers, warnings };
}

function where(req: Requirement): { range?: SourcePos } {
  return req.range ? { range: req.range } : {};
}

/**
 * The version to install: the locked one (refused when it no longer meets
 * the constraint), else, or with -upgrade, the newest the constraint allows.
 */
async function versionFor(
  req: Requirement,
  sources: Source,
  options: InstallOptions,
  warnings: Diagnostic[],
): Promise<Version> {
  const locked = options.locked[addressString(req.address)];
  if (!locked || options.upgrade) {
    return await chooseVersion(req, sources, options.platform, warnings);
  }
  const v = parseVersion(locked.version)!;
  if (!acceptable(v, req.constraints)) {
    const name = displayAddress(req.address);
    throw new InstallError(
      "lock",
      `The locked version of ${name} does not meet its constraint`,
      `pravo.lock.json pins ${name} ${locked.version}, but pravo.jsonc asks for "${
        constraintsString(req.constraints)
      }". Run \`pravo init -upgrade\` to choose a new version.`,
    );
  }
  return v;
}

async function installOne(
  req: Requirement,
  sources: Source,
  options: InstallOptions,
  warnings: Diagnostic[],
): Promise<InstalledProvider> {
  const { platform, root } = options;
  const key = addressString(req.address);
  const name = displayAddress(req.address);
  const locked = options.locked[key];
  const constraints = constraintsString(req.constraints);
  const version = await versionFor(req, sources, options, warnings);
  const v = versionString(version);
  const lockedHashes = locked && locked.version === v ? locked.hashes : [];
  const cacheEntry = packageDirIn(options.cacheDir, req.address, version, platform);

  // The cache, when the lock vouches for what it holds: no network at all.
  if (lockedHashes.length > 0 && exists(cacheEntry)) {
    refuseInsideRoot(cacheEntry, root, "The cached package");
    const h1 = hashPackageDir(cacheEntry, options.hashCache);
    if (lockedHashes.includes(h1)) {
      return done(req, v, constraints, lockedHashes, [h1], {
        action: "used",
        matchedLock: true,
        origin: cacheName(options),
        kind: "cache",
        packageDir: cacheEntry,
      });
    }
  }

  const meta = await sources.packageMeta(req.address, version, platform);
  if (!speaksOurProtocol(meta.protocols)) throw protocolError(req, v, meta.protocols!);
  switch (meta.location.kind) {
    case "local_dir": {
      const dir = meta.location.path;
      refuseInsideRoot(dir, root, "The package");
      const h1 = hashPackageDir(dir, options.hashCache);
      checkLocked(req, v, lockedHashes, [h1], meta);
      if (meta.kind === "cache" && lockedHashes.length === 0) {
        warnings.push(warning(
          `${name} ${v} was taken from the plugin cache, unverified`,
          `No registry could be reached and pravo.lock.json had no hash for it, so pravo trusts ` +
            `the copy in "${options.cacheDir}". Run \`pravo init\` again with the network to check it.`,
        ));
      }
      return done(req, v, constraints, lockedHashes, [h1], {
        action: "used",
        matchedLock: lockedHashes.length > 0,
        origin: meta.origin,
        kind: meta.kind,
        packageDir: Deno.realPathSync(dir),
      });
    }
    case "local_archive": {
      const zip = meta.location.path;
      refuseInsideRoot(zip, root, "The package");
      const zh = zhOfSha256(sha256File(zip));
      const h1 = await extractIntoCache(
        zip,
        cacheEntry,
        options.cacheDir,
        (h1) => checkLocked(req, v, lockedHashes, [h1, zh], meta),
      );
      return done(req, v, constraints, lockedHashes, [h1], {
        action: "installed",
        matchedLock: lockedHashes.length > 0,
        origin: meta.origin,
        kind: meta.kind,
        packageDir: cacheEntry,
      });
    }
    case "http": {
      const auth = meta.authentication!;
      const checked = checkChecksums(req.address, version, auth);
      if (checked.skipped) {
        warnings.push(warning(`${name} ${v}: signature not checked`, checked.skipped + "."));
      }
      const tmpDir = join(options.cacheDir, ".pravo-tmp");
      await Deno.mkdir(tmpDir, { recursive: true });
      const zip = join(tmpDir, `${crypto.randomUUID()}.zip`);
      try {
        options.onEvent?.({ kind: "download", address: key, version: v, url: meta.location.url });
        const got = await download(meta.location.url, zip, {
          host: new URL(meta.location.url).host,
          what: `the package of ${name} ${v}`,
        });
        checkArchive(req.address, version, auth, got.sha256);
        const h1 = await extractIntoCache(
          zip,
          cacheEntry,
          options.cacheDir,
          (h1) => checkLocked(req, v, lockedHashes, [h1, zhOfSha256(got.sha256)], meta),
        );
        return done(req, v, constraints, lockedHashes, [h1, ...checked.zh], {
          action: "installed",
          matchedLock: lockedHashes.length > 0,
          origin: meta.origin,
          kind: "registry",
          packageDir: cacheEntry,
          signedBy: checked.signer?.keyId,
        });
      } finally {
        await Deno.remove(zip).catch(() => {});
      }
    }
  }
}

function cacheName(options: InstallOptions): string {
  return `the plugin cache "${options.cacheDir}"`;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

async function chooseVersion(
  req: Requirement,
  sources: Source,
  platform: Platform,
  warnings: Diagnostic[],
): Promise<Version> {
  const name = displayAddress(req.address);
  const list = await sources.availableVersions(req.address);
  for (const w of list.warnings) {
    warnings.push(warning(`${name}: ${w}`, "Read it before you rely on this provider."));
  }
  const wanted = constraintsString(req.constraints);
  if (list.versions.length === 0) {
    throw new InstallError(
      "not_found",
      `There is no version of ${addressString(req.address)} to install`,
      'No mirror of "provider_mirrors" holds it, and its registry lists no version of it. ' +
        'Check its source address in "providers" of pravo.jsonc, or add it to a mirror.',
    );
  }
  const all = list.versions.map((a) => a.version);
  const best = newestAcceptable(all, req.constraints);
  if (!best) {
    const releases = newestFirst(all).filter((v) => v.prerelease === "").map(versionString);
    const shown = releases.slice(0, 12);
    const more = releases.length - shown.length;
    const offers = shown.length === 0
      ? "only pre-releases"
      : shown.join(", ") + (more > 0 ? ` and ${more} older one${more === 1 ? "" : "s"}` : "");
    throw new InstallError(
      "no_version",
      `No version of ${name} matches "${wanted || "any version"}"`,
      `Available from ${list.origin ?? "the sources"}: ${offers}. Change the constraint of ` +
        `"${req.source}" in pravo.jsonc to allow one of them.`,
    );
  }
  const entry = list.versions.find((a) => versionString(a.version) === versionString(best))!;
  if (!speaksOurProtocol(entry.protocols)) {
    throw protocolError(req, versionString(best), entry.protocols!, list.versions);
  }
  if (
    entry.platforms && !entry.platforms.some((p) => platformString(p) === platformString(platform))
  ) {
    const others = entry.platforms.map(platformString).sort();
    throw new InstallError(
      "platform",
      `${name} ${versionString(best)} is not available for ${platformString(platform)}`,
      `It is built for ${others.join(", ") || "no platform"} (at ${
        list.origin ?? "the source"
      }). Pin a ` +
        `version built for ${platformString(platform)} in "providers" of pravo.jsonc ` +
        `(such as "= X.Y.Z"), or add such a package to a mirror.`,
    );
  }
  return best;
}

function protocolError(
  req: Requirement,
  v: string,
  protocols: readonly string[],
  versions?: readonly { version: Version; protocols?: string[] }[],
): InstallError {
  const name = displayAddress(req.address);
  const ok = versions?.filter((a) => speaksOurProtocol(a.protocols) && a.protocols?.length)
    .map((a) => a.version);
  const suggestion = ok && ok.length ? newestFirst(ok)[0] : undefined;
  return new InstallError(
    "protocol",
    `${name} ${v} speaks plugin protocol ${protocols.join(", ")}, which pravo does not`,
    `pravo speaks plugin protocols 5 and 6. ${
      suggestion
        ? `The newest version that does is ${versionString(suggestion)}: pin it`
        : "Pin a version that does"
    } in "providers" of pravo.jsonc.`,
  );
}

function checkLocked(
  req: Requirement,
  v: string,
  lockedHashes: readonly string[],
  got: readonly string[],
  meta: PackageMeta,
): void {
  if (lockedHashes.length === 0 || got.some((h) => lockedHashes.includes(h))) return;
  const name = displayAddress(req.address);
  throw new InstallError(
    "checksum",
    `The package of ${name} ${v} does not match pravo.lock.json`,
    `The package from ${meta.origin} has ${got.join(" and ")}, none of the hashes locked for ` +
      `this version (they may be for other platforms only), so pravo does not use it. If you ` +
      `trust this package, remove the entry of "${addressString(req.address)}" from ` +
      "pravo.lock.json and run `pravo init` again.",
  );
}

function removeEntry(entry: string): void {
  try {
    const info = Deno.lstatSync(entry);
    Deno.removeSync(entry, { recursive: info.isDirectory });
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}

/**
 * Extracts an archive into a new directory of the cache, lets `check` judge
 * its `h1:` hash, then moves it into place. Nothing is left when it fails.
 */
async function extractIntoCache(
  zip: string,
  entry: string,
  cacheDir: string,
  check: (h1: string) => void,
): Promise<string> {
  const tmpDir = join(cacheDir, ".pravo-tmp");
  await Deno.mkdir(tmpDir, { recursive: true });
  const tmp = join(tmpDir, crypto.randomUUID());
  await Deno.mkdir(tmp, { mode: 0o755 });
  try {
    let files;
    try {
      files = await extractZip(zip, tmp);
    } catch (e) {
      if (!(e instanceof ZipError)) throw e;
      throw new InstallError(
        "package",
        `The provider package "${zip}" cannot be used`,
        `${e.message}. Replace it with a good copy of the package.`,
      );
    }
    const h1 = h1OfFiles(files);
    check(h1);
    await Deno.mkdir(join(entry, ".."), { recursive: true });
    removeEntry(entry);
    await Deno.rename(tmp, entry);
    return h1;
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

function done(
  req: Requirement,
  version: string,
  constraints: string,
  lockedHashes: readonly string[],
  newHashes: readonly string[],
  rest: Omit<InstalledProvider, "address" | "lock" | "executable">,
): InstalledProvider {
  const hashes = [...new Set([...lockedHashes, ...newHashes])].sort();
  return {
    address: addressString(req.address),
    lock: { version, constraints, hashes },
    executable: findExecutable(rest.packageDir, req.address),
    ...rest,
  };
}

/**
 * The provider's executable in its package directory: the file whose name
 * starts with `terraform-provider-TYPE`, as Terraform finds it. Absolute,
 * symbolic links resolved.
 */
export function findExecutable(packageDir: string, address: ProviderAddress): string {
  const prefix = `terraform-provider-${address.type}`;
  const dir = Deno.realPathSync(packageDir);
  for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    if (!e.name.startsWith(prefix)) continue;
    const path = Deno.realPathSync(join(dir, e.name));
    const info = Deno.statSync(path);
    if (!info.isFile) continue;
    if (((info.mode ?? 0o755) & 0o111) === 0) {
      throw new InstallError(
        "package",
        `The provider executable "${path}" is not executable`,
        "Its package is damaged: remove it from the mirror or the cache and run `pravo init` again.",
      );
    }
    return path;
  }
  throw new InstallError(
    "package",
    `The package of ${displayAddress(address)} holds no executable`,
    `There is no file named ${prefix}* in "${dir}". Remove the package from the mirror or the ` +
      "cache and run `pravo init` again.",
  );
}
