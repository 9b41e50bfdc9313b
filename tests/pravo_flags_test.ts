import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { keyFilePath } from "../lib/keys/key.ts";
import { fileURLToPath } from "node:url";
import {
  ENV_VARS,
  permissionFlags,
  PG_ENV_VARS,
  PLUGIN_ENV_VARS,
} from "../lib/permissions/permissions.ts";
import { V8_FLAGS } from "../lib/cli/v8_flags.ts";
import { selfCommand } from "../mcp/child.ts";
import { removing, run, SEED_VALID } from "./_pravo.ts";

const PROJECT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const SCRIPT = join(PROJECT, "scripts", "pravo");
const DENO = Deno.execPath();

/** The command scripts/pravo would run, from `cwd`, one word an element. */
async function dryRun(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<string[]> {
  const out = await run(SCRIPT, args, { cwd, env: { ...env, PRAVO_SCRIPT_DRY_RUN: "1" } });
  assert.equal(out.code, 0, out.stderr);
  return out.stdout.trimEnd().split("\n");
}

/** The key folder scripts/pravo grants in this test's environment. */
const KEY_DIR = Deno.env.get("PRAVO_KEY") ? undefined : dirname(keyFilePath()!);

/** The plain options of the permissionFlags() cases below: root /r, deno /d/deno, project /p. */
const R = { root: "/r", execPath: "/d/deno", projectDir: "/p" };

const permissions = (cmd: string[]) => cmd.filter((w) => /^--(no-prompt|allow-)/.test(w));

/**
 * Asserts that scripts/pravo, run with `args` from `cwd` (and `env`), grants
 * the flags permissionFlags() makes for this deno, this project and the key
 * folder, with root `cwd` unless `over` says otherwise; what it ran.
 */
async function assertGrants(
  args: string[],
  cwd: string,
  opts: { env?: Record<string, string>; over?: Partial<Parameters<typeof permissionFlags>[0]> } =
    {},
): Promise<string[]> {
  const cmd = await dryRun(args, cwd, opts.env);
  assert.deepEqual(
    permissions(cmd),
    permissionFlags({
      root: cwd,
      execPath: DENO,
      projectDir: PROJECT,
      keyDir: KEY_DIR,
      ...opts.over,
    }),
    args.join(" "),
  );
  return cmd;
}

Deno.test("permissionFlags() grants read and write of the root, env by name, run of deno only", () => {
  assert.deepEqual(
    permissionFlags({ root: "/r/demo/", execPath: "/p/node_modules/deno/deno", projectDir: "/p" }),
    [
      "--no-prompt",
      "--allow-read=/r/demo,/p/main.ts,/p/lib,/p/mcp,/p/policy,/p/node_modules,/p/deno.json,/p/package.json",
      "--allow-write=/r/demo",
      `--allow-env=${ENV_VARS.join(",")}`,
      "--allow-run=/p/node_modules/deno/deno",
      "--allow-sys=hostname,uid,gid,userInfo",
    ],
  );
});

Deno.test("permissionFlags() refuses relative paths and paths with a comma", () => {
  const base = { execPath: "/d/deno", projectDir: "/p" };
  assert.throws(() => permissionFlags({ ...base, root: "demo" }), /must be an absolute path/);
  assert.throws(() => permissionFlags({ ...base, root: "/a,b" }), /contains a comma/);
});

Deno.test("scripts/pravo uses the flags of permissionFlags() for every way to name the root", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  await using _tmp = removing(tmp);
  await Deno.mkdir(join(tmp, "sub"));
  const cases: [string[], string][] = [
    [["validate"], tmp],
    [["-C", "sub", "validate"], join(tmp, "sub")],
    [["-C=sub", "validate"], join(tmp, "sub")],
    [["validate", "-Csub/../sub/"], join(tmp, "sub")],
    [["--reason", "-C", "-C", "/elsewhere", "validate"], "/elsewhere"],
    [["--", "-C", "x"], tmp],
  ];
  for (const [args, root] of cases) {
    const cmd = await assertGrants(args, tmp, { over: { root } });
    assert.equal(cmd[0], DENO, "deno is the real binary, as Deno.execPath() reports it");
    assert.deepEqual(cmd.slice(-args.length), args, "the arguments pass unchanged");
  }
});

