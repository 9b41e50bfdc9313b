/**
 * HTTP for provider installation: registry requests with a timeout and one
 * retry, downloads streamed to disk while hashed, and failures told apart
 * (no network, no permission, an HTTP error) so that each gets its advice.
 *
 * Registries are reached over HTTPS. For tests only,
 * `$PRAVO_TEST_REGISTRY_OVERRIDE` (`HOST=http://127.0.0.1:PORT`, several
 * separated by commas) serves a registry host from a loopback address over
 * plain HTTP; any other target is refused, and every run that uses it says
 * so on stderr.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { type Diagnostic, warning } from "../../diag/diag.ts";
import { InstallError } from "./source.ts";
import { VERSION } from "../../version.ts";

/** The variable that points registry hosts at a loopback test server. */
export const REGISTRY_OVERRIDE_ENV = "PRAVO_TEST_REGISTRY_OVERRIDE";

/** Registry hosts served elsewhere, for tests. */
export interface RegistryOverrides {
  /** By registry host, the base URL that replaces `https://HOST/`. */
  hosts: Map<string, URL>;
  /** The warnings to show: one per host served from a test server. */
  warnings: Diagnostic[];
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]|localhost)$/;

/** Reads {@link REGISTRY_OVERRIDE_ENV}; refuses any target but a loopback http:// address. */
export function registryOverrides(value: string | undefined): RegistryOverrides {
  const hosts = new Map<string, URL>();
  const warnings: Diagnostic[] = [];
  if (!value) return { hosts, warnings };
  for (const item of value.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    const eq = item.indexOf("=");
    const host = item.slice(0, eq).toLowerCase();
    let url: URL | undefined;
    try {
      url = new URL(item.slice(eq + 1));
    } catch {
      url = undefined;
    }
    if (eq <= 0 || !url || url.protocol !== "http:" || !LOOPBACK.test(url.hostname)) {
      throw new InstallError(
        "registry",
        `Invalid $${REGISTRY_OVERRIDE_ENV}: "${item}"`,
        "It serves a registry host from a test server on this machine, for tests only: " +
          "write HOST=http://127.0.0.1:PORT. Unset it to use the real registries.",
      );
    }
    if (!url.pathname.endsWith("/")) url.pathname += "/";
    hosts.set(host, url);
    warnings.push(warning(
      `The registry ${host} is served from ${url.origin} (test only)`,
      `$${REGISTRY_OVERRIDE_ENV} is set, so pravo asks ${url.origin} instead of ` +
        `https://${host}, over plain HTTP. Unset it to use the real registry.`,
    ));
  }
  return { hosts, warnings };
}

/** What a request was for, in messages: `the versions of hashicorp/aws`. */
interface RequestContext {
  /** The registry host, for the network advice. */
  host: string;
  what: string;
}

const TIMEOUT_MS = 30_000;

/** The useful part of a fetch failure: Deno puts it in the error's cause. */
function describe(e: unknown): string {
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause.message : undefined;
  const msg = cause ?? (e instanceof Error ? e.message : String(e));
  return msg.replace(/^error sending request for url \([^)]*\): /, "")
    .replace(/^client error \(Connect\): /, "");
}

/** Turns a failed fetch into an install error with advice. */
export function fetchFailure(e: unknown, url: string, ctx: RequestContext): InstallError {
  if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) {
    return new InstallError(
      "network",
      `pravo may not reach ${new URL(url).host}`,
      `Deno refused the connection: ${describe(e)}. Run \`pravo init\` with network access ` +
        `(scripts/pravo grants it to init), or set "provider_mirrors" in pravo.jsonc to a ` +
        `directory that holds the provider.`,
    );
  }
  const timedOut = e instanceof DOMException &&
    (e.name === "TimeoutError" || e.name === "AbortError");
  return new InstallError(
    "network",
    `Cannot reach ${ctx.host} for ${ctx.what}`,
    `${timedOut ? "No answer in time" : describe(e)}. Check the network connection, or install ` +
      `without the network: set "provider_mirrors" in pravo.jsonc to a directory that holds the ` +
      `provider in Terraform's filesystem-mirror layout (as \`terraform providers mirror DIR\` ` +
      `writes it).`,
  );
}

