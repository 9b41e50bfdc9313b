/**
 * `pravo init` installing plugin providers, end to end: real pravo
 * processes started by scripts/pravo (so with its narrow permissions), a
 * provider registry served on 127.0.0.1, filesystem mirrors, the plugin
 * cache; and the lock compared with Terraform's own.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type FakePackage,
  type FakeVersion,
  serveRegistry,
  writeFakePackage,
} from "../lib/providers/install/_testing.ts";
import { parseLockFile } from "../lib/providers/install/lock.ts";
import { type Ran, runCommand, runScript } from "./_script.ts";

const KEY = btoa(String.fromCharCode(...new Uint8Array(32).fill(7)));

/** Runs scripts/pravo in `root` with a clean environment of our choosing. */
function pravo(root: string, args: string[], env: Record<string, string>): Promise<Ran> {
  return runScript(root, ["--no-color", ...args], {
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: env.HOME ?? "/nonexistent",
      PRAVO_KEY: KEY,
      PRAVO_ACTOR: "test",
      ...env,
    },
    stdin: "null",
  });
}

/** A root, and beside it room for a plugin cache, $XDG_CACHE_HOME and mirrors; removed on disposal. */
async function tempDirs() {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pravo-providers-" }));
  const root = join(base, "root");
  await Deno.mkdir(root);
  const dispose = () => Deno.remove(base, { recursive: true });
  return {
    base,
    root,
    cache: join(base, "cache"),
    xdg: join(base, "xdg"),
    [Symbol.asyncDispose]: dispose,
  };
}

/** acme/cloud 1.5.0, unpacked, as the mirror tests serve it. */
const CLOUD: FakePackage = { address: "registry.terraform.io/acme/cloud", version: "1.5.0" };

async function config(root: string, value: unknown): Promise<void> {
  await Deno.writeTextFile(join(root, "pravo.jsonc"), JSON.stringify(value, null, 2));
}

const lockOf = async (root: string) =>
  parseLockFile(await Deno.readTextFile(join(root, "pravo.lock.json")), "pravo.lock.json");

const VERSIONS: FakeVersion[] = [
  {
    namespace: "acme",
    type: "cloud",
    version: "1.4.0",
    platforms: ["linux_amd64", "darwin_arm64"],
  },
  {
    namespace: "acme",
    type: "cloud",
    version: "1.5.0",
    platforms: ["linux_amd64", "darwin_arm64"],
  },
];

Deno.test("init installs from a registry on loopback, pins h1: and zh:, then needs no network", async () => {
  await using d = await tempDirs();
  await using reg = serveRegistry(VERSIONS);
  await config(d.root, { providers: { "acme/cloud": "~> 1.4" } });
  const env = { TF_PLUGIN_CACHE_DIR: d.cache, XDG_CACHE_HOME: d.xdg };
  const first = await pravo(d.root, ["init"], {
    ...env,
    PRAVO_TEST_REGISTRY_OVERRIDE: reg.override(),
  });
  assert.equal(first.code, 0, first.stderr);
  assert.match(
    first.stderr,
    /Warning: The registry registry\.terraform\.io is served from http:\/\/127\.0\.0\.1:\d+ \(test only\)/,
  );
  assert.match(first.stderr, /Downloading acme\/cloud 1\.5\.0 from 127\.0\.0\.1:\d+\.\.\./);
  assert.match(
    first.stdout,
    new RegExp(
      `Installed acme/cloud 1\\.5\\.0 from registry\\.terraform\\.io, signed by key ${reg.key.keyId}\\.`,
    ),
  );
  assert.match(first.stdout, /registry\.terraform\.io\/acme\/cloud {2}1\.5\.0 \(~> 1\.4\)/);
  const lock = await lockOf(d.root);
  const pin = lock.plugins["registry.terraform.io/acme/cloud"];
  assert.equal(pin.version, "1.5.0");
  assert.equal(pin.constraints, "~> 1.4");
  assert.deepEqual(pin.hashes.map((h) => h.slice(0, 3)), ["h1:", "zh:", "zh:"]);
  const exe = join(
    d.cache,
    "registry.terraform.io/acme/cloud/1.5.0/linux_amd64/terraform-provider-cloud_v1.5.0",
  );
  assert.ok((await Deno.stat(exe)).mode! & 0o100, "the executable keeps its mode");

  // The registry is gone; the lock vouches for the cache: no network at all.
  await reg.close();
  const again = await pravo(d.root, ["init"], env);
  assert.equal(again.code, 0, again.stderr);
  assert.match(
    again.stdout,
    /Using acme\/cloud 1\.5\.0 from the plugin cache ".*": it matches the lock\./,
  );
  assert.match(again.stdout, /pravo\.lock\.json is up to date with 5 providers/);
});

