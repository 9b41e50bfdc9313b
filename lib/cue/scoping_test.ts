import { strict as assert } from "node:assert";
import { newTopScope, parseFile, resolve } from "./syntax/mod.ts";
import { selfReferences } from "./scoping.ts";

function traps(src: string) {
  return selfReferences([parseFile("main.cue", "package demo\n\n" + src, newTopScope())]);
}

Deno.test("selfReferences() finds a field whose value names itself, with the outer one", () => {
  const [pause] = traps("pause: {id: 1}\nafter: {triggers: {pause: pause.id}}\n");
  assert.equal(pause.summary, '"pause" here is the field being defined');
  assert.deepEqual(pause.range, { file: "main.cue", line: 4, column: 27 });
  assert.equal(pause.address, "after.triggers.pause");
  assert.match(pause.detail, /not to pause declared at main\.cue:3:1/);
  assert.match(pause.detail, /`"pause": pause\.id`/);
  assert.match(pause.detail, /`Pause=pause: \.\.\.`, and write `Pause\.id` here/);
  const [interp] = traps('replicas: 3\nx: {triggers: {replicas: "\\(replicas)"}}\n');
  assert.equal(interp.summary, '"replicas" here is the field being defined');
  const [team] = traps('team: "core"\nx: {triggers: {team: team}}\n');
  assert.equal(team.address, "x.triggers.team");
  // With nothing of that name outside: it names itself, and that is all.
  const [alone] = traps("x: {n: n + 1}\n");
  assert.match(alone.detail, /refers to x\.n itself/);
});

Deno.test("selfReferences() leaves alone quoted labels, outer references and siblings", () => {
  assert.deepEqual(traps('pause: {id: 1}\nafter: {triggers: {"pause": pause.id}}\n'), []);
  assert.deepEqual(traps("P=pause: {id: 1}\nafter: {triggers: {pause: P.id}}\n"), []);
  // A struct that refers to itself from inside is CUE's way to reach a sibling.
  assert.deepEqual(traps('web: {name: "x", url: web.name}\n'), []);
  assert.deepEqual(traps("a: 1\nb: {c: a}\n"), []);
});

Deno.test("resolve() passes over a quoted label, as CUE binds no name to it", () => {
  const f = parseFile(
    "main.cue",
    'package demo\n\npause: {id: 1}\nafter: {t: {"pause": pause.id}}\n',
    newTopScope(),
  );
  const site = f.sites.find((s) => s.path?.join(".") === "after.t.pause")!;
  assert.equal(site.quoted, true);
  const [decl] = resolve(site.refs[0])!;
  assert.deepEqual(decl.path, ["pause"]);
});
