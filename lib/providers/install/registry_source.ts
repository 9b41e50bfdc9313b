/**
 * A provider registry, as a {@link Source}: the provider registry protocol
 * that `registry.terraform.io` and `registry.opentofu.org` speak.
 *
 * 1. Service discovery: `GET https://HOST/.well-known/terraform.json`, whose
 *    `providers.v1` is the base URL of the API (relative to the document).
 * 2. Versions: `GET BASE/NAMESPACE/TYPE/versions` gives
 *    `{"versions": [{"version", "protocols", "platforms": [{"os", "arch"}]}],
 *    "warnings"}`; 404 means no such provider.
 * 3. A package: `GET BASE/NAMESPACE/TYPE/VERSION/download/OS/ARCH` gives
 *    `protocols`, `filename`, `download_url`, `shasum`, `shasums_url`,
 *    `shasums_signature_url` and `signing_keys.gpg_public_keys[].ascii_armor`
 *    (URLs relative to that answer); 404 means not for that platform.
 *
 * The SHA256SUMS document and its signature are fetched with the package's
 * metadata; `authentication.ts` checks them before the download, and the
 * download against them after.
 *
 * @module
 */

import { addressString, displayAddress, type ProviderAddress } from "./address.ts";
import { getBytes, getJson, type RegistryOverrides } from "./http.ts";
import { type Platform, platformString } from "./platform.ts";
import {
  type AvailableVersion,
  InstallError,
  type PackageMeta,
  type Source,
  type VersionList,
} from "./source.ts";
import { parseVersion, type Version, versionString } from "./version.ts";

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function badAnswer(host: string, what: string, why: string): InstallError {
  return new InstallError(
    "registry",
    `${host} gave an invalid answer for ${what}`,
    `${why}. Try again later; if it persists, report it to the registry.`,
  );
}

/** The provider registries, reached by each provider's own host. */
export class RegistrySource implements Source {
  readonly name = "the provider registry";
  readonly #overrides: RegistryOverrides;
  readonly #bases = new Map<string, Promise<URL>>();

  constructor(overrides: RegistryOverrides = { hosts: new Map(), warnings: [] }) {
    this.#overrides = overrides;
  }

