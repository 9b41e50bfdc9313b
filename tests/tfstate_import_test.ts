/**
 * `pravo import --from terraform FILE.tfstate` through the real pravo with
 * its narrow permissions (scripts/pravo), the state file outside the root:
 *
 * - offline: a state as Terraform's random provider writes it (and the same
 *   as OpenTofu writes it) taken over by pravo's built-in random, and the
 *   next plan a no-op; each refusal with its exit code and nothing written;
 * - on AWS: `tests/fixtures/terraform/takeover` (an S3 bucket, a `count`, a
 *   `for_each`, a module of two nodes, a sensitive value, a data source,
 *   outputs) applied by Terraform 1.11.4 with the real `hashicorp/aws`
 *   5.100.0 on moto, its `terraform.tfstate` taken over by the root of
 *   `tests/fixtures/takeover_root` (written by hand in the converted
 *   shape), then `pravo plan --refresh all` exits 0: refusals first, on
 *   SQLite; then an OpenTofu-style copy of the state on PostgreSQL.
 *
 * What is missing (Terraform, the provider mirror, moto_server, a
 * PostgreSQL server in `PRAVO_TEST_PG`) fails the test that needs it,
 * naming it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { awsProviderPath, mirrorDir, moto } from "./plugin/_aws.ts";
import { applyFixture, assertNoOp, TERRAFORM_VERSION } from "./_terraform.ts";
import { FAKE_SOURCE, FAKE_VERSION, fakeMirror, pluginRoot } from "./plugin/_roots.ts";
import { type Ran, runScript } from "./_script.ts";
import { randomPassword } from "../lib/terraform/tfstate_testing.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures", import.meta.url));

/** pravo through scripts/pravo in `dir`. */
function pravo(dir: string, args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return runScript(dir, ["--no-color", ...args], { env: { PRAVO_ACTOR: "tfstate-test", ...env } });
}

/** Writes `files` (paths relative to `dir`, folders made). */
async function writeTree(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, dirname(path)), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
}

/** The files of a fixture folder, by path relative to it. */
async function fixtureFiles(dir: string, base = dir): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) Object.assign(out, await fixtureFiles(path, base));
    else out[relative(base, path)] = await Deno.readTextFile(path);
  }
  return out;
}

/** pravo's serial, and the addresses it holds. */
async function stateOf(dir: string, env: Record<string, string> = {}) {
  const serial = await pravo(dir, ["state", "query", "serial"], env);
  assert.equal(serial.code, 0, serial.stderr);
  const list = await pravo(dir, ["state", "list"], env);
  assert.equal(list.code, 0, list.stderr);
  return { serial: serial.stdout.trim(), addresses: list.stdout.trim() };
}

/** The files of pravo's SQLite state, as bytes decoded, to look for a secret in. */
async function stateBytes(dir: string): Promise<string> {
  let all = "";
  for await (const e of Deno.readDir(join(dir, ".pravo"))) {
    if (e.isFile) all += new TextDecoder().decode(await Deno.readFile(join(dir, ".pravo", e.name)));
  }
  return all;
}

// deno-lint-ignore no-explicit-any
type Json = any;

// ---------------------------------------------------------------------------
// Offline: Terraform's random provider, taken over by pravo's built-in one.

const PASSWORD = "Xk3mPq9Rt2Vw7Ya1";

