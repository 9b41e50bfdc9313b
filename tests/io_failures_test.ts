/**
 * Failures of the disk and of the state file are diagnostics, not bugs: a
 * damaged `state.db`, a full disk, a read-only root. Each says what happened,
 * which file, and what to do, with no stack trace, and leaves nothing
 * half-written.
 *
 * The full-disk and read-only tests mount a small tmpfs or a read-only bind
 * mount, which needs root; as another user the read-only test removes the
 * write permission instead, and the full-disk test is skipped.
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { appliedRoot, pravo, type RunResult, SEED } from "./_pravo.ts";

const IS_ROOT = Deno.uid() === 0;

async function sh(cmd: string[]): Promise<boolean> {
  const out = await new Deno.Command(cmd[0], { args: cmd.slice(1), stderr: "null", stdout: "null" })
    .output().catch(() => undefined);
  return out?.success ?? false;
}

function noBug(r: RunResult) {
  assert.doesNotMatch(r.stderr, /This is a bug in pravo|internal error|\n\s+at /, r.stderr);
}

Deno.test("a damaged state.db: every command says the state store is damaged, which file, and what to do", async () => {
  const root = await appliedRoot({ "main.cue": SEED });
  const db = `${root}/.pravo/state.db`;
  // Damage the pages after the first (the schema stays readable, the tables do not).
  const bytes = await Deno.readFile(db);
  for (let i = 4096 + 8; i < bytes.length; i++) bytes[i] = 0x37;
  await Deno.writeFile(db, bytes);
  for (
    const args of [["state", "log"], ["state", "show", "base"], ["plan"], [
      "apply",
      "-auto-approve",
    ]]
  ) {
    const r = await pravo(root, args);
    assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
    noBug(r);
    assert.match(r.stderr, /Error: The state store is damaged/, args.join(" "));
    assert.ok(r.stderr.includes(db), "names the file");
    assert.match(r.stderr, /Restore it from a backup/);
    assert.match(r.stderr, /state\.db-wal/);
  }
  // Not a database at all.
  await Deno.writeTextFile(db, "not sqlite ".repeat(500));
  const r = await pravo(root, ["state", "log"]);
  assert.equal(r.code, 1);
  noBug(r);
  assert.match(r.stderr, /The state store is damaged/);
});

Deno.test({
  name:
    "a full disk: apply and plan --out say the disk is full, which file; nothing is half-written, and after freeing space apply works",
  ignore: !IS_ROOT,
  fn: async () => {
    const mnt = await Deno.makeTempDir({ prefix: "pravo-full-" });
    assert.ok(await sh(["mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", mnt]), "mount tmpfs");
    try {
      await Deno.writeTextFile(`${mnt}/main.cue`, SEED);
      assert.equal((await pravo(mnt, ["init"])).code, 0);
      const serial = () => {
        const db = new DatabaseSync(`${mnt}/.pravo/state.db`, { readOnly: true });
        try {
          assert.equal(db.prepare("PRAGMA integrity_check").get()?.integrity_check, "ok");
          return db.prepare("SELECT value FROM meta WHERE key = 'serial'").get()?.value;
        } finally {
          db.close();
        }
      };
      // Fill the disk but for a few kilobytes: enough to open the state, not to write it.
      let full = false;
      for (const leave of [60, 48, 40, 32, 24, 16, 8, 4, 0]) {
        await Deno.remove(`${mnt}/fill`).catch(() => {});
        await sh(["dd", "if=/dev/zero", `of=${mnt}/fill`, "bs=1k", "count=2000"]);
        await Deno.truncate(`${mnt}/fill`, (await Deno.stat(`${mnt}/fill`)).size - leave * 1024);
        const r = await pravo(mnt, ["apply", "-auto-approve"]);
        noBug(r);
        assert.notEqual(r.code, 0, r.stdout);
        if (/Error: The disk is full/.test(r.stderr)) {
          assert.ok(r.stderr.includes(`${mnt}/.pravo/state.db`), r.stderr);
          assert.match(r.stderr, /nothing is half-written/);
          full = true;
          break;
        }
        assert.match(r.stderr, /Cannot open the state store|The disk is full/, r.stderr);
      }
      assert.ok(full, "some fill level makes the transaction fail for want of space");
      assert.equal(serial(), "0", "nothing was committed");
      const p = await pravo(mnt, ["plan", "--out", "x.plan"]);
      noBug(p);
      if (p.code === 1 && /The disk is full/.test(p.stderr)) {
        assert.match(p.stderr, /No plan file was written/);
      }
      const left = [...Deno.readDirSync(mnt)].map((e) => e.name).filter((n) => n.includes("tmp"));
      assert.deepEqual(left, [], "no temporary file left behind");
      await Deno.remove(`${mnt}/fill`);
      const a = await pravo(mnt, ["apply", "-auto-approve"]);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(serial(), "1");
    } finally {
      await sh(["umount", mnt]);
      await Deno.remove(mnt, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test("a read-only root: the read commands work; a write says the file system is read-only", async () => {
  const root = await appliedRoot({ "main.cue": SEED });
  assert.equal((await pravo(root, ["plan", "--out", "x.plan"])).code, 0);
  let where = root;
  let undo: () => Promise<void>;
  if (IS_ROOT) {
    where = await Deno.makeTempDir({ prefix: "pravo-ro-" });
    assert.ok(await sh(["mount", "--bind", root, where]), "bind mount");
    assert.ok(await sh(["mount", "-o", "remount,bind,ro", where]), "remount read-only");
    undo = async () => {
      await sh(["umount", where]);
      await Deno.remove(where);
    };
  } else {
    assert.ok(await sh(["chmod", "-R", "a-w", root]));
    undo = async () => void await sh(["chmod", "-R", "u+w", root]);
  }
  try {
    for (
      const args of [
        ["state", "log"],
        ["state", "show", "base"],
        ["state", "locks"],
        ["state", "query", "serial"],
        ["state", "dependents", "base"],
        ["plan"],
        ["output"],
        ["why", "base"],
        ["drift", "--due"],
        ["validate"],
      ]
    ) {
      const r = await pravo(where, args);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
      noBug(r);
    }
    assert.match((await pravo(where, ["state", "log"])).stdout, /\+ base \(create\)/);
    const a = await pravo(where, ["apply", "-auto-approve", "--replace", "base"]);
    assert.equal(a.code, 1);
    noBug(a);
    assert.match(a.stderr, /Cannot write: the file system is read-only/);
    assert.match(a.stderr, /The state was not changed/);
  } finally {
    await undo();
  }
});
