import { BUILTIN_ONLY } from "../workspace/workspace_testing.ts";
import { strict as assert } from "node:assert";
import type { Diagnostic } from "../diag/diag.ts";
import { loadRoot, type Node, readRoot, type Spec } from "./loader.ts";
import { addressPath } from "../addr/address.ts";
import { UNKNOWN } from "./program.ts";
import { withRoot } from "./root_testing.ts";

const HEAD =
  'package demo\n\nimport rnd "pravo.dev/providers/hashicorp/random"\n\n$random: rnd.#Provider\n';

async function load(files: Record<string, string>, tags?: Record<string, string>): Promise<Spec> {
  const res = await withRoot(files, (root) => loadRoot(root, BUILTIN_ONLY, { tags }));
  assert.ok(res.ok, `expected a valid root, got ${JSON.stringify(res.diagnostics, null, 2)}`);
  return res.value;
}

async function loadErrors(
  files: Record<string, string>,
  tags?: Record<string, string>,
): Promise<Diagnostic[]> {
  const res = await withRoot(files, (root) => loadRoot(root, BUILTIN_ONLY, { tags }));
  assert.ok(!res.ok, "expected the root to be invalid");
  assert.ok(res.diagnostics.length > 0);
  return res.diagnostics;
}

/** What readRoot says of a root of these files, which it must refuse. */
function readErrors(files: Record<string, string>): Promise<Diagnostic[]> {
  return withRoot(files, (root) => {
    const res = readRoot(root, BUILTIN_ONLY);
    assert.ok(!res.ok, "expected the root to be refused");
    return res.diagnostics;
  });
}

/** The fields of a node that the loader promises, without its configuration. */
function shape(n: Node) {
  return {
    address: n.address,
    path: n.path,
    mode: n.mode,
    type: n.type,
    name: n.name,
    provider: n.provider,
    providerInstance: n.providerInstance,
    dependencies: n.dependencies,
    range: n.range,
  };
}

function node(spec: Spec, address: string): Node {
  const n = spec.nodes.find((n) => n.address === address);
  assert.ok(n, `no node ${address} among ${spec.nodes.map((n) => n.address).join(", ")}`);
  return n;
}

Deno.test("addressPath() splits an address into labels, quoted labels whole", () => {
  assert.deepEqual(addressPath("base"), ["base"]);
  assert.deepEqual(addressPath("net.web.cert"), ["net", "web", "cert"]);
  assert.deepEqual(addressPath('net."a.b".cert'), ["net", "a.b", "cert"]);
  assert.deepEqual(addressPath('"my-node"'), ["my-node"]);
  assert.deepEqual(addressPath('a."say \\"hi\\""'), ["a", 'say "hi"']);
  assert.deepEqual(addressPath("$random.#Def"), ["$random", "#Def"]);
});

Deno.test("loadRoot() loads the seed root: one managed node with its address and provider", async () => {
  const spec = await load({
    "main.cue": HEAD +
      '\nbase: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}\n',
  });
  assert.equal(spec.packageName, "demo");
  assert.deepEqual(spec.nodes.map(shape), [{
    address: "base",
    path: ["base"],
    mode: "managed",
    type: "random_integer",
    name: "base",
    provider: "hashicorp/random",
    providerInstance: "$random",
    dependencies: [],
    range: { file: "main.cue", line: 7, column: 1 },
  }]);
  const base = spec.nodes[0];
  assert.equal(base.config.min, 1);
  assert.equal(base.config.max, 9);
  assert.equal(base.config.seed, "base");
  assert.equal(base.config.result, UNKNOWN, "result is known only after apply");
  assert.deepEqual(base.lifecycle, {});
  assert.deepEqual(spec.providers.map((p) => [p.address, p.source]), [
    ["$random", "hashicorp/random"],
  ]);
  assert.deepEqual(spec.outputs, {});
});

