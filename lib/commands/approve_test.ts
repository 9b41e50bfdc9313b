import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRoot, onTerminal, pravo, SEED } from "../../tests/_pravo.ts";

const HAS_SCRIPT = (() => {
  try {
    return Deno.statSync("/usr/bin/script").isFile;
  } catch {
    return false;
  }
})();

async function setup() {
  const base = await Deno.makeTempDir({ prefix: "pravo-approve-" });
  const root = join(base, "root");
  await Deno.mkdir(root);
  await Deno.writeTextFile(join(root, "main.cue"), SEED);
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["approver-key", join(base, "op")])).code, 0);
  assert.equal((await pravo(root, ["plan", "--out", "x.plan"])).code, 2);
  return { base, root, key: join(base, "op") };
}

Deno.test({
  name: "approve on a terminal shows the plan as it read it, and signs only after yes",
  ignore: !HAS_SCRIPT,
  async fn() {
    const t = await setup();
    const no = await onTerminal(t.root, ["approve", "x.plan", "--key", t.key], {
      answer: "no",
      actor: "operator",
    });
    assert.match(no, /# base will be created/);
    assert.match(no, /Do you approve exactly this plan\?/);
    assert.match(no, /Approval cancelled: nothing was approved\.\nexit=1/);
    await assert.rejects(
      Deno.stat(join(t.root, ".pravo", "approvals.jsonl")),
      Deno.errors.NotFound,
    );
    const yes = await onTerminal(t.root, ["approve", "x.plan", "--key", t.key], {
      answer: "yes",
      actor: "operator",
    });
    assert.match(yes, /Approved plan [0-9a-f-]+ \(1 to add, .* as operator, signed with/);
    assert.match(yes, /exit=0/);
    const lines = (await Deno.readTextFile(join(t.root, ".pravo", "approvals.jsonl"))).trim()
      .split("\n");
    assert.equal(lines.length, 1);
    await Deno.remove(t.base, { recursive: true });
  },
});

Deno.test("approve refuses a plan of another state, a damaged plan, and a key inside the root", async () => {
  const t = await setup();
  const other = await makeRoot({ "main.cue": SEED });
  assert.equal((await pravo(other, ["init"])).code, 0);
  await Deno.copyFile(join(t.root, "x.plan"), join(other, "x.plan"));
  const foreign = await pravo(other, ["approve", "x.plan", "--key", t.key]);
  assert.equal(foreign.code, 8, foreign.stderr);
  await Deno.writeTextFile(join(t.root, "bad.plan"), '{"pravo_plan":"2.0"}');
  assert.equal((await pravo(t.root, ["approve", "bad.plan", "--key", t.key])).code, 7);
  await Deno.copyFile(t.key, join(t.root, "op"));
  const inside = await pravo(t.root, ["approve", "x.plan", "--key", "op"]);
  assert.equal(inside.code, 1);
  assert.match(inside.stderr, /is inside the root/);
  // The key may come from $PRAVO_APPROVER_KEY, as a path or as the PEM itself.
  const byPath = await pravo(t.root, ["approve", "x.plan"], { env: { PRAVO_APPROVER_KEY: t.key } });
  assert.equal(byPath.code, 0, byPath.stderr);
  const pem = await Deno.readTextFile(t.key);
  const byPem = await pravo(t.root, ["approve", "x.plan"], { env: { PRAVO_APPROVER_KEY: pem } });
  assert.equal(byPem.code, 0, byPem.stderr);
  await Deno.remove(t.base, { recursive: true });
  await Deno.remove(other, { recursive: true });
});
