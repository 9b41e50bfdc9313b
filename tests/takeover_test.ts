/**
 * The takeover from Terraform, end to end (issue 21, item 3): our own
 * Terraform configurations (`tests/fixtures/terraform/aws_full`, most of
 * what convert converts, with a provider alias; `modules_deep`, local
 * modules three deep) are applied by Terraform 1.11.4 with the real
 * `hashicorp/aws` 5.100.0 on moto, once per configuration for the whole
 * file; then, each in a fresh root:
 *
 * 1. `pravo convert --from terraform DIR`, `pravo init`,
 *    `pravo import --from terraform DIR/terraform.tfstate`: every managed
 *    object of Terraform's state is in pravo's;
 * 2. `pravo plan --refresh all` exits 0, every object read and left as it is;
 * 3. one input changed in both (`-var` for Terraform, `-t` for pravo: the
 *    converted variables are `@tag` fields): both plan the same changes
 *    (`terraform show -json` of Terraform's plan, `pravo show --format
 *    terraform` of pravo's: the addresses and actions of resource_changes).
 *
 * And an OpenTofu-style copy of the state (providers of
 * registry.opentofu.org, OpenTofu's version) is taken over the same way.
 *
 * When Terraform, the provider mirror or moto_server is missing, the tests
 * fail, naming it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { pravo } from "./_pravo.ts";
import { awsProviderPath, moto } from "./plugin/_aws.ts";
import {
  type Applied,
  applyFixture,
  assertNoOp,
  convertedRoot,
  pravoEnv,
  tagFlags,
  terraform,
  varFlags,
} from "./_terraform.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

interface Fixture {
  applied: Applied;
  vars: Record<string, string>;
}

const applied = new Map<string, Promise<Fixture>>();

/** `tests/fixtures/terraform/<name>` applied once by Terraform, for every test below. */
function terraformApplied(name: string): Promise<Fixture> {
  if (!applied.has(name)) {
    applied.set(
      name,
      (async () => {
        awsProviderPath(); // fails, naming it, when the provider is missing
        const vars = { endpoint: (await moto()).url, suffix: crypto.randomUUID().slice(0, 8) };
        return { applied: await applyFixture(name, vars), vars };
      })(),
    );
  }
  return applied.get(name)!;
}

/** The managed instances of a Terraform state. */
const managedCount = (state: Json) =>
  state.resources.filter((r: Json) => r.mode === "managed")
    .reduce((n: number, r: Json) => n + r.instances.length, 0);

/**
 * Converts the fixture's configuration into a new root, runs `pravo init`
 * and `pravo import --from terraform` of `state` (its Terraform state, or a
 * copy written beside it): the root, its environment, and the addresses
 * imported (every managed object of the state).
 */
async function takenOver(fixture: Fixture, state = fixture.applied.state) {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pravo-takeover-" }));
  const env = pravoEnv(base);
  const root = await convertedRoot(base, fixture.applied.dir, env);
  const init = await pravo(root, ["init"], { env });
  assert.equal(init.code, 0, `pravo init failed:\n${init.stdout}\n${init.stderr}`);
  const file = join(base, "terraform.tfstate");
  await Deno.writeTextFile(file, JSON.stringify(state, null, 2));
  const tags = tagFlags(fixture.vars);
  const r = await pravo(root, ["--json", "import", "--from", "terraform", ...tags, file], { env });
  assert.equal(r.code, 0, `pravo import failed:\n${r.stdout}\n${r.stderr}`);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.imported.length, managedCount(state), "every managed object is taken over");
  return { root, env, doc, addresses: doc.imported.map((i: Json) => i.address) as string[] };
}