Deno.test("loadRoot() finds nodes in two files: nested, data, ephemeral, outputs, dependencies", async () => {
  const spec = await load({
    "main.cue": HEAD + "\nbase: $random.#Resource.random_integer & {min: 1, max: 9}\n",
    "net.cue": [
      "package demo",
      "",
      'import loc "pravo.dev/providers/hashicorp/local"',
      "",
      "$local: loc.#Provider",
      "",
      "net: web: cert: $random.#Resource.random_string & {length: base.result}",
      "pw: $random.#Ephemeral.random_password & {length: 16}",
      'readme: $local.#Data.local_file & {filename: "README.md"}',
      "outputs: {x: base.result, n: 3}",
      "",
    ].join("\n"),
  });
  assert.deepEqual(
    spec.nodes.map((n) => [n.address, n.mode, n.type, n.name, n.providerInstance]),
    [
      ["base", "managed", "random_integer", "base", "$random"],
      ["net.web.cert", "managed", "random_string", "cert", "$random"],
      ["pw", "ephemeral", "random_password", "pw", "$random"],
      ["readme", "data", "local_file", "readme", "$local"],
    ],
  );
  const cert = node(spec, "net.web.cert");
  assert.deepEqual(cert.path, ["net", "web", "cert"]);
  assert.deepEqual(cert.range, { file: "net.cue", line: 7, column: 11 });
  assert.deepEqual(cert.dependencies, ["base"]);
  assert.equal(cert.config.length, UNKNOWN, "a reference to a computed attribute is unknown");
  assert.deepEqual(node(spec, "readme").range, { file: "net.cue", line: 9, column: 1 });
  assert.deepEqual(spec.outputs, { x: UNKNOWN, n: 3 });
  assert.deepEqual(spec.providers.map((p) => p.address).sort(), ["$local", "$random"]);
});

Deno.test("loadRoot() follows references through plain fields, lets and interpolations", async () => {
  const spec = await load({
    "main.cue": HEAD + `
base: $random.#Resource.random_integer & {min: 1, max: 9}
x: base.result
let L = x
via: $random.#Resource.random_string & {length: L}
group: {
	one: $random.#Resource.random_integer & {min: 1, max: 2}
	two: $random.#Resource.random_integer & {min: 1, max: 2}
}
one: $random.#Resource.random_string & {length: 3, keepers: {a: "\\(group.one.result)"}}
both: $random.#Resource.random_string & {length: 3, keepers: {a: "\\(len(group))"}}
alone: $random.#Resource.random_integer & {min: 1, max: 2}
`,
  });
  const deps = Object.fromEntries(spec.nodes.map((n) => [n.address, n.dependencies]));
  assert.deepEqual(deps, {
    alone: [],
    base: [],
    both: ["group.one", "group.two"],
    "group.one": [],
    "group.two": [],
    one: ["group.one"],
    via: ["base"],
  });
});

Deno.test("loadRoot() reads the lifecycle settings of a node", async () => {
  const spec = await load({
    "main.cue": HEAD + `
base: $random.#Resource.random_integer & {
	min: 1
	max: 9
	lifecycle: {prevent_destroy: true, create_before_destroy: false, ignore_changes: ["seed"], refresh_age: "1h"}
}
`,
  });
  assert.deepEqual(spec.nodes[0].lifecycle, {
    prevent_destroy: true,
    create_before_destroy: false,
    ignore_changes: ["seed"],
    refresh_age: "1h",
  });
  assert.equal("lifecycle" in spec.nodes[0].config, false, "lifecycle is not an attribute");
});

Deno.test("loadRoot() reports a cycle between two nodes, naming both", async () => {
  const diags = await loadErrors({
    "main.cue": HEAD + `
a: $random.#Resource.random_integer & {min: b.result, max: 9}
b: $random.#Resource.random_integer & {min: 1, max: a.result}
`,
  });
  assert.equal(diags.length, 1);
  assert.equal(diags[0].summary, "Dependency cycle");
  assert.match(diags[0].detail, /a -> b -> a/);
  assert.equal(diags[0].address, "a");
  assert.deepEqual(diags[0].range, { file: "main.cue", line: 7, column: 1 });
});

Deno.test("loadRoot() fills @tag fields from tags, typed, and reports wrong names and types", async () => {
  const files = {
    "main.cue": HEAD + `
env: string @tag(env)
n:   int @tag(n,type=int)
base: $random.#Resource.random_integer & {min: 1, max: n & <10, seed: env}
`,
  };
  const spec = await load(files, { env: "prod", n: "7" });
  assert.equal(spec.nodes[0].config.seed, "prod");
  assert.equal(spec.nodes[0].config.max, 7);

  const unset = await loadErrors(files, { env: "prod" });
  assert.equal(unset[0].summary, 'Tag "n" has no value');
  assert.match(unset[0].detail, /Pass -t n=VALUE/);
  assert.deepEqual(unset[0].range, { file: "main.cue", line: 8, column: 10 });

  const typo = await loadErrors(files, { envv: "prod", n: "7" });
  assert.equal(typo[0].summary, 'No field declares the tag "envv"');
  assert.match(typo[0].detail, /did you mean "env"\?/);
  assert.match(typo[0].detail, /The tags declared are: env, n\./);

  const wrongType = await loadErrors(files, { env: "prod", n: "seven" });
  assert.equal(wrongType[0].summary, 'Tag "n" needs a value of type int');
  assert.deepEqual(wrongType[0].range, { file: "main.cue", line: 8, column: 10 });

  const outOfRange = await loadErrors(files, { env: "prod", n: "12" });
  assert.equal(outOfRange[0].summary, "Value out of range");
});

