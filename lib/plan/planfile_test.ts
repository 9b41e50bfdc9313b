import assert from "node:assert/strict";
import { join } from "node:path";
import { DiagnosticsError } from "../diag/diag.ts";
import { exitCodeOf } from "../cli/exit.ts";
import { UsageError } from "../diag/usage.ts";
import { keyFromBytes } from "../keys/key.ts";
import {
  checkPlanOut,
  checkPlanState,
  PLAN_FILE_FORMAT,
  planFileBytes,
  readPlanFile,
  sha256Hex,
  writePlanFile,
} from "./planfile.ts";
import { emptyPlan, type Plan } from "./types.ts";

const KEY = keyFromBytes(new TextEncoder().encode("a key of 32 bytes for this test!"), "test");
const OTHER = keyFromBytes(new TextEncoder().encode("another key of 32 bytes, theirs!"), "test");

function plan(extra: Partial<Plan> = {}): Plan {
  return {
    ...emptyPlan(),
    id: "p-1",
    createdAt: "2030-01-01T00:00:00.000Z",
    root: "/made/here",
    actor: "alice",
    reason: "why",
    lineage: "l-1",
    serial: 3,
    sources: [{ name: "main.cue", src: 'package x\nsecret: "hunter2"\n' }],
    ...extra,
  };
}

async function tempRoot(): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pravo-planfile-" }));
  await Deno.mkdir(join(root, ".pravo"));
  await Deno.writeTextFile(join(root, ".pravo", "state.db"), "state");
  await Deno.writeTextFile(join(root, "main.cue"), "package x\n");
  await Deno.writeTextFile(join(root, "pravo.lock.json"), "{}\n");
  await Deno.writeTextFile(join(root, "pravo.jsonc"), "{}\n");
  return root;
}

function refused(f: () => unknown, re: RegExp): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof UsageError, String(e));
    assert.match(e.message, re);
    return true;
  });
}

function exitOf(f: () => unknown): { code: number; text: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof DiagnosticsError) {
      return {
        code: exitCodeOf(e.kind),
        text: e.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join("\n"),
      };
    }
    throw e;
  }
  throw new Error("it did not throw");
}

Deno.test("writePlanFile() seals the plan: its values cannot be read from the file, and readPlanFile() opens it", async () => {
  const root = await tempRoot();
  writePlanFile(root, "a.plan", plan(), KEY);
  const bytes = await Deno.readFile(join(root, "a.plan"));
  const text = new TextDecoder().decode(bytes);
  assert.ok(text.startsWith(`{"pravo_plan":"${PLAN_FILE_FORMAT}","key":"${KEY.fingerprint}",`));
  assert.ok(!text.includes("hunter2"), "a value the plan carries is not in clear");
  assert.equal((await Deno.stat(join(root, "a.plan"))).mode! & 0o777, 0o600);
  const read = readPlanFile(join(root, "a.plan"), KEY);
  assert.deepEqual(read.plan, plan());
  assert.equal(read.digest, sha256Hex(bytes), "the digest is of the bytes that were read");
  // No temporary file is left behind.
  assert.deepEqual(
    [...Deno.readDirSync(root)].map((e) => e.name).sort(),
    [".pravo", "a.plan", "main.cue", "pravo.jsonc", "pravo.lock.json"],
  );
  await Deno.remove(root, { recursive: true });
});

Deno.test("readPlanFile() refuses an edited file (7), another key's (8), a newer format (9), the old unsealed format (7)", async () => {
  const root = await tempRoot();
  const path = join(root, "a.plan");
  await Deno.writeFile(path, planFileBytes(plan(), KEY));
  const outer = JSON.parse(await Deno.readTextFile(path));

  const sealed = Buffer.from(outer.sealed, "base64");
  sealed[20] ^= 1;
  await Deno.writeTextFile(path, JSON.stringify({ ...outer, sealed: sealed.toString("base64") }));
  let r = exitOf(() => readPlanFile(path, KEY));
  assert.equal(r.code, 7);
  assert.match(r.text, /not written by pravo with this key, or it was edited/);

  // The header is bound to the sealed body: a changed format does not open.
  await Deno.writeTextFile(path, JSON.stringify({ ...outer, pravo_plan: "2.1" }));
  assert.equal(exitOf(() => readPlanFile(path, KEY)).code, 7);

  await Deno.writeFile(path, planFileBytes(plan(), OTHER));
  r = exitOf(() => readPlanFile(path, KEY));
  assert.equal(r.code, 8);
  assert.match(r.text, new RegExp(`made with pravo's key ${OTHER.fingerprint}`));
  assert.match(r.text, /\$PRAVO_KEY or \$PRAVO_KEY_FILE/);

  await Deno.writeTextFile(path, JSON.stringify({ ...outer, pravo_plan: "3.0" }));
  assert.equal(exitOf(() => readPlanFile(path, KEY)).code, 9);

  await Deno.writeTextFile(path, JSON.stringify({ pravo_plan: "1.0", digest: "x", body: plan() }));
  r = exitOf(() => readPlanFile(path, KEY));
  assert.equal(r.code, 7);
  assert.match(r.text, /old format 1\.0/);
  assert.match(r.text, /make a new plan/);

  for (const junk of ["", "{", "[]", '{"x":1}', "\xff\xfe"]) {
    await Deno.writeTextFile(path, junk);
    assert.equal(exitOf(() => readPlanFile(path, KEY)).code, 7, JSON.stringify(junk));
  }
  assert.equal(exitOf(() => readPlanFile(join(root, "none.plan"), KEY)).code, 1);
  await Deno.remove(root, { recursive: true });
});

