/**
 * Dependency modules from an OCI registry, in the format `cue mod publish`
 * writes, for `pravo init`.
 *
 * Where a module is looked up comes from `$CUE_REGISTRY`, read as CUE reads
 * it: a comma-separated list of `PREFIX=REGISTRY` routes and at most one
 * catch-all `REGISTRY` (default `registry.cue.works`); a REGISTRY is
 * `HOST[:PORT][/REPOSITORY-PREFIX]`, with `+insecure` (plain HTTP) or
 * `+secure` after it, and without either localhost, 127.0.0.1 and [::1] are
 * insecure, every other host secure. A module `example.com/pets@v0` at
 * `v0.1.0` is the manifest tagged `v0.1.0` of the repository
 * `[PREFIX/]example.com/pets`.
 *
 * A module's manifest is an OCI image manifest whose config has the media
 * type `application/vnd.cue.module.v1+json`; its first layer is the
 * module's zip (`application/zip`), its second the module's `module.cue`
 * (`application/vnd.cue.modulefile.v1`). pravo takes the zip, checks its
 * digest and size against the manifest, and that its `cue.mod/module.cue`
 * names the module asked for.
 *
 * Anonymous access only: a registry that asks for a bearer token gets one
 * from the realm its `WWW-Authenticate` names, with no credentials (as for
 * public modules); one that wants a login is refused with what to do.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { zipFilesOf } from "../providers/install/zip.ts";
import { readModuleFile } from "./modules.ts";

/** CUE's default registry, when `$CUE_REGISTRY` names no catch-all. */
export const DEFAULT_REGISTRY = "registry.cue.works";

/** Media types of CUE's module artifacts. */
export const MODULE_ARTIFACT_TYPE = "application/vnd.cue.module.v1+json";
export const MODULE_FILE_TYPE = "application/vnd.cue.modulefile.v1";
const OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";

/** The largest module zip or manifest pravo fetches. */
export const MAX_MODULE_BYTES = 64 * 1024 * 1024;

/** Where one module is looked up. */
export interface RegistryLocation {
  /** `host[:port]`. */
  host: string;
  /** Added before the module path, without slashes at its ends; `""` for none. */
  prefix: string;
  insecure: boolean;
}

/** A `$CUE_REGISTRY` that cannot be read. */
export class RegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RegistryError";
  }
}

/** Routes module paths to registries, as `$CUE_REGISTRY` says. */
export interface Resolver {
  resolve(modulePath: string): RegistryLocation;
}

/** Parses `$CUE_REGISTRY` (undefined or empty: the default registry). */
export function parseCueRegistry(spec: string | undefined): Resolver {
  const routes = new Map<string, RegistryLocation>();
  const parts = spec ? spec.split(",") : [];
  for (const part of parts) {
    const eq = part.indexOf("=");
    const [key, value] = eq < 0 ? ["", part] : [part.slice(0, eq), part.slice(eq + 1)];
    if (eq < 0 && part === "") throw new RegistryError("it has an empty entry (two commas)");
    if (eq >= 0 && key === "") throw new RegistryError(`"${part}" has an empty module prefix`);
    if (eq >= 0 && value === "") throw new RegistryError(`"${part}" names no registry`);
    if (eq >= 0 && !/^[a-z0-9][a-z0-9.-]*(\/[A-Za-z0-9._~-]+)*$/.test(key)) {
      throw new RegistryError(`"${key}" is not a module path without a version`);
    }
    if (routes.has(key)) {
      throw new RegistryError(
        key === "" ? "it names two catch-all registries" : `it routes "${key}" twice`,
      );
    }
    routes.set(key, parseLocation(value));
  }
  if (!routes.has("")) routes.set("", parseLocation(DEFAULT_REGISTRY));
  return {
    resolve(modulePath: string): RegistryLocation {
      let best = "";
      for (const prefix of routes.keys()) {
        if (prefix === "" || prefix.length <= best.length) continue;
        if (modulePath === prefix || modulePath.startsWith(prefix + "/")) best = prefix;
      }
      return routes.get(best)!;
    },
  };
}