Deno.test("permissionFlags() with allowNet grants the network to those servers alone, and the PG variables", () => {
  const flags = permissionFlags({
    ...R,
    programFiles: ["main.ts"],
    allowNet: ["db.internal:5432", "[::1]:6432", "db.internal:5432"],
  });
  assert.deepEqual(flags.slice(-1), ["--allow-net=db.internal:5432,[::1]:6432"]);
  assert.ok(flags.includes(`--allow-env=${[...ENV_VARS, ...PG_ENV_VARS].join(",")}`));
  assert.deepEqual(
    permissionFlags({ ...R, allowNet: [] }),
    permissionFlags(R),
  );
  for (const bad of ["db.internal", "a,b:1", "h:1 --allow-all", ""]) {
    assert.throws(
      () => permissionFlags({ ...R, allowNet: [bad] }),
      /must be HOST:PORT/,
    );
  }
});

Deno.test("scripts/pravo grants the network to the state's PostgreSQL server: --state, $PRAVO_STATE, pravo.jsonc, --to", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  await using _tmp = removing(tmp);
  await Deno.mkdir(join(tmp, "cfg"));
  await Deno.writeTextFile(
    join(tmp, "cfg", "pravo.jsonc"),
    '{\n  // shared state\n  "state": {"url": "postgres://pravo@cfg.db:5433/infra", "root": "x"},\n}\n',
  );
  const cases: [string[], Record<string, string>, string, string[]][] = [
    [["validate"], {}, tmp, []],
    [["--state", "postgres://u:pw@db.x:6432/d?root=a", "plan"], {}, tmp, ["db.x:6432"]],
    [["--state=postgresql://h1,h2:7,[::1]:9/d", "plan"], {}, tmp, ["h1:5432", "h2:7", "[::1]:9"]],
    [["plan"], { PRAVO_STATE: "postgres://envhost/d" }, tmp, ["envhost:5432"]],
    [["-C", "cfg", "plan"], {}, join(tmp, "cfg"), ["cfg.db:5433"]],
    [["-C", "cfg", "--state", "sqlite:s.db", "plan"], {}, join(tmp, "cfg"), []],
    [["-C", "cfg", "state", "migrate", "--to", "postgres://u@new.db/d"], {}, join(tmp, "cfg"), [
      "cfg.db:5433",
      "new.db:5432",
    ]],
  ];
  for (const [args, env, root, net] of cases) {
    await assertGrants(args, tmp, { env, over: { root, allowNet: net } });
  }
});

Deno.test("scripts/pravo grants read of approvers' keys named on the command line, of the directory convert reads, and write of the pair approver-key makes", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  await using _tmp = removing(tmp);
  const pem = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";
  const cases: [string[], Record<string, string>, string[], string[]][] = [
    [["approve", "x.plan", "--key", "../keys/op"], {}, [join(dirname(tmp), "keys", "op")], []],
    [["approve", "x.plan", "--key=/k/op"], {}, ["/k/op"], []],
    [["approve", "x.plan"], { PRAVO_APPROVER_KEY: "/k/op" }, ["/k/op"], []],
    [["approve", "x.plan"], { PRAVO_APPROVER_KEY: pem }, [], []],
    [["mcp", "--approver", "/k/a.pub", "--approver=/k/b.pub", "--policy", "/p.cue"], {}, [
      "/k/a.pub",
      "/k/b.pub",
      "/p.cue",
    ], []],
    [["--actor", "op", "approver-key", "/k/op"], {}, ["/k"], ["/k/op", "/k/op.pub"]],
    [["convert", "--from", "terraform", "../tf"], {}, [join(dirname(tmp), "tf")], []],
    [["convert", "--from=terraform", "/srv/tf", "--force"], {}, ["/srv/tf"], []],
    [["-C", ".", "approver-key", "keys/op"], {}, [join(tmp, "keys")], [
      join(tmp, "keys", "op"),
      join(tmp, "keys", "op.pub"),
    ]],
  ];
  for (const [args, env, extraRead, extraWrite] of cases) {
    await assertGrants(args, tmp, { env, over: { extraRead, extraWrite } });
  }
});

Deno.test("scripts/pravo grants read of the state file import --from terraform takes over, and of nothing for import ADDR ID", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  await using _tmp = removing(tmp);
  const cases: [string[], string[]][] = [
    [["import", "--from", "terraform", "../tf/terraform.tfstate"], [
      join(dirname(tmp), "tf", "terraform.tfstate"),
    ]],
    [["--reason", "x", "import", "--from=terraform", "/srv/tf/terraform.tfstate"], [
      "/srv/tf/terraform.tfstate",
    ]],
    [["-C", ".", "import", "/srv/a.tfstate", "--from", "terraform"], ["/srv/a.tfstate"]],
    [["import", "aws_s3_bucket.b", "my-bucket"], []],
  ];
  for (const [args, extraRead] of cases) await assertGrants(args, tmp, { over: { extraRead } });
});

