import assert from "node:assert/strict";
import { join } from "node:path";
import { assertPrinted, refusal } from "./_testing.ts";
import { pravo, storeOf } from "./state_testing.ts";

const MAIN = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
pw: $random.#Resource.random_password & {length: 12, special: false}
pet: $random.#Resource.random_pet & {keepers: {n: "\\(base.result)"}}

outputs: {
	number: base.result
	name:   pet.id
	fixed:  "hello"
	both:   {n: base.result, list: [1, 2]}
	secret: pw.result
	hint:   "the password is \\(pw.result)"
}
`;

async function root(src = MAIN): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "pravo-output-" });
  await Deno.writeTextFile(join(dir, "main.cue"), src);
  const init = await pravo(["-C", dir, "init"]);
  assert.equal(init.code, 0, init.stderr);
  return dir;
}

async function applied(src = MAIN): Promise<string> {
  const dir = await root(src);
  const plan = await pravo(["-C", dir, "plan", "--out", "x.plan"]);
  assert.equal(plan.code, 2, plan.stderr);
  const apply = await pravo(["-C", dir, "apply", "x.plan"]);
  assert.equal(apply.code, 0, apply.stderr);
  return dir;
}

async function recorded(dir: string, address: string): Promise<Record<string, unknown>> {
  const store = await storeOf(dir);
  try {
    return (await store.getRecord(address))!.attributes;
  } finally {
    await store.close();
  }
}

Deno.test("output before apply says which outputs are known only after apply", async () => {
  const dir = await root();
  assertPrinted(await pravo(["-C", dir, "output"]), 0, [
    "both   = (known after apply)",
    'fixed  = "hello"',
    "hint   = (known after apply)",
    "name   = (known after apply)",
    "number = (known after apply)",
    "secret = (known after apply)",
    "",
  ]);
  const doc = JSON.parse((await pravo(["-C", dir, "output", "--json"])).stdout);
  assert.deepEqual(doc, {
    format_version: "1.0",
    outputs: { fixed: "hello" },
    unknown: ["both", "hint", "name", "number", "secret"],
    sensitive: [],
  });
  const one = await pravo(["-C", dir, "output", "number"]);
  assert.equal(one.code, 1);
  assert.match(one.stderr, /Output "number" is not known yet/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("output after apply shows the applied values, sensitive ones redacted", async () => {
  const dir = await applied();
  const base = await recorded(dir, "base");
  const pet = await recorded(dir, "pet");
  const secret = (await recorded(dir, "pw")).result as string;
  assert.equal(typeof secret, "string");
  const { code, stdout } = await pravo(["-C", dir, "output"]);
  assert.equal(code, 0);
  assert.ok(!stdout.includes(secret));
  assert.equal(
    stdout,
    [
      `both   = {\n  "list": [\n    1,\n    2\n  ],\n  "n": ${base.result}\n}`,
      'fixed  = "hello"',
      "hint   = (sensitive value)",
      `name   = "${pet.id}"`,
      `number = ${base.result}`,
      "secret = (sensitive value)",
      "",
    ].join("\n"),
  );
  const json = await pravo(["-C", dir, "output", "--json"]);
  assert.ok(!json.stdout.includes(secret));
  assert.deepEqual(JSON.parse(json.stdout), {
    format_version: "1.0",
    outputs: {
      both: { list: [1, 2], n: base.result },
      fixed: "hello",
      hint: "(sensitive)",
      name: pet.id,
      number: base.result,
      secret: "(sensitive)",
    },
    unknown: [],
    sensitive: ["hint", "secret"],
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("output NAME prints the value alone: a string without quotes, else JSON", async () => {
  const dir = await applied();
  const base = await recorded(dir, "base");
  const secret = (await recorded(dir, "pw")).result as string;
  assert.equal((await pravo(["-C", dir, "output", "fixed"])).stdout, "hello\n");
  assert.equal((await pravo(["-C", dir, "output", "number"])).stdout, `${base.result}\n`);
  assert.equal(
    (await pravo(["-C", dir, "output", "both"])).stdout,
    `{\n  "list": [\n    1,\n    2\n  ],\n  "n": ${base.result}\n}\n`,
  );
  const json = JSON.parse((await pravo(["-C", dir, "output", "fixed", "--json"])).stdout);
  assert.deepEqual(json, {
    format_version: "1.0",
    outputs: { fixed: "hello" },
    unknown: [],
    sensitive: [],
  });
  const hidden = await pravo(["-C", dir, "output", "secret"]);
  assert.equal(hidden.code, 1);
  assert.equal(hidden.stdout, "");
  assert.ok(!hidden.stderr.includes(secret));
  assert.match(hidden.stderr, /Output "secret" is sensitive/);
  const refused = await pravo(["-C", dir, "output", "secret", "--show-sensitive"]);
  assert.equal(refused.code, 64);
  assert.ok(!refused.stderr.includes(secret) && refused.stdout === "");
  const shown = await pravo(["-C", dir, "output", "secret", "--show-sensitive"], {
    terminal: true,
  });
  assert.equal(shown.code, 0);
  assert.equal(shown.stdout, secret + "\n");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("output NAME of an unknown name says did you mean, exit 1", async () => {
  const dir = await root();
  const stderr = refusal(await pravo(["-C", dir, "output", "numbr"]), 1);
  assert.match(stderr, /Error: No output named "numbr"/);
  assert.match(stderr, /did you mean "number"\?/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("output of a root without outputs says so", async () => {
  const dir = await root(MAIN.slice(0, MAIN.indexOf("outputs:")));
  const { code, stdout } = await pravo(["-C", dir, "output"]);
  assert.equal(code, 0);
  assert.equal(stdout, "The root declares no outputs.\n");
  const named = await pravo(["-C", dir, "output", "x"]);
  assert.equal(named.code, 1);
  assert.match(named.stderr, /The root declares no outputs/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("no reading command prints a sensitive value after a real apply", async () => {
  const dir = await applied();
  const secret = (await recorded(dir, "pw")).result as string;
  const hash = (await recorded(dir, "pw")).bcrypt_hash as string;
  const runs = [
    ["state", "show", "pw"],
    ["state", "query", "nodes"],
    ["state", "query", "nodes.pw.attributes.result"],
    ["state", "dependents", "base"],
    ["state", "log", "--limit", "0"],
    ["state", "locks"],
    ["output"],
    ["output", "hint"],
    ["output", "secret"],
  ];
  for (const argv of runs) {
    for (const json of [[], ["--json"]]) {
      const r = await pravo(["-C", dir, ...argv, ...json]);
      for (const value of [secret, hash]) {
        assert.ok(!r.stdout.includes(value), `${argv.join(" ")} ${json}: ${r.stdout}`);
        assert.ok(!r.stderr.includes(value), `${argv.join(" ")} ${json}: ${r.stderr}`);
      }
    }
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("output redacts what is computed from a secret, however it is computed", async () => {
  const dir = await applied(`package demo

