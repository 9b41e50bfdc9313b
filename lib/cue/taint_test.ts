/**
 * Secrets traced through the configuration: the static taint of references
 * (taint.ts) and the evaluation with stand-ins (secrets.ts), through
 * `evaluateRoot`.
 */

import { BUILTIN_ONLY } from "../workspace/workspace_testing.ts";
import assert from "node:assert/strict";
import { evaluateRoot, readRoot, type Spec } from "./loader.ts";
import { UNKNOWN } from "./program.ts";
import type { AttrPath } from "./secrets.ts";

const HEAD = `package t

import (
	rnd "pravo.dev/providers/hashicorp/random"
	nul "pravo.dev/providers/hashicorp/null"
	loc "pravo.dev/providers/hashicorp/local"
	"strings"
	"encoding/base64"
	"encoding/json"
)

$random: rnd.#Provider
$null:   nul.#Provider
$local:  loc.#Provider

pw: $random.#Resource.random_password & {length: 16}
_use: [strings.ToUpper("x"), base64.Encode(null, "x"), json.Marshal(1), $null, $local]
`;

/** Evaluates `body` with pw applied: its result known and secret. */
async function evaluateWith(body: string, result?: string, reveal = false) {
  const root = await Deno.makeTempDir({ prefix: "pravo-taint-" });
  try {
    await Deno.writeTextFile(`${root}/main.cue`, HEAD + body);
    const sources = readRoot(root, BUILTIN_ONLY);
    if (!sources.ok) throw new Error(JSON.stringify(sources.diagnostics));
    const known = new Map<string, Record<string, unknown>>();
    const secrets = new Map<string, AttrPath[]>();
    if (result !== undefined) {
      known.set("pw", { result, bcrypt_hash: "$2a$10$abc", id: "none" });
      secrets.set("pw", [["result"], ["bcrypt_hash"]]);
    }
    return await evaluateRoot(sources.value, { known, secrets, reveal });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function marked(spec: Spec) {
  return {
    inputs: Object.fromEntries(
      spec.nodes.filter((n) => n.sensitiveInputs.length).map((n) => [n.address, n.sensitiveInputs]),
    ),
    outputs: spec.outputsSensitive,
  };
}

const BODY = `
let upperPw = strings.ToUpper(pw.result)
cfg: {token: base64.Encode(null, pw.result), name: "web"}
n: $null.#Resource.null_resource & {triggers: {
	upper: upperPw
	split: strings.Join(strings.Split(pw.result, ""), "-")
	slice: strings.SliceRunes(pw.result, 0, 4)
	length: "\\(pw.length)"
}}
m: $null.#Resource.null_resource & {triggers: {name: cfg.name}}
k: $null.#Resource.null_resource & {triggers: {token: cfg.token}}
f: $local.#Resource.local_file & {filename: "out-\\(cfg.name).txt", content: json.Marshal(pw)}
outputs: {
	up:    upperPw
	b64:   base64.Encode(null, pw.result)
	parts: strings.Split(pw.result, "")
	first: strings.SliceRunes(pw.result, 0, 1)
	size:  len(pw.result)
	plain: pw.length
	name:  cfg.name
}
`;

Deno.test("evaluateRoot() marks whatever is computed from a secret, and nothing else", async () => {
  const res = await evaluateWith(BODY, "GxJOfk%MPdAIPWTW");
  assert.ok(res.ok, JSON.stringify(!res.ok && res.diagnostics));
  assert.deepEqual(marked(res.value), {
    inputs: { f: ["content"], k: ["triggers"], n: ["triggers"] },
    outputs: ["b64", "first", "parts", "size", "up"],
  });
  // At plan time they are unknown: nothing was computed from the secret.
  const n = res.value.nodes.find((x) => x.address === "n")!;
  assert.equal(n.config.triggers, UNKNOWN);
  assert.deepEqual(n.needsEvaluation, ["triggers"]);
  assert.ok(!JSON.stringify(res.value).includes("GXJOFK"));
  // What they are made of: the same whatever the secret holds (of its
  // format: text here; the stand-ins keep a format, so that decoding works).
  const other = await evaluateWith(BODY, "zz!y%Q");
  assert.ok(other.ok);
  const forms = (spec: Spec) => spec.nodes.find((x) => x.address === "n")!.secretForms;
  assert.deepEqual(forms(other.value), forms(res.value));
  assert.notDeepEqual(forms(res.value).triggers[0], forms(res.value).triggers[1]);
  // Apply evaluates with the real values, and makes the same forms.
  const applied = await evaluateWith(BODY, "GxJOfk%MPdAIPWTW", true);
  assert.ok(applied.ok);
  const m = applied.value.nodes.find((x) => x.address === "n")!;
  assert.deepEqual((m.config.triggers as Record<string, unknown>).upper, "GXJOFK%MPDAIPWTW");
  assert.deepEqual(m.secretForms, forms(res.value));
});

Deno.test("evaluateRoot() marks the same fields whatever the secret holds: the marking tells nothing of it", async () => {
  // One field per guess of the first character: were the marking made by
  // comparing with the secret, the fields marked would spell it out.
  const guesses = [..."aAbBgGxX%!0"];
  const body = `outputs: {${
    guesses.map((c, i) =>
      `g${i}: strings.SliceRunes(pw.result, 0, 1) == ${
        JSON.stringify(c)
      }, h${i}: strings.HasPrefix(pw.result, ${JSON.stringify(c)})`
    ).join(", ")
  }, fixed: pw.length == 16}`;
  const seen: string[][] = [];
  for (const secret of ["GxJOfk%MPdAIPWTW", "abcdefghijklmnop", "%%%%%%%%%%%%%%%%", "0"]) {
    const res = await evaluateWith(body, secret);
    assert.ok(res.ok);
    seen.push(res.value.outputsSensitive);
  }
  for (const s of seen) assert.deepEqual(s, seen[0]);
  assert.equal(seen[0].length, guesses.length * 2, "every guess is marked");
  assert.ok(!seen[0].includes("fixed"));
});

Deno.test("evaluateRoot() refuses what exists for some values of a secret, as the references say", async () => {
  const cases: [string, RegExp][] = [
    [
      `for i, c in strings.Split(pw.result, "") {"n\\(i)": $null.#Resource.null_resource}`,
      /^Which fields exist depends on a sensitive value$/,
    ],
    [
      `if strings.HasPrefix(pw.result, "a") {extra: $null.#Resource.null_resource}`,
      /^Which fields exist depends on a sensitive value$/,
    ],
    [
      `n: $null.#Resource.null_resource & {if pw.result == "x" {triggers: {a: "b"}}}`,
      /^Which fields exist depends on a sensitive value$/,
    ],
    [`outputs: {(pw.result): 1}`, /^Which fields exist depends on a sensitive value$/],
  ];
  for (const [body, summary] of cases) {
    // Known from the state, and known only after apply (the dynamic label then
    // has no concrete value at all, which CUE refuses first).
    const secrets = body.startsWith("outputs")
      ? ["abcdefghijklmnop"]
      : [undefined, "abcdefghijklmnop"];
    for (const secret of secrets) {
      const res = await evaluateWith(body, secret);
      assert.ok(!res.ok, body);
      assert.match(res.diagnostics[0].summary, summary, body);
      assert.ok(res.diagnostics[0].range, "the place is given");
      assert.ok(!JSON.stringify(res.diagnostics).includes("abcdefghijklmnop"));
    }
  }
  // A comprehension inside a value, and iterating a struct of nodes, decide nothing secret.
  const ok = await evaluateWith(
    `servers: {a: $null.#Resource.null_resource, b: $null.#Resource.null_resource}
n: $null.#Resource.null_resource & {triggers: {for i, c in strings.Split(pw.result, "") {"c\\(i)": c}}}
outputs: {for k, v in servers {(k): v.id}}`,
    "abcdefghijklmnop",
  );
  assert.ok(ok.ok, JSON.stringify(!ok.ok && ok.diagnostics));
  assert.deepEqual(marked(ok.value).inputs, { n: ["triggers"] });
  // Iterating a struct written out with its labels decides nothing secret
  // either: its keys are in the sources (the sqs module's outputs).
  const literal = await evaluateWith(
    `outputs: {for k, m in {"a": pw, "b": pw} {"\\(k)_length": m.length}}`,
    "abcdefghijklmnop",
  );
  assert.ok(literal.ok, JSON.stringify(!literal.ok && literal.diagnostics));
  // ... unless a clause tests a value of it that is a secret.
  const tested = await evaluateWith(
    `outputs: {for k, m in {"a": pw.result} if strings.HasPrefix(m, "a") {"\\(k)_x": 1}}`,
    "abcdefghijklmnop",
  );
  assert.ok(!tested.ok);
  assert.match(tested.diagnostics[0].summary, /^Which fields exist depends on a sensitive value$/);
});

Deno.test("evaluateRoot() never returns a message computed with a secret", async () => {
  const secret = "Sup3rS3cretValue";
  for (
    const body of [
      `x: pw.result & "abc"`,
      `n: $null.#Resource.null_resource & {triggers: {a: pw.result & =~"^[0-9]+$"}}`,
      `n: $null.#Resource.null_resource & {triggers: {a: strings.ToUpper(pw.result) & "X"}}`,
      `outputs: {x: [1, 2][len(pw.result)]}`,
      `y: json.Unmarshal(pw.result)`,
    ]
  ) {
    const res = await evaluateWith(body, secret);
    assert.ok(!res.ok, body);
    const text = JSON.stringify(res.diagnostics);
    for (const form of [secret, secret.toUpperCase(), btoa(secret), secret.slice(0, 6)]) {
      assert.ok(!text.includes(form), `${body}: ${text}`);
    }
  }
  // Only the real value fails: at plan time nothing is checked of it (the
  // answer is the same for any password); apply, which has it, says so, with
  // the place, without the message.
  const check = `x: strings.HasPrefix(pw.result, "Sup") & false`;
  assert.ok((await evaluateWith(check, secret)).ok);
  assert.ok((await evaluateWith(check, "another")).ok);
  const res = await evaluateWith(check, secret, true);
  assert.ok(!res.ok);
  assert.equal(
    res.diagnostics[0].summary,
    "The configuration does not evaluate for some values of a secret",
  );
  assert.equal(res.diagnostics[0].address, "x");
  assert.ok(res.diagnostics[0].range);
});

Deno.test("evaluateRoot() marks inputs computed from a secret known only after apply", async () => {
  const res = await evaluateWith(
    `n: $null.#Resource.null_resource & {triggers: {up: strings.ToUpper(pw.result), id: pw.id}}
m: $null.#Resource.null_resource & {triggers: {len: "\\(pw.length)", id: pw.id}}
outputs: {up: strings.ToUpper(pw.result), id: pw.id}`,
  );
  assert.ok(res.ok, JSON.stringify(!res.ok && res.diagnostics));
  const n = res.value.nodes.find((x) => x.address === "n")!;
  assert.deepEqual(n.sensitiveInputs, ["triggers"]);
  assert.deepEqual(n.needsEvaluation, ["triggers"], "ToUpper of an unknown is evaluated at apply");
  assert.deepEqual(res.value.nodes.find((x) => x.address === "m")!.sensitiveInputs, []);
  assert.deepEqual(res.value.outputsSensitive, ["up"]);
});

Deno.test("evaluateRoot() traces a data source's secret and what its tainted inputs read", async () => {
  const res = await evaluateWith(
    `sec: $local.#Data.local_sensitive_file & {filename: "s.txt"}
byPw: $local.#Data.local_file & {filename: "p-\\(strings.SliceRunes(pw.result, 0, 1)).txt"}
other: $local.#Data.local_file & {filename: "q.txt"}
n: $null.#Resource.null_resource & {triggers: {s: sec.content, p: byPw.content_md5, q: other.content}}
m: $null.#Resource.null_resource & {triggers: {s: sec.content_md5, q: other.content}}
outputs: {s: sec.content_md5, p: byPw.content, q: other.content}`,
    "abcdefghijklmnop",
  );
  assert.ok(res.ok, JSON.stringify(!res.ok && res.diagnostics));
  assert.deepEqual(marked(res.value), {
    inputs: { byPw: ["filename"], n: ["triggers"] },
    outputs: ["p"],
  });
});

Deno.test("evaluateRoot() follows a secret through lets, the structs written in them, and comprehensions", async () => {
  const res = await evaluateWith(
    `let holder = {inner: pw.result, plain: "x", deep: {z: strings.ToUpper(pw.result)}}
n: $null.#Resource.null_resource & {triggers: {a: holder.inner}}
m: $null.#Resource.null_resource & {triggers: {a: holder.plain}}
k: $null.#Resource.null_resource & {triggers: {a: holder.deep.z}}
l: $null.#Resource.null_resource & {triggers: {for i, c in [holder.plain] {"\\(i)": c}}}
q: $null.#Resource.null_resource & {triggers: {for i, c in [holder.inner] {"\\(i)": c}}}
outputs: {
	x: [for c in strings.Split(holder.inner, "") {c}]
	y: {a: {b: holder.deep}}
	w: holder.plain
}`,
    "abcdefghijklmnop",
  );
  assert.ok(res.ok, JSON.stringify(!res.ok && res.diagnostics));
  assert.deepEqual(marked(res.value), {
    inputs: { k: ["triggers"], n: ["triggers"], q: ["triggers"] },
    outputs: ["x", "y"],
  });
});

Deno.test("evaluateRoot() refuses a constraint on a secret the same way, whether the secret meets it or not", async () => {
  const body = `x: strings.ToUpper(pw.result) & =~"^A"`;
  const meets = await evaluateWith(body, "abcdefghijklmnop");
  const fails = await evaluateWith(body, "bcdefghijklmnopq");
  assert.ok(!meets.ok && !fails.ok);
  assert.deepEqual(meets.diagnostics, fails.diagnostics);
  assert.equal(meets.diagnostics[0].address, "x");
});

Deno.test("evaluateRoot() reads an output comprehension over a struct written out of references field by field: only what it selects of them", async () => {
  // The s3-bucket port's outputs: a struct of module instances, one of them
  // holding a secret. Before, every output of the root came back marked
  // sensitive: the loop variable was read whole, and the struct written in
  // the clause was taken for outputs of its own.
  const mods = `
mods: {
	a: {id: "a", key: pw.result, n: $null.#Resource.null_resource & {}}
	b: {id: "b", key: "plain"}
}
`;
  /** The root whose outputs' comprehension makes `<k>_<field>` of each module's `field`. */
  const selecting = async (field: string) => {
    const res = await evaluateWith(
      mods + `outputs: {
	for k, m in {"a": mods.a, "b": mods.b} {"\\(k)_${field}": m.${field}}
	named: "x"
}`,
      "abcdefghijklmnop",
    );
    assert.ok(res.ok, JSON.stringify(!res.ok && res.diagnostics));
    return res.value;
  };
  const plain = await selecting("id");
  assert.deepEqual(plain.outputs, { a_id: "a", b_id: "b", named: "x" });
  assert.deepEqual(marked(plain).outputs, []);
  // What it selects of a secret is marked, and so is every output the
  // comprehension may make (its labels are not in the sources).
  const secret = await selecting("key");
  assert.ok(marked(secret).outputs.includes("a_key"));
  assert.ok(marked(secret).outputs.includes("b_key"));
});
