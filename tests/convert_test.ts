/**
 * `pravo convert --from terraform` end to end, against Terraform itself:
 * configurations written for these tests (tests/fixtures/terraform/<case>/),
 * on the real hashicorp/aws 5.100.0 from the filesystem mirror and moto,
 * are planned by Terraform 1.11.4 (`terraform plan`, `terraform show
 * -json`) and converted by pravo; the converted root must take the lock
 * Terraform wrote (`pravo init`), validate, pass `pravo fmt --check`, and
 * plan the same creates at the same addresses (`lib/terraform/address.ts`),
 * with the same values where both know them.
 *
 * Terraform, the mirror and moto are in the image (`.ci/run` starts moto);
 * where one is missing the tests fail, naming it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { pravo } from "./_pravo.ts";
import { moto } from "./plugin/_aws.ts";
import {
  convertedRoot,
  copyFixture,
  pravoEnv,
  tagFlags,
  terraform,
  terraformEnv,
  varFlags,
} from "./_terraform.ts";
import { terraformAddressOf } from "../lib/terraform/address.ts";

/** A change as both sides give it: the Terraform address, the known values after, and the attributes known only after apply. */
interface Create {
  address: string;
  after: Record<string, unknown>;
  unknown: string[];
}

/** A plan's creates and outputs, as both sides give them. */
interface Planned {
  creates: Create[];
  outputs: Record<string, unknown>;
  /** The outputs known only after apply (in part or whole). */
  unknownOutputs: string[];
}

/** Terraform's init and plan of `tf`: the managed resources it creates. */
async function terraformCreates(
  base: string,
  tf: string,
  vars: Record<string, string>,
): Promise<Planned> {
  const env = await terraformEnv(base);
  await terraform(tf, ["init", "-no-color", "-input=false"], env);
  await terraform(tf, ["plan", "-no-color", "-input=false", "-out=tfplan", ...varFlags(vars)], env);
  const show = await terraform(tf, ["show", "-json", "tfplan"], env);
  await Deno.remove(join(tf, "tfplan"));
  await Deno.remove(join(tf, ".terraform"), { recursive: true });
  // deno-lint-ignore no-explicit-any
  const doc = JSON.parse(show) as { resource_changes: any[]; output_changes: any };
  const creates = doc.resource_changes
    .filter((r) => r.mode === "managed" && r.change.actions.includes("create"))
    .map((r) => ({
      address: r.address,
      after: r.change.after ?? {},
      unknown: Object.entries(r.change.after_unknown ?? {}).filter(([, v]) => v === true)
        .map(([k]) => k),
    }))
    .sort((a, b) => a.address < b.address ? -1 : 1);
  const outputs: Record<string, unknown> = {};
  const unknownOutputs: string[] = [];
  for (const [k, o] of Object.entries(doc.output_changes ?? {})) {
    // deno-lint-ignore no-explicit-any
    const c = o as any;
    if (c.after_unknown === false) outputs[k] = c.after;
    else unknownOutputs.push(k);
  }
  return { creates, outputs, unknownOutputs };
}

/** pravo's convert, init, validate, fmt --check and plan of the converted root. */
async function pravoCreates(
  base: string,
  tf: string,
  tags: Record<string, string>,
): Promise<Planned> {
  const env = pravoEnv(base);
  const root = await convertedRoot(base, tf, env);
  const lockWritten = await Deno.readTextFile(join(root, "pravo.lock.json"));
  const init = await pravo(root, ["init"], { env });
  assert.equal(init.code, 0, `pravo init failed:\n${init.stdout}\n${init.stderr}`);
  assert.deepEqual(
    JSON.parse(await Deno.readTextFile(join(root, "pravo.lock.json"))).providers[
      "registry.terraform.io/hashicorp/aws"
    ],
    JSON.parse(lockWritten).providers["registry.terraform.io/hashicorp/aws"],
    "pravo init kept the lock convert wrote",
  );
  const t = tagFlags(tags);
  const validate = await pravo(root, ["validate", ...t], { env });
  assert.equal(validate.code, 0, `pravo validate failed:\n${validate.stdout}\n${validate.stderr}`);
  const fmt = await pravo(root, ["fmt", "--check"], { env });
  assert.equal(fmt.code, 0, `pravo fmt --check:\n${fmt.stdout}\n${fmt.stderr}`);
  const plan = await pravo(root, ["plan", "--json", ...t], { env });
  assert.equal(plan.code, 2, `pravo plan failed:\n${plan.stdout}\n${plan.stderr}`);
  const doc = JSON.parse(plan.stdout) as {
    // deno-lint-ignore no-explicit-any
    nodes: any[];
    outputs: Record<string, unknown>;
    outputs_unknown?: string[];
  };
  const creates = doc.nodes
    .filter((n) => n.mode === "managed" && n.action === "create")
    .map((n) => ({
      address: terraformAddressOf(n.address, n.type, n.mode),
      after: n.after ?? {},
      unknown: n.after_unknown ?? [],
    }))
    .sort((a, b) => a.address < b.address ? -1 : 1);
  return { creates, outputs: doc.outputs ?? {}, unknownOutputs: doc.outputs_unknown ?? [] };
}

