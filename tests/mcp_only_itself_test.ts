/**
 * "Only itself": the MCP server runs pravo and no other program. The
 * permission flags of its children (lib/permissions/permissions.ts) allow running the
 * deno executable alone, so a shell is refused; and since under `deno run`
 * that executable could still `eval`, the server builds only fixed argument
 * lists in which an agent's value is never read as a flag or a command.
 */

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { permissionFlags } from "../lib/permissions/permissions.ts";
import { run } from "./_pravo.ts";
import {
  call,
  connect,
  makeRoot,
  processesWith,
  PROJECT,
  seedRoot,
  sleepyPlanned,
  text,
  waitFor,
} from "./mcp/_client.ts";

const PROBE = `
const tried: Record<string, string> = {};
async function attempt(name: string, command: string, args: string[]) {
  try {
    const r = await new Deno.Command(command, { args, stdout: "piped", stderr: "null" }).output();
    tried[name] = "ran: " + new TextDecoder().decode(r.stdout).trim();
  } catch (e) {
    tried[name] = (e as Error).name + ": " + (e as Error).message;
  }
}
await attempt("sh", "/bin/sh", ["-c", "touch sh-ran; echo sh"]);
await attempt("bash", "/bin/bash", ["-c", "touch bash-ran; echo bash"]);
await attempt("env", "/usr/bin/env", ["true"]);
await attempt("sh by name", "sh", ["-c", "echo sh"]);
await attempt("deno eval", Deno.execPath(), ["eval", "console.log(Deno.args[0])", "eval ran"]);
console.log(JSON.stringify(tried));
`;

/** What the root's probe.ts found it could run, under `flags`; asserts that it ran to the end. */
async function probe(root: string, flags: string[]): Promise<Record<string, string>> {
  const args = ["run", "--quiet", "--config", `${PROJECT}/deno.json`, ...flags, `${root}/probe.ts`];
  const out = await run(Deno.execPath(), args, { cwd: root });
  assert.equal(out.code, 0, out.stderr);
  return JSON.parse(out.stdout);
}

Deno.test("under the children's permission flags a shell or any other program is refused with NotCapable; only the deno executable itself may run", async () => {
  const root = await makeRoot({ "probe.ts": PROBE });
  const exec = Deno.execPath();
  // The flags mcp/child.ts gives a tool's process: no program may run at all.
  const flags = permissionFlags({ root, execPath: exec, projectDir: PROJECT, allowRun: false });
  assert.deepEqual(flags.filter((f) => f.startsWith("--allow-run")), []);
  const tried = await probe(root, flags);
  assert.equal(
    tried.sh,
    'NotCapable: Requires run access to "/bin/sh", run again with the --allow-run flag',
  );
  assert.match(tried.bash, /^NotCapable: Requires run access to "\/bin\/bash"/);
  assert.match(tried.env, /^NotCapable: Requires run access to "\/usr\/bin\/env"/);
  assert.match(tried["sh by name"], /^NotCapable: Requires run access to "sh"/);
  assert.ok(!existsSync(`${root}/sh-ran`) && !existsSync(`${root}/bash-ran`));
  // Not even the executable itself: `deno eval` is refused as well.
  assert.match(tried["deno eval"], /^NotCapable: Requires run access to /);
});

Deno.test("with plugin providers, the children's flags run exactly the pinned executables: not a shell, not deno eval, not one planted in the root", async () => {
  const { fakeMirror, FAKE_VERSION } = await import("./plugin/_roots.ts");
  const mirror = await fakeMirror();
  const pkg = `${mirror.dir}/example.com/pravo/fake/${FAKE_VERSION}/linux_amd64`;
  const pinnedExe = `${pkg}/terraform-provider-fake_v${FAKE_VERSION}`;
  const root = await makeRoot({
    "probe.ts": PROBE.replace(
      "console.log(JSON.stringify(tried));",
      `await attempt("pinned", ${JSON.stringify(pinnedExe)}, []);
await attempt("planted", Deno.cwd() + "/evil/terraform-provider-fake_v1.0.0", []);
console.log(JSON.stringify(tried));`,
    ),
  });
  await Deno.mkdir(`${root}/evil`);
  await Deno.writeTextFile(
    `${root}/evil/terraform-provider-fake_v1.0.0`,
    "#!/bin/sh\ntouch planted-ran\n",
  );
  await Deno.chmod(`${root}/evil/terraform-provider-fake_v1.0.0`, 0o755);
  const exec = Deno.execPath();
  // The flags mcp/child.ts gives a tool's process when the server pinned a provider.
  const flags = permissionFlags({
    root,
    execPath: exec,
    projectDir: PROJECT,
    allowRun: false,
    plugins: { providers: [{ executable: pinnedExe, packageDir: pkg }] },
  });
  assert.deepEqual(flags.filter((f) => f.startsWith("--allow-run")), [`--allow-run=${pinnedExe}`]);
  const tried = await probe(root, flags);
  assert.match(tried.sh, /^NotCapable: Requires run access to "\/bin\/sh"/);
  assert.match(tried["deno eval"], /^NotCapable: Requires run access to /);
  assert.match(tried.planted, /^NotCapable: Requires run access to /);
  assert.match(tried.pinned, /^ran: /, "the pinned executable may run");
  assert.ok(!existsSync(`${root}/planted-ran`) && !existsSync(`${root}/sh-ran`));
});

