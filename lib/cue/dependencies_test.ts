/**
 * The dependencies the loader reads, construct by construct: each test
 * declares nodes whose values flow into another node through one construct
 * of the language, and checks the edges (issue "Composition that holds",
 * item 1: extra edges are acceptable, a missing edge never is).
 */
import { BUILTIN_ONLY } from "../workspace/workspace_testing.ts";
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { loadRoot, type Spec } from "./loader.ts";
import { UNKNOWN } from "./program.ts";
import { withRoot } from "./root_testing.ts";

const HEAD = "$random: rnd.#Provider\n" +
  "base: $random.#Resource.random_integer & {min: 1, max: 9}\n" +
  "other: $random.#Resource.random_integer & {min: 1, max: 5}\n";

/**
 * A root's main.cue: the random provider imported (in a clause with
 * `imports` when they are given), HEAD, then `body`.
 */
function mainOf(body: string, imports?: string[]): string {
  if (!imports) {
    return 'package demo\n\nimport rnd "pravo.dev/providers/hashicorp/random"\n\n' + HEAD + body;
  }
  const clause = ['rnd "pravo.dev/providers/hashicorp/random"', ...imports.map((i) => `"${i}"`)];
  return `package demo\n\nimport (\n${clause.map((c) => `\t${c}\n`).join("")})\n\n${HEAD}${body}`;
}

/** Writes the root's main.cue ({@link mainOf}). */
function writeMain(root: string, body: string, imports?: string[]): Promise<void> {
  return Deno.writeTextFile(join(root, "main.cue"), mainOf(body, imports));
}

/** Writes the root's main.cue ({@link mainOf}) and loads it: it must be valid. */
async function loadsMain(root: string, body: string, imports?: string[]): Promise<Spec> {
  await writeMain(root, body, imports);
  const res = await loadRoot(root, BUILTIN_ONLY);
  assert.ok(res.ok, JSON.stringify(!res.ok && res.diagnostics));
  return res.value;
}

async function load(
  body: string,
  imports: string[] = [],
  /** Applied nodes: by address, the type and the state's values. */
  known?: Record<string, { type: string; values: Record<string, unknown> }>,
): Promise<Spec> {
  const opts = known
    ? {
      known: new Map(Object.entries(known).map(([a, k]) => [a, k.values as never])),
      knownKinds: new Map(
        Object.entries(known).map((
          [a, k],
        ) => [a, { provider: "hashicorp/random", mode: "managed" as const, type: k.type }]),
      ),
    }
    : {};
  const res = await withRoot(
    { "main.cue": mainOf(body, imports) },
    (root) => loadRoot(root, BUILTIN_ONLY, opts),
  );
  assert.ok(res.ok, `expected a valid root, got ${JSON.stringify(res.diagnostics, null, 2)}`);
  return res.value;
}

/** A definition of two nodes, the second referring to the first, the first to an input. */
const PAIR = `#Pair: {
	#in: n: _
	first: $random.#Resource.random_pet & {prefix: "p\\(#in.n)"}
	second: $random.#Resource.random_pet & {prefix: first.id}
}
`;

/** The edges of the graph, as `from -> to`, sorted; base and other depend on nothing. */
function edges(spec: Spec): string[] {
  return spec.nodes.flatMap((n) => n.dependencies.map((d) => `${n.address} -> ${d}`)).sort();
}

/** Asserts that every edge `want` names is in the graph. */
function hasEdges(spec: Spec, want: string[]): void {
  const got = new Set(edges(spec));
  for (const e of want) assert.ok(got.has(e), `missing ${e}; the edges are ${[...got].join(", ")}`);
  for (const n of ["base", "other"]) {
    const node = spec.nodes.find((x) => x.address === n);
    if (node) assert.deepEqual(node.dependencies, [], `${n} depends on nothing`);
  }
}

Deno.test("dependencies: a definition instantiated with a hidden input, and a sibling inside it", async () => {
  const spec = await load(`
${PAIR}p: #Pair & {#in: n: base.result}
q: #Pair & {#in: n: other.result}
`);
  assert.deepEqual(edges(spec), [
    "p.first -> base",
    "p.second -> p.first",
    "q.first -> other",
    "q.second -> q.first",
  ]);
});

