/**
 * Composition on a plugin provider (the fake provider of fake_provider.ts,
 * protocol 6), through the real pravo: a module as a CUE definition with
 * inputs, instantiated in a comprehension. A value passed in through the
 * definition that equals what stood for "unknown" in the package (`false`)
 * reaches the provider as written, and the applied object has it; the
 * nodes are applied after what they depend on, a null input is unset, and a
 * second plan is a no-op (issue "Composition that holds", items 1, 2, 4, 6).
 */
import assert from "node:assert/strict";
import { FAKE_HEADER, fakeRoot, planNodes } from "./_roots.ts";

const MAIN = `${FAKE_HEADER}
#Queue: {
	#var: {name: string, encrypted: bool, size: *null | number}
	queue: $fake.#Resource.fake_thing & {
		name:       #var.name
		encrypted:  #var.encrypted
		size:       #var.size
		depends_on: [first]
	}
	policy: $fake.#Resource.fake_thing & {name: "policy-of-\\(queue.id)"}
}

first: $fake.#Resource.fake_thing & {name: "first"}

// Made by a comprehension and leaving encrypted unset: the provider
// computes it, and mirror reads it once it is known.
extra: {for k in ["e"] {(k): $fake.#Resource.fake_thing & {name: "extra-\(k)"}}}
mirror: $fake.#Resource.fake_thing & {name: "mirror", encrypted: extra.e.encrypted}

queues: {
	for k, enc in {plain: false, sealed: true} {
		(k): #Queue & {#var: {name: k, encrypted: enc}}
	}
}
`;

Deno.test("a module as a definition in a comprehension on a plugin provider: false passed in stays false; applied in order; no-op after", async () => {
  await using r = await fakeRoot({ "main.cue": MAIN });
  const node = await planNodes(r);
  assert.equal(node("queues.plain.queue").after.encrypted, false, "false as written");
  assert.equal(node("queues.sealed.queue").after.encrypted, true);
  assert.equal(node("queues.plain.queue").after.size, null, "a null input is unset");
  assert.ok(node("mirror").after_unknown.includes("encrypted"), "known after apply");
  assert.deepEqual(node("mirror").dependencies, ["extra.e"]);
  assert.deepEqual(node("queues.plain.queue").dependencies, ["first"]);
  // The policy waits for its own module's queue (an extra edge is allowed, a missing one never).
  assert.ok(node("queues.plain.policy").dependencies.includes("queues.plain.queue"));
  assert.ok(!node("queues.plain.policy").dependencies.includes("queues.sealed.queue"));

  const apply = await r.expect(["apply", "-auto-approve"]);
  const lines = apply.stdout.split("\n");
  const at = (s: string) => lines.findIndex((l) => l.includes(s));
  for (const k of ["plain", "sealed"]) {
    assert.ok(
      at("first: Creation complete") < at(`queues.${k}.queue: Creating...`),
      apply.stdout,
    );
    assert.ok(
      at(`queues.${k}.queue: Creation complete`) < at(`queues.${k}.policy: Creating...`),
      apply.stdout,
    );
  }
  const show = await r.run(["state", "show", "queues.plain.queue", "--json"]);
  assert.equal(JSON.parse(show.stdout).record.attributes.encrypted, false, "applied as written");

  const mirror = await r.run(["state", "show", "mirror", "--json"]);
  assert.equal(JSON.parse(mirror.stdout).record.attributes.encrypted, true, "the computed value");

  await r.expect(["plan", "--refresh", "all"]);
});

Deno.test("optional and computed attributes read through a definition's input, in its condition and in its nodes, before and after they are in the state", async () => {
  // The definition tests its input (known from the state once src is
  // applied) and one of its nodes reads another's optional and computed
  // attribute, which the configuration leaves unset. Before, the next plan
  // failed with "cannot reference optional field" or a CUE "cycle error":
  // which attributes the configuration sets was asked of all nodes at once,
  // and one that could not be told yet hid the others.
  const src = `${FAKE_HEADER}
src: $fake.#Resource.fake_thing & {name: "src"}
`;
  const withModule = src + `
#M: {
	#in: {enc: *null | bool, name: string}
	a: $fake.#Resource.fake_thing & {name: #in.name}
	b: $fake.#Resource.fake_thing & {name: "\\(#in.name)-b", encrypted: a.encrypted}
	if #in.enc != null {
		c: $fake.#Resource.fake_thing & {name: "\\(#in.name)-c-\\(a.name)", encrypted: #in.enc}
	}
}

m: #M & {#in: {name: "m", enc: src.encrypted}}
`;
  await using r = await fakeRoot({ "main.cue": src });
  await r.expect(["apply", "-auto-approve"]);
  await Deno.writeTextFile(`${r.root}/main.cue`, withModule);
  const node = await planNodes(r);
  assert.equal(node("m.c")?.after.encrypted, true, "the state's value of src.encrypted");
  assert.ok(node("m.b").after_unknown.includes("encrypted"), "a.encrypted: known after apply");
  assert.ok(node("m.b").dependencies.includes("m.a"));
  assert.ok(node("m.c").dependencies.includes("src") && node("m.c").dependencies.includes("m.a"));
  await r.expect(["apply", "-auto-approve"]);
  for (const args of [["plan"], ["plan", "--refresh", "all"]]) {
    const again = await r.run(args);
    assert.equal(again.code, 0, again.stdout + again.stderr);
  }
});

