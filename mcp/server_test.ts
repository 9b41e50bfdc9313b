import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { bound, insideRoot } from "./server.ts";

Deno.test("insideRoot() resolves a path inside the root and refuses .., other absolute paths and links out", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  const other = await Deno.realPath(await Deno.makeTempDir());
  mkdirSync(`${root}/plans`);
  symlinkSync(other, `${root}/away`);
  symlinkSync(`${root}/plans`, `${root}/here`);
  assert.equal(insideRoot(root, "out", "x.plan"), `${root}/x.plan`);
  assert.equal(insideRoot(root, "out", "plans/new/x.plan"), `${root}/plans/new/x.plan`);
  assert.equal(insideRoot(root, "out", `${root}/x.plan`), `${root}/x.plan`);
  assert.equal(insideRoot(root, "out", "here/x.plan"), `${root}/here/x.plan`);
  for (
    const v of ["../x.plan", "plans/../../x.plan", `${other}/x.plan`, "away/x.plan", "/etc/passwd"]
  ) {
    assert.throws(() => insideRoot(root, "out", v), {
      name: "ArgumentRefusal",
      message: `out ${JSON.stringify(v)} is outside the root: paths are resolved inside ${root}. ` +
        "Give a path inside it, such as plans/x.plan",
    });
  }
});

Deno.test("bound() keeps a short text whole and cuts a long one at a line, with a note", () => {
  assert.equal(bound("short", 1024, "pravo_validate"), "short");
  const long = Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n");
  const cut = bound(long, 100, "pravo_state_query");
  const [kept, note] = [
    cut.slice(0, cut.lastIndexOf("\n[")),
    cut.slice(cut.lastIndexOf("\n[") + 1),
  ];
  assert.ok(long.startsWith(kept + "\n"));
  assert.ok(new TextEncoder().encode(kept).length <= 100);
  assert.equal(
    note,
    `[cut: the result is ${long.length} bytes and this server returns at most 100; narrow the expression, or ask the operator to raise --max-result-bytes]`,
  );
  assert.match(bound(long, 100, "pravo_state_log"), /read the log from the command line/);
  assert.match(bound(long, 100, "pravo_plan"), /save the plan with out/);
  // A cut never splits a character.
  assert.doesNotThrow(() =>
    new TextDecoder("utf-8", { fatal: true }).decode(
      new TextEncoder().encode(bound("é".repeat(100), 51, "x")),
    )
  );
});
