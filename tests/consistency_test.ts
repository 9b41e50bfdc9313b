/**
 * The consistency traps of issue 12, through the real pravo: hints that
 * keep `-C` and `--state`, the actor when `$USER` is unset, and a local file
 * changed behind pravo's back seen by the next plan (refresh age zero).
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { makeRoot, pravo } from "./_pravo.ts";

const ROOT = `package demo

import lc "pravo.dev/providers/hashicorp/local"

$local: lc.#Provider

note: $local.#Resource.local_file & {filename: "note.txt", content: "hello\\n"}
`;

Deno.test("plan's and apply's hints keep -C and --state, quoted for the shell", async () => {
  const parent = await Deno.makeTempDir({ prefix: "pravo-test-" });
  const dir = `${parent}/my root`;
  await Deno.mkdir(dir);
  await Deno.writeTextFile(`${dir}/main.cue`, ROOT);
  const place = ["-C", "my root", "--state", "sqlite:st.db"];
  assert.equal((await pravo(parent, [...place, "init"])).code, 0);
  const plan = await pravo(parent, [...place, "plan", "--out", "x.plan"]);
  assert.equal(plan.code, 2, plan.stderr);
  const hint = "pravo -C 'my root' --state sqlite:st.db apply x.plan";
  assert.match(plan.stdout, /Apply exactly this plan with:\n {4}(.*)\n$/);
  assert.equal(plan.stdout.trimEnd().split("\n").at(-1)!.trim(), hint);
  // The line works as printed (pravo is a function of the test's shell here).
  const refused = await pravo(parent, [...place, "apply"]);
  assert.equal(refused.code, 64);
  assert.ok(
    refused.stderr.includes(
      "`pravo -C 'my root' --state sqlite:st.db plan --out FILE`, review it, and run " +
        "`pravo -C 'my root' --state sqlite:st.db apply FILE`",
    ),
    refused.stderr,
  );
  const applied = await pravo(parent, [...place, "apply", "x.plan"]);
  assert.equal(applied.code, 0, applied.stderr);
});

Deno.test("the actor is the user database's name when $USER, $LOGNAME and $PRAVO_ACTOR are unset", async () => {
  const dir = await makeRoot({ "main.cue": ROOT });
  const script = fileURLToPath(new URL("../scripts/pravo", import.meta.url));
  // The launcher's narrow permissions, and an environment without the user's name.
  const run = (args: string[]) =>
    new Deno.Command(script, {
      args: ["-C", dir, ...args],
      clearEnv: true,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", PRAVO_KEY: btoa("k".repeat(32)) },
      stdout: "piped",
      stderr: "piped",
    }).output();
  assert.equal((await run(["init"])).code, 0);
  assert.equal((await run(["apply", "-auto-approve"])).code, 0);
  const log = await run(["--json", "state", "log"]);
  assert.equal(log.code, 0, new TextDecoder().decode(log.stderr));
  const entries = JSON.parse(new TextDecoder().decode(log.stdout)).entries;
  const passwd = Deno.readTextFileSync("/etc/passwd").split("\n").map((l) => l.split(":"));
  const me = passwd.find((f) => Number(f[2]) === Deno.uid())![0];
  assert.equal(entries[0].actor, me);
  assert.notEqual(me, "unknown");
});

Deno.test("a local file changed behind pravo's back is seen by the next plan (refresh age 0s)", async () => {
  const dir = await makeRoot({ "main.cue": ROOT });
  assert.equal((await pravo(dir, ["init"])).code, 0);
  assert.equal((await pravo(dir, ["apply", "-auto-approve"])).code, 0);
  const clean = await pravo(dir, ["plan"]);
  assert.equal(clean.code, 0, clean.stdout);
  await Deno.writeTextFile(`${dir}/note.txt`, "edited\n");
  const plan = await pravo(dir, ["plan"]);
  assert.equal(plan.code, 2, plan.stdout + plan.stderr);
  assert.match(plan.stdout, /note must be replaced/);
  assert.match(plan.stdout, /content += "edited\\n" -> "hello\\n"/);
  const why = await pravo(dir, ["why", "note"]);
  assert.match(why.stdout, /read from the real world: its refresh age is 0s: every plan reads it/);
});