/** A state as Terraform 1.11.4 and its random provider 3.6 write it for RANDOM_ROOT's configuration. */
function randomState(opts: { host?: string; terraformVersion?: string } = {}): Json {
  const provider = `provider["${opts.host ?? "registry.terraform.io"}/hashicorp/random"]`;
  const port = (i: number, result: number) => ({
    index_key: i,
    schema_version: 0,
    attributes: {
      id: String(result),
      keepers: null,
      max: 8999,
      min: 8000,
      result,
      seed: `port-${i}`,
    },
    sensitive_attributes: [],
  });
  const pet = (key: string, id: string) => ({
    index_key: key,
    schema_version: 0,
    attributes: { id, keepers: null, length: 2, prefix: `dev-${key}`, separator: "-" },
    sensitive_attributes: [],
  });
  return {
    version: 4,
    terraform_version: opts.terraformVersion ?? TERRAFORM_VERSION,
    serial: 7,
    lineage: "9f1c2e4a-51d3-8b07-2c6e-0d4a7b3e9f12",
    outputs: { ports: { value: [8412, 8077], type: ["tuple", ["number", "number"]] } },
    resources: [
      {
        mode: "managed",
        type: "random_integer",
        name: "port",
        provider,
        instances: [port(0, 8412), port(1, 8077)],
      },
      {
        mode: "managed",
        type: "random_password",
        name: "db",
        provider,
        instances: [{
          schema_version: 3,
          attributes: randomPassword(
            PASSWORD,
            "$2a$10$0L1x4iQb8TtFq3yQmG7XeOjv1pW2s8kqE6Zr9bN5cD4hA3uY7tS2m",
          ),
          sensitive_attributes: [
            [{ type: "get_attr", value: "bcrypt_hash" }],
            [{ type: "get_attr", value: "result" }],
          ],
        }],
      },
      {
        mode: "managed",
        type: "random_pet",
        name: "name",
        provider,
        instances: [pet("db", "dev-db-eager-mole"), pet("web", "dev-web-tender-lemur")],
      },
      {
        module: "module.tags",
        mode: "managed",
        type: "random_id",
        name: "tag",
        provider,
        instances: [{
          schema_version: 0,
          attributes: {
            b64_std: "Xi16kQ==",
            b64_url: "Xi16kQ",
            byte_length: 4,
            dec: "1580038801",
            hex: "5e2d7a91",
            id: "Xi16kQ",
            keepers: { owner: "dev-web-tender-lemur" },
            prefix: null,
          },
          sensitive_attributes: [],
          dependencies: ["random_pet.name"],
        }],
      },
    ],
    check_results: null,
  };
}

/** The converted root of the configuration randomState() was applied from. */
const RANDOM_ROOT: Record<string, string> = {
  "cue.mod/module.cue": 'module: "terraform.local/demo"\n',
  "main.cue": `package demo

import (
	"list"
	random "pravo.dev/providers/hashicorp/random"
	tagspkg "terraform.local/demo/modules/tags"
)

$random: random.#Provider

var: env: *"dev" | string @tag(env)

local: names: ["web", "db"]

random_pet: name: {for each_value in local.names {(each_value): $random.#Resource.random_pet & {
	prefix: "\\(var.env)-\\(each_value)"
}}}

random_integer: port: {for count_index in list.Range(0, 2, 1) {"\\(count_index)": $random.#Resource.random_integer & {
	min:  8000
	max:  8999
	seed: "port-\\(count_index)"
}}}

random_password: db: $random.#Resource.random_password & {
	length:  16
	special: false
}

module: tags: tagspkg.#Tags & {
	#random: $random
	#var: owner: random_pet.name.web.id
}

outputs: ports: [for x in random_integer.port {x.result}]
`,
  "modules/tags/main.cue": `package tags

import (
	random "pravo.dev/providers/hashicorp/random"
)

#Tags: {
	#random: random.#Provider
	#var: owner: string

	random_id: tag: #random.#Resource.random_id & {
		byte_length: 4
		keepers: {owner: #var.owner}
	}

	hex: random_id.tag.hex
}
`,
};

/** A root of RANDOM_ROOT after `pravo init`, and a folder outside it for state files. */
async function randomRoot(): Promise<{ root: string; tf: string }> {
  const base = await Deno.makeTempDir({ prefix: "pravo-tfstate-" });
  const root = join(base, "root");
  const tf = join(base, "tf");
  await writeTree(root, RANDOM_ROOT);
  await Deno.mkdir(tf);
  const init = await pravo(root, ["init"]);
  assert.equal(init.code, 0, init.stdout + init.stderr);
  return { root, tf };
}