Deno.test("scripts/pravo-bundle uses the same flags with the bundle as the program", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  await using _tmp = removing(tmp);
  const bundle = join(tmp, "pravo.js");
  await Deno.writeTextFile(bundle, "");
  const out = await new Deno.Command(join(PROJECT, "scripts", "pravo-bundle"), {
    args: ["validate"],
    cwd: tmp,
    env: { PRAVO_SCRIPT_DRY_RUN: "1", PRAVO_BUNDLE: bundle },
    stdout: "piped",
  }).output();
  const cmd = new TextDecoder().decode(out.stdout).trimEnd().split("\n");
  assert.deepEqual(
    permissions(cmd),
    permissionFlags({
      root: tmp,
      execPath: DENO,
      projectDir: tmp,
      programFiles: ["pravo.js"],
      keyDir: KEY_DIR,
    }),
  );
  assert.ok(cmd.includes("--no-config"));
  assert.deepEqual(cmd.slice(-2), [bundle, "validate"]);
});

Deno.test("the flags let a program use its root and run deno, and nothing else", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  await using _tmp = removing(tmp);
  const root = join(tmp, "root");
  await Deno.mkdir(root);
  const probe = join(tmp, "probe.ts");
  await Deno.writeTextFile(
    probe,
    `
const results: Record<string, string> = {};
async function attempt(name: string, f: () => unknown) {
  try { await f(); results[name] = "ok"; } catch (e) { results[name] = (e as Error).name; }
}
await attempt("write root", () => Deno.writeTextFile(${JSON.stringify(root)} + "/.pravo-x", "x"));
await attempt("read root", () => Deno.readTextFile(${JSON.stringify(root)} + "/.pravo-x"));
await attempt("read project", () => Deno.readTextFile(${JSON.stringify(PROJECT)} + "/deno.json"));
await attempt("write outside", () => Deno.writeTextFile(${JSON.stringify(tmp)} + "/out", "x"));
await attempt("read outside", () => Deno.readTextFile("/etc/hostname"));
await attempt("env PRAVO_ACTOR", () => Deno.env.get("PRAVO_ACTOR"));
await attempt("env other", () => Deno.env.get("AWS_SECRET_ACCESS_KEY"));
await attempt("run deno", () => new Deno.Command(Deno.execPath(), { args: ["--version"] }).output());
await attempt("run sh", () => new Deno.Command("/bin/sh", { args: ["-c", "true"] }).output());
await attempt("net", () => Deno.connect({ hostname: "127.0.0.1", port: 9 }));
await attempt("sys hostname", () => Deno.hostname());
await attempt("sys other", () => Deno.osRelease());
console.log(JSON.stringify(results));
`,
  );
  const flags = permissionFlags({ root, execPath: DENO, projectDir: PROJECT });
  const out = await run(DENO, ["run", ...flags, probe]);
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), {
    "write root": "ok",
    "read root": "ok",
    "read project": "ok",
    "write outside": "NotCapable",
    "read outside": "NotCapable",
    "env PRAVO_ACTOR": "ok",
    "env other": "NotCapable",
    "run deno": "ok",
    "run sh": "NotCapable",
    "net": "NotCapable",
    "sys hostname": "ok",
    "sys other": "NotCapable",
  });
});

Deno.test("scripts/pravo runs pravo from another directory on the root given by -C", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  await using _tmp = removing(tmp);
  await Deno.mkdir(join(tmp, "root"));
  await Deno.mkdir(join(tmp, "elsewhere"));
  await Deno.copyFile(
    join(PROJECT, "examples", "seed", "main.cue"),
    join(tmp, "root", "main.cue"),
  );
  const out = await run(SCRIPT, ["-C", "../root", "validate", "--json"], {
    cwd: join(tmp, "elsewhere"),
  });
  assert.equal(out.stderr, "");
  assert.deepEqual(JSON.parse(out.stdout), SEED_VALID);
  assert.equal(out.code, 0);
});

