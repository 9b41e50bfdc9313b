/**
 * No provider process outlives pravo, however pravo ends; and under pravo's
 * narrow Deno permissions, the provider still gets the user's environment
 * without pravo's key. `_host.ts` stands in for pravo.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { GRPC_ENV_VARS } from "../../lib/plugin/mod.ts";
import { gone, PROJECT } from "./_fake.ts";

const HOST = fileURLToPath(new URL("./_host.ts", import.meta.url));

interface Host {
  child: Deno.ChildProcess;
  /** The provider's pid, once the host printed it. */
  pid: number;
  /** Everything the host printed, once it exited. */
  done: Promise<{ code: number; signal: Deno.Signal | null; stdout: string; stderr: string }>;
}

/** Runs the host and waits for it to print the provider's pid. */
async function host(
  args: string[],
  opts: { flags?: string[]; env?: Record<string, string> } = {},
): Promise<Host> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...(opts.flags ?? ["-A"]), HOST, ...args],
    cwd: PROJECT,
    env: opts.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const dec = new TextDecoder();
  let out = "";
  let err = "";
  const reader = child.stdout.getReader();
  const errDone = (async () => {
    for await (const c of child.stderr) err += dec.decode(c);
  })();
  while (!/PID \d+\n/.test(out)) {
    const r = await reader.read();
    if (r.done) break;
    out += dec.decode(r.value);
  }
  const m = out.match(/PID (\d+)\n/);
  const rest = (async () => {
    while (true) {
      const r = await reader.read();
      if (r.done) break;
      out += dec.decode(r.value);
    }
  })();
  const done = (async () => {
    const s = await child.status;
    await rest;
    await errDone;
    return { code: s.code, signal: s.signal, stdout: out, stderr: err };
  })();
  if (!m) {
    const d = await done;
    throw new Error(`the host printed no provider pid (exit ${d.code}):\n${d.stdout}\n${d.stderr}`);
  }
  return { child, pid: Number(m[1]), done };
}

for (const mode of ["exit", "throw", "reject", "close"]) {
  Deno.test(`a provider does not outlive pravo when pravo ends by ${mode}`, async () => {
    const h = await host([mode]);
    const d = await h.done;
    assert.equal(d.code, mode === "exit" || mode === "close" ? 0 : 1, d.stderr);
    assert.ok(await gone(h.pid), `provider ${h.pid} still runs after the host ended by ${mode}`);
  });
}

for (const [sig, code] of [["SIGTERM", 143], ["SIGINT", 130], ["SIGHUP", 129]] as const) {
  Deno.test(`a provider does not outlive pravo when pravo gets ${sig}`, async () => {
    const h = await host(["wait"]);
    // Wait until the host is in its wait, with the signal handlers set.
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    h.child.kill(sig);
    const d = await h.done;
    assert.equal(d.code, code, d.stderr);
    assert.ok(await gone(h.pid), `provider ${h.pid} still runs after the host got ${sig}`);
  });
}

Deno.test("under pravo's narrow permissions the provider inherits the environment, with pravo's variables emptied", async () => {
  // The grant a pravo that runs providers needs beyond its own: running the
  // provider, read and write of a socket directory, and the connection to
  // the one socket path there.
  const dir = await Deno.makeTempDir({ prefix: "pravo-sockets-" });
  const socket = `${dir}/fake.sock`;
  const h = await host([
    "env",
    "AWS_REGION",
    "PRAVO_KEY",
    "PRAVO_STATE",
    "DENO_AUTH_TOKENS",
    "HOME",
  ], {
    flags: [
      "--no-prompt",
      "--allow-read",
      `--allow-write=${dir}`,
      `--allow-net=unix:${socket}`,
      `--allow-run=${Deno.execPath()}`,
      // What pravo reads; not AWS_REGION: pravo never reads it, it only passes it on.
      `--allow-env=PRAVO_KEY,PRAVO_STATE,PRAVO_TEST_SOCKET,HOME,TMPDIR,TF_LOG,TF_LOG_PROVIDER,TF_LOG_SDK,${
        GRPC_ENV_VARS.join(",")
      }`,
    ],
    env: {
      AWS_REGION: "eu-north-1",
      PRAVO_KEY: "c2VjcmV0LWtleQ==",
      PRAVO_STATE: "postgres://u:pw@db/x",
      DENO_AUTH_TOKENS: "tok@example.com",
      PRAVO_TEST_SOCKET: socket,
    },
  });
  const d = await h.done;
  assert.equal(d.code, 0, d.stderr);
  const values = JSON.parse(d.stdout.split("\n").find((l) => l.startsWith("{")) ?? "null");
  assert.equal(values.AWS_REGION, "eu-north-1");
  assert.equal(values.PRAVO_KEY, "", "the key's value never reaches the provider");
  assert.equal(values.PRAVO_STATE, "");
  assert.equal(values.DENO_AUTH_TOKENS, "");
  assert.ok(values.HOME);
  assert.ok(await gone(h.pid));
  assert.deepEqual([...Deno.readDirSync(dir)], [], "the socket is removed on close");
  await Deno.remove(dir, { recursive: true });
});
