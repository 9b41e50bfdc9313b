import assert from "node:assert/strict";
import { jsonDocument, refusal } from "./_testing.ts";
import { pravo, put, record, SECRET, seededRoot, storeOf } from "./state_testing.ts";

Deno.test("state query prints the JSON value of an expression over the state", async () => {
  const root = await seededRoot();
  const cases: [string, unknown][] = [
    ["nodes.base.attributes.result", 12],
    ['[for a, n in nodes if n.type == "random_integer" {a}]', ["base"]],
    ["len(nodes)", 4],
    ["serial", 2],
    ['nodes["pet"].dependencies', ["file"]],
    ["{for a, n in nodes if len(n.dependencies) == 0 {(a): n.type}}", { base: "random_integer" }],
    ['strings.Join([for a, _ in nodes {a}], ",")', "base,file,pet,pw"],
    ['[for a, n in nodes\n  if list.Contains(n.dependencies, "pw") {a}]', ["file"]],
  ];
  for (const [expr, want] of cases) {
    const { code, stdout, stderr } = await pravo(["-C", root, "state", "query", expr]);
    assert.equal(stderr, "", expr);
    assert.equal(code, 0, expr);
    assert.deepEqual(JSON.parse(stdout), want, expr);
  }
  await Deno.remove(root, { recursive: true });
});

Deno.test("state query --json prints {format_version, expression, result}", async () => {
  const root = await seededRoot();
  const doc = jsonDocument(await pravo(["-C", root, "state", "query", "--json", "lineage"]));
  assert.equal(doc.expression, "lineage");
  assert.match(doc.result, /^[0-9a-f-]{36}$/);
  assert.equal(doc.truncated, undefined);
  await Deno.remove(root, { recursive: true });
});

Deno.test("state query never sees a sensitive value", async () => {
  const root = await seededRoot();
  for (const expr of ["nodes", "nodes.pw.attributes.result", "nodes.file.attributes.content"]) {
    for (const json of [[], ["--json"]]) {
      const { code, stdout } = await pravo(["-C", root, "state", "query", expr, ...json]);
      assert.equal(code, 0);
      assert.ok(!stdout.includes(SECRET), stdout);
      assert.ok(stdout.includes("(sensitive)"), stdout);
    }
  }
  // Not even by comparing: the value CUE sees is the marker.
  const probe = await pravo([
    "-C",
    root,
    "state",
    "query",
    `nodes.pw.attributes.result == "${SECRET}"`,
  ]);
  assert.equal(probe.stdout.trim(), "false");
  await Deno.remove(root, { recursive: true });
});

Deno.test("state query refuses what is not one expression, with exit 64", async () => {
  const root = await seededRoot();
  const bad: [string, RegExp][] = [
    ["nodes, serial", /a comma at the top level starts a second expression/],
    ["nodes\nfoo: 1", /a line break after a complete operand starts a second declaration/],
    ["x: 1", /":" at the top level declares a field/],
    ["nodes.base]", /"\]" closes nothing/],
    ["][0]\nx: [1", /"\]" closes nothing/],
    ["[for a, n in nodes {a}", /the "\[" is never closed/],
    ["(nodes]", /"\]" does not match the "\("/],
    ["let x = 1", /"let" starts a declaration/],
    ['"unterminated', /unterminated|string/],
    ["", /it is empty/],
    ["// only a comment", /only comments/],
  ];
  for (const [expr, why] of bad) {
    const { code, stdout, stderr } = await pravo(["-C", root, "state", "query", expr]);
    assert.equal(code, 64, expr);
    assert.equal(stdout, "", expr);
    assert.match(stderr, /Error: The query is not one CUE expression/, expr);
    assert.match(stderr, why, expr);
  }
  await Deno.remove(root, { recursive: true });
});

Deno.test("state query reports a CUE error with the expression and what to do, exit 1", async () => {
  const root = await seededRoot();
  const stderr = refusal(await pravo(["-C", root, "state", "query", "nodes.nope"]), 1);
  assert.match(stderr, /Error: The query failed/);
  assert.match(stderr, /CUE could not evaluate "nodes.nope": undefined field: nope/);
  assert.doesNotMatch(stderr, /_pravo/);
  const incomplete = await pravo(["-C", root, "state", "query", "int"]);
  assert.equal(incomplete.code, 1);
  assert.match(incomplete.stderr, /incomplete value/);
  const conflict = await pravo(["-C", root, "state", "query", 'serial + "a"']);
  assert.equal(conflict.code, 1);
  assert.doesNotMatch(conflict.stderr, /_pravo/);
  await Deno.remove(root, { recursive: true });
});

Deno.test("state query --limit cuts long lists and says how to get the rest", async () => {
  const root = await seededRoot();
  const store = await storeOf(root);
  await store.transaction({ actor: "t", reason: "", command: "test" }, async (tx) => {
    for (let i = 0; i < 120; i++) {
      await put(
        tx,
        record({ address: `n${String(i).padStart(3, "0")}`, attributes: { result: i } }),
      );
    }
  });
  await store.close();
  const list = "[for a, _ in nodes {a}]";
  const def = await pravo(["-C", root, "state", "query", list]);
  assert.equal(def.code, 0);
  assert.equal(JSON.parse(def.stdout).length, 100);
  assert.equal(
    def.stderr,
    "Showed 100 of 124 elements; pass --limit 124 (or --limit 0) for all, or narrow the expression.\n",
  );
  const three = await pravo(["-C", root, "state", "query", list, "--limit", "3", "--json"]);
  const doc = JSON.parse(three.stdout);
  assert.deepEqual(doc.result, ["base", "file", "n000"]);
  assert.deepEqual(doc.truncated, { shown: 3, total: 124 });
  assert.equal(three.stderr, "");
  const all = await pravo(["-C", root, "state", "query", list, "--limit", "0"]);
  assert.equal(JSON.parse(all.stdout).length, 124);
  assert.equal(all.stderr, "");
  const fields = await pravo(["-C", root, "state", "query", "nodes", "--limit", "2", "--json"]);
  assert.deepEqual(Object.keys(JSON.parse(fields.stdout).result), ["base", "file"]);
  const bad = await pravo(["-C", root, "state", "query", list, "--limit", "ten"]);
  assert.equal(bad.code, 64);
  assert.match(bad.stderr, /--limit "ten" is not a whole number/);
  await Deno.remove(root, { recursive: true });
});
