/**
 * pravo's lock against Terraform's own: the same provider from the same
 * place, installed by `terraform init` and by `pravo init`, must give the
 * same version, constraints and hashes (`h1:` and `zh:`) in
 * `.terraform.lock.hcl` and `pravo.lock.json`.
 *
 * - the real `hashicorp/aws` 5.100.0 from the image's filesystem mirror;
 * - a provider from a packed mirror (a zip with a directory entry);
 * - a provider from a registry served over HTTPS on loopback, signed, with
 *   packages for three platforms: `h1:` and every `zh:`.
 *
 * Terraform 1.11.4 and the mirror are in the image; where either is missing
 * the tests fail, naming what is missing.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  fakeProviderFiles,
  serveRegistry,
  writeFakePackage,
} from "../lib/providers/install/_testing.ts";
import { parseLockFile } from "../lib/providers/install/lock.ts";
import { runCommand, SCRIPT } from "./_script.ts";

const TLS = fileURLToPath(new URL("./fixtures/tls/", import.meta.url));
const KEY = btoa(String.fromCharCode(...new Uint8Array(32).fill(9)));
const MIRROR = Deno.env.get("PRAVO_TEST_TF_MIRROR") ?? "/opt/tf-plugins";
const AWS = "registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64";

async function which(cmd: string): Promise<string | undefined> {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      const path = join(dir, cmd);
      if ((await Deno.stat(path)).isFile) return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

async function requireTerraform(): Promise<string> {
  const tf = await which("terraform");
  if (!tf) {
    throw new Error(
      "terraform is not on the PATH: this test compares pravo's lock with Terraform 1.11.4's. " +
        "Install it (the CI image has it).",
    );
  }
  return tf;
}

function run(cmd: string, args: string[], cwd: string, env: Record<string, string>) {
  const path = Deno.env.get("PATH") ?? "/usr/bin:/bin";
  return runCommand(cmd, { args, cwd, clearEnv: true, env: { PATH: path, ...env }, stdin: "null" });
}

/** The provider blocks of a `.terraform.lock.hcl`, read as Terraform writes them. */
function terraformLock(
  text: string,
): Record<string, { version: string; constraints: string; hashes: string[] }> {
  const out: Record<string, { version: string; constraints: string; hashes: string[] }> = {};
  for (const m of text.matchAll(/provider "([^"]+)" \{([\s\S]*?)\n\}/g)) {
    const body = m[2];
    out[m[1]] = {
      version: /version\s*=\s*"([^"]*)"/.exec(body)![1],
      constraints: /constraints\s*=\s*"([^"]*)"/.exec(body)?.[1] ?? "",
      hashes: [...body.matchAll(/"((?:h1|zh):[^"]+)"/g)].map((h) => h[1]).sort(),
    };
  }
  return out;
}

interface Sides {
  base: string;
  tfRoot: string;
  pravoRoot: string;
}

/** A root for Terraform and one for pravo, side by side; removed on disposal. */
async function sides(): Promise<Sides & AsyncDisposable> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pravo-tf-lock-" }));
  const tfRoot = join(base, "tf");
  const pravoRoot = join(base, "pravo");
  await Deno.mkdir(tfRoot);
  await Deno.mkdir(pravoRoot);
  const dispose = () => Deno.remove(base, { recursive: true });
  return { base, tfRoot, pravoRoot, [Symbol.asyncDispose]: dispose };
}