Deno.test("dependencies: a definition's regular input and a definition nested in a definition", async () => {
  const spec = await load(`
#Inner: {
	name: string
	pet: $random.#Resource.random_pet & {prefix: name}
}
#Outer: {
	in: string
	inner: #Inner & {name: in}
	after: $random.#Resource.random_pet & {prefix: inner.pet.id}
}
o: #Outer & {in: "x\\(base.result)"}
`);
  assert.deepEqual(edges(spec), ["o.after -> o.inner.pet", "o.inner.pet -> base"]);
});

Deno.test("dependencies: embedding a definition and unifying with an open user definition", async () => {
  const spec = await load(`
#Named: {prefix: "n\\(base.result)", ...}
e: {
	#Named
	$random.#Resource.random_pet
}
u: $random.#Resource.random_pet & #Named & {separator: "\\(other.result)"}
`);
  hasEdges(spec, ["e -> base", "u -> base", "u -> other"]);
});

Deno.test("dependencies: for and if comprehensions (for_each and count)", async () => {
  const spec = await load(`
names: ["x", "y"]
r: {for k in names {"\\(k)": $random.#Resource.random_pet & {prefix: "\\(k)-\\(base.id)"}}}
#M: {
	#in: {n: string, on: bool}
	if #in.on {
		pet: $random.#Resource.random_pet & {prefix: #in.n}
	}
	for i, v in [1, 2] {
		"n\\(i)": $random.#Resource.random_integer & {min: v, max: 9, seed: #in.n}
	}
}
m: #M & {#in: {n: other.id, on: true}}
c: {if true {one: $random.#Resource.random_pet & {prefix: base.id}}}
`);
  hasEdges(spec, [
    "r.x -> base",
    "r.y -> base",
    "m.pet -> other",
    "m.n0 -> other",
    "m.n1 -> other",
    "c.one -> base",
  ]);
});

Deno.test("dependencies: pattern constraints, lets, hidden fields, interpolation and builtin calls", async () => {
  const spec = await load(
    `
pets: [string]: $random.#Resource.random_pet & {prefix: "p\\(base.result)"}
pets: a: {}
let up = strings.ToUpper(other.id)
_hidden: {v: base.id}
l: $random.#Resource.random_pet & {prefix: up}
h: $random.#Resource.random_pet & {prefix: _hidden.v}
b: $random.#Resource.random_pet & {prefix: strings.Join([base.id, other.id], "-")}
`,
    ["strings"],
  );
  hasEdges(spec, ["pets.a -> base", "l -> other", "h -> base", "b -> base", "b -> other"]);
});

Deno.test("dependencies: disjunctions, defaults and nested structs", async () => {
  const spec = await load(`
net: web: {
	cert: $random.#Resource.random_pet & {prefix: *base.id | string}
	key: $random.#Resource.random_pet & {prefix: cert.id, keepers: {a: other.id}}
}
`);
  hasEdges(spec, ["net.web.cert -> base", "net.web.key -> net.web.cert", "net.web.key -> other"]);
});

Deno.test("depends_on: nodes, a struct of nodes, through a definition's input, and null", async () => {
  const spec = await load(`
group: {
	a: $random.#Resource.random_pet & {prefix: "a"}
	b: $random.#Resource.random_pet & {prefix: "b"}
}
one: $random.#Resource.random_pet & {depends_on: [base]}
all: $random.#Resource.random_pet & {depends_on: [group, other]}
none: $random.#Resource.random_pet & {depends_on: null}
#After: {
	#after: [...]
	pet: $random.#Resource.random_pet & {depends_on: #after}
}
m: #After & {#after: [base]}
`);
  assert.deepEqual(edges(spec), [
    "all -> group.a",
    "all -> group.b",
    "all -> other",
    "m.pet -> base",
    "one -> base",
  ]);
  // It adds edges and nothing else: no attribute, no change to the configuration.
  for (const n of spec.nodes) assert.ok(!("depends_on" in n.config), n.address);
});

Deno.test("depends_on: an element that is not a node is refused, at its line", async () => {
  await withRoot({}, async (root) => {
    await writeMain(root, 'p: $random.#Resource.random_pet & {\n\tdepends_on: ["base"]\n}\n');
    const res = await loadRoot(root, BUILTIN_ONLY);
    assert.ok(!res.ok);
    const d = res.diagnostics[0];
    assert.equal(d.summary, "depends_on[0] of p is not a node");
    assert.match(d.detail ?? "", /Write depends_on: \[node, \.\.\.\]/);
    assert.deepEqual(d.range, { file: "main.cue", line: 9, column: 2 });
  });
});