import (
	rnd "pravo.dev/providers/hashicorp/random"
	"strings"
	"encoding/base64"
)

$random: rnd.#Provider

pw: $random.#Resource.random_password & {length: 12, special: false}

outputs: {
	upper: strings.ToUpper(pw.result)
	b64:   base64.Encode(null, pw.result)
	parts: strings.Split(pw.result, "")
	first: strings.SliceRunes(pw.result, 0, 3)
	size:  pw.length
}
`);
  const secret = String((await recorded(dir, "pw")).result);
  const { code, stdout } = await pravo(["-C", dir, "--json", "output"]);
  assert.equal(code, 0);
  const doc = JSON.parse(stdout);
  assert.deepEqual(doc.sensitive, ["b64", "first", "parts", "upper"]);
  assert.deepEqual(doc.outputs, {
    b64: "(sensitive)",
    first: "(sensitive)",
    parts: "(sensitive)",
    size: 12,
    upper: "(sensitive)",
  });
  for (const form of [secret, secret.toUpperCase(), btoa(secret), secret.slice(0, 3)]) {
    assert.ok(!stdout.includes(`"${form}"`), form);
  }
  const one = await pravo(["-C", dir, "output", "upper"]);
  assert.equal(one.code, 1);
  assert.match(one.stderr, /Output "upper" is sensitive/);
});
