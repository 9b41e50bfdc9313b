import assert from "node:assert/strict";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { permissionFlags } from "../lib/permissions/permissions.ts";
import { memoryFlags, runPravo, selfCommand } from "./child.ts";

Deno.test("selfCommand() from source is `deno run --quiet --v8-flags=<memory> --config deno.json <the narrow flags> MAIN`", () => {
  const main = fileURLToPath(Deno.mainModule);
  const self = selfCommand("/srv/demo", {
    memoryMiB: 2048,
    stateFiles: ["/var/lib/pravo/state.db", "/var/lib/pravo/state.db-wal"],
  });
  assert.equal(self.command, Deno.execPath());
  assert.deepEqual(self.prefix, [
    "run",
    "--quiet",
    "--v8-flags=--max-old-space-size=1024,--wasm-max-mem-pages=16384,--wasm-tiering-budget=1000000000,--max-semi-space-size=4,--fuzzing",
    "--config",
    `${dirname(main)}/deno.json`,
    ...permissionFlags({
      root: "/srv/demo",
      execPath: Deno.execPath(),
      projectDir: dirname(main),
      extraRead: ["/var/lib/pravo/state.db", "/var/lib/pravo/state.db-wal"],
      extraWrite: ["/var/lib/pravo/state.db", "/var/lib/pravo/state.db-wal"],
      allowRun: false,
    }),
    main,
  ]);
  // No policy file is readable: the children judge with the pinned content.
  assert.ok(
    self.prefix.some((w) =>
      w.startsWith("--allow-read=/srv/demo,") && !w.includes(".cue") && w.includes("state.db")
    ),
  );
  assert.ok(
    self.prefix.some((w) => w.startsWith("--allow-write=/srv/demo,/var/lib/pravo/state.db,")),
  );
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
  // Ended by the server's SIGTERM (the child has no listener), not by its
  // own end 30 s later, and without the SIGKILL after the grace.
  const t = await runPravo([], { root, self, timeoutMs: 300 });
  assert.ok(t.timedOut && !t.cancelled && !t.killed, JSON.stringify(t));
  assert.equal(t.signal, "SIGTERM");
  const abort = new AbortController();
  setTimeout(() => abort.abort(), 300);
  const c = await runPravo([], { root, self, timeoutMs: 60_000, signal: abort.signal });
  assert.ok(c.cancelled && !c.timedOut && !c.killed, JSON.stringify(c));
  assert.equal(c.signal, "SIGTERM");
});

Deno.test("memoryFlags() gives half to the JavaScript heap and half to WebAssembly (64 KiB pages)", () => {
  assert.equal(memoryFlags(2048), "--max-old-space-size=1024,--wasm-max-mem-pages=16384");
  assert.equal(memoryFlags(256), "--max-old-space-size=128,--wasm-max-mem-pages=2048");
});

Deno.test("runPravo() writes the pinned document to stdin, after --pinned-stdin as the first word", async () => {
  const root = await Deno.makeTempDir();
  const r = await runPravo(["validate"], {
    root,
    self: {
      command: Deno.execPath(),
      prefix: [
        "eval",
        "const t = await new Response(Deno.stdin.readable).text(); console.log(JSON.stringify([t, ...Deno.args]))",
      ],
    },
    timeoutMs: 60_000,
    pinned: '{"pinned":1}',
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [
    '{"pinned":1}',
    "--pinned-stdin",
    "--json",
    "--no-color",
    "validate",
  ]);
});

/**
 * A child (deno eval) that runs `onTerm` on SIGTERM; once it listens, it
 * prints "started" and makes the file `ready`, then waits 30 s.
 */
function listening(onTerm: string, ready: string) {
  return {
    command: Deno.execPath(),
    prefix: [
      "eval",
      `Deno.addSignalListener("SIGTERM", () => { ${onTerm} }); console.log("started"); ` +
      `Deno.writeTextFileSync(${JSON.stringify(ready)}, ""); ` +
      "await new Promise((r) => setTimeout(r, 30000))",
    ],
  };
}

/**
 * Runs `self` and cancels the call once the file `ready` exists: the child
 * is listening for SIGTERM then. (A timeout would race the child's start: a
 * SIGTERM before its listener ends it at once, on a loaded machine too.)
 */
async function stopWhenReady(
  self: { command: string; prefix: string[] },
  root: string,
  ready: string,
  graceMs: number,
) {
  const abort = new AbortController();
  const running = runPravo([], { root, self, timeoutMs: 120_000, graceMs, signal: abort.signal });
  let ended = false;
  running.finally(() => (ended = true)).catch(() => {});
  while (!ended && !(await Deno.stat(ready).then(() => true, () => false))) {
    await new Promise((r) => setTimeout(r, 20));
  }
  abort.abort();
  return await running;
}

Deno.test("runPravo() stops gracefully: SIGTERM, the grace period, then SIGKILL for a child that stays", async () => {
  const root = await Deno.makeTempDir();
  // A child that catches SIGTERM, says so, and ends: within the grace.
  const polite = listening('console.log("released"); Deno.exit(143);', `${root}/polite`);
  const p = await stopWhenReady(polite, root, `${root}/polite`, 20_000);
  assert.ok(p.cancelled && !p.killed, JSON.stringify(p));
  assert.equal(p.code, 143);
  assert.equal(p.stdout, "started\nreleased\n");
  // A child that ignores SIGTERM is killed once the grace is over.
  const stubborn = listening('console.log("ignored");', `${root}/stubborn`);
  const k = await stopWhenReady(stubborn, root, `${root}/stubborn`, 500);
  assert.ok(k.cancelled && k.killed, JSON.stringify(k));
  assert.equal(k.signal, "SIGKILL");
  assert.equal(k.stdout, "started\nignored\n");
});

Deno.test("runPravo() keeps the beginning of a flood on stdout and counts the rest", async () => {
  const root = await Deno.makeTempDir();
  const r = await runPravo([], {
    root,
    self: {
      command: Deno.execPath(),
      prefix: ["eval", 'await Deno.stdout.write(new TextEncoder().encode("x".repeat(300000)))'],
    },
    timeoutMs: 60_000,
    maxStdoutBytes: 1000,
  });
  assert.equal(r.stdout, "x".repeat(1000));
  assert.equal(r.stdoutBytes, 300000);
  assert.equal(r.stdoutCut, true);
});