function parseLocation(text: string): RegistryLocation {
  let s = text;
  let suffix = "";
  const plus = s.lastIndexOf("+");
  if (plus > 0) {
    suffix = s.slice(plus);
    s = s.slice(0, plus);
  }
  const slash = s.indexOf("/");
  const host = slash < 0 ? s : s.slice(0, slash);
  const prefix = slash < 0 ? "" : s.slice(slash + 1);
  if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(host)) {
    throw new RegistryError(`"${text}" does not start with a host name`);
  }
  if (s.includes("@") || /:[^/]*$/.test(prefix)) {
    throw new RegistryError(`"${text}" has a tag or digest, which a registry must not`);
  }
  if (
    prefix !== "" && !/^[a-z0-9]+([._-][a-z0-9]+)*(\/[a-z0-9]+([._-][a-z0-9]+)*)*$/.test(prefix)
  ) {
    throw new RegistryError(`"${text}" has a repository prefix that OCI does not allow`);
  }
  let insecure: boolean;
  if (suffix === "") {
    const bare = host.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
    insecure = bare === "localhost" || bare === "127.0.0.1" || bare === "::1";
  } else if (suffix === "+insecure") insecure = true;
  else if (suffix === "+secure") insecure = false;
  else throw new RegistryError(`"${text}" ends in ${suffix}: write +insecure, +secure or nothing`);
  return { host, prefix, insecure };
}

/** The repository of a module (its path without the major version) at a location. */
export function repositoryOf(loc: RegistryLocation, modulePath: string): string {
  const bare = modulePath.replace(/@v\d+$/, "");
  return loc.prefix ? `${loc.prefix}/${bare}` : bare;
}

/** A module fetched and checked. */
export interface FetchedModule {
  /** The zip's bytes. */
  zip: Uint8Array;
  /** `sha256:HEX` of the zip, as the manifest gives it (and checked). */
  digest: string;
  /** `sha256:HEX` of the manifest's bytes. */
  manifest: string;
  /** Where it came from: `host/repository:version`. */
  from: string;
}

/** Why a module could not be fetched; `notFound` when the registry has no such version. */
export class FetchError extends Error {
  constructor(message: string, readonly notFound = false) {
    super(message);
    this.name = "FetchError";
  }
}

/** `sha256:HEX` of some bytes. */
export function sha256Digest(bytes: Uint8Array): string {
  return "sha256:" + createHash("sha256").update(bytes).digest("hex");
}

/**
 * Fetches `module` (`example.com/pets@v0`) at `version` from `loc`, and
 * checks it: the manifest is a CUE module's, the zip has the digest and
 * size the manifest gives, and its `cue.mod/module.cue` names the module.
 */
export async function fetchModule(
  loc: RegistryLocation,
  module: string,
  version: string,
  fetchImpl: typeof fetch = fetch,
): Promise<FetchedModule> {
  const repo = repositoryOf(loc, module);
  const base = `${loc.insecure ? "http" : "https"}://${loc.host}/v2/${repo}`;
  const from = `${loc.host}/${repo}:${version}`;
  let token: string | undefined;
  const get = async (url: string, accept?: string): Promise<Response> => {
    const headers: Record<string, string> = accept ? { accept } : {};
    if (token) headers.authorization = `Bearer ${token}`;
    let r: Response;
    try {
      r = await fetchImpl(url, { headers, signal: AbortSignal.timeout(60_000) });
    } catch (e) {
      throw new FetchError(`cannot reach ${loc.host}: ${(e as Error).message}`);
    }
    if (r.status === 401 && token === undefined) {
      await r.body?.cancel();
      token = await anonymousToken(r.headers.get("www-authenticate"), loc, fetchImpl);
      return await get(url, accept);
    }
    return r;
  };
  const r = await get(`${base}/manifests/${encodeURIComponent(version)}`, OCI_MANIFEST);
  if (r.status === 404) {
    await r.body?.cancel();
    throw new FetchError(`${from} does not exist in the registry`, true);
  }
  if (!r.ok) {
    await r.body?.cancel();
    throw new FetchError(`the registry answered ${r.status} ${r.statusText} for ${from}`);
  }
  const manifestBytes = await boundedBytes(r, `the manifest of ${from}`);
  const manifestDigest = sha256Digest(manifestBytes);
  const said = r.headers.get("docker-content-digest");
  if (said && said !== manifestDigest) {
    throw new FetchError(
      `the manifest of ${from} has the digest ${manifestDigest}, not the ${said} the registry says`,
    );
  }
  const layer = zipLayerOf(manifestBytes, from);
  const b = await get(`${base}/blobs/${layer.digest}`);
  if (!b.ok) {
    await b.body?.cancel();
    throw new FetchError(
      `the registry answered ${b.status} ${b.statusText} for the zip of ${from} (${layer.digest})`,
    );
  }
  const zip = await boundedBytes(b, `the zip of ${from}`);
  const digest = sha256Digest(zip);
  if (digest !== layer.digest || zip.length !== layer.size) {
    throw new FetchError(
      `the zip of ${from} has the digest ${digest} and ${zip.length} bytes, not the ${layer.digest} and ${layer.size} its manifest gives: the registry holds a damaged or altered module`,
    );
  }
  checkModuleZip(zip, module, from);
  return { zip, digest, manifest: manifestDigest, from };
}

