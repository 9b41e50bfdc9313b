/**
 * The real AWS provider and an AWS you can run here, for the tests and the
 * benchmark of the plugin layer.
 *
 * - The provider: `hashicorp/aws` 5.100.0 from the Terraform filesystem
 *   mirror in `$PRAVO_TEST_TF_MIRROR` (`.ci/run` sets it), else the image's
 *   `/opt/tf-plugins`.
 * - The AWS: `moto_server` at `$PRAVO_TEST_MOTO` (`.ci/run` starts one on
 *   127.0.0.1), else one started here on a free 127.0.0.1 port.
 *
 * When either is missing, the tests fail with a message that names it:
 * they never skip in silence.
 *
 * @module
 */

import { join } from "node:path";
import type { Value } from "../../lib/plugin/mod.ts";

export const AWS_VERSION = "5.100.0";
const DEFAULT_MIRROR = "/opt/tf-plugins";

/** The mirror directory, or an error naming what is missing. */
export function mirrorDir(): string {
  const dir = Deno.env.get("PRAVO_TEST_TF_MIRROR") || DEFAULT_MIRROR;
  try {
    if (Deno.statSync(dir).isDirectory) return dir;
  } catch {
    // reported below
  }
  throw new Error(
    `The Terraform provider mirror is missing: ${dir} does not exist. Set PRAVO_TEST_TF_MIRROR to a ` +
      `filesystem mirror holding registry.terraform.io/hashicorp/aws/${AWS_VERSION}/linux_amd64 ` +
      "(the machine image ships one in /opt/tf-plugins).",
  );
}

/** The AWS provider executable in the mirror, or an error naming what is missing. */
export function awsProviderPath(): string {
  const path = join(
    mirrorDir(),
    "registry.terraform.io/hashicorp/aws",
    AWS_VERSION,
    "linux_amd64",
    `terraform-provider-aws_v${AWS_VERSION}_x5`,
  );
  try {
    if (Deno.statSync(path).isFile) return path;
  } catch {
    // reported below
  }
  throw new Error(
    `The AWS provider ${AWS_VERSION} is missing from the mirror: ${path} does not exist.`,
  );
}

/** A running moto_server; `await using` stops it as stop() does. */
export interface Moto extends AsyncDisposable {
  url: string;
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  try {
    const r = await fetch(`${url}/moto-api/`, { signal: AbortSignal.timeout(1000) });
    await r.body?.cancel();
    return r.status < 500;
  } catch {
    return false;
  }
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/**
 * The moto_server of `$PRAVO_TEST_MOTO`, or one started on a free port
 * (stopped by `stop()`); an error names what is missing.
 */
export async function moto(): Promise<Moto> {
  const given = Deno.env.get("PRAVO_TEST_MOTO");
  if (given) {
    if (!(await answers(given))) {
      throw new Error(
        `moto_server does not answer at PRAVO_TEST_MOTO=${given}: start it, or unset the variable.`,
      );
    }
    const stop = () => Promise.resolve();
    return { url: given, stop, [Symbol.asyncDispose]: stop };
  }
  const port = freePort();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("moto_server", {
      args: ["-H", "127.0.0.1", "-p", String(port)],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
  } catch (e) {
    throw new Error(
      `moto_server is missing (${
        (e as Error).message
      }): install moto[server] (pip install 'moto[server]') ` +
        "or set PRAVO_TEST_MOTO to a running one.",
    );
  }
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  while (!(await answers(url))) {
    if (Date.now() > until) {
      child.kill("SIGKILL");
      await child.status;
      throw new Error(`moto_server did not answer on ${url} within 30 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // gone
    }
    await child.status;
  };
  return { url, stop, [Symbol.asyncDispose]: stop };
}

/** The AWS provider's configuration that points every endpoint used here at moto. */
export function awsConfig(url: string, withEndpoints = true): Record<string, Value> {
  const config: Record<string, Value> = {
    region: "us-east-1",
    access_key: "test",
    secret_key: "test",
    skip_credentials_validation: true,
    skip_requesting_account_id: true,
    skip_metadata_api_check: "true",
    s3_use_path_style: true,
  };
  if (withEndpoints) {
    config.endpoints = [{ s3: url, iam: url, sts: url, sqs: url, dynamodb: url }];
  }
  return config;
}

/**
 * {@link awsConfig} as Terraform's `provider "aws"` block: the endpoints of
 * `services` set to the HCL expression `endpoint` (`var.endpoint`, or a
 * quoted URL), `region` an HCL expression (a quoted us-east-1 unless told),
 * and an `alias` and more of the block's body when given. The one source of
 * the moto provider for the Terraform configurations of the tests and
 * benchmarks.
 */
export function awsProviderHcl(opts: {
  endpoint: string;
  services: string[];
  region?: string;
  alias?: string;
  body?: string;
}): string {
  const { endpoints: _, ...config } = awsConfig("", false);
  const lines: [string, string][] = [
    ...(opts.alias ? [["alias", JSON.stringify(opts.alias)] as [string, string]] : []),
    ...Object.entries(config).map(([k, v]): [string, string] =>
      k === "region" && opts.region ? [k, opts.region] : [k, JSON.stringify(v)]
    ),
  ];
  const pad = (pairs: [string, string][], indent: string) => {
    const width = Math.max(...pairs.map(([k]) => k.length));
    return pairs.map(([k, v]) => `${indent}${k.padEnd(width)} = ${v}`).join("\n");
  };
  const endpoints = pad(opts.services.map((s) => [s, opts.endpoint]), "    ");
  const body = opts.body ? `\n${opts.body.replace(/\n*$/, "\n")}` : "";
  return `provider "aws" {\n${pad(lines, "  ")}\n\n  endpoints {\n${endpoints}\n  }\n${body}}\n`;
}

/**
 * The `aws` CLI against moto at `url` (region us-east-1 unless told
 * another, test keys), its JSON answer parsed.
 */
export async function awsCli(
  url: string,
  args: string[],
  opts: { region?: string } = {},
  // deno-lint-ignore no-explicit-any
): Promise<any> {
  const region = opts.region ?? "us-east-1";
  const out = await new Deno.Command("aws", {
    args: ["--endpoint-url", url, "--region", region, "--output", "json", ...args],
    env: {
      AWS_ACCESS_KEY_ID: "test",
      AWS_SECRET_ACCESS_KEY: "test",
      AWS_DEFAULT_REGION: region,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`aws ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  const text = new TextDecoder().decode(out.stdout).trim();
  return text ? JSON.parse(text) : {};
}