Deno.test("scripts/compile bakes in the same env list, relative root access and run of the install path", async () => {
  const out = await run(join(PROJECT, "scripts", "compile"), ["--target", "aarch64-apple-darwin"], {
    env: { PRAVO_SCRIPT_DRY_RUN: "1", PRAVO_INSTALL_PATH: "/opt/bin/pravo" },
  });
  assert.equal(out.code, 0, out.stderr);
  const cmd = out.stdout.trim().split(" ");
  assert.deepEqual(permissions(cmd), [
    "--no-prompt",
    "--allow-read=.",
    "--allow-write=.",
    `--allow-env=${ENV_VARS.join(",")}`,
    "--allow-run=/opt/bin/pravo",
    "--allow-sys=hostname,uid,gid,userInfo",
  ]);
  assert.ok(cmd.includes("aarch64-apple-darwin"));
});

Deno.test("scripts/pravo grants the key's folder from $PRAVO_KEY_FILE, $XDG_CONFIG_HOME or $HOME, and none with $PRAVO_KEY", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  await using _tmp = removing(tmp);
  const cases: [Record<string, string>, string | undefined][] = [
    [{ PRAVO_KEY_FILE: "/etc/pravo/the.key" }, "/etc/pravo"],
    [{ PRAVO_KEY_FILE: "keys/k" }, join(tmp, "keys")],
    [{ PRAVO_KEY_FILE: "", XDG_CONFIG_HOME: "/xdg" }, "/xdg/pravo"],
    [{ PRAVO_KEY_FILE: "", XDG_CONFIG_HOME: "", HOME: "/home/op" }, "/home/op/.config/pravo"],
    [{ PRAVO_KEY: "anything", PRAVO_KEY_FILE: "/etc/pravo/k" }, undefined],
  ];
  for (const [env, keyDir] of cases) {
    const cmd = await dryRun(["validate"], tmp, { PRAVO_KEY: "", ...env });
    assert.deepEqual(
      permissions(cmd),
      permissionFlags({ root: tmp, execPath: DENO, projectDir: PROJECT, keyDir }),
      JSON.stringify(env),
    );
  }
});

Deno.test("scripts/pravo grants init the plugin cache, pravo's cache, the mirrors and the network, and other commands none", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  await using _tmp = removing(tmp);
  await Deno.writeTextFile(
    join(tmp, "pravo.jsonc"),
    `{
  "providers": {"hashicorp/aws": "~> 5.100"},
  // mirrors, one relative to the root
  "provider_mirrors": [
  "/opt/tf-plugins",
  "../mirror", "/opt/tf-plugins",
  ],
}
`,
  );
  const mirrors = ["/opt/tf-plugins", join(dirname(tmp), "mirror")];
  const cases: [Record<string, string>, { cacheDir: string; pravoCache?: string }][] = [
    [{ XDG_CACHE_HOME: "/xdg/cache", TF_PLUGIN_CACHE_DIR: "" }, {
      cacheDir: "/xdg/cache/pravo/providers",
      pravoCache: "/xdg/cache/pravo",
    }],
    [{ XDG_CACHE_HOME: "", HOME: "/home/op", TF_PLUGIN_CACHE_DIR: "" }, {
      cacheDir: "/home/op/.cache/pravo/providers",
      pravoCache: "/home/op/.cache/pravo",
    }],
    [{ XDG_CACHE_HOME: "", HOME: "/home/op", TF_PLUGIN_CACHE_DIR: "plugins" }, {
      cacheDir: join(tmp, "plugins"),
      pravoCache: "/home/op/.cache/pravo",
    }],
    [{ XDG_CACHE_HOME: "", HOME: "/home/op", TF_PLUGIN_CACHE_DIR: "~/tf" }, {
      cacheDir: "/home/op/tf",
      pravoCache: "/home/op/.cache/pravo",
    }],
  ];
  for (const [env, caches] of cases) {
    const keyDir = dirname(keyFilePath((n) => ({ ...Deno.env.toObject(), ...env })[n])!);
    const base = { root: tmp, execPath: DENO, projectDir: PROJECT, keyDir };
    const withKey = Deno.env.get("PRAVO_KEY") ? { ...base, keyDir: undefined } : base;
    assert.deepEqual(
      permissions(await dryRun(["init", "-upgrade"], tmp, env)),
      permissionFlags({ ...withKey, install: { ...caches, mirrors } }),
      JSON.stringify(env),
    );
    assert.deepEqual(
      permissions(await dryRun(["validate"], tmp, env)),
      permissionFlags(withKey),
      "another command gets no cache, no mirror, no network",
    );
  }
});