/** Headers of every registry request. */
function headers(): HeadersInit {
  return { "User-Agent": `pravo/${VERSION}` };
}

/** A GET with a timeout and one retry on a network failure or a 5xx answer. */
export async function get(url: string, ctx: RequestContext): Promise<Response> {
  let last: unknown;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const res = await fetch(url, { headers: headers(), signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (res.status >= 500 && attempt === 0) {
        await res.body?.cancel();
        continue;
      }
      return res;
    } catch (e) {
      if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) {
        throw fetchFailure(e, url, ctx);
      }
      last = e;
    }
  }
  throw fetchFailure(last, url, ctx);
}

/** The body of a 200 answer as JSON, or an install error naming what went wrong. */
export async function getJson(
  url: string,
  ctx: RequestContext,
  on404?: () => InstallError,
): Promise<{ json: unknown; url: string }> {
  const res = await get(url, ctx);
  if (res.status === 404 && on404) {
    await res.body?.cancel();
    throw on404();
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    throw new InstallError(
      "registry",
      `${ctx.host} refused to give ${ctx.what} (HTTP ${res.status})`,
      "The registry requires credentials, which pravo does not send. Install the provider from " +
        'a mirror instead: set "provider_mirrors" in pravo.jsonc.',
    );
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new InstallError(
      "registry",
      `${ctx.host} answered HTTP ${res.status} for ${ctx.what}`,
      `The request was GET ${url}. Try again later; if it persists, the registry is at fault.`,
    );
  }
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    throw fetchFailure(e, url, ctx);
  }
  try {
    return { json: JSON.parse(text), url: res.url || url };
  } catch {
    throw new InstallError(
      "registry",
      `${ctx.host} answered ${ctx.what} with something that is not JSON`,
      `The request was GET ${url}. Check that "${ctx.host}" is a provider registry.`,
    );
  }
}

/** The body of a 200 answer as bytes (SHA256SUMS and its signature). */
export async function getBytes(url: string, ctx: RequestContext): Promise<Uint8Array> {
  const res = await get(url, ctx);
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new InstallError(
      "registry",
      `${new URL(url).host} answered HTTP ${res.status} for ${ctx.what}`,
      `The request was GET ${url}. Try again later; if it persists, report it to the registry.`,
    );
  }
  try {
    return new Uint8Array(await res.arrayBuffer());
  } catch (e) {
    throw fetchFailure(e, url, ctx);
  }
}

/** How long a download may stall before it is given up. */
const STALL_MS = 60_000;

/** Downloads `url` into a new file `dest`, returning its SHA-256 (hex) and size. */
export async function download(
  url: string,
  dest: string,
  ctx: RequestContext,
): Promise<{ sha256: string; size: number }> {
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), STALL_MS);
  let res: Response;
  try {
    res = await fetch(url, { headers: headers(), signal: controller.signal });
  } catch (e) {
    clearTimeout(timer);
    throw fetchFailure(e, url, ctx);
  }
  if (res.status !== 200 || !res.body) {
    clearTimeout(timer);
    await res.body?.cancel();
    throw new InstallError(
      "registry",
      `${new URL(url).host} answered HTTP ${res.status} for ${ctx.what}`,
      `The request was GET ${url}. Try again later; if it persists, report it to the registry.`,
    );
  }
  const hash = createHash("sha256");
  let size = 0;
  const file = await Deno.open(dest, { write: true, createNew: true, mode: 0o600 });
  try {
    for await (const chunk of res.body) {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(), STALL_MS);
      hash.update(chunk);
      size += chunk.length;
      let off = 0;
      while (off < chunk.length) off += await file.write(chunk.subarray(off));
    }
  } catch (e) {
    throw fetchFailure(e, url, ctx);
  } finally {
    clearTimeout(timer);
    file.close();
  }
  return { sha256: hash.digest("hex"), size };
}