Deno.test("dependencies: a definition instantiated in a comprehension keeps its own edges", async () => {
  const spec = await load(`
${PAIR}pairs: {for k, v in {a: base, b: other} {(k): #Pair & {#in: n: v.result}}}
`);
  hasEdges(spec, [
    "pairs.a.first -> base",
    "pairs.a.second -> pairs.a.first",
    "pairs.b.first -> other",
    "pairs.b.second -> pairs.b.first",
  ]);
  const second = spec.nodes.find((n) => n.address === "pairs.a.second")!;
  assert.ok(!second.dependencies.includes("pairs.b.first"), second.dependencies.join(", "));
});

Deno.test("a reference to a computed attribute fills an attribute that has a default (length: base.result)", async () => {
  const spec = await load(`
r: {for k in ["x", "y"] {"\\(k)": $random.#Resource.random_pet & {length: base.result}}}
#P: {#in: n: _, pet: $random.#Resource.random_pet & {length: #in.n}}
p: #P & {#in: n: other.result}
`);
  hasEdges(spec, ["r.x -> base", "r.y -> base", "p.pet -> other"]);
  for (const a of ["r.x", "r.y", "p.pet"]) {
    const n = spec.nodes.find((x) => x.address === a)!;
    assert.equal(n.config.length, UNKNOWN, `${a}.length is known after apply, not a default`);
  }
});

Deno.test("a closed definition of the user's own unified with a node is refused with what to write", async () => {
  await withRoot({}, async (root) => {
    await writeMain(
      root,
      '#Short: {prefix: string}\ns: $random.#Resource.random_pet & #Short & {prefix: "a"}\n',
    );
    const res = await loadRoot(root, BUILTIN_ONLY);
    assert.ok(!res.ok);
    assert.equal(res.diagnostics[0].summary, "Closed definition unified with a node");
    assert.match(res.diagnostics[0].detail ?? "", /ending it with `\.\.\.`/);
    await loadsMain(
      root,
      '#Short: {prefix: string, ...}\ns: $random.#Resource.random_pet & #Short & {prefix: "a"}\n',
    );
  });
});

