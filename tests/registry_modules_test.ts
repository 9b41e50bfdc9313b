/**
 * CUE dependency modules from an OCI registry: `pravo init` fetches the
 * modules of `cue.mod/module.cue`'s deps from `$CUE_REGISTRY` (a real
 * distribution registry, Debian's docker-registry, on 127.0.0.1, with
 * modules published to it in the format `cue mod publish` writes), checks
 * them, keeps them in pravo's cache outside the root and pins them in
 * pravo.lock.json; plan reads them from there with the registry gone;
 * `pravo mcp` pins them at start. Run through scripts/pravo, with its
 * narrow permissions.
 */

import { strict as assert } from "node:assert";
import { join } from "node:path";
import { call, connect, text } from "./mcp/_client.ts";
import { publishModule, startRegistry } from "./_registry.ts";
import { type Ran, runScript } from "./_script.ts";
import { inFolder, PETS_PACKAGE } from "./_pravo.ts";

const PETS = inFolder("pets", PETS_PACKAGE);

const MAIN = `package demo

import (
	rnd "pravo.dev/providers/hashicorp/random"
	"example.com/pets/pets"
)

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9}
web: pets.#Pet & {#provider: $random, #var: prefix: "web-\\(base.result)"}
`;

const moduleFile = (version: string) =>
  `module: "example.com/infra@v0"\nlanguage: version: "v0.9.0"\ndeps: {\n\t"example.com/pets@v0": {v: "${version}"}\n}\n`;

interface World {
  root: string;
  home: string;
  env: Record<string, string>;
  /** scripts/pravo in the root, with `env` (and `more` over it) alone. */
  run(args: string[], more?: Record<string, string>): Promise<Ran>;
  cleanup(): Promise<void>;
}

/** A root that is a CUE module depending on example.com/pets, and a cache and key outside it. */
async function world(registry: string, version = "v0.1.0"): Promise<World> {
  const home = await Deno.makeTempDir({ prefix: "pravo-modhome-" });
  const root = join(home, "root");
  await Deno.mkdir(join(root, "cue.mod"), { recursive: true });
  await Deno.writeTextFile(join(root, "cue.mod/module.cue"), moduleFile(version));
  await Deno.writeTextFile(join(root, "main.cue"), MAIN);
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CACHE_HOME: join(home, "cache"),
    XDG_CONFIG_HOME: join(home, "config"),
    CUE_REGISTRY: registry,
    PRAVO_ACTOR: "test",
    ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
  };
  return {
    root,
    home,
    env,
    run: (args, more = {}) =>
      runScript(root, ["--no-color", ...args], { env: { ...env, ...more }, clearEnv: true }),
    cleanup: () => Deno.remove(home, { recursive: true }),
  };
}

const lockOf = async (w: World) =>
  JSON.parse(await Deno.readTextFile(join(w.root, "pravo.lock.json")));

