/**
 * Roots that use plugin providers, for tests through the real pravo:
 *
 * - the fake provider (`fake_provider.ts`) packaged in a Terraform
 *   filesystem mirror of its own, as `example.com/pravo/fake` 1.0.0: a
 *   small executable script that runs it with Deno and counts its starts;
 * - the real `hashicorp/aws` 5.100.0 from the image's mirror (`_aws.ts`).
 *
 * Each root gets a cache folder of its own (`XDG_CACHE_HOME`: the plugin
 * cache, file hashes and the schema cache), so that tests do not share
 * what they cache. A root is removed when disposed of (`await using`).
 *
 * And what the tests on those roots do alike: pravo through scripts/pravo
 * (`script`), the nodes of a plan (`planNodes`), the AWS provider's
 * configuration on moto (`awsProviderCue`), one flow on each state store
 * (`testOnEachStore`).
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRoot, pravo, type RunResult } from "../_pravo.ts";
import { runScript } from "../_script.ts";
import { FAKE, PROJECT } from "./_fake.ts";
import { mirrorDir } from "./_aws.ts";

export const FAKE_SOURCE = "example.com/pravo/fake";
export const FAKE_VERSION = "1.0.0";

/**
 * A mirror holding the fake provider; its starts are counted in `starts`,
 * and what it does is in `events` (see `event` in fake_provider.ts).
 */
export async function fakeMirror(): Promise<
  { dir: string; starts: string; state: string; events: string }
> {
  const dir = await Deno.makeTempDir({ prefix: "pravo-fake-mirror-" });
  const pkg = join(dir, "example.com/pravo/fake", FAKE_VERSION, "linux_amd64");
  await Deno.mkdir(pkg, { recursive: true });
  const starts = join(dir, "starts.log");
  const state = join(dir, "things.json");
  const events = join(dir, "events.log");
  const exe = join(pkg, `terraform-provider-fake_v${FAKE_VERSION}`);
  await Deno.writeTextFile(
    exe,
    `#!/bin/sh\necho start >> '${starts}'\ncd '${PROJECT}' || exit 1\n` +
      `FAKE_PROVIDER_STATE='${state}' FAKE_PROVIDER_EVENTS='${events}' ` +
      `exec '${Deno.execPath()}' run -A --quiet '${FAKE}' normal\n`,
  );
  await Deno.chmod(exe, 0o755);
  return { dir, starts, state, events };
}