Deno.test("loadRoot() reports a type error at the attribute's file, line and column", async () => {
  const diags = await loadErrors({
    "a.cue": HEAD + "\na: $random.#Resource.random_integer & {min: 1, max: 9}\n",
    "b.cue": "package demo\n\nb: $random.#Resource.random_integer & {min: 1, max: 9}\n",
    "c.cue":
      'package demo\n\nc: $random.#Resource.random_integer & {\n\tmin: 1\n\tmax: "nine"\n}\n',
  });
  assert.deepEqual(diags, [{
    severity: "error",
    summary: "Wrong type for max",
    detail:
      'random_integer.max is an int, and c.max is "nine" (a string). Give a whole number such as 3.',
    address: "c.max",
    range: { file: "c.cue", line: 5, column: 2 },
  }]);
});

Deno.test("loadRoot() names an unknown attribute with the nearest one", async () => {
  const diags = await loadErrors({
    "main.cue": HEAD + '\nbase: $random.#Resource.random_integer & {min: 1, max: 9, sede: "x"}\n',
  });
  assert.equal(diags[0].summary, 'Unsupported attribute "sede"');
  assert.match(diags[0].detail, /did you mean "seed"\?/);
  assert.deepEqual(diags[0].range, { file: "main.cue", line: 7, column: 59 });
});

Deno.test("readRoot() accepts an import used only in a top-level let", () => {
  // A let is not a site; its references must still count as uses.
  const files = {
    "main.cue": 'package demo\n\nimport "strings"\n\nlet U = strings.ToUpper("x")\na: U\n',
  };
  return withRoot(files, (root) => {
    const res = readRoot(root, BUILTIN_ONLY);
    assert.ok(res.ok, JSON.stringify(res.diagnostics));
  });
});

Deno.test("readRoot() reports an unused import, an unknown import and an unknown provider", async () => {
  const diagnostics = await readErrors({
    "a.cue": 'package demo\n\nimport "strings"\n\nx: 1\n',
    "b.cue": 'package demo\n\nimport "example.com/things"\n\ny: things.z\n',
    "c.cue":
      'package demo\n\nimport r "pravo.dev/providers/hashicorp/randomm"\n\n$r: r.#Provider\n',
  });
  assert.deepEqual(
    diagnostics.map((d) => [d.summary, d.range]),
    [
      ['Import "strings" is not used', { file: "a.cue", line: 3, column: 8 }],
      ["Unknown import", { file: "b.cue", line: 3, column: 8 }],
      ["Unknown provider", { file: "c.cue", line: 3, column: 8 }],
    ],
  );
  assert.match(
    diagnostics[2].detail,
    /did you mean "pravo\.dev\/providers\/hashicorp\/random"\?.*The providers are: pravo\.dev\/providers\/hashicorp\/local, pravo\.dev\/providers\/hashicorp\/null, pravo\.dev\/providers\/hashicorp\/random, pravo\.dev\/providers\/hashicorp\/time\./,
  );
});

Deno.test("readRoot() names a file of another package, and a file without a package clause", async () => {
  const diagnostics = await readErrors({
    "a.cue": "package demo\n\na: 1\n",
    "b.cue": "package demo\n\nb: 1\n",
    "c.cue": "// other\npackage other\n\nc: 1\n",
    "d.cue": "d: 1\n",
  });
  assert.deepEqual(diagnostics.map((d) => [d.summary, d.range]), [
    ["File of another package", { file: "c.cue", line: 2, column: 1 }],
    ["File without a package clause", { file: "d.cue", line: 1, column: 1 }],
  ]);
  assert.match(diagnostics[0].detail, /^c\.cue is in package "other"/);
  assert.match(diagnostics[1].detail, /Add "package demo"/);
});

Deno.test("readRoot() reports a root with no .cue files, and a syntax error's position", async () => {
  const empty = await readErrors({ "README.md": "# not cue\n" });
  assert.equal(empty[0].summary, "No .cue files in the root");
  assert.equal(empty[0].range, undefined);
  const syntax = await readErrors({
    "a.cue": "package demo\n\na: 1\n",
    "b.cue": "package demo\n\nb: {\n\tx: 1 y: 2\n}\n",
  });
  assert.deepEqual(syntax.map((d) => [d.summary, d.range]), [
    ["Syntax error", { file: "b.cue", line: 4, column: 7 }],
  ]);
  assert.match(syntax[0].detail, /^missing ',' or new line before "y"/);
});