Deno.test("checkPlanOut() refuses .pravo/, .cue files, pravo.jsonc, pravo.lock.json and files that are not plan files", async () => {
  const root = await tempRoot();
  refused(() => checkPlanOut(root, ".pravo/state.db"), /is under \.pravo\//);
  refused(() => checkPlanOut(root, ".pravo/approvals.jsonl"), /is under \.pravo\//);
  refused(() => checkPlanOut(root, ".pravo/new.plan"), /is under \.pravo\//);
  refused(() => checkPlanOut(root, "x/../.pravo/state.db"), /is under \.pravo\//);
  refused(() => checkPlanOut(root, "main.cue"), /is a \.cue file/);
  refused(() => checkPlanOut(root, "new.CUE"), /is a \.cue file/);
  refused(() => checkPlanOut(root, "pravo.jsonc"), /names the root's pravo\.jsonc/);
  refused(() => checkPlanOut(root, "pravo.lock.json"), /names the root's pravo\.lock\.json/);
  refused(() => checkPlanOut(root, "../x.plan"), /is outside the root/);
  refused(() => checkPlanOut(root, "/etc/x.plan"), /is outside the root/);
  refused(() => checkPlanOut(root, "."), /is outside the root/);
  refused(() => checkPlanOut(root, ""), /is empty/);
  refused(() => checkPlanOut(root, "no/such/dir/x.plan"), /in a folder that does not exist/);
  await Deno.writeTextFile(join(root, "notes.txt"), "mine");
  refused(
    () => checkPlanOut(root, "notes.txt"),
    /is an existing file that is not a pravo plan file/,
  );
  await Deno.mkdir(join(root, "plans"));
  refused(() => checkPlanOut(root, "plans"), /is not a file/);
  // A new name, and an existing plan file, are fine.
  assert.equal(checkPlanOut(root, "plans/x.plan"), join(root, "plans", "x.plan"));
  await Deno.writeFile(join(root, "plans", "x.plan"), planFileBytes(plan(), OTHER));
  assert.equal(checkPlanOut(root, `${root}/plans/x.plan`), join(root, "plans", "x.plan"));
  assert.equal(await Deno.readTextFile(join(root, "notes.txt")), "mine");
  await Deno.remove(root, { recursive: true });
});

Deno.test("checkPlanOut() refuses symbolic links: the file itself, and a folder that leads out of the root or into .pravo/", async () => {
  const root = await tempRoot();
  const outside = await Deno.makeTempDir({ prefix: "pravo-outside-" });
  await Deno.symlink(join(root, ".pravo", "state.db"), join(root, "state.plan"));
  await Deno.symlink(join(root, "gone.plan"), join(root, "dangling.plan"));
  await Deno.symlink(join(root, ".pravo"), join(root, "hidden"));
  await Deno.symlink(outside, join(root, "away"));
  refused(() => checkPlanOut(root, "state.plan"), /is a symbolic link/);
  refused(() => checkPlanOut(root, "dangling.plan"), /is a symbolic link/);
  refused(() => checkPlanOut(root, "hidden/state.db"), /under \.pravo\/ through a symbolic link/);
  refused(() => checkPlanOut(root, "hidden/new.plan"), /under \.pravo\/ through a symbolic link/);
  refused(() => checkPlanOut(root, "away/x.plan"), /real path leaves the root/);
  // writePlanFile() checks the same, and never writes through the link.
  assert.throws(() => writePlanFile(root, "state.plan", plan(), KEY), UsageError);
  assert.equal(await Deno.readTextFile(join(root, ".pravo", "state.db")), "state");
  assert.deepEqual([...Deno.readDirSync(outside)], []);
  await Deno.remove(root, { recursive: true });
  await Deno.remove(outside, { recursive: true });
});

Deno.test("checkPlanState() refuses a plan of another state, told by lineage and root key (8)", () => {
  checkPlanState(plan(), { lineage: "l-1" }, "a.plan");
  checkPlanState(plan({ stateRootKey: "r1" }), { lineage: "l-1", rootKey: "r1" }, "a.plan");
  let r = exitOf(() => checkPlanState(plan(), { lineage: "l-2" }, "a.plan"));
  assert.equal(r.code, 8);
  assert.match(r.text, /made for state lineage l-1, made in "\/made\/here"/);
  r = exitOf(() =>
    checkPlanState(plan({ stateRootKey: "r1" }), { lineage: "l-1", rootKey: "r2" }, "a.plan")
  );
  assert.equal(r.code, 8);
  assert.match(r.text, /root key "r1"/);
});