/** Runs both inits and returns both locks' entry for `address`. */
async function bothLocks(
  s: Sides,
  address: string,
  source: string,
  constraint: string,
  options: { mirror?: string; tfEnv?: Record<string, string>; pravoEnv?: Record<string, string> },
) {
  const tf = await requireTerraform();
  const cliConfig = join(s.base, "terraform.rc");
  await Deno.writeTextFile(
    cliConfig,
    options.mirror
      ? `provider_installation {\n  filesystem_mirror {\n    path = ${
        JSON.stringify(options.mirror)
      }\n  }\n}\n`
      : "",
  );
  await Deno.writeTextFile(
    join(s.tfRoot, "main.tf"),
    `terraform {\n  required_providers {\n    p = {\n      source  = ${
      JSON.stringify(source)
    }\n      version = ${JSON.stringify(constraint)}\n    }\n  }\n}\n`,
  );
  const t = await run(tf, ["init", "-no-color", "-input=false"], s.tfRoot, {
    HOME: s.base,
    TF_CLI_CONFIG_FILE: cliConfig,
    ...options.tfEnv,
  });
  assert.equal(t.code, 0, `terraform init failed:\n${t.stdout}\n${t.stderr}`);
  await Deno.writeTextFile(
    join(s.pravoRoot, "pravo.jsonc"),
    JSON.stringify({
      providers: { [source]: constraint },
      ...(options.mirror ? { provider_mirrors: [options.mirror] } : {}),
    }),
  );
  const p = await run(SCRIPT, ["--no-color", "init"], s.pravoRoot, {
    HOME: s.base,
    PRAVO_KEY: KEY,
    XDG_CACHE_HOME: join(s.base, "cache"),
    ...options.pravoEnv,
  });
  assert.equal(p.code, 0, `pravo init failed:\n${p.stdout}\n${p.stderr}`);
  const tfLock = terraformLock(await Deno.readTextFile(join(s.tfRoot, ".terraform.lock.hcl")));
  const pravoLock = parseLockFile(
    await Deno.readTextFile(join(s.pravoRoot, "pravo.lock.json")),
    "pravo.lock.json",
  );
  return { terraform: tfLock[address], pravo: pravoLock.plugins[address] };
}

Deno.test("pravo's lock of the real hashicorp/aws from a mirror is Terraform's: version, constraints, h1:", async () => {
  try {
    await Deno.stat(join(MIRROR, AWS));
  } catch {
    throw new Error(
      `the filesystem mirror with hashicorp/aws 5.100.0 is missing: no ${join(MIRROR, AWS)}. ` +
        "Set $PRAVO_TEST_TF_MIRROR to a mirror that holds it (the CI image has /opt/tf-plugins).",
    );
  }
  await using s = await sides();
  const { terraform, pravo } = await bothLocks(
    s,
    "registry.terraform.io/hashicorp/aws",
    "hashicorp/aws",
    "~> 5.100",
    { mirror: MIRROR },
  );
  assert.ok(terraform, "Terraform locked hashicorp/aws");
  assert.deepEqual(pravo, terraform);
  assert.equal(pravo.hashes.length, 1);
  assert.match(pravo.hashes[0], /^h1:/);
});

Deno.test("pravo's lock of a packed mirror's provider is Terraform's", async () => {
  await using s = await sides();
  const mirror = join(s.base, "mirror");
  const address = "example.com/acme/cloud";
  await writeFakePackage(mirror, {
    address,
    version: "1.2.0",
    packed: true,
    files: [
      ...fakeProviderFiles("cloud", "1.2.0"),
      { name: "docs/", directory: true },
      { name: "docs/README.md", data: "# cloud\n" },
    ],
  });
  await writeFakePackage(mirror, { address, version: "1.1.0" });
  const { terraform, pravo } = await bothLocks(s, address, address, ">=1.1,<2", { mirror });
  assert.deepEqual(pravo, terraform);
  assert.equal(pravo.version, "1.2.0");
  assert.equal(pravo.constraints, ">= 1.1.0, < 2.0.0");
});

Deno.test("pravo's lock of a signed registry provider is Terraform's: h1: and the zh: of every platform", async () => {
  await using s = await sides();
  await using reg = serveRegistry(
    [
      { namespace: "acme", type: "cloud", version: "1.4.2", platforms: ["linux_amd64"] },
      {
        namespace: "acme",
        type: "cloud",
        version: "1.5.0",
        platforms: ["darwin_arm64", "linux_amd64", "windows_amd64"],
      },
    ],
    {},
    undefined,
    {
      cert: await Deno.readTextFile(join(TLS, "localhost.pem")),
      key: await Deno.readTextFile(join(TLS, "localhost.key")),
    },
  );
  const host = new URL(reg.url).host;
  const address = `${host}/acme/cloud`;
  const { terraform, pravo } = await bothLocks(s, address, address, "~> 1.4", {
    tfEnv: { SSL_CERT_FILE: join(TLS, "ca.pem") },
    pravoEnv: { DENO_CERT: join(TLS, "ca.pem") },
  });
  assert.ok(terraform, `Terraform locked ${address}`);
  assert.deepEqual(pravo, terraform);
  assert.equal(pravo.version, "1.5.0");
  assert.deepEqual(pravo.hashes.map((h) => h.slice(0, 3)), ["h1:", "zh:", "zh:", "zh:"]);
});
