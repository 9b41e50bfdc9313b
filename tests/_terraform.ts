/**
 * Terraform 1.11.4 in the tests, on the real `hashicorp/aws` from the
 * filesystem mirror and moto (tests/plugin/_aws.ts): the configurations of
 * `tests/fixtures/terraform/<name>` copied with the provider blocks that
 * point them at moto (written here, from {@link awsProviderHcl}, so that the
 * fixtures do not each repeat them), the CLI configuration that installs
 * from the mirror, and `terraform` itself.
 *
 * When Terraform or the mirror is missing, the helpers fail with a message
 * that names it: the tests never skip in silence.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { awsProviderHcl, mirrorDir } from "./plugin/_aws.ts";
import { pravo, run } from "./_pravo.ts";

export const TERRAFORM_VERSION = "1.11.4";

const FIXTURES = fileURLToPath(new URL("./fixtures/terraform/", import.meta.url));

/** Each fixture's `providers.tf`: moto at `var.endpoint`, for the services it calls. */
const PROVIDERS: Record<string, () => string> = {
  aws_full: () =>
    awsProviderHcl({
      endpoint: "var.endpoint",
      region: "var.region",
      services: ["s3", "iam", "sts", "dynamodb", "ssm", "sns"],
      body: "  default_tags {\n    tags = local.common_tags\n  }\n",
    }) + "\n" +
    awsProviderHcl({
      endpoint: "var.endpoint",
      region: '"us-west-2"',
      alias: "west",
      services: ["sns", "sts"],
    }),
  modules_deep: () => awsProviderHcl({ endpoint: "var.endpoint", services: ["s3", "ssm", "sts"] }),
  takeover: () =>
    awsProviderHcl({ endpoint: "var.endpoint", services: ["s3", "ssm", "iam", "sts"] }),
};

/** Copies `tests/fixtures/terraform/<name>` to `to`, with its `providers.tf`. */
export async function copyFixture(name: string, to: string): Promise<void> {
  const copy = async (from: string, into: string) => {
    await Deno.mkdir(into, { recursive: true });
    for await (const e of Deno.readDir(from)) {
      if (e.isDirectory) await copy(join(from, e.name), join(into, e.name));
      else await Deno.copyFile(join(from, e.name), join(into, e.name));
    }
  };
  await copy(join(FIXTURES, name), to);
  await Deno.writeTextFile(join(to, "providers.tf"), PROVIDERS[name]());
}

/**
 * Writes a Terraform CLI configuration that installs providers from the
 * mirror into `dir`, and gives the environment Terraform runs with there.
 */
export async function terraformEnv(dir: string): Promise<Record<string, string>> {
  const rc = join(dir, "terraform.rc");
  await Deno.writeTextFile(
    rc,
    `provider_installation {\n  filesystem_mirror {\n    path = ${
      JSON.stringify(mirrorDir())
    }\n  }\n}\n`,
  );
  return { HOME: dir, TF_CLI_CONFIG_FILE: rc, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
}

/** `terraform ARGS` in `cwd` with `env` added: its stdout, or an error with all it said. */
export async function terraform(
  cwd: string,
  args: string[],
  env: Record<string, string>,
): Promise<string> {
  const out = await run("terraform", args, { cwd, env }).catch((e) => {
    throw new Error(
      `terraform is missing (${(e as Error).message}): these tests compare pravo with ` +
        `Terraform ${TERRAFORM_VERSION}; put it on the PATH (the CI image has it).`,
    );
  });
  if (out.code !== 0) throw new Error(`terraform ${args[0]} failed:\n${out.stdout}${out.stderr}`);
  return out.stdout;
}

/** A fixture applied by Terraform: its folder (with terraform.tfstate), environment and state. */
export interface Applied {
  dir: string;
  env: Record<string, string>;
  // deno-lint-ignore no-explicit-any
  state: any;
}

/** `-var=K=V` for each of `vars`. */
export const varFlags = (vars: Record<string, string>) =>
  Object.entries(vars).map(([k, v]) => `-var=${k}=${v}`);

/**
 * `tests/fixtures/terraform/<name>` copied to a new folder, `terraform init`
 * and `terraform apply` with `vars` by Terraform {@link TERRAFORM_VERSION}
 * (any other version fails, naming both).
 */
export async function applyFixture(name: string, vars: Record<string, string>): Promise<Applied> {
  const base = await Deno.makeTempDir({ prefix: `pravo-tf-${name}-` });
  const dir = join(base, "tf");
  await copyFixture(name, dir);
  const env = await terraformEnv(base);
  const said = await terraform(dir, ["version"], env);
  assert.ok(
    said.includes(`Terraform v${TERRAFORM_VERSION}`),
    `Terraform ${TERRAFORM_VERSION}: ${said}`,
  );
  await terraform(dir, ["init", "-input=false", "-no-color"], env);
  await terraform(
    dir,
    ["apply", "-auto-approve", "-input=false", "-no-color", ...varFlags(vars)],
    env,
  );
  const state = JSON.parse(await Deno.readTextFile(join(dir, "terraform.tfstate")));
  return { dir, env, state };
}

/** The environment pravo runs with beside a Terraform root in `base`: its own cache, home and key. */
export const pravoEnv = (base: string) => ({
  XDG_CACHE_HOME: join(base, "cache"),
  HOME: base,
  PRAVO_KEY: btoa(String.fromCharCode(...new Uint8Array(32).fill(7))),
});

/**
 * `pravo convert --from terraform tf` into a new root `base/root` whose
 * pravo.jsonc names the mirror (as a user would have it: convert keeps it),
 * asserted to succeed: the root.
 */
export async function convertedRoot(
  base: string,
  tf: string,
  env: Record<string, string>,
): Promise<string> {
  const root = join(base, "root");
  await Deno.mkdir(root);
  await Deno.writeTextFile(
    join(root, "pravo.jsonc"),
    `{\n  // where the providers are\n  "provider_mirrors": [${JSON.stringify(mirrorDir())}],\n}\n`,
  );
  const conv = await pravo(base, ["-C", root, "convert", "--from", "terraform", tf, "--json"], {
    env,
  });
  assert.equal(conv.code, 0, `pravo convert failed:\n${conv.stdout}\n${conv.stderr}`);
  return root;
}

/** `-t K=V` for each of `tags`: Terraform's variables, as a converted root takes them. */
export const tagFlags = (tags: Record<string, string>) =>
  Object.entries(tags).flatMap(([k, v]) => ["-t", `${k}=${v}`]);

/**
 * Asserts that `doc`, a `pravo plan --json --refresh all` document, leaves
 * every object as it is: nothing to add, change, replace or destroy, each of
 * `addresses` (and no other managed node) a no-op, and no output changed.
 */
// deno-lint-ignore no-explicit-any
export function assertNoOp(doc: any, addresses: string[]): void {
  const { add, change, replace, destroy } = doc.summary;
  const managed = doc.nodes.filter((n: { mode: string }) => n.mode === "managed");
  assert.deepEqual(
    {
      summary: { add, change, replace, destroy },
      nodes: managed.map((n: { address: string; action: string }) => [n.address, n.action]).sort(),
      outputs: doc.output_changes,
    },
    {
      summary: { add: 0, change: 0, replace: 0, destroy: 0 },
      nodes: addresses.map((a) => [a, "no-op"]).sort(),
      outputs: {},
    },
  );
}