Deno.test("an update in place that makes one attribute unknown leaves the node's other values known to its dependents (no replacement that Terraform would not plan)", async () => {
  // Before, any unknown in a node's update made every computed value of
  // the node unknown for its dependents: on AWS, a DynamoDB table updated
  // in place replaced the resource policy that reads its arn.
  const main = (tags: string) =>
    `${FAKE_HEADER}
a: $fake.#Resource.fake_thing & {name: "a", tags: ${tags}}
b: $fake.#Resource.fake_thing & {name: "b-of-\\(a.id)"}
c: $fake.#Resource.fake_thing & {name: "c-at-\\(a.created)"}
`;
  await using r = await fakeRoot({ "main.cue": main(`{v: "1"}`) });
  await r.expect(["apply", "-auto-approve"]);
  await Deno.writeTextFile(`${r.root}/main.cue`, main(`{touch: "1"}`));
  const node = await planNodes(r);
  assert.equal(node("a").action, "update");
  assert.deepEqual(node("a").after_unknown, ["created"]);
  // (A node with nothing to do is not in the document.)
  assert.equal(node("b")?.action ?? "no-op", "no-op", "a.id stays known: b is not replaced");
  assert.equal(node("c").action, "replace", "a.created is unknown: c's name may change");
  await r.expect(["apply", "-auto-approve"]);
  await r.expect(["plan"]);
});

Deno.test("an optional and computed attribute read inside builtin calls in several places plans as known after apply", async () => {
  // CUE reports each of the reads ("cannot reference optional field:
  // encrypted (and 1 more error)"); the suffix hid which attribute it was.
  // And a map whose one value is unknown is planned with it unknown, not
  // refused as a plan that changes what the configuration sets.
  const main = `package demo

import (
	"strings"
	fake "pravo.dev/providers/pravo/fake"
)

$fake: fake.#Provider & {endpoint: "http://fake.example"}

src: $fake.#Resource.fake_thing & {name: "src"}
a: $fake.#Resource.fake_thing & {name: "a", tags: v: strings.ToUpper("a-\\(src.encrypted)")}
b: $fake.#Resource.fake_thing & {name: "b", tags: v: strings.ToLower("b-\\(src.encrypted)")}
`;
  await using r = await fakeRoot({ "main.cue": main });
  const node = await planNodes(r);
  for (const n of ["a", "b"]) {
    assert.ok(node(n).after_unknown.includes("tags.v"), `${n}.tags.v: known after apply`);
    assert.deepEqual(node(n).dependencies, ["src"]);
  }
  await r.expect(["apply", "-auto-approve"]);
  const show = await r.expect(["state", "show", "a", "--json"]);
  assert.match(show.stdout, /A-TRUE|A-FALSE/);
  await r.expect(["plan"]);
});

Deno.test("apply --refresh all with nothing to change keeps what the refresh read, as Terraform's apply -refresh-only: drift is clean after", async () => {
  // Found by the feature matrix: a computed value changed outside pravo (an
  // S3 bucket's versioning, which its own resource sets) stayed drift
  // forever, since an apply with no change returned before recording the
  // refreshed values.
  await using r = await fakeRoot({
    "main.cue": `${FAKE_HEADER}
t: $fake.#Resource.fake_thing & {name: "t"}
`,
  });
  assert.equal((await r.run(["apply", "-auto-approve"])).code, 0);
  const saved = JSON.parse(await Deno.readTextFile(r.mirror.state));
  saved.things[0].created = "changed outside";
  await Deno.writeTextFile(r.mirror.state, JSON.stringify(saved));
  const drift = await r.expect(["drift"], 2);
  assert.match(drift.stdout, /t: created changed/);
  const plan = await r.run(["plan", "--refresh", "all"]);
  assert.equal(plan.code, 0, "a computed value: nothing to change");
  await r.expect(["apply", "-auto-approve", "--refresh", "all"]);
  const show = JSON.parse((await r.run(["state", "show", "t", "--json"])).stdout);
  assert.equal(show.record.attributes.created, "changed outside");
  await r.expect(["drift"]);
});