Deno.test("readRoot() finds tags with their types and paths, and refuses malformed ones", async () => {
  await withRoot({
    "main.cue": "package demo\n\nenv: string @tag(env)\nn: {m: int @tag(n,type=int)}\n",
  }, (root) => {
    const res = readRoot(root, BUILTIN_ONLY);
    assert.ok(res.ok, JSON.stringify(res.diagnostics));
    assert.deepEqual(res.value.tags, [
      {
        name: "env",
        type: "string",
        path: ["env"],
        pos: { file: "main.cue", line: 3, column: 13 },
      },
      { name: "n", type: "int", path: ["n", "m"], pos: { file: "main.cue", line: 4, column: 12 } },
    ]);
  });
  const malformed = await readErrors({
    "main.cue": "package demo\n\nn: int @tag(n,type=float)\n#D: {x: string @tag(x)}\n",
  });
  assert.deepEqual(malformed.map((d) => [d.summary, d.range?.line]), [
    ["Malformed tag attribute", 3],
    ["Tag in an unsupported place", 4],
  ]);
});

Deno.test("loadRoot() refuses a node written on the package instead of a provider instance", async () => {
  // rnd.#Resource does not exist: the package offers #Provider only. This
  // was once valid with 0 resources, the error hidden as an unknown value.
  const diags = await loadErrors({
    "main.cue": 'package demo\n\nimport rnd "pravo.dev/providers/hashicorp/random"\n\n' +
      "base: rnd.#Resource.random_integer & {min: 1, max: 9}\n",
  });
  assert.equal(diags[0].summary, "Reference to an undefined field");
  assert.equal(diags[0].address, "base");
  assert.match(diags[0].detail, /^base refers to "#Resource", which is not defined there\./);
  assert.deepEqual(diags[0].range, { file: "main.cue", line: 5, column: 1 });
});

Deno.test("dependencies: a reference inside a list or a call's struct counts for the field it is the value of", async () => {
  const spec = await load({
    "main.cue": HEAD.replace("\n\n$random", '\nimport "encoding/json"\n\n$random') + `
base: $random.#Resource.random_integer & {min: 1, max: 9}
listed: $random.#Resource.random_integer & {min: 1, max: 9, keepers: {k: json.Marshal({v: [base.result]})}}
`,
  });
  const listed = spec.nodes.find((n) => n.address === "listed")!;
  assert.deepEqual(listed.dependencies, ["base"]);
});

/** Nodes made by comprehensions, read through computed keys: time_static's rfc3339 is the provider's when unset. */
const THROUGH_KEYS = 'package demo\n\nimport tm "pravo.dev/providers/hashicorp/time"\n\n' +
  "$time: tm.#Provider\n" +
  'names: ["x", "y"]\n' +
  "b: {for k in names {(k): $time.#Resource.time_static & {}}}\n" +
  "#M: {t: $time.#Resource.time_static & {}}\n" +
  "mods: {for k in names {(k): #M}}\n" +
  "byKey: {for k in names {(k): $time.#Resource.time_static & {triggers: at: b[k].rfc3339}}}\n" +
  "iterated: $time.#Resource.time_static & {triggers: {for k, v in b {(k): v.rfc3339}}}\n" +
  "fromMods: $time.#Resource.time_static & {triggers: {for k, m in mods {(k): m.t.rfc3339}}}\n" +
  "outputs: stamps: [for _, v in b {v.rfc3339}]\n";

Deno.test("loadRoot() evaluates a reference through a computed key to an attribute the provider computes: unknown, depended on", async () => {
  for (const trace of [true, false]) {
    const res = await withRoot(
      { "main.cue": THROUGH_KEYS },
      (root) => loadRoot(root, BUILTIN_ONLY, { trace }),
    );
    assert.ok(res.ok, JSON.stringify(res.diagnostics));
    const spec = res.value;
    assert.deepEqual(node(spec, "byKey.x").config.triggers, { at: UNKNOWN });
    assert.deepEqual(node(spec, "byKey.x").dependencies, ["b.x", "b.y"]);
    assert.deepEqual(node(spec, "iterated").config.triggers, { x: UNKNOWN, y: UNKNOWN });
    assert.deepEqual(node(spec, "fromMods").dependencies, ["mods.x.t", "mods.y.t"]);
    assert.equal("rfc3339" in node(spec, "b.x").config, false, "unset: no input");
    assert.deepEqual(spec.outputs, { stamps: [UNKNOWN, UNKNOWN] });
    if (trace) assert.ok(node(spec, "byKey.x").templates.triggers, "filled in at apply");
  }
});