Deno.test("init fetches a module of deps from an OCI registry, pins it, and plan and apply read it from pravo's cache with the registry gone", async () => {
  const registry = await startRegistry();
  let stopped = false;
  const w = await world(registry.host);
  try {
    const published = await publishModule(registry.host, "example.com/pets@v0", "v0.1.0", PETS);
    const init = await w.run(["init"]);
    assert.equal(init.code, 0, init.stdout + init.stderr);
    assert.match(
      init.stdout,
      new RegExp(
        `Fetched example\\.com/pets@v0 v0\\.1\\.0 from ${registry.host}/example\\.com/pets:v0\\.1\\.0 \\(sha256:`,
      ),
    );
    assert.match(init.stderr, /Downloading example\.com\/pets@v0 v0\.1\.0 from 127\.0\.0\.1:/);
    assert.deepEqual((await lockOf(w)).modules, {
      "example.com/pets@v0": {
        version: "v0.1.0",
        digest: published.digest,
        manifest: published.manifest,
      },
    });
    // Kept outside the root, by digest; nothing written under cue.mod/pkg.
    const zip = join(w.home, "cache/pravo/modules/sha256", published.digest.slice(7) + ".zip");
    assert.deepEqual(await Deno.readFile(zip), published.zip);
    await assert.rejects(Deno.stat(join(w.root, "cue.mod/pkg")), Deno.errors.NotFound);

    // Again: the cache holds the pinned bytes, and nothing is fetched.
    const again = await w.run(["init", "--json"]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout).modules, [{
      module: "example.com/pets@v0",
      version: "v0.1.0",
      action: "cached",
      digest: published.digest,
      path: zip,
    }]);
    assert.equal(JSON.parse(again.stdout).lock_file.status, "unchanged");

    // Nothing is fetched at plan time: the registry is gone.
    await registry.stop();
    stopped = true;
    const graph = await w.run(["graph", "--json"]);
    assert.equal(graph.code, 0, graph.stderr);
    const edges = JSON.parse(graph.stdout).edges
      .filter((e: { kind: string }) => e.kind === "dependency")
      .map((e: { from: string; to: string }) => `${e.from} -> ${e.to}`).sort();
    assert.deepEqual(edges, ["web.pet -> base", "web.tag -> web.pet"]);
    const plan = await w.run(["plan", "--out", "a.plan", "--json"]);
    assert.equal(plan.code, 2, plan.stderr);
    const origins = Object.fromEntries(
      JSON.parse(plan.stdout).nodes.map((n: { address: string; origin: unknown }) => [
        n.address,
        n.origin,
      ]),
    );
    const fromRegistry = {
      package: "example.com/pets/pets",
      module: "example.com/pets",
      version: "v0.1.0",
      digest: published.digest,
    };
    assert.deepEqual(origins, {
      base: { package: "example.com/infra", module: "example.com/infra" },
      "web.pet": fromRegistry,
      "web.tag": fromRegistry,
    });
    const apply = await w.run(["apply", "a.plan"]);
    assert.equal(apply.code, 0, apply.stdout + apply.stderr);
    const noop = await w.run(["plan"]);
    assert.equal(noop.code, 0, noop.stdout + noop.stderr);

    // A copy in the cache that is not the pinned bytes is refused, whoever altered it.
    const good = await Deno.readFile(zip);
    const bad = new Uint8Array([...good.subarray(0, good.length - 1), good[good.length - 1] ^ 1]);
    await Deno.writeFile(zip, bad);
    const altered = await w.run(["plan"]);
    assert.equal(altered.code, 3, altered.stdout + altered.stderr);
    assert.match(altered.stderr, /Cannot read the module example\.com\/pets@v0/);
    assert.match(
      altered.stderr,
      /not the sha256:[0-9a-f]{64} pravo\.lock\.json pins: it was altered/,
    );
    assert.match(altered.stderr, /on main\.cue line 5, column 2/);
    await Deno.writeFile(zip, good);
    await Deno.remove(zip);
    const missing = await w.run(["validate"]);
    assert.equal(missing.code, 3, missing.stderr);
    assert.match(missing.stderr, /is not in pravo's cache .*: run `pravo init` to fetch it/);
  } finally {
    if (!stopped) await registry.stop();
    await w.cleanup();
  }
});