Deno.test("init keeps a locked version, -upgrade moves it, and a dropped provider leaves the lock", async () => {
  await using d = await tempDirs();
  await using reg = serveRegistry(VERSIONS);
  const env = {
    TF_PLUGIN_CACHE_DIR: d.cache,
    XDG_CACHE_HOME: d.xdg,
    PRAVO_TEST_REGISTRY_OVERRIDE: reg.override(),
  };
  await config(d.root, { providers: { "acme/cloud": "1.4.0" } });
  assert.equal((await pravo(d.root, ["init"], env)).code, 0);
  await config(d.root, { providers: { "acme/cloud": ">= 1.0" } });
  const kept = await pravo(d.root, ["init", "--json"], env);
  assert.equal(kept.code, 0, kept.stderr);
  assert.equal(JSON.parse(kept.stdout).installed[0].version, "1.4.0");
  const up = await pravo(d.root, ["init", "-upgrade", "--json"], env);
  assert.equal(up.code, 0, up.stderr);
  const doc = JSON.parse(up.stdout);
  assert.equal(doc.installed[0].version, "1.5.0");
  assert.equal(doc.lock_file.status, "updated");
  assert.equal(doc.providers["registry.terraform.io/acme/cloud"].constraints, ">= 1.0.0");
  assert.equal(doc.plugin_cache.path, d.cache);
  assert.equal(doc.plugin_cache.from, "TF_PLUGIN_CACHE_DIR");
  await config(d.root, {});
  const dropped = await pravo(d.root, ["init"], env);
  assert.match(
    dropped.stdout,
    /Dropped registry\.terraform\.io\/acme\/cloud from the lock: pravo\.jsonc no longer requires it\./,
  );
  assert.deepEqual((await lockOf(d.root)).plugins, {});
});

Deno.test("init says what to do when there is no network, no such version, or a bad signature", async () => {
  await using d = await tempDirs();
  await using reg = serveRegistry(VERSIONS);
  await using bad = serveRegistry(VERSIONS, { foreignSignature: true });
  const env = { TF_PLUGIN_CACHE_DIR: d.cache, XDG_CACHE_HOME: d.xdg };
  /** init with the registry of registry.terraform.io overridden as `override` says. */
  const initWith = (override: string) =>
    pravo(d.root, ["init"], { ...env, PRAVO_TEST_REGISTRY_OVERRIDE: override });
  await config(d.root, { providers: { "acme/cloud": "~> 2.0" } });
  const none = await initWith(reg.override());
  assert.equal(none.code, 1);
  assert.match(
    none.stderr,
    /Error: No version of acme\/cloud matches "~> 2\.0"\n\n {2}on .*pravo\.jsonc line 3, column 5:\n\nAvailable from registry\.terraform\.io: 1\.5\.0, 1\.4\.0\. Change the constraint of "acme\/cloud" in pravo\.jsonc/,
  );
  assert.equal(none.stdout, "");
  await assert.rejects(Deno.stat(join(d.root, ".pravo")), Deno.errors.NotFound);

  await config(d.root, { providers: { "acme/cloud": "" } });
  const signed = await initWith(bad.override());
  assert.equal(signed.code, 1);
  assert.match(signed.stderr, /Error: Bad signature on the checksums of acme\/cloud 1\.5\.0/);

  await reg.close();
  const offline = await initWith(reg.override());
  assert.equal(offline.code, 1);
  assert.match(
    offline.stderr,
    /Error: Cannot reach registry\.terraform\.io for its service discovery\n\n {2}on .*pravo\.jsonc line 3, column 5:\n\n[\s\S]*set "provider_mirrors" in pravo\.jsonc/,
  );
  const refused = await initWith("registry.terraform.io=http://example.com/");
  assert.equal(refused.code, 64);
  assert.match(refused.stderr, /Invalid \$PRAVO_TEST_REGISTRY_OVERRIDE[\s\S]*for tests only/);
});