Deno.test("a state of Terraform's random provider is taken over by pravo's built-in one, and the next plan is a no-op", async () => {
  const { root, tf } = await randomRoot();
  const file = join(tf, "terraform.tfstate");
  await Deno.writeTextFile(file, JSON.stringify(randomState(), null, 2));
  const r = await pravo(root, [
    "--json",
    "--reason",
    "take over",
    "import",
    "--from",
    "terraform",
    "../tf/terraform.tfstate",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.deepEqual(doc.imported.map((i: Json) => [i.address, i.terraform_address]), [
    ['random_integer.port."0"', "random_integer.port[0]"],
    ['random_integer.port."1"', "random_integer.port[1]"],
    ["random_password.db", "random_password.db"],
    ["random_pet.name.db", 'random_pet.name["db"]'],
    ["random_pet.name.web", 'random_pet.name["web"]'],
    ["module.tags.random_id.tag", "module.tags.random_id.tag"],
  ]);
  assert.deepEqual(doc.imported[2].sensitive, ["bcrypt_hash", "result"]);
  assert.deepEqual(doc.outputs, ["ports"]);
  assert.equal(doc.terraform.serial, 7);
  assert.ok(!r.stdout.includes(PASSWORD) && !r.stderr.includes(PASSWORD), "no secret printed");
  assert.ok(!(await stateBytes(root)).includes(PASSWORD), "the password is sealed at rest");

  const plan = await pravo(root, ["plan"]);
  assert.equal(plan.code, 0, plan.stdout + plan.stderr);
  assert.match(plan.stdout, /^No changes\. The state matches the configuration\./);

  const log = JSON.parse((await pravo(root, ["--json", "state", "log"])).stdout);
  assert.equal(log.entries.length, 1);
  const [entry] = log.entries;
  assert.equal(entry.command, "import --from terraform");
  assert.equal(entry.reason, "take over");
  assert.equal(entry.changes.length, 6);
  assert.deepEqual(entry.changes[0].before, {
    from: "terraform",
    file: "../tf/terraform.tfstate",
    lineage: "9f1c2e4a-51d3-8b07-2c6e-0d4a7b3e9f12",
    serial: 7,
    terraform_version: TERRAFORM_VERSION,
    terraform_address: "random_integer.port[0]",
  });
  const tag = JSON.parse(
    (await pravo(root, ["--json", "state", "show", "module.tags.random_id.tag"]))
      .stdout,
  );
  assert.deepEqual(tag.record.dependencies, ["random_pet.name.web"]);
});

Deno.test("an OpenTofu state (registry.opentofu.org, its own version) is taken over by the root's hashicorp/random", async () => {
  const { root, tf } = await randomRoot();
  const state = randomState({ host: "registry.opentofu.org", terraformVersion: "1.9.1" });
  await Deno.writeTextFile(join(tf, "tofu.tfstate"), JSON.stringify(state));
  const r = await pravo(root, ["import", "--from", "terraform", join(tf, "tofu.tfstate")]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /a state of Terraform 1\.9\.1, lineage/);
  assert.match(r.stdout, /Import successful! 6 objects/);
  const plan = await pravo(root, ["plan"]);
  assert.equal(plan.code, 0, plan.stdout + plan.stderr);
});

Deno.test("each refusal exits with its code, says what to do, and writes nothing", async () => {
  const { root, tf } = await randomRoot();
  const before = await stateOf(root);
  const cases: [string, (s: Json) => Json, number, RegExp][] = [
    ["format 3", (s) => ({ ...s, version: 3 }), 3, /a state of format 3, and pravo reads format 4/],
    [
      "terraform show -json",
      (s) => ({ format_version: "1.0", terraform_version: s.terraform_version, values: {} }),
      3,
      /is Terraform's JSON output, not its state/,
    ],
    [
      "an address the root lacks",
      (s) => {
        s.resources[2].name = "names";
        return s;
      },
      1,
      /random_pet\.names\.db is not declared in the root[^]*did you mean random_pet\.name\.db\?/,
    ],
    [
      "a tainted object",
      (s) => {
        s.resources[1].instances[0].status = "tainted";
        return s;
      },
      1,
      /random_password\.db is tainted/,
    ],
    [
      "another provider",
      (s) => {
        for (const r of s.resources) r.provider = 'provider["registry.terraform.io/acme/random"]';
        return s;
      },
      1,
      /The root has no provider registry\.terraform\.io\/acme\/random/,
    ],
  ];
  for (const [what, change, code, message] of cases) {
    const file = join(tf, `${what.replaceAll(" ", "_")}.tfstate`);
    await Deno.writeTextFile(file, JSON.stringify(change(randomState()), null, 2));
    const r = await pravo(root, ["import", "--from", "terraform", file]);
    assert.equal(r.code, code, `${what}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message, what);
    assert.match(r.stderr, /\.tfstate line \d+, column \d+/, `${what}: names where in the file`);
    assert.ok(!r.stderr.includes(PASSWORD), `${what}: no secret printed`);
    assert.deepEqual(await stateOf(root), before, `${what}: nothing written`);
  }
  const missing = await pravo(root, ["import", "--from", "terraform", join(tf, "none.tfstate")]);
  assert.equal(missing.code, 1, missing.stderr);
  const usage = await pravo(root, ["import", "--from", "pulumi", "x.json"]);
  assert.equal(usage.code, 64, usage.stderr);
  const noFile = await pravo(root, ["import", "--from", "terraform"]);
  assert.equal(noFile.code, 64, noFile.stderr);
});

Deno.test("a root whose node has another type than Terraform's object is refused, naming both", async () => {
  const { root, tf } = await randomRoot();
  await Deno.writeTextFile(
    join(root, "other.cue"),
    "package demo\n\nrandom_uuid: u: $random.#Resource.random_pet & {}\n",
  );
  const s = randomState();
  s.resources.push({
    mode: "managed",
    type: "random_uuid",
    name: "u",
    provider: 'provider["registry.terraform.io/hashicorp/random"]',
    instances: [{
      schema_version: 0,
      attributes: { id: "aabbccdd-eeff-0011-2233-445566778899", keepers: null, result: "x" },
    }],
  });
  const before = await stateOf(root);
  await Deno.writeTextFile(join(tf, "t.tfstate"), JSON.stringify(s));
  const r = await pravo(root, ["import", "--from", "terraform", join(tf, "t.tfstate")]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    /random_uuid\.u is of type random_pet in the root, and random_uuid in Terraform's state/,
  );
  assert.match(r.stderr, /other\.cue line 3/);
  assert.deepEqual(await stateOf(root), before);
});

// ---------------------------------------------------------------------------
// A plugin provider's UpgradeResourceState: the fake provider (tests/plugin),
// whose fake_thing is at schema version 1 and was `title` where it is `name`.

Deno.test("an object of an older schema version goes through the provider's UpgradeResourceState; a newer one is refused", async () => {
  const mirror = await fakeMirror();
  const secret = `s3cr3t-${crypto.randomUUID()}`;
  const main = `package demo

import fake "pravo.dev/providers/pravo/fake"

$fake: fake.#Provider & {endpoint: "http://fake.example"}

fake_thing: old: $fake.#Resource.fake_thing & {
	name:   "old"
	secret: "${secret}"
}
`;
  const opts = { source: FAKE_SOURCE, version: FAKE_VERSION, mirror: mirror.dir };
  // The object, made by pravo in a root of its own; then written as a
  // Terraform state of the type's version 0, its name under the old `title`.
  const maker = await pluginRoot({ "main.cue": main }, opts);
  const applied = await maker.run(["apply", "-auto-approve"]);
  assert.equal(applied.code, 0, applied.stdout + applied.stderr);
  const shown = JSON.parse((await maker.run(["--json", "state", "show", "fake_thing.old"])).stdout);
  const attributes = { ...shown.record.attributes, secret, title: "old" };
  delete attributes.name;
  const state = (version: number) => ({
    version: 4,
    terraform_version: TERRAFORM_VERSION,
    serial: 3,
    lineage: "5b0e6c1d-1111-2222-3333-444455556666",
    outputs: {},
    resources: [{
      mode: "managed",
      type: "fake_thing",
      name: "old",
      provider: `provider["${FAKE_SOURCE}"]`,
      instances: [{
        schema_version: version,
        attributes,
        sensitive_attributes: [[{ type: "get_attr", value: "secret" }]],
      }],
    }],
  });
  const root = await pluginRoot({ "main.cue": main }, opts);
  const tf = await Deno.makeTempDir({ prefix: "pravo-tf-fake-" });
  await Deno.writeTextFile(join(tf, "new.tfstate"), JSON.stringify(state(2)));
  const newer = await root.run(["import", "--from", "terraform", join(tf, "new.tfstate")]);
  assert.equal(newer.code, 1, newer.stdout + newer.stderr);
  assert.match(
    newer.stderr,
    /fake_thing\.old was written by a newer release of example\.com\/pravo\/fake/,
  );
  assert.match(newer.stderr, /schema version is 2, .* reads fake_thing up to version 1/);

  await Deno.writeTextFile(join(tf, "old.tfstate"), JSON.stringify(state(0)));
  const r = await root.run(["--json", "import", "--from", "terraform", join(tf, "old.tfstate")]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const [imported] = JSON.parse(r.stdout).imported;
  assert.deepEqual(imported.schema_version, { from: 0, to: 1 });
  assert.deepEqual(imported.sensitive, ["secret"]);
  assert.ok(!(r.stdout + r.stderr).includes(secret));
  const record = JSON.parse((await root.run(["--json", "state", "show", "fake_thing.old"])).stdout)
    .record;
  assert.equal(record.attributes.name, "old");
  assert.equal(record.attributes.title, undefined);
  assert.equal(record.attributes.secret, "(sensitive)");
  const plan = await root.run(["plan", "--refresh", "all"]);
  assert.equal(plan.code, 0, plan.stdout + plan.stderr);
});

// ---------------------------------------------------------------------------
// AWS on moto, through Terraform 1.11.4 and the real provider.

interface Applied {
  /** The Terraform root, with its terraform.tfstate. */
  dir: string;
  state: Json;
  suffix: string;
  secret: string;
  endpoint: string;
}

let applied: Promise<Applied> | undefined;

/** `tests/fixtures/terraform/takeover` applied once by Terraform, for every test below. */
function terraformApplied(): Promise<Applied> {
  applied ??= (async () => {
    awsProviderPath(); // fails, naming it, when the provider is missing
    const endpoint = (await moto()).url;
    const suffix = crypto.randomUUID().slice(0, 8);
    const secret = `tfi-secret-${crypto.randomUUID()}`;
    const { dir, state } = await applyFixture("takeover", { suffix, endpoint, secret });
    return { dir, state, suffix, secret, endpoint };
  })();
  return applied;
}

/** A root of `tests/fixtures/takeover_root` for `tf`'s variables, after `pravo init`. */
async function awsRoot(tf: Applied, env: Record<string, string> = {}): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "pravo-takeover-" });
  await writeTree(root, {
    ...await fixtureFiles(join(FIXTURES, "takeover_root")),
    "values.cue":
      `package takeover\n\nvar: {\n\tsuffix:   "${tf.suffix}"\n\tendpoint: "${tf.endpoint}"\n` +
      `\tsecret:   "${tf.secret}"\n}\n`,
    "pravo.jsonc": JSON.stringify({
      providers: { "hashicorp/aws": "5.100.0" },
      provider_mirrors: [mirrorDir()],
    }),
  });
  const init = await pravo(root, ["init"], env);
  assert.equal(init.code, 0, init.stdout + init.stderr);
  return root;
}

const AWS_ADDRESSES = [
  "aws_s3_bucket.b",
  'aws_ssm_parameter.c."0"',
  'aws_ssm_parameter.c."1"',
  "aws_ssm_parameter.e.a",
  "aws_ssm_parameter.e.b",
  "aws_ssm_parameter.s",
  "module.m.aws_ssm_parameter.x",
  "module.m.aws_ssm_parameter.y",
];

/** `pravo plan --refresh all` in `root`: exit 0, every object read and left as it is. */
async function assertPlansNoOp(root: string, env: Record<string, string>): Promise<void> {
  const plan = await pravo(root, ["--json", "plan", "--refresh", "all"], env);
  assert.equal(plan.code, 0, plan.stdout.slice(0, 4000) + plan.stderr.slice(-4000));
  assertNoOp(JSON.parse(plan.stdout), AWS_ADDRESSES);
}

const aws = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name, sanitizeOps: false, sanitizeResources: false, fn });

aws(
  "Terraform 1.11.4's state of an AWS root on moto: refusals write nothing, the takeover does, and plan --refresh all exits 0",
  async () => {
    const tf = await terraformApplied();
    const root = await awsRoot(tf);
    const before = await stateOf(root);
    const copy = async (name: string, change: (s: Json) => void) => {
      const s = structuredClone(tf.state);
      change(s);
      const file = join(tf.dir, name);
      await Deno.writeTextFile(file, JSON.stringify(s, null, 2));
      return file;
    };
    const refusals: [string, number, RegExp, string?][] = [
      [await copy("v3.tfstate", (s) => s.version = 3), 3, /a state of format 3/],
      [
        await copy("lacks.tfstate", (s) => {
          s.resources.find((r: Json) => r.type === "aws_s3_bucket").name = "bb";
        }),
        1,
        /aws_s3_bucket\.bb is not declared in the root[^]*did you mean aws_s3_bucket\.b\?/,
      ],
      [
        await copy("type.tfstate", (s) => {
          const r = s.resources.find((r: Json) => r.type === "aws_ssm_parameter" && r.name === "s");
          r.type = "aws_sns_topic";
          r.name = "t";
        }),
        1,
        /aws_sns_topic\.t is of type aws_ssm_parameter in the root, and aws_sns_topic in Terraform's state/,
        'package takeover\n\naws_sns_topic: t: $aws.#Resource.aws_ssm_parameter & {\n\tname: "/tfi/\\(var.suffix)/t"\n\ttype: "String"\n\tvalue: "t"\n}\n',
      ],
    ];
    for (const [file, code, message, extra] of refusals) {
      if (extra) await Deno.writeTextFile(join(root, "extra.cue"), extra);
      const r = await pravo(root, ["import", "--from", "terraform", file]);
      if (extra) await Deno.remove(join(root, "extra.cue"));
      assert.equal(r.code, code, `${file}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, message);
      assert.ok(!(r.stdout + r.stderr).includes(tf.secret), "no secret printed");
      assert.deepEqual(await stateOf(root), before, `${file}: nothing written`);
    }

    const r = await pravo(root, [
      "--json",
      "--reason",
      "take over from Terraform",
      "import",
      "--from",
      "terraform",
      join(tf.dir, "terraform.tfstate"),
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(!(r.stdout + r.stderr).includes(tf.secret), "no secret printed");
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(doc.imported.map((i: Json) => i.address).sort(), [...AWS_ADDRESSES].sort());
    assert.deepEqual(doc.skipped.map((s: Json) => s.terraform_address), [
      "data.aws_iam_policy_document.read",
    ]);
    const s = doc.imported.find((i: Json) => i.address === "aws_ssm_parameter.s");
    assert.deepEqual(s.sensitive, ["tags", "tags_all", "value"]);
    assert.deepEqual(doc.outputs, ["bucket_arn", "policy"]);
    assert.equal(doc.terraform.lineage, tf.state.lineage);
    assert.equal(doc.terraform.serial, tf.state.serial);
    assert.ok(!(await stateBytes(root)).includes(tf.secret), "the secret is sealed at rest");
    const y = JSON.parse(
      (await pravo(root, ["--json", "state", "show", "module.m.aws_ssm_parameter.y"])).stdout,
    );
    assert.deepEqual(y.record.dependencies, ["module.m.aws_ssm_parameter.x"]);
    const log = JSON.parse((await pravo(root, ["--json", "state", "log"])).stdout);
    assert.equal(log.entries.length, 1);
    assert.equal(log.entries[0].changes.length, AWS_ADDRESSES.length);

    await assertPlansNoOp(root, {});
  },
);

aws(
  "on PostgreSQL, an OpenTofu-style copy of the AWS root's state is taken over, and plan --refresh all exits 0",
  async () => {
    const pg = Deno.env.get("PRAVO_TEST_PG");
    if (!pg) {
      throw new Error(
        "PRAVO_TEST_PG names no PostgreSQL server: set it to a postgres:// URL (.ci/run starts one)",
      );
    }
    const tf = await terraformApplied();
    const env = {
      PRAVO_STATE: `${pg}${pg.includes("?") ? "&" : "?"}root=test/tfstate/${crypto.randomUUID()}`,
    };
    const root = await awsRoot(tf, env);
    const tofu = structuredClone(tf.state);
    tofu.terraform_version = "1.9.1";
    for (const r of tofu.resources) {
      r.provider = r.provider.replace("registry.terraform.io/", "registry.opentofu.org/");
    }
    const file = join(tf.dir, "tofu.tfstate");
    await Deno.writeTextFile(file, JSON.stringify(tofu, null, 2));
    const r = await pravo(root, ["--json", "import", "--from", "terraform", file], env);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(
      JSON.parse(r.stdout).imported.map((i: Json) => i.address).sort(),
      [...AWS_ADDRESSES].sort(),
    );
    assert.equal(JSON.parse(r.stdout).terraform.terraform_version, "1.9.1");
    await assertPlansNoOp(root, env);
  },
);