Deno.test("a version the lock pins keeps its bytes; another version in module.cue waits for init; what is not a CUE module is refused", async () => {
  const registry = await startRegistry();
  const w = await world(registry.host);
  try {
    const v1 = await publishModule(registry.host, "example.com/pets@v0", "v0.1.0", PETS);
    assert.equal((await w.run(["init"])).code, 0);

    // module.cue asks v0.2.0: nothing is fetched until init runs.
    await Deno.writeTextFile(join(w.root, "cue.mod/module.cue"), moduleFile("v0.2.0"));
    const waits = await w.run(["plan"]);
    assert.equal(waits.code, 3, waits.stderr);
    assert.match(
      waits.stderr,
      /cue\.mod\/module\.cue's deps ask example\.com\/pets@v0 v0\.2\.0, and pravo\.lock\.json pins v0\.1\.0; nothing is fetched until `pravo init` runs/,
    );
    // Not published: init fails at module.cue's line, and the lock stays.
    const lockBefore = await Deno.readTextFile(join(w.root, "pravo.lock.json"));
    const absent = await w.run(["init"]);
    assert.equal(absent.code, 1, absent.stdout + absent.stderr);
    assert.match(absent.stderr, /Cannot fetch the module example\.com\/pets@v0 v0\.2\.0/);
    assert.match(absent.stderr, /does not exist in the registry/);
    assert.match(absent.stderr, /on cue\.mod\/module\.cue line 4, column/);
    assert.equal(await Deno.readTextFile(join(w.root, "pravo.lock.json")), lockBefore);

    const words3 = { ...PETS, "pets/words.cue": "package pets\n\n#Words: 3\n" };
    const v2 = await publishModule(registry.host, "example.com/pets@v0", "v0.2.0", words3);
    const upgraded = await w.run(["init", "--json"]);
    assert.equal(upgraded.code, 0, upgraded.stderr);
    assert.equal(JSON.parse(upgraded.stdout).modules[0].action, "fetched");
    assert.equal((await lockOf(w)).modules["example.com/pets@v0"].digest, v2.digest);
    assert.notEqual(v1.digest, v2.digest);
    const plan = await w.run(["plan"]);
    assert.equal(plan.code, 2, plan.stderr);
    assert.match(plan.stdout, /length += 3/);

    // v0.2.0 published again with other bytes: the pinned digest wins, unless -upgrade.
    await publishModule(registry.host, "example.com/pets@v0", "v0.2.0", {
      ...words3,
      "pets/words.cue": "package pets\n\n#Words: 4\n",
    });
    await Deno.remove(join(w.home, "cache/pravo/modules"), { recursive: true });
    const lockPinned = await Deno.readTextFile(join(w.root, "pravo.lock.json"));
    const republished = await w.run(["init"]);
    assert.equal(republished.code, 1, republished.stderr);
    assert.match(
      republished.stderr,
      /The registry's example\.com\/pets@v0 v0\.2\.0 is not the one pravo\.lock\.json pins/,
    );
    assert.match(republished.stderr, /run `pravo init -upgrade` to pin them/);
    assert.equal(await Deno.readTextFile(join(w.root, "pravo.lock.json")), lockPinned);
    const taken = await w.run(["init", "-upgrade"]);
    assert.equal(taken.code, 0, taken.stderr);
    assert.notEqual((await lockOf(w)).modules["example.com/pets@v0"].digest, v2.digest);

    // An artifact that is not a CUE module.
    await publishModule(registry.host, "example.com/pets@v0", "v0.3.0", PETS, {
      configType: "application/vnd.oci.image.config.v1+json",
    });
    await Deno.writeTextFile(join(w.root, "cue.mod/module.cue"), moduleFile("v0.3.0"));
    const image = await w.run(["init"]);
    assert.equal(image.code, 1, image.stderr);
    assert.match(image.stderr, /is not a CUE module: its manifest's config has the media type/);

    // A zip that names another module.
    await publishModule(registry.host, "example.com/pets@v0", "v0.4.0", {
      ...PETS,
      "cue.mod/module.cue": 'module: "example.com/cats@v0"\n',
    });
    await Deno.writeTextFile(join(w.root, "cue.mod/module.cue"), moduleFile("v0.4.0"));
    const other = await w.run(["init"]);
    assert.equal(other.code, 1, other.stderr);
    assert.match(other.stderr, /is the module "example\.com\/cats", not "example\.com\/pets"/);

    // $CUE_REGISTRY as CUE reads it: a route by module prefix, and a repository prefix.
    await publishModule(registry.host, "example.com/pets@v0", "v0.5.0", PETS, {
      prefix: "team/cue",
    });
    await Deno.writeTextFile(join(w.root, "cue.mod/module.cue"), moduleFile("v0.5.0"));
    const routed = await w.run(["init"], {
      CUE_REGISTRY: `example.com=${registry.host}/team/cue,nowhere.invalid`,
    });
    assert.equal(routed.code, 0, routed.stdout + routed.stderr);
    assert.match(
      routed.stdout,
      new RegExp(`from ${registry.host}/team/cue/example\\.com/pets:v0\\.5\\.0`),
    );
    await Deno.remove(join(w.home, "cache/pravo/modules"), { recursive: true });
    const badSpec = await w.run(["init"], { CUE_REGISTRY: `${registry.host},,x` });
    assert.equal(badSpec.code, 1);
    assert.match(
      badSpec.stderr,
      /\$CUE_REGISTRY cannot be read\n[\s\S]*it has an empty entry \(two commas\)/,
    );
  } finally {
    await registry.stop();
    await w.cleanup();
  }
});

Deno.test("pravo mcp pins the modules at start: an agent that edits module.cue, the lock, the cache or cue.mod/pkg changes nothing", async () => {
  const registry = await startRegistry();
  const w = await world(registry.host);
  try {
    await publishModule(registry.host, "example.com/pets@v0", "v0.1.0", PETS);
    const v2 = await publishModule(registry.host, "example.com/pets@v0", "v0.2.0", {
      ...PETS,
      "pets/words.cue": "package pets\n\n#Words: 3\n",
    });
    assert.equal((await w.run(["init"])).code, 0);
    const lock = await lockOf(w);
    const zip = join(
      w.home,
      "cache/pravo/modules/sha256",
      lock.modules["example.com/pets@v0"].digest.slice(7) + ".zip",
    );
    const s = await connect(w.root, { script: true, env: w.env });
    try {
      const first = await call(s, "pravo_plan", {});
      assert.equal(first.structuredContent?.exit_code, 2, text(first));
      assert.match(text(first), /"length": 2/);

      // The agent writes the lock and module.cue of v0.2.0 (whose bytes an
      // operator's cache may well hold), and damages the cache's v0.1.0.
      await Deno.writeTextFile(join(w.root, "cue.mod/module.cue"), moduleFile("v0.2.0"));
      lock.modules["example.com/pets@v0"] = {
        ...lock.modules["example.com/pets@v0"],
        version: "v0.2.0",
        digest: v2.digest,
        manifest: v2.manifest,
      };
      await Deno.writeTextFile(join(w.root, "pravo.lock.json"), JSON.stringify(lock, null, 2));
      const waits = await call(s, "pravo_plan", {});
      assert.notEqual(waits.structuredContent?.exit_code, 2, text(waits));
      assert.match(text(waits), /pravo\.lock\.json pins v0\.1\.0/);

      await Deno.writeTextFile(join(w.root, "cue.mod/module.cue"), moduleFile("v0.1.0"));
      await Deno.writeFile(zip, new TextEncoder().encode("not a zip"));
      const pinnedBytes = await call(s, "pravo_plan", {});
      assert.equal(pinnedBytes.structuredContent?.exit_code, 2, text(pinnedBytes));
      assert.match(text(pinnedBytes), /"length": 2/);

      // A vendored copy beside the pinned module is refused, not preferred.
      const pkg = join(w.root, "cue.mod/pkg/example.com/pets/pets");
      await Deno.mkdir(pkg, { recursive: true });
      await Deno.writeTextFile(join(pkg, "pets.cue"), PETS["pets/pets.cue"]);
      await Deno.writeTextFile(join(pkg, "words.cue"), "package pets\n\n#Words: 5\n");
      const vendored = await call(s, "pravo_plan", {});
      assert.notEqual(vendored.structuredContent?.exit_code, 2, text(vendored));
      assert.match(
        text(vendored),
        /example\.com\/pets is both vendored and pinned from a registry/,
      );
    } finally {
      await s.close();
    }
  } finally {
    await registry.stop();
    await w.cleanup();
  }
});

Deno.test("init refuses a deps key of module.cue that is not a module path with its major version, at its line, and writes no lock", async () => {
  // No registry: the key is refused before anything is fetched.
  const w = await world("127.0.0.1:9");
  try {
    for (const key of ["../x@v0", "example.com/../../x@v0", "example.com/pets", "pets@v0"]) {
      await Deno.writeTextFile(
        join(w.root, "cue.mod/module.cue"),
        `module: "example.com/infra@v0"\nlanguage: version: "v0.9.0"\ndeps: {\n\t"${key}": {v: "v0.1.0"}\n}\n`,
      );
      const init = await w.run(["init"]);
      assert.equal(init.code, 1, key + init.stdout + init.stderr);
      assert.ok(
        init.stderr.includes(
          `"${key}" in the deps of cue.mod/module.cue is not a CUE module path with its major version`,
        ),
        init.stderr,
      );
      assert.match(init.stderr, /on cue\.mod\/module\.cue line 4/);
      assert.match(
        init.stderr,
        /Correct the key in cue\.mod\/module\.cue and run `pravo init` again/,
      );
      await assert.rejects(Deno.stat(join(w.root, "pravo.lock.json")), Deno.errors.NotFound);
    }
  } finally {
    await w.cleanup();
  }
});