Deno.test("init installs from mirrors outside the root, and refuses one inside it", async () => {
  await using d = await tempDirs();
  const mirror = join(d.base, "mirror");
  await writeFakePackage(mirror, CLOUD);
  await writeFakePackage(mirror, {
    address: "registry.terraform.io/acme/tiny",
    version: "0.1.0",
    packed: true,
  });
  await config(d.root, {
    providers: { "acme/cloud": "~> 1.5", "acme/tiny": "" },
    provider_mirrors: ["../mirror"],
  });
  const env = { XDG_CACHE_HOME: d.xdg };
  const r = await pravo(d.root, ["init"], env);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`Using acme/cloud 1\\.5\\.0 from the mirror "${mirror}"\\.`));
  assert.match(r.stdout, /Installed acme\/tiny 0\.1\.0 from the mirror/);
  await assert.rejects(
    Deno.stat(join(d.xdg, "pravo/providers/registry.terraform.io/acme/cloud")),
    Deno.errors.NotFound,
    "an unpacked package is used where it is, not copied",
  );
  assert.ok(
    (await Deno.stat(
      join(d.xdg, "pravo/providers/registry.terraform.io/acme/tiny/0.1.0/linux_amd64"),
    )).isDirectory,
    "a packed one is extracted into the cache",
  );
  const again = await pravo(d.root, ["init"], env);
  assert.match(
    again.stdout,
    new RegExp(`Using acme/cloud 1\\.5\\.0 from the mirror "${mirror}": it matches the lock\\.`),
  );
  assert.match(
    again.stdout,
    /Using acme\/tiny 0\.1\.0 from the plugin cache ".*": it matches the lock\./,
  );

  await writeFakePackage(join(d.root, "vendor"), CLOUD);
  await config(d.root, { providers: { "acme/cloud": "" }, provider_mirrors: ["vendor"] });
  const refused = await pravo(d.root, ["init"], env);
  assert.equal(refused.code, 1);
  assert.match(
    refused.stderr,
    /Error: The provider mirror ".*\/root\/vendor" is inside the root\n\n {2}on .*pravo\.jsonc line \d+, column \d+:/,
  );
});

Deno.test("pravo providers lists the locked plugin providers beside the built-in ones", async () => {
  await using d = await tempDirs();
  const mirror = join(d.base, "mirror");
  await writeFakePackage(mirror, CLOUD);
  await config(d.root, { providers: { "acme/cloud": "~> 1.5" }, provider_mirrors: [mirror] });
  assert.equal((await pravo(d.root, ["init"], { XDG_CACHE_HOME: d.xdg })).code, 0);
  const h1 = (await lockOf(d.root)).plugins["registry.terraform.io/acme/cloud"].hashes[0];
  const r = await pravo(d.root, ["providers"], {});
  assert.equal(r.code, 0, r.stderr);
  assert.ok(
    r.stdout.endsWith(
      [
        "acme/cloud 1.5.0 (plugin)",
        "  import       pravo.dev/providers/acme/cloud",
        "  source       registry.terraform.io/acme/cloud",
        "  constraints  ~> 1.5",
        `  hashes       ${h1}`,
        "",
      ].join("\n"),
    ),
    r.stdout,
  );
  const doc = JSON.parse((await pravo(d.root, ["providers", "--json"], {})).stdout);
  assert.deepEqual(doc.providers.at(-1), {
    source: "registry.terraform.io/acme/cloud",
    version: "1.5.0",
    import_path: "pravo.dev/providers/acme/cloud",
    kind: "plugin",
    constraints: "~> 1.5",
    hashes: [h1],
    types: { managed: [], data: [], ephemeral: [], call: [] },
  });
});