  /** The `providers.v1` base URL of a host, discovered once. */
  #base(host: string): Promise<URL> {
    let p = this.#bases.get(host);
    if (!p) {
      p = this.#discover(host);
      this.#bases.set(host, p);
    }
    return p;
  }

  async #discover(host: string): Promise<URL> {
    const root = this.#overrides.hosts.get(host) ?? new URL(`https://${host}/`);
    const url = new URL(".well-known/terraform.json", root).href;
    const notRegistry = () =>
      new InstallError(
        "registry",
        `${host} is not a provider registry`,
        `Its service discovery (${url}) names no "providers.v1" service. Check the host in the ` +
          `provider's source address in pravo.jsonc.`,
      );
    const { json, url: answered } = await getJson(
      url,
      { host, what: "its service discovery" },
      notRegistry,
    );
    const v1 = isObject(json) ? json["providers.v1"] : undefined;
    if (typeof v1 !== "string" || v1 === "") throw notRegistry();
    let base: URL;
    try {
      base = new URL(v1, answered);
    } catch {
      throw badAnswer(host, "its service discovery", `"providers.v1" is not a URL: "${v1}"`);
    }
    if (base.protocol !== "https:" && base.protocol !== "http:") {
      throw badAnswer(host, "its service discovery", `"providers.v1" is not an http(s) URL`);
    }
    if (!base.pathname.endsWith("/")) base.pathname += "/";
    return base;
  }

  async availableVersions(provider: ProviderAddress): Promise<VersionList> {
    const host = provider.hostname;
    const base = await this.#base(host);
    const what = `the versions of ${displayAddress(provider)}`;
    const url = new URL(`${provider.namespace}/${provider.type}/versions`, base).href;
    const { json } = await getJson(url, { host, what }, () =>
      new InstallError(
        "not_found",
        `There is no provider ${addressString(provider)}`,
        `${host} knows no provider "${provider.namespace}/${provider.type}". Check its source ` +
          `address in "providers" of pravo.jsonc (the registry's page of the provider shows it).`,
      ));
    if (!isObject(json) || !Array.isArray(json.versions)) {
      throw badAnswer(host, what, 'it has no "versions" list');
    }
    const versions: AvailableVersion[] = [];
    const warnings = Array.isArray(json.warnings)
      ? json.warnings.filter((w): w is string => typeof w === "string")
      : [];
    for (const item of json.versions) {
      if (!isObject(item) || typeof item.version !== "string") continue;
      const version = parseVersion(item.version);
      if (!version) {
        warnings.push(`${host} lists an invalid version "${item.version}"; it was skipped`);
        continue;
      }
      const protocols = Array.isArray(item.protocols)
        ? item.protocols.filter((p): p is string => typeof p === "string")
        : undefined;
      const platforms = Array.isArray(item.platforms)
        ? item.platforms.filter((p): p is { os: string; arch: string } =>
          isObject(p) && typeof p.os === "string" && typeof p.arch === "string"
        ).map((p) => ({ os: p.os, arch: p.arch }))
        : undefined;
      versions.push({ version, protocols, platforms });
    }
    return { versions, warnings, origin: host };
  }

  async packageMeta(
    provider: ProviderAddress,
    version: Version,
    platform: Platform,
  ): Promise<PackageMeta> {
    const host = provider.hostname;
    const base = await this.#base(host);
    const v = versionString(version);
    const what = `the ${platformString(platform)} package of ${displayAddress(provider)} ${v}`;
    const url = new URL(
      `${provider.namespace}/${provider.type}/${v}/download/${platform.os}/${platform.arch}`,
      base,
    ).href;
    const { json, url: answered } = await getJson(url, { host, what }, () =>
      new InstallError(
        "platform",
        `${displayAddress(provider)} ${v} is not available for ${platformString(platform)}`,
        `${host} has no package of this version for ${platformString(platform)}. Choose a ` +
          `version built for this platform in "providers" of pravo.jsonc.`,
      ));
    if (!isObject(json)) throw badAnswer(host, what, "it is not an object");
    const str = (k: string): string => {
      const x = json[k];
      if (typeof x !== "string" || x === "") throw badAnswer(host, what, `"${k}" is missing`);
      return x;
    };
    if (json.os !== platform.os || json.arch !== platform.arch) {
      throw badAnswer(host, what, `it describes a package for ${json.os}_${json.arch}`);
    }
    const sha256 = str("shasum").toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw badAnswer(host, what, `"shasum" is not a SHA-256`);
    const filename = str("filename");
    const resolve = (k: string): string => {
      let u: URL;
      try {
        u = new URL(str(k), answered);
      } catch {
        throw badAnswer(host, what, `"${k}" is not a URL`);
      }
      if (u.protocol !== "https:" && u.protocol !== "http:") {
        throw badAnswer(host, what, `"${k}" is not an http(s) URL`);
      }
      return u.href;
    };
    const downloadUrl = resolve("download_url");
    const shasumsUrl = resolve("shasums_url");
    const signatureUrl = resolve("shasums_signature_url");
    const keys = isObject(json.signing_keys) && Array.isArray(json.signing_keys.gpg_public_keys)
      ? json.signing_keys.gpg_public_keys.filter(isObject).map((k) => k.ascii_armor).filter((
        a,
      ): a is string => typeof a === "string" && a !== "")
      : [];
    const protocols = Array.isArray(json.protocols)
      ? json.protocols.filter((p): p is string => typeof p === "string")
      : undefined;
    const shasums = await getBytes(shasumsUrl, { host, what: `the SHA256SUMS of ${what}` });
    const signature = await getBytes(signatureUrl, {
      host,
      what: `the signature of the SHA256SUMS of ${what}`,
    });
    return {
      provider,
      version,
      platform,
      location: { kind: "http", url: downloadUrl },
      origin: host,
      kind: "registry",
      protocols,
      authentication: {
        sha256,
        filename,
        shasums,
        signature,
        signingKeys: keys,
        registryHost: host,
      },
    };
  }
}
