/**
 * A real OCI registry for the module tests: Debian's `docker-registry` (the
 * distribution registry), started on 127.0.0.1 with its storage in a
 * temporary directory; and a publisher that writes a CUE module to it in the
 * format `cue mod publish` does (an OCI image manifest whose config has the
 * media type `application/vnd.cue.module.v1+json`, its layers the module's
 * zip and its module.cue). `.ci/run` installs the package; without it the
 * tests that need it fail, naming it.
 */

import { createHash } from "node:crypto";
import { zipBytes } from "../lib/providers/install/_testing.ts";

/** A running registry. */
export interface Registry {
  /** `127.0.0.1:PORT`. */
  host: string;
  stop(): Promise<void>;
}

const BINARY_PLACES = ["/usr/bin/docker-registry", "/usr/sbin/docker-registry"];

/** The registry's executable, or an error saying how to get it. */
function registryBinary(): string {
  for (const p of BINARY_PLACES) {
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch { /* next */ }
  }
  throw new Error(
    "MISSING: docker-registry (Debian's package of the distribution registry) is not installed: " +
      "apt-get install docker-registry (.ci/run does it as root)",
  );
}

/** Starts a registry on a free port of 127.0.0.1; stop() ends it and removes its storage. */
export async function startRegistry(): Promise<Registry> {
  const bin = registryBinary();
  const dir = await Deno.makeTempDir({ prefix: "pravo-registry-" });
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  await Deno.writeTextFile(
    `${dir}/config.yml`,
    [
      "version: 0.1",
      "log:",
      "  level: error",
      "  accesslog:",
      "    disabled: true",
      "storage:",
      "  filesystem:",
      `    rootdirectory: ${dir}/data`,
      "http:",
      `  addr: 127.0.0.1:${port}`,
      "",
    ].join("\n"),
  );
  const child = new Deno.Command(bin, {
    args: ["serve", `${dir}/config.yml`],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const host = `127.0.0.1:${port}`;
  let up = false;
  for (let i = 0; i < 200 && !up; i++) {
    try {
      const r = await fetch(`http://${host}/v2/`, { signal: AbortSignal.timeout(1000) });
      await r.body?.cancel();
      up = r.status === 200;
    } catch { /* not yet */ }
    if (!up) await new Promise((r) => setTimeout(r, 50));
  }
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    const out = await child.output().catch(() => undefined);
    void out;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  if (!up) {
    await stop();
    throw new Error(`docker-registry did not answer on ${host} within 10 s`);
  }
  return { host, stop };
}

const sha256 = (b: Uint8Array) => "sha256:" + createHash("sha256").update(b).digest("hex");

/** A zip of these files (deflated), as CUE's module zips are: paths from the module's root. */
export function zipOf(files: Record<string, string | Uint8Array>): Uint8Array {
  return zipBytes(Object.entries(files).map(([name, data]) => ({ name, data })));
}

async function pushBlob(host: string, repo: string, bytes: Uint8Array): Promise<string> {
  const digest = sha256(bytes);
  const start = await fetch(`http://${host}/v2/${repo}/blobs/uploads/`, { method: "POST" });
  await start.body?.cancel();
  if (start.status !== 202) throw new Error(`blob upload start: ${start.status}`);
  const location = new URL(start.headers.get("location")!, `http://${host}`);
  location.searchParams.set("digest", digest);
  const put = await fetch(location, {
    method: "PUT",
    headers: { "content-type": "application/octet-stream" },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  await put.body?.cancel();
  if (put.status !== 201) throw new Error(`blob upload: ${put.status}`);
  return digest;
}

/** What {@link publishModule} published. */
export interface Published {
  /** `sha256:` of the zip. */
  digest: string;
  /** `sha256:` of the manifest. */
  manifest: string;
  zip: Uint8Array;
}

/**
 * Publishes a CUE module at `version` to the registry, as `cue mod
 * publish` does: `module` with its major version (`example.com/pets@v0`),
 * `files` its packages' files by path; `cue.mod/module.cue` is added
 * unless given. `configType` replaces the config's media type (to publish
 * something that is not a CUE module).
 */
export async function publishModule(
  host: string,
  module: string,
  version: string,
  files: Record<string, string>,
  opts: { prefix?: string; configType?: string } = {},
): Promise<Published> {
  const moduleFile = files["cue.mod/module.cue"] ??
    `module: "${module}"\nlanguage: version: "v0.9.0"\n`;
  const zip = zipOf({ "cue.mod/module.cue": moduleFile, ...files });
  const bare = module.replace(/@v\d+$/, "");
  const repo = opts.prefix ? `${opts.prefix}/${bare}` : bare;
  const enc = new TextEncoder();
  const config = enc.encode("{}");
  const modBytes = enc.encode(moduleFile);
  const configDigest = await pushBlob(host, repo, config);
  const zipDigest = await pushBlob(host, repo, zip);
  const modDigest = await pushBlob(host, repo, modBytes);
  const manifest = enc.encode(JSON.stringify({
    schemaVersion: 2,
    mediaType: "application/vnd.oci.image.manifest.v1+json",
    config: {
      mediaType: opts.configType ?? "application/vnd.cue.module.v1+json",
      digest: configDigest,
      size: config.length,
    },
    layers: [
      { mediaType: "application/zip", digest: zipDigest, size: zip.length },
      { mediaType: "application/vnd.cue.modulefile.v1", digest: modDigest, size: modBytes.length },
    ],
  }));
  const r = await fetch(`http://${host}/v2/${repo}/manifests/${version}`, {
    method: "PUT",
    headers: { "content-type": "application/vnd.oci.image.manifest.v1+json" },
    body: manifest as Uint8Array<ArrayBuffer>,
  });
  const text = await r.text();
  if (r.status !== 201) throw new Error(`manifest upload: ${r.status} ${text}`);
  return { digest: zipDigest, manifest: sha256(manifest), zip };
}
