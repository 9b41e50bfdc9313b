import { strict as assert } from "node:assert";
import { kindOf, newTopScope, type Ref, resolve, type Scope, scopeIn, type Site } from "./sites.ts";

function site(label: string, scope: Scope, quoted?: boolean): Site {
  const s: Site = {
    label,
    kind: kindOf(label),
    path: scope.path && [...scope.path, label],
    file: "f.cue",
    line: 1,
    column: 1,
    refs: [],
    scope,
    attrs: [],
    optional: false,
    nonRegular: false,
    owner: null,
    quoted,
  };
  scope.sites.set(label, [...scope.sites.get(label) ?? [], s]);
  return s;
}

function ref(name: string, scope: Scope): Ref {
  return { name, selectors: [], scope, line: 1, column: 1 };
}

Deno.test("kindOf() tells definitions, hidden and regular labels apart by their spelling", () => {
  assert.deepEqual(["#D", "_#D", "_h", "a", "$r"].map(kindOf), [
    "definition",
    "definition",
    "hidden",
    "regular",
    "regular",
  ]);
});

Deno.test("scopeIn() makes an empty scope inside its parent with the path and regularity given", () => {
  const top = newTopScope();
  assert.deepEqual(top, { parent: null, sites: new Map(), path: [], nonRegular: false });
  const inner = scopeIn(top, { path: ["a"], nonRegular: true });
  assert.equal(inner.parent, top);
  assert.deepEqual([inner.path, inner.nonRegular, inner.sites.size], [["a"], true, 0]);
  assert.deepEqual(scopeIn(inner, inner).path, ["a"]);
});

Deno.test("resolve() finds the innermost scope that declares a name, past quoted labels", () => {
  const top = newTopScope();
  const outer = site("x", top);
  const inner = scopeIn(top, { path: ["a"], nonRegular: false });
  assert.deepEqual(resolve(ref("x", inner)), [outer]);
  const shadow = site("x", inner);
  assert.deepEqual(resolve(ref("x", inner)), [shadow]);
  site("q", inner, true);
  assert.equal(resolve(ref("q", inner)), undefined, "a quoted label binds no name");
  assert.equal(resolve(ref("nowhere", inner)), undefined);
});
