import assert from "node:assert/strict";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { permissionFlags } from "../lib/cli/permissions.ts";
import { runPravo, selfCommand } from "./child.ts";

Deno.test("selfCommand() from source is `deno run --quiet --config deno.json <the narrow flags> MAIN`", () => {
  const main = fileURLToPath(Deno.mainModule);
  const self = selfCommand("/srv/demo", ["/srv/policies/keep.cue"]);
  assert.equal(self.command, Deno.execPath());
  assert.deepEqual(self.prefix, [
    "run",
    "--quiet",
    "--config",
    `${dirname(main)}/deno.json`,
    ...permissionFlags({
      root: "/srv/demo",
      execPath: Deno.execPath(),
      projectDir: dirname(main),
      extraRead: ["/srv/policies/keep.cue"],
      allowRun: false,
    }),
    main,
  ]);
  assert.ok(!self.prefix.some((w) => w.startsWith("--allow-run")), "a child may run no program");
  assert.ok(!self.prefix.some((w) => w === "-A" || w === "--allow-all"));
});

Deno.test("runPravo() runs the prefix, then --json --no-color, then the tool's words, in the root", async () => {
  const root = await Deno.makeTempDir();
  const r = await runPravo(["state", "show", "a b; c"], {
    root,
    self: {
      command: Deno.execPath(),
      prefix: ["eval", "console.log(JSON.stringify([Deno.cwd(), ...Deno.args]))"],
    },
    timeoutMs: 60_000,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [
    await Deno.realPath(root),
    "--json",
    "--no-color",
    "state",
    "show",
    "a b; c",
  ]);
  assert.equal(r.timedOut || r.cancelled, false);
});

Deno.test("runPravo() ends the child on the timeout and on the signal", async () => {
  const root = await Deno.makeTempDir();
  const self = {
    command: Deno.execPath(),
    prefix: ["eval", "await new Promise((r) => setTimeout(r, 30000))"],
  };
  let started = Date.now();
  const t = await runPravo([], { root, self, timeoutMs: 300 });
  assert.ok(t.timedOut && !t.cancelled && t.code !== 0);
  assert.ok(Date.now() - started < 10_000);
  const abort = new AbortController();
  started = Date.now();
  setTimeout(() => abort.abort(), 300);
  const c = await runPravo([], { root, self, timeoutMs: 60_000, signal: abort.signal });
  assert.ok(c.cancelled && !c.timedOut && c.code !== 0);
  assert.ok(Date.now() - started < 10_000);
});
