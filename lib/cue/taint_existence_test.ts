/** Existence decided by a secret: the diagnostics, and a definition's inputs read per instance. */

import assert from "node:assert/strict";
import { definedTaint, existenceDiagnostics } from "./taint_existence.ts";
import { thing, tracerOf } from "./taint_testing.ts";

const SUMMARY = "Which fields exist depends on a sensitive value";

/** The diagnostics of `body` (nodes a and b) as `line:column summary, in ...`. */
function found(body: string, options: Parameters<typeof tracerOf>[2] = {}): string[] {
  const tracer = tracerOf(
    `a: {input: "x"}\nb: {input: "y"}\n${body}`,
    [thing("a"), thing("b")],
    options,
  );
  return existenceDiagnostics(tracer).map((d) => {
    assert.equal(d.summary, SUMMARY);
    assert.equal(d.range?.file, "main.cue");
    const where = d.detail.match(/^A comprehension or a dynamic field name in (.*?) decides/);
    return `${d.range?.line}:${d.range?.column} ${where ? where[1] : "top"}`;
  });
}

Deno.test("existenceDiagnostics() reports a comprehension or a dynamic label outside a value that decides from a secret", () => {
  assert.deepEqual(found(`if a.secret == "x" {extra: 1}`), ["5:1 the package"]);
  assert.deepEqual(found(`dyn: {(a.secret): 1}`), ["5:7 dyn"]);
  assert.deepEqual(found(`dyn: {(a.id): 1}\nwhen: {if b.input == "y" {x: 1}}`), []);
  // Inside a node's attribute or an output, redaction hides it.
  assert.deepEqual(found(`b: input: {if a.secret == "x" {x: 1}}\noutputs: o: {(a.secret): 1}`), []);
});

Deno.test("existenceDiagnostics() says it once, at the comprehension that decides", () => {
  // The dynamic label reads the loop's variable: said at the loop only.
  assert.deepEqual(found(`for i, c in [a.secret] {"f\\(i)": 1}`), ["5:1 the package"]);
  assert.deepEqual(found(`for i, c in [a.secret] if c == "x" {"f\\(i)": 1}`), ["5:1 the package"]);
  // What is computed from the variable decides again, further in.
  assert.deepEqual(
    found(`for i, c in [a.secret] {"f\\(i)": {for j, d in [c] {"g\\(j)": 1}}}`),
    ["5:1 the package", "5:52 the package"],
  );
});

Deno.test("existenceDiagnostics() lets a loop over nodes or a struct written out, and a test of presence, decide", () => {
  assert.deepEqual(found(`for k, v in {"p": a, "q": b} {"\\(k)_x": v.input}`), []);
  assert.deepEqual(found(`nodes: {p: {input: "z"}}\nfor k, v in nodes {"\\(k)_x": 1}`, {}), []);
  assert.deepEqual(found(`if a.secret != _|_ {x: 1}`), []);
  assert.deepEqual(found(`if a.secret != null {x: 1}`), ["5:1 the package"]);
});

Deno.test("existenceDiagnostics() takes a test for null as known when tracing values known only after apply", () => {
  const unknowns = { schemaSensitive: false, secretAttrs: new Map([["a", new Set(["id"])]]) };
  assert.deepEqual(found(`if a.id != null {x: 1}`, unknowns), []);
  assert.deepEqual(found(`if a.id == "i" {x: 1}`, unknowns), ["5:1 the package"]);
  assert.deepEqual(found(`if a.secret == "s" {x: 1}`, unknowns), [], "not a secret then");
});

Deno.test("existenceDiagnostics() reports a value embedded at the top of the package that refers to a secret", () => {
  assert.deepEqual(found(`held: {k: a.secret}\nheld`), ["6:1 top"]);
  assert.deepEqual(found(`plain: {k: "v"}\nplain`), []);
});

Deno.test("existenceDiagnostics() reads a clause on a definition's input as each instance gives it", () => {
  const def = `#M: {#var: v: _, if #var.v == "x" {extra: 1}}\n`;
  assert.deepEqual(found(def + `m: #M & {#var: v: "plain"}`), []);
  assert.deepEqual(found(def + `m: #M & {#var: v: a.secret}`), ["5:18 #M"]);
});

const DEFS = `#M: {#var: v: _}
#Outer: {#in: _, inner: #M & {#var: v: #in}}
`;

Deno.test("definedTaint() reads a definition's input in each instance, also through another definition", () => {
  const taints = (body: string, keysOnly = false, within?: string[]) =>
    definedTaint(tracerOf(`a: {input: "x"}\n${DEFS}${body}`, [thing("a")]), ["#M", "#var", "v"], {
      keysOnly,
      within,
    });
  assert.equal(taints(`m: #M & {#var: v: "plain"}`), false);
  assert.equal(taints(`m: #M & {#var: v: a.secret}`), true);
  assert.equal(taints(`o: #Outer & {#in: "plain"}`), false);
  assert.equal(taints(`o: #Outer & {#in: a.secret}`), true, "through #Outer's instance");
  assert.equal(
    taints(`mods: {for i, x in [1] {"m\\(i)": #M & {#var: v: a.secret}}}`),
    true,
    "an instance under a comprehension's label",
  );
  // Iterated, a struct of nodes decides its keys only.
  assert.equal(taints(`m: #M & {#var: v: a}`), true);
  assert.equal(taints(`m: #M & {#var: v: a}`, true), false);
  // Only the definitions the clause is written in.
  assert.equal(taints(`m: #M & {#var: v: a.secret}`, false, ["#M"]), true);
  assert.equal(taints(`m: #M & {#var: v: a.secret}`, false, ["#Other"]), false);
});