/** `pravo plan --refresh all` (with `tags`) in `root`, asserted to exit with `code`: the plan document. */
async function refreshPlan(
  root: string,
  env: Record<string, string>,
  args: string[],
  code: number,
): Promise<Json> {
  const plan = await pravo(root, ["--json", "plan", "--refresh", "all", ...args], { env });
  if (plan.code !== code && plan.stdout.startsWith("{")) {
    const planned = JSON.parse(plan.stdout).nodes
      .filter((n: Json) => n.mode === "managed" && n.action !== "no-op")
      .map((n: Json) => `${n.action} ${n.address}: ${JSON.stringify(n.changed ?? n.after)}`);
    assert.fail(`pravo plan exited ${plan.code}, not ${code}:\n${planned.join("\n")}`);
  }
  assert.equal(plan.code, code, plan.stdout + plan.stderr);
  return JSON.parse(plan.stdout);
}

/** A `show -json`-shaped plan's managed resource changes: address → actions. */
function actions(doc: Json): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rc of doc.resource_changes ?? []) {
    if (rc.mode === "managed") out[rc.address] = rc.change.actions.join(",");
  }
  return out;
}

/**
 * The fixture taken over, a no-op plan; then `change` (a variable's new
 * value) planned by both tools: the same addresses with the same actions,
 * and `expected` among them.
 */
async function takeover(name: string, change: [string, string], expected: Record<string, string>) {
  const fixture = await terraformApplied(name);
  const { root, env, addresses } = await takenOver(fixture);
  assertNoOp(await refreshPlan(root, env, tagFlags(fixture.vars), 0), addresses);

  const [k, v] = change;
  const vars = { ...fixture.vars, [k]: v };
  const { dir, env: tfEnv } = fixture.applied;
  await terraform(
    dir,
    ["plan", "-input=false", "-no-color", "-out=changed.tfplan", ...varFlags(vars)],
    tfEnv,
  );
  const tf = JSON.parse(await terraform(dir, ["show", "-json", "changed.tfplan"], tfEnv));
  await refreshPlan(root, env, ["--out", "changed.plan", ...tagFlags(vars)], 2);
  const shown = await pravo(root, ["show", "--format", "terraform", "changed.plan"], { env });
  assert.equal(shown.code, 0, shown.stderr);
  const pv = actions(JSON.parse(shown.stdout));
  const changed = (a: Record<string, string>) =>
    Object.fromEntries(Object.entries(a).filter(([, x]) => x !== "no-op"));
  assert.deepEqual(changed(pv), changed(actions(tf)), "the same changes as Terraform's");
  assert.deepEqual(changed(pv), expected);
  assert.deepEqual(Object.keys(pv).sort(), Object.keys(actions(tf)).sort(), "the same addresses");
}

const aws = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name, sanitizeOps: false, sanitizeResources: false, fn });

aws(
  "aws_full applied by Terraform is converted and taken over: plan --refresh all is a no-op, and fewer replicas plan Terraform's changes",
  () =>
    takeover("aws_full", ["replicas", "1"], {
      "aws_s3_bucket.numbered[1]": "delete",
      "aws_s3_bucket_versioning.numbered[1]": "delete",
      "aws_ssm_parameter.numbered[1]": "delete",
      "aws_ssm_parameter.size": "update",
    }),
);

aws(
  "modules_deep applied by Terraform is converted and taken over: plan --refresh all is a no-op, and one more copy plans Terraform's create",
  () =>
    takeover("modules_deep", ["copies", "3"], {
      "module.single.aws_ssm_parameter.copy[2]": "create",
    }),
);

aws(
  "an OpenTofu-style state of aws_full (registry.opentofu.org, OpenTofu's version) is taken over, and plan --refresh all is a no-op",
  async () => {
    const fixture = await terraformApplied("aws_full");
    const tofu = structuredClone(fixture.applied.state);
    tofu.terraform_version = "1.9.1";
    for (const r of tofu.resources) {
      r.provider = r.provider.replace("registry.terraform.io/", "registry.opentofu.org/");
    }
    const providers = new Set(tofu.resources.map((r: Json) => r.provider));
    const west = `provider["registry.opentofu.org/hashicorp/aws"].west`;
    assert.ok(providers.has(west), [...providers].join(", "));
    const { root, env, doc, addresses } = await takenOver(fixture, tofu);
    assert.equal(doc.terraform.terraform_version, "1.9.1");
    assertNoOp(await refreshPlan(root, env, tagFlags(fixture.vars), 0), addresses);
  },
);