/**
 * The values a plan knows, for the attributes `names` (pravo's plan
 * document leaves sensitive values out: `"(sensitive)"`).
 */
function known(c: Create, names: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of names) {
    const v = c.after[n];
    if (v !== undefined && v !== null && v !== "(sensitive)") out[n] = v;
  }
  return out;
}

async function compare(fixture: string, values: string[], minCompared: number): Promise<void> {
  const m = await moto();
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pravo-convert-" }));
  try {
    const tf = join(base, "tf");
    await copyFixture(fixture, tf);
    const suffix = crypto.randomUUID().slice(0, 8);
    const vars = { endpoint: m.url, suffix };
    const terraform = await terraformCreates(base, tf, vars);
    const { creates, outputs, unknownOutputs } = await pravoCreates(base, tf, vars);
    assert.deepEqual(creates.map((c) => c.address), terraform.creates.map((c) => c.address));
    let compared = 0;
    for (let i = 0; i < creates.length; i++) {
      const p = known(creates[i], values), t = known(terraform.creates[i], values);
      for (const k of Object.keys(p)) {
        if (!(k in t)) continue;
        assert.deepEqual(p[k], t[k], `${creates[i].address}.${k}`);
        compared++;
      }
      // What Terraform knows only after apply (ids read through instance keys) pravo does too.
      for (const k of terraform.creates[i].unknown.filter((k) => values.includes(k))) {
        assert.ok(
          creates[i].unknown.includes(k),
          `${creates[i].address}.${k} is known after apply`,
        );
        compared++;
      }
    }
    for (const k of terraform.unknownOutputs) {
      assert.ok(unknownOutputs.includes(k), `output ${k} is known after apply`);
      compared++;
    }
    for (const [k, v] of Object.entries(terraform.outputs)) {
      // pravo leaves out what it holds sensitive (see pravo's output page).
      if (outputs[k] === "(sensitive)") continue;
      assert.deepEqual(outputs[k], v, `output ${k}`);
      compared++;
    }
    assert.ok(compared >= minCompared, `only ${compared} values compared`);
  } finally {
    await m.stop();
    await Deno.remove(base, { recursive: true });
  }
}

Deno.test({
  name:
    "a converted configuration plans Terraform's creates at Terraform's addresses, with its values",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await compare(
    "aws_full",
    ["bucket", "name", "value", "type", "display_name", "tags", "path"],
    44,
  );
});

Deno.test({
  name: "local modules three deep, called with for_each and count, keep Terraform's addresses",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await compare("modules_deep", ["bucket", "name", "value", "type"], 16);
});

/** Runs `fn` in a fresh folder whose `tf/main.tf` is `mainTf`; removes the folder after. */
async function withTerraformDir(
  mainTf: string,
  fn: (base: string) => Promise<void>,
): Promise<void> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pravo-convert-" }));
  try {
    await Deno.mkdir(join(base, "tf"));
    await Deno.writeTextFile(join(base, "tf", "main.tf"), mainTf);
    await fn(base);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

Deno.test("convert writes nothing and exits 3 when a construct cannot be converted", async () => {
  await withTerraformDir(
    'resource "random_pet" "a" {\n  prefix = uuid()\n}\n\nmodule "net" {\n  source = "terraform-aws-modules/vpc/aws"\n}\n',
    async (base) => {
      const r = await pravo(base, ["-C", "out", "convert", "--from", "terraform", "tf", "--json"]);
      assert.equal(r.code, 3);
      assert.equal(r.stdout, "");
      const err = JSON.parse(r.stderr);
      // deno-lint-ignore no-explicit-any
      const where = err.diagnostics.map((d: any) =>
        `${d.range.file}:${d.range.line}:${d.range.column} ${d.summary}`
      );
      assert.deepEqual(where, [
        'main.tf:6:3 The module "net" is not a local module',
        "main.tf:2:12 uuid() is not converted",
      ]);
      await assert.rejects(() => Deno.stat(join(base, "out")));
    },
  );
});

Deno.test("convert lists import blocks as pravo import commands, and keeps pravo.jsonc's settings", async () => {
  await withTerraformDir(
    'resource "random_pet" "a" {\n  count = 2\n}\n\nimport {\n  to = random_pet.a[1]\n  id = "happy-cat"\n}\n',
    async (base) => {
      await Deno.mkdir(join(base, "out"));
      await Deno.writeTextFile(
        join(base, "out", "pravo.jsonc"),
        '{\n  // kept\n  "state": {"root": "x"}\n}\n',
      );
      const r = await pravo(base, ["-C", "out", "convert", "--from", "terraform", "tf", "--json"]);
      assert.equal(r.code, 0, r.stderr);
      const doc = JSON.parse(r.stdout);
      assert.deepEqual(doc.imports, [{
        address: 'random_pet.a."1"',
        command: "pravo import 'random_pet.a.\"1\"' happy-cat",
        file: "main.tf",
        id: "happy-cat",
        line: 5,
      }]);
      assert.deepEqual(doc.files, [{ action: "created", path: "main.cue" }]);
      assert.match(await Deno.readTextFile(join(base, "out", "pravo.jsonc")), /\/\/ kept/);
    },
  );
});