Deno.test("for_each over a value known only after apply is refused, with Terraform's advice, and no stand-in in it", async () => {
  await withRoot({}, async (root) => {
    await writeMain(
      root,
      'r: {for k in strings.Split(base.id, "-") {"\\(k)": $random.#Resource.random_pet & {prefix: k}}}\n',
      ["strings"],
    );
    const res = await loadRoot(root, BUILTIN_ONLY);
    assert.ok(!res.ok);
    const d = res.diagnostics[0];
    assert.equal(d.summary, "Nodes decided by a value known only after apply");
    assert.match(d.detail ?? "", /as with Terraform's for_each and count/i);
    // At the comprehension itself, inside r.
    assert.deepEqual(d.range, { file: "main.cue", line: 11, column: 5 });
    assert.ok(!JSON.stringify(d).includes("⟦"), JSON.stringify(d));
  });
});

Deno.test("dependencies: an if inside a definition decides only the fields it declares, so two instances may refer to each other", async () => {
  // x.b exists when x's input is set: it depends on y.a, and x.a does not.
  // Taking the clause for every node of the module made x.a -> y.a -> x.a.
  const spec = await load(
    `
#M: {
	#var: {p: *"" | string}
	a: $random.#Resource.random_pet & {}
	if #var.p != "" {
		b: $random.#Resource.random_pet & {prefix: #var.p}
	}
}
x: #M & {#var: p: y.a.id}
y: #M & {#var: p: x.a.id}
`,
    [],
    {
      "x.a": { type: "random_pet", values: { id: "x-a", length: 2, separator: "-" } },
      "y.a": { type: "random_pet", values: { id: "y-a", length: 2, separator: "-" } },
    },
  );
  assert.deepEqual(edges(spec), ["x.b -> y.a", "y.b -> x.a"]);
});

Deno.test("dependencies: a comprehension whose fields are not all known by label decides the fields it makes", async () => {
  const spec = await load(
    `
#M: {
	#var: {names: [...string]}
	a: $random.#Resource.random_pet & {}
	for n in #var.names {
		"\\(n)": $random.#Resource.random_pet & {}
	}
}
m: #M & {#var: names: ["k\\(base.result)"]}
`,
    [],
    { base: { type: "random_integer", values: { id: "3", min: 1, max: 9, result: 3 } } },
  );
  const made = spec.nodes.filter((n) => n.address.startsWith("m.") && n.address !== "m.a");
  assert.equal(made.length, 1, spec.nodes.map((n) => n.address).join(", "));
  assert.deepEqual(made[0].dependencies, ["base"]);
});

Deno.test("a condition on a value known only after apply that decides which nodes exist is refused, whatever the values standing for it give", async () => {
  await withRoot({}, async (root) => {
    for (
      const [body, line] of [
        // Both what stands for base.result and its sentinels are > 5: the
        // evaluations agree, and only the references tell.
        ["if base.result > 5 {\n\textra: $random.#Resource.random_pet & {}\n}\n", 8],
        [
          'pets: {for i in [1, 2] if base.result > i {"p\\(i)": $random.#Resource.random_pet & {length: i}}}\n',
          8,
        ],
      ] as const
    ) {
      await writeMain(root, body);
      const res = await loadRoot(root, BUILTIN_ONLY);
      assert.ok(!res.ok, body);
      const d = res.diagnostics[0];
      assert.equal(d.summary, "Nodes decided by a value known only after apply", body);
      assert.equal(d.range?.line, line, body);
      // Once base is known (applied), the same configuration plans.
      const known = new Map([["base", { id: "4", result: 4 }]]);
      const later = await loadRoot(root, BUILTIN_ONLY, { known });
      assert.ok(later.ok, JSON.stringify(!later.ok && later.diagnostics));
    }
    // Whether an input is there is known at plan time, its value or not.
    const present = await loadsMain(
      root,
      "_in: {x: base.id, y?: string}\nif _in.x != _|_ {n: $random.#Resource.random_pet & {prefix: _in.x}}\n" +
        'if _in.y == _|_ {m: n: $random.#Resource.random_pet & {prefix: "none"}}\n',
    );
    assert.deepEqual(present.nodes.map((n) => n.address).sort(), [
      "base",
      "m.n",
      "n",
      "other",
    ]);
    // Iterating a struct written out with its labels decides its keys only,
    // which the sources give: its values may be known after apply.
    const keyed = await loadsMain(
      root,
      '_all: {"a": base, "b": other}\n' +
        'pets: {for k, v in _all {"\\(k)": $random.#Resource.random_pet & {prefix: "\\(v.result)"}}}\n',
    );
    assert.ok(keyed.nodes.some((n) => n.address === "pets.a"));
    // The same through a let, as the sqs port's outputs iterate its modules.
    await loadsMain(
      root,
      'let all = {"a": base, "b": other}\n' +
        'outputs: {for k, v in all {"\\(k)_result": v.result}}\n',
    );
    // Inside a node's attribute, the same condition only makes the value unknown.
    await loadsMain(
      root,
      'n: $random.#Resource.random_pet & {keepers: {if base.result > 5 {big: "yes"}}}\n',
    );
  });
});

Deno.test("a function of a value known only after apply that fails on what stands for it is refused at its field or let, and plans once the value is known", async () => {
  await withRoot({}, async (root) => {
    for (
      const [body, range, where] of [
        [
          "n: $random.#Resource.random_pet & {prefix: (json.Unmarshal(base.id)).x}\n",
          { file: "main.cue", line: 11, column: 36 },
          /^n\.prefix is computed from base\.id, which is known only after apply/,
        ],
        // CUE names no field for a call in a let: the let that makes it.
        [
          "let d = json.Unmarshal(base.id)\n_h: d.x\nn: $random.#Resource.random_pet & {prefix: _h}\n",
          { file: "main.cue", line: 11, column: 5 },
          /^The let d calls json\.Unmarshal on base\.id, which is known only after apply/,
        ],
      ] as const
    ) {
      await writeMain(root, body, ["encoding/json"]);
      const res = await loadRoot(root, BUILTIN_ONLY);
      assert.ok(!res.ok, body);
      const d = res.diagnostics[0];
      assert.equal(d.summary, "A function of a value known only after apply", body);
      assert.match(d.detail ?? "", where);
      assert.match(d.detail ?? "", /CUE says: error in call to encoding\/json\.Unmarshal/);
      assert.match(d.detail ?? "", /apply the node it comes from first/);
      assert.deepEqual(d.range, range, body);
      assert.ok(!JSON.stringify(d).includes("⟦"), JSON.stringify(d));
      // Once base is applied, its id is known and the function evaluates.
      const known = new Map([["base", { id: '{"x": "four"}', result: 4 }]]);
      const later = await loadRoot(root, BUILTIN_ONLY, { known });
      assert.ok(later.ok, JSON.stringify(!later.ok && later.diagnostics));
      assert.equal(later.value.nodes.find((x) => x.address === "n")?.config.prefix, "four");
    }
  });
});

Deno.test("a condition or a for inside a definition, decided by an instance's input known only after apply or secret, is refused; known inputs and structs of nodes plan", async () => {
  const M = `#M: {
	#var: {n: *0 | int, names: [...string], pw: *"" | string, qs: {...}}
	a: $random.#Resource.random_pet & {}
	if #var.n > 5 {
		extra: $random.#Resource.random_pet & {}
	}
	for k in #var.names {
		"n-\\(k)": $random.#Resource.random_pet & {}
	}
	if len(#var.pw) > 8 {
		long: $random.#Resource.random_pet & {}
	}
	for k, q in #var.qs {
		"of-\\(k)": $random.#Resource.random_pet & {prefix: q.id}
	}
}
#Outer: {
	#in: int
	inner: #M & {#var: n: #in}
}
// A condition inside a node's attribute decides a value, not which fields exist.
#K: {
	#var: key: *null | string
	a: $random.#Resource.random_pet & {prefix: [if #var.key != null {"k"}, "none"][0]}
}
secret: $random.#Resource.random_password & {length: 12}
`;
  await withRoot({}, async (root) => {
    const write = (body: string) => writeMain(root, M + body);
    for (
      const [body, summary, line] of [
        ["m: #M & {#var: n: base.result}\n", "Nodes decided by a value known only after apply", 11],
        [
          'm: #M & {#var: names: ["\\(base.result)"]}\n',
          "Nodes decided by a value known only after apply",
          14,
        ],
        // An instance made by a comprehension, and one inside another definition's instance.
        [
          'ms: {for k in ["a"] {(k): #M & {#var: n: base.result}}}\n',
          "Nodes decided by a value known only after apply",
          11,
        ],
        ["o: #Outer & {#in: base.result}\n", "Nodes decided by a value known only after apply", 11],
        [
          "m: #M & {#var: pw: secret.result}\n",
          "Which fields exist depends on a sensitive value",
          17,
        ],
      ] as const
    ) {
      await write(body);
      const res = await loadRoot(root, BUILTIN_ONLY);
      assert.ok(!res.ok, body);
      assert.equal(res.diagnostics[0].summary, summary, body);
      assert.equal(res.diagnostics[0].range?.line, line, body);
    }
    // Inputs the configuration gives, and a struct of nodes to iterate: planned.
    await write(
      'm: #M & {#var: {n: 7, names: ["x"], qs: {b: base, o: other}}}\no: #Outer & {#in: 2}\n' +
        "k: #K & {#var: key: base.id}\n",
    );
    const res = await loadRoot(root, BUILTIN_ONLY);
    assert.ok(res.ok, JSON.stringify(!res.ok && res.diagnostics));
    assert.deepEqual(
      res.value.nodes.map((n) => n.address).filter((a) => /^[mo]\./.test(a)).sort(),
      ['m."n-x"', 'm."of-b"', 'm."of-o"', "m.a", "m.extra", "o.inner.a"],
    );
    assert.deepEqual(res.value.nodes.find((n) => n.address === "k.a")?.dependencies, ["base"]);
    // Once base is applied, its result decides at plan time.
    await write("m: #M & {#var: n: base.result}\n");
    const known = await loadRoot(root, BUILTIN_ONLY, {
      known: new Map([["base", { id: "7", min: 1, max: 9, result: 7 }]]),
      knownKinds: new Map([["base", {
        provider: "hashicorp/random",
        mode: "managed" as const,
        type: "random_integer",
      }]]),
    });
    assert.ok(known.ok, JSON.stringify(!known.ok && known.diagnostics));
    assert.ok(known.value.nodes.some((n) => n.address === "m.extra"));
  });
});