Deno.test("permissionFlags() with install opens the network and the caches, and nothing more", () => {
  const flags = permissionFlags({
    ...R,
    programFiles: ["main.ts"],
    install: { cacheDir: "/c/providers", pravoCache: "/c", mirrors: ["/m", "/m"] },
  });
  assert.deepEqual(flags, [
    "--no-prompt",
    "--allow-read=/r,/p/main.ts,/c/providers,/c,/m",
    "--allow-write=/r,/c/providers,/c",
    `--allow-env=${ENV_VARS.join(",")}`,
    "--allow-run=/d/deno",
    "--allow-sys=hostname,uid,gid,userInfo",
    "--allow-net",
  ]);
});

Deno.test("permissionFlags() with plugins runs exactly the verified executables, and reads their packages", () => {
  const plugins = {
    providers: [
      { executable: "/c/aws/terraform-provider-aws_v5.100.0_x5", packageDir: "/c/aws" },
      { executable: "/m/x/terraform-provider-x", packageDir: "/m/x" },
    ],
    pravoCache: "/home/op/.cache/pravo",
  };
  const flags = permissionFlags({
    ...R,
    programFiles: ["main.ts"],
    allowRun: false,
    plugins,
  });
  assert.deepEqual(flags, [
    "--no-prompt",
    "--allow-read=/r,/p/main.ts,/c/aws,/m/x,/home/op/.cache/pravo",
    "--allow-write=/r,/home/op/.cache/pravo",
    `--allow-env=${[...ENV_VARS, ...PLUGIN_ENV_VARS].join(",")}`,
    "--allow-run=/c/aws/terraform-provider-aws_v5.100.0_x5,/m/x/terraform-provider-x",
    "--allow-sys=hostname,uid,gid,userInfo",
  ]);
  assert.ok(
    permissionFlags({ ...R, plugins }).includes(
      "--allow-run=/d/deno,/c/aws/terraform-provider-aws_v5.100.0_x5,/m/x/terraform-provider-x",
    ),
  );
  assert.ok(
    !permissionFlags({ ...R, allowRun: false })
      .some((f) => f.startsWith("--allow-run")),
    "no plugin and no deno: no --allow-run at all",
  );
});

Deno.test("scripts/pravo grants the commands that may start plugin providers the locked executables, pravo's cache and a socket directory; mcp reads them only", async () => {
  const { fakeMirror, FAKE_SOURCE, FAKE_VERSION, pluginRoot } = await import("./plugin/_roots.ts");
  const mirror = await fakeMirror();
  const r = await pluginRoot({ "main.cue": "package demo\n" }, {
    source: FAKE_SOURCE,
    version: FAKE_VERSION,
    mirror: mirror.dir,
  });
  const root = await Deno.realPath(r.root);
  const pkg = await Deno.realPath(
    join(mirror.dir, "example.com/pravo/fake", FAKE_VERSION, "linux_amd64"),
  );
  const providers = [{
    packageDir: pkg,
    executable: join(pkg, `terraform-provider-fake_v${FAKE_VERSION}`),
  }];
  const env = { ...r.env, TMPDIR: "/tmp" };
  const keyDir = Deno.env.get("PRAVO_KEY") ? undefined : dirname(keyFilePath()!);
  const base = { root, execPath: DENO, projectDir: PROJECT, keyDir };
  const plugins = {
    providers,
    pravoCache: join(r.env.XDG_CACHE_HOME, "pravo"),
    socketDir: "/tmp/pravo-plugins-dry-run",
  };
  for (const command of ["plan", "apply", "drift", "import", "schema", "providers", "validate"]) {
    assert.deepEqual(
      permissions(await dryRun([command], root, env)),
      permissionFlags({ ...base, plugins }),
      command,
    );
  }
  assert.deepEqual(
    permissions(await dryRun(["mcp"], root, env)),
    permissionFlags({ ...base, plugins: { ...plugins, run: false } }),
    "mcp verifies the packages and runs none",
  );
  assert.deepEqual(
    permissions(await dryRun(["approve", "a.plan", "--key", "/elsewhere/op"], root, env)),
    permissionFlags({
      ...base,
      extraRead: ["/elsewhere/op"],
      plugins: { providers, pravoCache: plugins.pravoCache, run: false },
    }),
    "approve checks the plan against the providers' schemas and runs none",
  );
  assert.deepEqual(
    permissions(await dryRun(["fmt"], root, env)),
    permissionFlags(base),
    "a command that starts no provider gets nothing of them",
  );
});