/** How many times the fake provider of a mirror started. */
export async function fakeStarts(m: { starts: string }): Promise<number> {
  try {
    return (await Deno.readTextFile(m.starts)).split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** A root that requires a plugin provider from a mirror; `pravo init` done. */
export interface PluginRoot extends AsyncDisposable {
  root: string;
  env: Record<string, string>;
  run(args: string[], opts?: { stdin?: string }): Promise<RunResult>;
  /** As run(), failing the test with the output unless pravo exits `code`. */
  expect(args: string[], code?: number): Promise<RunResult>;
}

/** Makes a root with `files`, requiring `source` at `version` from `mirror`, and runs init. */
export async function pluginRoot(
  files: Record<string, string>,
  opts: { source: string; version: string; mirror: string; env?: Record<string, string> },
): Promise<PluginRoot> {
  const root = await makeRoot({
    ...files,
    "pravo.jsonc": JSON.stringify({
      providers: { [opts.source]: opts.version },
      provider_mirrors: [opts.mirror],
    }),
  });
  const cache = await Deno.makeTempDir({ prefix: "pravo-cache-" });
  const env = { XDG_CACHE_HOME: cache, ...opts.env };
  const run: PluginRoot["run"] = (args, o = {}) => pravo(root, args, { env, ...o });
  const r: PluginRoot = {
    root,
    env,
    run,
    expect: async (args, code = 0) => {
      const ran = await run(args);
      assert.equal(ran.code, code, `pravo ${args.join(" ")}: ${ran.stdout}${ran.stderr}`);
      return ran;
    },
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
  const init = await r.run(["init"]);
  if (init.code !== 0) throw new Error(`pravo init failed: ${init.stdout}${init.stderr}`);
  return r;
}

/** The start of a root on the fake provider: its package, import and `$fake`. */
export const FAKE_HEADER = `package demo

import fake "pravo.dev/providers/pravo/fake"

$fake: fake.#Provider & {endpoint: "http://fake.example"}
`;

/** A root on the fake provider and the mirror it comes from; disposing of it removes both. */
export interface FakeRoot extends PluginRoot {
  mirror: Awaited<ReturnType<typeof fakeMirror>>;
}

/** Makes a root with `files` on the fake provider from a mirror of its own, and runs init. */
export async function fakeRoot(files: Record<string, string>): Promise<FakeRoot> {
  const mirror = await fakeMirror();
  const r = await pluginRoot(files, {
    source: FAKE_SOURCE,
    version: FAKE_VERSION,
    mirror: mirror.dir,
  });
  return {
    ...r,
    mirror,
    [Symbol.asyncDispose]: async () => {
      await r[Symbol.asyncDispose]();
      await Deno.remove(mirror.dir, { recursive: true });
    },
  };
}

/**
 * `pravo plan --json` in the root, failing the test unless it exits `code`
 * (2: changes): the plan's node at an address.
 */
export async function planNodes(
  r: PluginRoot,
  code = 2,
  // deno-lint-ignore no-explicit-any
): Promise<(address: string) => any> {
  const doc = JSON.parse((await r.expect(["plan", "--json"], code)).stdout);
  return (address) => doc.nodes.find((n: { address: string }) => n.address === address);
}

/** What pravo run through scripts/pravo gave: its exit code, and stdout and stderr as one text. */
export interface Scripted {
  code: number;
  out: string;
}

/**
 * pravo through scripts/pravo (its narrow permissions) in the root, as
 * `actor`, without colours.
 */
export async function script(
  r: { root: string; env: Record<string, string> },
  args: string[],
  actor: string,
): Promise<Scripted> {
  const env = { ...r.env, PRAVO_ACTOR: actor, NO_COLOR: "1" };
  const ran = await runScript(r.root, args, { env });
  return { code: ran.code, out: ran.stdout + ran.stderr };
}

/** A root on the real AWS provider from the image's mirror. */
export function awsRoot(
  files: Record<string, string>,
  env: Record<string, string> = {},
): Promise<PluginRoot> {
  return pluginRoot(files, {
    source: "hashicorp/aws",
    version: "5.100.0",
    mirror: mirrorDir(),
    env,
  });
}

/** The services whose endpoints `awsProviderCue` points at moto unless told others. */
export const AWS_SERVICES = ["s3", "iam", "sts", "sqs", "dynamodb"];

/**
 * The provider configuration of a root on moto: the endpoint of each of
 * `services` (the provider's names for them: `cloudwatchlogs`, `ec2`) at
 * `url`. With no `url`, the test keys alone, for what the provider computes
 * without calling AWS.
 */
export function awsProviderCue(
  url: string | undefined,
  name = "$aws",
  services = AWS_SERVICES,
): string {
  const moto = url === undefined ? "" : `
	s3_use_path_style:           true
	endpoints: [{${services.map((s) => `${s}: "${url}"`).join(", ")}}]`;
  return `${name}: aws.#Provider & {
	region:                      "us-east-1"
	access_key:                  "test"
	secret_key:                  "test"
	skip_credentials_validation: true
	skip_requesting_account_id:  true
	skip_metadata_api_check:     "true"${moto}
}
`;
}

/** The PostgreSQL server of `$PRAVO_TEST_PG` (`.ci/run` starts one), or "" when none is named. */
export const PG = Deno.env.get("PRAVO_TEST_PG") ?? "";

/** Where a root's state is kept. */
export type Store = "sqlite" | "postgres";

/** The environment that keeps a root's state on `store`: on PostgreSQL, under the root key `key`. */
export function stateEnv(store: Store, key: string): Record<string, string> {
  return store === "postgres"
    ? { PRAVO_STATE: `${PG}${PG.includes("?") ? "&" : "?"}root=${key}` }
    : {};
}

/**
 * Registers `flow` as two tests, on a SQLite state and on a PostgreSQL
 * one, named by `name`; the PostgreSQL one is ignored, and `file` says so,
 * when `$PRAVO_TEST_PG` names no server.
 */
export function testOnEachStore(
  flow: (store: Store) => Promise<void>,
  opts: { file: string; name: (store: "SQLite" | "PostgreSQL") => string },
): void {
  if (PG === "") {
    console.log(
      `${opts.file}: the PostgreSQL test skipped: PRAVO_TEST_PG names no server (.ci/run starts one)`,
    );
  }
  for (const [store, label] of [["sqlite", "SQLite"], ["postgres", "PostgreSQL"]] as const) {
    Deno.test({
      name: opts.name(label),
      ignore: store === "postgres" && PG === "",
      sanitizeResources: false,
      sanitizeOps: false,
      fn: () => flow(store),
    });
  }
}
