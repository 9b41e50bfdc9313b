/**
 * Test helpers: run the real pravo program in a root (or any program, or
 * pravo on a terminal), write roots, make applied roots, read their state
 * and hold its lock.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { openStore } from "../lib/state/open.ts";

export const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Written to the program's standard input, which is then closed; without it, stdin is null. */
  stdin?: string;
}

/** Runs `command ARGS` as a real process: its exit code and what it wrote. */
export async function run(
  command: string,
  args: string[],
  opts: RunOptions = {},
): Promise<RunResult> {
  const child = new Deno.Command(command, {
    args,
    cwd: opts.cwd,
    env: opts.env,
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** Runs `pravo ARGS` as a real process in `root`. */
export function pravo(
  root: string,
  args: string[],
  opts: { env?: Record<string, string>; stdin?: string } = {},
): Promise<RunResult> {
  return run(Deno.execPath(), ["run", "-A", "--quiet", MAIN, "--no-color", ...args], {
    cwd: root,
    env: { PRAVO_ACTOR: "test", ...opts.env },
    stdin: opts.stdin,
  });
}

/**
 * Runs `pravo ARGS` in `root` on a terminal (util-linux `script` gives it
 * one), answering `answer` on it: what the terminal showed, without carriage
 * returns, and a last line `exit=N`.
 */
export async function onTerminal(
  root: string,
  args: string[],
  opts: { answer: string; actor?: string },
): Promise<string> {
  const words = [Deno.execPath(), "run", "-A", "--quiet", MAIN, "--no-color", ...args];
  const quoted = words.map((w) => `'${w.replaceAll("'", "'\\''")}'`).join(" ");
  const r = await run("/usr/bin/script", ["-qec", `${quoted}; echo "exit=$?"`, "/dev/null"], {
    cwd: root,
    env: { PRAVO_ACTOR: opts.actor ?? "test" },
    stdin: opts.answer + "\n",
  });
  return r.stdout.replaceAll("\r", "");
}

/** A new temporary root holding `files`. */
export async function makeRoot(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "pravo-test-" });
  await writeFiles(dir, files);
  return dir;
}

export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
}

/** What `await using` takes to remove `path` and all below it when the block ends. */
export function removing(path: string): AsyncDisposable {
  return { [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** The seed page's root. */
export const SEED = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
`;

/**
 * The files of a CUE package `pets`, by name: `#Pet`, two pets on the
 * provider its caller gives (the second named after the first), and the
 * number of words they are named with.
 */
export const PETS_PACKAGE: Record<string, string> = {
  "pets.cue": `package pets

import rnd "pravo.dev/providers/hashicorp/random"

// Two pets: the second named after the first.
#Pet: {
	#provider: rnd.#Provider
	#var: {prefix: string}
	pet: #provider.#Resource.random_pet & {prefix: #var.prefix}
	tag: #provider.#Resource.random_pet & {prefix: pet.id, length: #Words}
}
`,
  "words.cue": "package pets\n\n#Words: 2\n",
};

/** `files` put in the folder `dir`: their names prefixed with `dir/`. */
export function inFolder(dir: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([name, text]) => [`${dir}/${name}`, text]));
}

/** `pravo init` and `pravo apply -auto-approve` (with `flags`) in `root`, both asserted to succeed. */
export async function initApply(root: string, flags: string[] = []): Promise<string> {
  assert.equal((await pravo(root, ["init", ...flags])).code, 0);
  const a = await pravo(root, ["apply", "-auto-approve", ...flags]);
  assert.equal(a.code, 0, a.stdout + a.stderr);
  return root;
}

/** A new temporary root holding `files`, initialised and applied (with `flags`). */
export async function appliedRoot(
  files: Record<string, string>,
  flags: string[] = [],
): Promise<string> {
  return await initApply(await makeRoot(files), flags);
}

/** What `pravo validate --json` says of the seed page's root (keys in the order pravo writes them). */
export const SEED_VALID = {
  calls: 0,
  data_sources: 0,
  ephemeral: 0,
  outputs: 0,
  providers: 1,
  resources: 1,
  valid: true,
};

/** A root with a resource whose creation takes `seconds`: for timeouts and cancellation. */
export const SLEEPY = (seconds: number) =>
  `package slow

import tm "pravo.dev/providers/hashicorp/time"

$time: tm.#Provider

nap: $time.#Resource.time_sleep & {create_duration: "${seconds}s"}
`;

/**
 * A new root whose resource takes `seconds` to create, after `pravo init`,
 * with its plan saved in x.plan: an apply_plan call that runs that long.
 */
export async function sleepyPlanned(seconds: number): Promise<string> {
  const root = await makeRoot({ "main.cue": SLEEPY(seconds) });
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["plan", "--out", "x.plan"])).code, 2);
  return root;
}