Deno.test("scripts/pravo, scripts/compile and pravo mcp's children run with V8_FLAGS", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  await using _tmp = removing(tmp);
  const flag = `--v8-flags=${V8_FLAGS.join(",")}`;
  const cmd = await dryRun(["validate"], tmp);
  assert.equal(cmd[2], flag, "scripts/pravo");
  const out = await new Deno.Command(join(PROJECT, "scripts", "compile"), {
    args: ["--target", "x86_64-unknown-linux-gnu"],
    env: { PRAVO_SCRIPT_DRY_RUN: "1" },
    stdout: "piped",
  }).output();
  assert.ok(new TextDecoder().decode(out.stdout).trim().split(" ").includes(flag), "compile");
  const child = selfCommand(tmp).prefix.find((w) => w.startsWith("--v8-flags="))!;
  for (const f of V8_FLAGS) assert.ok(child.slice(11).split(",").includes(f), child);
});

Deno.test("hints name pravo as the user ran it: ./scripts/pravo by a relative path, else pravo", async () => {
  const root = await Deno.makeTempDir({ prefix: "pravo-hint-" });
  await Deno.writeTextFile(join(root, "main.cue"), "package demo\n");
  await using _root = removing(root);
  // As a shell runs it: the script's $0 is the path as typed.
  const run = async (program: string, cwd: string, env: Record<string, string> = {}) => {
    const out = await new Deno.Command("bash", {
      args: ["-c", `${program} -C "$1" plan`, "bash", root],
      cwd,
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 1);
    return new TextDecoder().decode(out.stderr);
  };
  // Not initialised: the message says what to run.
  assert.match(await run("./scripts/pravo", PROJECT), /Run `\.\/scripts\/pravo init` in /);
  assert.match(await run("scripts/pravo", PROJECT), /Run `scripts\/pravo init` in /);
  assert.match(await run(SCRIPT, root), /Run `pravo init` in /);
  // A name that is not a relative path, or not a plain one, is not used.
  for (const odd of ["/usr/bin/other", "./a b", "./x`id`", "plain"]) {
    assert.match(await run(SCRIPT, root, { PRAVO_PROGRAM: odd }), /Run `pravo init` in /, odd);
  }
});

Deno.test("scripts/pravo grants read of the modules folder of pravo's cache, and nothing more, where the lock pins CUE modules", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  await using _tmp = removing(tmp);
  const lock = (modules: boolean) =>
    JSON.stringify({
      format_version: "1.0",
      providers: { "hashicorp/random": { version: "0.1.0" } },
      ...(modules
        ? {
          modules: {
            "example.com/pets@v0": {
              version: "v0.1.0",
              digest: `sha256:${"a".repeat(64)}`,
              manifest: `sha256:${"b".repeat(64)}`,
            },
          },
        }
        : {}),
    });
  const cases: [Record<string, string>, string][] = [
    [{ XDG_CACHE_HOME: "/xdg/cache" }, "/xdg/cache/pravo/modules"],
    [{ XDG_CACHE_HOME: "", HOME: "/home/op" }, "/home/op/.cache/pravo/modules"],
  ];
  for (const [env, dir] of cases) {
    const keyDir = dirname(keyFilePath((n) => ({ ...Deno.env.toObject(), ...env })[n])!);
    const base = { root: tmp, execPath: DENO, projectDir: PROJECT, keyDir };
    const withKey = Deno.env.get("PRAVO_KEY") ? { ...base, keyDir: undefined } : base;
    await Deno.writeTextFile(join(tmp, "pravo.lock.json"), lock(true));
    for (const command of ["validate", "plan", "mcp", "state"]) {
      assert.deepEqual(
        permissions(await dryRun([command], tmp, env)),
        permissionFlags({ ...withKey, modules: dir }),
        `${command} ${JSON.stringify(env)}`,
      );
    }
    await Deno.writeTextFile(join(tmp, "pravo.lock.json"), lock(false));
    assert.deepEqual(permissions(await dryRun(["plan"], tmp, env)), permissionFlags(withKey));
  }
  assert.ok(ENV_VARS.includes("CUE_REGISTRY"), "init reads $CUE_REGISTRY");
});
