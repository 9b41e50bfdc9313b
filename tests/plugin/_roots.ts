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
 * what they cache.
 *
 * @module
 */

import { join } from "node:path";
import { makeRoot, pravo, type RunResult } from "../_pravo.ts";
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
export interface PluginRoot {
  root: string;
  env: Record<string, string>;
  run(args: string[], opts?: { stdin?: string }): Promise<RunResult>;
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
  const r: PluginRoot = {
    root,
    env,
    run: (args, o = {}) => pravo(root, args, { env, ...o }),
  };
  const init = await r.run(["init"]);
  if (init.code !== 0) throw new Error(`pravo init failed: ${init.stdout}${init.stderr}`);
  return r;
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
 * `services` (the provider's names for them: `cloudwatchlogs`, `ec2`) at `url`.
 */
export function awsProviderCue(url: string, name = "$aws", services = AWS_SERVICES): string {
  return `${name}: aws.#Provider & {
	region:                      "us-east-1"
	access_key:                  "test"
	secret_key:                  "test"
	skip_credentials_validation: true
	skip_requesting_account_id:  true
	skip_metadata_api_check:     "true"
	s3_use_path_style:           true
	endpoints: [{${services.map((s) => `${s}: "${url}"`).join(", ")}}]
}
`;
}