Deno.test("a run with the plugin flags verifies and runs the pinned provider, and no executable in the root", async () => {
  await using d = await tempDirs();
  const mirror = join(d.base, "mirror");
  await writeFakePackage(mirror, {
    ...CLOUD,
    files: [{
      name: "terraform-provider-cloud_v1.5.0",
      data: `#!/bin/sh\necho started > "$1"\n`,
      mode: 0o755,
    }],
  });
  await config(d.root, { providers: { "acme/cloud": "~> 1.5" }, provider_mirrors: [mirror] });
  const init = await pravo(d.root, ["init"], { XDG_CACHE_HOME: d.xdg });
  assert.equal(init.code, 0, init.stderr);
  // What pravo mcp would pin at start: the verified providers.
  const { verifyLockedProviders } = await import("../lib/providers/install/executable.ts");
  const { permissionFlags } = await import("../lib/permissions/permissions.ts");
  const cacheDir = join(d.xdg, "pravo", "providers");
  const pinned = verifyLockedProviders(d.root, { cacheDir, mirrors: [mirror] });
  assert.equal(pinned.length, 1);
  // An agent plants an executable in the root.
  await Deno.writeTextFile(join(d.root, "evil"), `#!/bin/sh\necho ran > "$1"\n`, { mode: 0o755 });
  const probe = join(d.base, "probe.ts");
  const executableModule = new URL("../lib/providers/install/executable.ts", import.meta.url).href;
  await Deno.writeTextFile(
    probe,
    `import { verifyPinnedProvider } from ${JSON.stringify(executableModule)};
import { FileHashCache } from ${
      JSON.stringify(new URL("../lib/providers/install/hash_cache.ts", import.meta.url).href)
    };
const results: Record<string, string> = {};
async function attempt(name: string, f: () => unknown) {
  try { await f(); results[name] = "ok"; } catch (e) { results[name] = (e as Error).name; }
}
const root = ${JSON.stringify(d.root)};
const hashCache = new FileHashCache(${JSON.stringify(join(d.xdg, "pravo", "file-hashes.json"))});
const p = verifyPinnedProvider(root, ${
      JSON.stringify({ ...pinned[0], hashes: [pinned[0].h1] })
    }, hashCache);
await attempt("run pinned", async () => {
  const out = await new Deno.Command(p.executable, { args: [root + "/started"] }).output();
  if (!out.success) throw new Error("failed");
});
await attempt("run planted", () => new Deno.Command(root + "/evil", { args: [root + "/ran"] }).output());
await attempt("run sh", () => new Deno.Command("/bin/sh", { args: ["-c", "true"] }).output());
console.log(JSON.stringify(results));
`,
  );
  const flags = permissionFlags({
    root: d.root,
    execPath: Deno.execPath(),
    projectDir: fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, ""),
    extraRead: [probe],
    allowRun: false,
    plugins: { providers: pinned, pravoCache: join(d.xdg, "pravo") },
  });
  const denoJson = fileURLToPath(new URL("../deno.json", import.meta.url));
  const out = await runCommand(Deno.execPath(), {
    args: ["run", "--quiet", "--config", denoJson, ...flags, probe],
    env: { PRAVO_KEY: KEY },
  });
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), {
    "run pinned": "ok",
    "run planted": "NotCapable",
    "run sh": "NotCapable",
  });
  assert.equal(await Deno.readTextFile(join(d.root, "started")), "started\n");
  await assert.rejects(Deno.stat(join(d.root, "ran")), Deno.errors.NotFound);
});