/** The zip layer of a CUE module's manifest, or why it is not one. */
function zipLayerOf(bytes: Uint8Array, from: string): { digest: string; size: number } {
  let m: unknown;
  try {
    m = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new FetchError(`the manifest of ${from} is not JSON`);
  }
  const o = m as {
    config?: { mediaType?: unknown };
    layers?: { mediaType?: unknown; digest?: unknown; size?: unknown }[];
  };
  if (o?.config?.mediaType !== MODULE_ARTIFACT_TYPE) {
    throw new FetchError(
      `${from} is not a CUE module: its manifest's config has the media type ${
        JSON.stringify(o?.config?.mediaType ?? null)
      }, not ${MODULE_ARTIFACT_TYPE} (publish it with \`cue mod publish\`)`,
    );
  }
  const layers = Array.isArray(o.layers) ? o.layers : [];
  const [zip, file] = layers;
  if (
    !zip || zip.mediaType !== "application/zip" || typeof zip.digest !== "string" ||
    !/^sha256:[0-9a-f]{64}$/.test(zip.digest) || typeof zip.size !== "number" ||
    !file || file.mediaType !== MODULE_FILE_TYPE
  ) {
    throw new FetchError(
      `the manifest of ${from} does not hold a CUE module's layers (a zip, then its module.cue as ${MODULE_FILE_TYPE})`,
    );
  }
  if (zip.size > MAX_MODULE_BYTES) {
    throw new FetchError(`the zip of ${from} is ${zip.size} bytes, more than pravo reads`);
  }
  return { digest: zip.digest, size: zip.size };
}

/** Checks that a module's zip is a safe archive whose module.cue names `module`. */
export function checkModuleZip(zip: Uint8Array, module: string, from: string): void {
  let files: Map<string, Uint8Array>;
  try {
    files = zipFilesOf(zip);
  } catch (e) {
    throw new FetchError(`the zip of ${from} cannot be read: ${(e as Error).message}`);
  }
  const moduleFile = files.get("cue.mod/module.cue");
  if (!moduleFile) throw new FetchError(`the zip of ${from} holds no cue.mod/module.cue`);
  const declared = readModuleFile(new TextDecoder().decode(moduleFile));
  const bare = module.replace(/@v\d+$/, "");
  if (!("path" in declared) || declared.path !== bare) {
    throw new FetchError(
      `the zip of ${from} is the module ${
        "path" in declared ? `"${declared.path}"` : "of no name"
      }, not "${bare}"`,
    );
  }
}

async function boundedBytes(r: Response, what: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const c of r.body ?? new ReadableStream<Uint8Array>()) {
    total += c.length;
    if (total > MAX_MODULE_BYTES) {
      await r.body?.cancel().catch(() => {});
      throw new FetchError(`${what} is larger than ${MAX_MODULE_BYTES} bytes`);
    }
    chunks.push(c);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** A token for anonymous pulls, from the realm a 401's `WWW-Authenticate: Bearer` names. */
async function anonymousToken(
  header: string | null,
  loc: RegistryLocation,
  fetchImpl: typeof fetch,
): Promise<string> {
  const login =
    `${loc.host} asks for credentials, which pravo does not send: make the module public, or vendor it under cue.mod/pkg (\`cue mod vendor\`)`;
  const m = header && /^Bearer\s+(.*)$/i.exec(header);
  if (!m) throw new FetchError(login);
  const params = new Map<string, string>();
  for (const p of m[1].matchAll(/([A-Za-z]+)="([^"]*)"/g)) params.set(p[1].toLowerCase(), p[2]);
  const realm = params.get("realm");
  if (!realm || !/^https?:\/\//.test(realm)) throw new FetchError(login);
  const url = new URL(realm);
  for (const k of ["service", "scope"]) {
    const v = params.get(k);
    if (v) url.searchParams.set(k, v);
  }
  let r: Response;
  try {
    r = await fetchImpl(url, { signal: AbortSignal.timeout(60_000) });
  } catch (e) {
    throw new FetchError(`cannot reach ${url.host} for a token: ${(e as Error).message}`);
  }
  if (!r.ok) {
    await r.body?.cancel();
    throw new FetchError(login);
  }
  const body = await r.json().catch(() => ({})) as { token?: unknown; access_token?: unknown };
  const t = typeof body.token === "string" ? body.token : body.access_token;
  if (typeof t !== "string" || t === "") throw new FetchError(login);
  return t;
}