/** A new root holding the seed page's main.cue, after `pravo init`. */
export async function seedRoot(files: Record<string, string> = {}): Promise<string> {
  const root = await makeRoot({ "main.cue": SEED, ...files });
  const init = await pravo(root, ["init"]);
  if (init.code !== 0) throw new Error(`pravo init failed: ${init.stderr}`);
  return root;
}

/** An approver key pair in a folder of its own; `await using` removes the folder. */
export interface ApproverKey {
  /** The private key's path. */
  key: string;
  /** The public key's path. */
  pub: string;
  /** The folder that holds both. */
  dir: string;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * A new approver key pair, made by `pravo approver-key` in a folder of its
 * own outside every root: the private key's path and the public key's.
 */
export async function approverKey(): Promise<ApproverKey> {
  const dir = await Deno.makeTempDir({ prefix: "pravo-approver-" });
  await Deno.mkdir(`${dir}/elsewhere`); // the directory it runs in: not where the key goes
  const r = await pravo(`${dir}/elsewhere`, ["approver-key", `${dir}/op`]);
  if (r.code !== 0) throw new Error(`pravo approver-key failed: ${r.stderr}`);
  return {
    key: `${dir}/op`,
    pub: `${dir}/op.pub`,
    dir,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** The root's records in its default (SQLite) state, by address. */
export async function records(root: string) {
  const store = await openStore({ root, state: undefined });
  try {
    return new Map((await store.listRecords()).map((r) => [r.address, r]));
  } finally {
    await store.close();
  }
}

/** A state store, as `openStore` opens it. */
export type Store = Awaited<ReturnType<typeof openStore>>;

/** The lock another process holds: "bob"'s, for a long apply, taken at once or not at all. */
const BOB = { actor: "bob", reason: "long apply", command: "apply", timeoutMs: 0 };

/**
 * Runs `fn` while `store`'s lock is held as another process would hold it
 * (actor "bob", a long apply); releases the lock after, and leaves the store
 * open.
 */
export async function whileLocked(store: Store, fn: () => Promise<void>): Promise<void> {
  const lock = await store.acquireLock(BOB);
  try {
    await fn();
  } finally {
    await store.releaseLock(lock);
  }
}

/** `field` of each node of a JSON document's `nodes`, by address. */
export function byAddress(nodes: { address: string }[], field: string): Record<string, unknown> {
  return Object.fromEntries(
    nodes.map((n) => [n.address, (n as Record<string, unknown>)[field]]),
  );
}

/** A root of `n` local files, `out/f0.txt`...: real-world effects a test can count. */
export function fileRoot(n: number, pkg = "crash"): string {
  const lines = [
    `package ${pkg}`,
    "",
    'import loc "pravo.dev/providers/hashicorp/local"',
    "",
    "$local: loc.#Provider",
    "",
  ];
  for (let i = 0; i < n; i++) {
    lines.push(
      `f${i}: $local.#Resource.local_file & {filename: "out/f${i}.txt", content: "file ${i}"}`,
    );
  }
  return lines.join("\n") + "\n";
}

/** How many `.txt` files a directory holds (0 when it does not exist). */
export async function countFiles(dir: string): Promise<number> {
  let n = 0;
  try {
    for await (const e of Deno.readDir(dir)) if (e.name.endsWith(".txt")) n++;
  } catch {
    return 0;
  }
  return n;
}