Deno.test("tool arguments that look like flags or shell are refused or passed as plain values, and no shell runs", async () => {
  const root = await seedRoot();
  const marker = `${root}/pwned`;
  const shell = `touch ${marker}`;
  const s = await connect(root, { script: true });
  try {
    assert.equal(existsSync(marker), false);
    const refused: [string, Record<string, unknown>, string][] = [
      ["pravo_state_show", { addr: "-C=/" }, 'addr "-C=/" is not a usable value'],
      ["pravo_dependents", { addr: "--eval" }, 'addr "--eval" is not a usable value'],
      ["pravo_show_plan", { planfile: "--eval" }, 'planfile "--eval" is not a usable value'],
      ["pravo_apply_plan", { planfile: "-auto-approve" }, "is not a usable value"],
      ["pravo_why", { addrs: ["base", "-C=/"] }, 'addrs "-C=/" is not a usable value'],
      ["pravo_schema", { types: ["--eval"] }, 'types "--eval" is not a usable value'],
      ["pravo_state_query", { expression: "-x; sh -c id" }, "is not a usable value"],
      ["pravo_validate", { tags: ["-x=1"] }, 'tag "-x=1" is not key=value'],
      ["pravo_validate", { tags: [`$(${shell})`] }, "is not key=value"],
      ["pravo_plan", { out: `../pwned` }, "is outside the root"],
      ["pravo_validate", { eval: "x" }, 'pravo_validate has no argument "eval"'],
      ["pravo_drift", { limit: "1; sh" }, "limit must be a whole number"],
      ["pravo_plan", { refresh: "--eval" }, "refresh must be one of age, expired, false, all"],
    ];
    for (const [tool, args, message] of refused) {
      const r = await call(s, tool, args);
      assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}`);
      assert.equal(r.structuredContent, undefined, `${tool} ${JSON.stringify(args)} ran something`);
      assert.ok(text(r).includes(message), `${tool}: ${text(r)}`);
    }
    // Values that pass the check reach pravo as one word each (or the value
    // of one --flag=), never through a shell: they name things that do not exist.
    const plain: [string, Record<string, unknown>][] = [
      ["pravo_state_query", { expression: `x; sh -c id; ${shell}` }],
      ["pravo_state_query", { expression: `$(${shell})` }],
      ["pravo_state_show", { addr: `base; ${shell}` }],
      ["pravo_why", { addrs: [`\`${shell}\``] }],
      ["pravo_schema", { types: [`random_integer && ${shell}`] }],
      ["pravo_validate", { tags: [`x=1; ${shell}`] }],
      ["pravo_plan", { replace: [`--eval=${shell}`] }],
      ["pravo_apply_plan", { planfile: `x.plan; ${shell}`, only: ["-C=/", "--eval"] }],
    ];
    for (const [tool, args] of plain) {
      const r = await call(s, tool, args);
      assert.ok(r.structuredContent, `${tool} ${JSON.stringify(args)}: ${text(r)}`);
      assert.ok([0, 1, 2, 3, 7, 64].includes(r.structuredContent.exit_code), text(r));
      assert.equal(existsSync(marker), false, `${tool} ${JSON.stringify(args)} ran a shell`);
    }
  } finally {
    await s.close();
  }
  assert.equal(existsSync(marker), false);
});

Deno.test("each child is `deno run --quiet --v8-flags=<memory> --config deno.json <the narrow flags> main.ts --pinned-stdin --json --no-color ...` (source mode), never a shell", async () => {
  const root = await sleepyPlanned(30);
  const s = await connect(root); // deno run -A main.ts mcp: the source
  try {
    const abort = new AbortController();
    const pending = call(s, "pravo_apply_plan", { planfile: "x.plan" }, { signal: abort.signal });
    pending.catch(() => {});
    await waitFor(() => processesWith(root).length > 0, 20_000, "the child to start");
    const children = processesWith(root);
    assert.equal(children.length, 1, JSON.stringify(children));
    const exec = Deno.execPath();
    assert.deepEqual(children[0].argv, [
      exec,
      "run",
      "--quiet",
      "--v8-flags=--max-old-space-size=1024,--wasm-max-mem-pages=16384,--wasm-tiering-budget=1000000000,--max-semi-space-size=4,--fuzzing",
      "--config",
      `${PROJECT}/deno.json`,
      ...permissionFlags({ root, execPath: exec, projectDir: PROJECT, allowRun: false }),
      `${PROJECT}/main.ts`,
      // The actor, the reason, the tags and the state come on stdin (lib/workspace/pinned.ts).
      "--pinned-stdin",
      "--json",
      "--no-color",
      "apply",
      "x.plan",
    ]);
    // The child's parent is the server, and the server runs nothing else.
    const stat = Deno.readTextFileSync(`/proc/${children[0].pid}/stat`);
    assert.equal(Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]), s.pid);
    abort.abort();
    await assert.rejects(pending);
    // The server gives it GRACE_MS (10 s) after SIGTERM, then kills it: wait longer than that.
    await waitFor(() => processesWith(root).length === 0, 30_000, "the child to end");
  } finally {
    await s.close();
  }
});
