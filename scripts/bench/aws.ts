/**
 * pravo and Terraform side by side on the same AWS root (the root of
 * `examples/aws`: a bucket with versioning and a policy, an IAM role with a
 * policy attached, an SQS queue and a DynamoDB table), with the same
 * provider (`hashicorp/aws` 5.100.0 from the same filesystem mirror:
 * Terraform reads it through `TF_CLI_CONFIG_FILE`) against the same
 * moto_server: plan (the first, with nothing applied), apply, a no-op plan
 * and destroy, each run on fresh names, the tools interleaved. Prints the
 * medians (and ranges) of N runs, and where pravo's time goes (its
 * `PRAVO_TIMINGS` report: CUE, provider start, schema, configuration and
 * provider calls).
 *
 *   deno run -A scripts/bench/aws.ts [--runs N] [--moto URL]
 *
 * pravo runs from the source with all permissions (to read PRAVO_TIMINGS);
 * through scripts/pravo a command that may start providers costs one more
 * short Deno start (~0.1 s) to list the executables it may run. Terraform's
 * `init` and pravo's are done once per tool and root, and not counted.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { awsProviderHcl, mirrorDir, moto } from "../../tests/plugin/_aws.ts";
import { terraformEnv } from "../../tests/_terraform.ts";
import { V8_FLAGS } from "../../lib/cli/v8_flags.ts";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "3" }, moto: { type: "string" } },
});
const RUNS = Number(values.runs);
const PROJECT = fileURLToPath(new URL("../..", import.meta.url));
const MAIN = join(PROJECT, "main.ts");
const EXAMPLE = join(PROJECT, "examples/aws/main.cue");

if (values.moto) Deno.env.set("PRAVO_TEST_MOTO", values.moto);
const server = await moto();
const MIRROR = mirrorDir();

const HCL = (url: string) => `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.100" }
  }
}

variable "suffix" { type = string }

${
  awsProviderHcl({
    endpoint: JSON.stringify(url),
    services: ["s3", "iam", "sts", "sqs", "dynamodb"],
  })
}
resource "aws_s3_bucket" "logs" {
  bucket = "pravo-logs-\${var.suffix}"
  tags   = { team = "platform" }
}

resource "aws_s3_bucket_versioning" "logs_versioning" {
  bucket = aws_s3_bucket.logs.id
  versioning_configuration { status = "Enabled" }
}

resource "aws_s3_bucket_policy" "logs_policy" {
  bucket = aws_s3_bucket.logs.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid       = "DenyInsecureTransport"
      Effect    = "Deny"
      Principal = "*"
      Action    = "s3:*"
      Resource  = [aws_s3_bucket.logs.arn, "\${aws_s3_bucket.logs.arn}/*"]
      Condition = { Bool = { "aws:SecureTransport" = "false" } }
    }]
  })
}

resource "aws_iam_role" "app" {
  name = "pravo-app-\${var.suffix}"
  assume_role_policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Principal = { Service = "lambda.amazonaws.com" }, Action = "sts:AssumeRole" }]
  })
}

resource "aws_iam_policy" "read_jobs" {
  name = "pravo-read-jobs-\${var.suffix}"
  policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = ["sqs:ReceiveMessage", "sqs:DeleteMessage"], Resource = aws_sqs_queue.jobs.arn }]
  })
}

resource "aws_iam_role_policy_attachment" "app_read_jobs" {
  role       = aws_iam_role.app.name
  policy_arn = aws_iam_policy.read_jobs.arn
}

resource "aws_sqs_queue" "jobs" {
  name                      = "pravo-jobs-\${var.suffix}"
  message_retention_seconds = 86400
}

resource "aws_dynamodb_table" "sessions" {
  name         = "pravo-sessions-\${var.suffix}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"
  attribute {
    name = "id"
    type = "S"
  }
}
`;

interface Run {
  ms: number;
  code: number;
  out: string;
  timings?: Record<string, number>;
}

async function exec(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Run> {
  const t0 = performance.now();
  const out = await new Deno.Command(cmd, { args, cwd, env, stdout: "piped", stderr: "piped" })
    .output();
  const ms = performance.now() - t0;
  const stderr = new TextDecoder().decode(out.stderr);
  const line = stderr.split("\n").find((l) => l.startsWith('{"pravo_timings"'));
  return {
    ms,
    code: out.code,
    out: new TextDecoder().decode(out.stdout) + stderr,
    timings: line ? JSON.parse(line).pravo_timings : undefined,
  };
}

function expect(r: Run, codes: number[], what: string): Run {
  if (!codes.includes(r.code)) throw new Error(`${what} exited ${r.code}:\n${r.out.slice(-3000)}`);
  return r;
}

const work = await Deno.makeTempDir({ prefix: "pravo-bench-aws-" });
const pravoRoot = join(work, "pravo");
const tfRoot = join(work, "terraform");
await Deno.mkdir(pravoRoot);
await Deno.mkdir(tfRoot);
await Deno.writeTextFile(join(pravoRoot, "main.cue"), await Deno.readTextFile(EXAMPLE));
await Deno.writeTextFile(
  join(pravoRoot, "pravo.jsonc"),
  JSON.stringify({ providers: { "hashicorp/aws": "~> 5.100" }, provider_mirrors: [MIRROR] }),
);
await Deno.writeTextFile(join(tfRoot, "main.tf"), HCL(server.url));

const base = Deno.env.toObject();
const pravoEnv = {
  ...base,
  XDG_CACHE_HOME: join(work, "cache"),
  PRAVO_ACTOR: "bench",
  PRAVO_TIMINGS: "1",
  NO_COLOR: "1",
};
const tfEnv = { ...base, ...await terraformEnv(work), HOME: base.HOME ?? work };
const deno = Deno.execPath();
/** pravo with the tags; a saved plan holds its own and takes none (`planFile`). */
const pravo = (args: string[], suffix: string, planFile?: string) =>
  exec(
    deno,
    [
      "run",
      "-A",
      "--quiet",
      `--v8-flags=${V8_FLAGS.join(",")}`,
      "--config",
      join(PROJECT, "deno.json"),
      MAIN,
      ...(planFile ? [] : ["-t", `moto=${server.url}`, "-t", `suffix=${suffix}`]),
      ...args,
      ...(planFile ? [planFile] : []),
    ],
    pravoRoot,
    pravoEnv,
  );
/** `terraform SUBCOMMAND OPTIONS... [PLANFILE]`; a saved plan takes no variables. */
const tf = (sub: string, opts: string[], suffix: string, planFile?: string) =>
  exec(
    "terraform",
    [
      sub,
      ...opts,
      "-input=false",
      "-no-color",
      ...(planFile ? [planFile] : [`-var=suffix=${suffix}`]),
    ],
    tfRoot,
    tfEnv,
  );

expect(
  await exec(deno, ["run", "-A", "--quiet", MAIN, "init"], pravoRoot, pravoEnv),
  [0],
  "pravo init",
);
expect(
  await exec("terraform", ["init", "-input=false", "-no-color"], tfRoot, tfEnv),
  [0],
  "terraform init",
);
// The schema cache is filled once, as a first use would (not counted).
expect(await pravo(["validate"], "warm"), [0], "pravo validate");

const steps = ["plan", "apply", "no-op plan", "destroy"] as const;
const samples: Record<string, Record<string, number[]>> = { pravo: {}, terraform: {} };
const splits: Record<string, Record<string, number>[]> = {};
const note = (tool: string, step: string, r: Run) => {
  (samples[tool][step] ??= []).push(r.ms);
  if (r.timings) (splits[step] ??= []).push(r.timings);
};

for (let i = 0; i < RUNS; i++) {
  const suffix = `b${i}-${crypto.randomUUID().slice(0, 6)}`;
  for (const tool of i % 2 === 0 ? ["pravo", "terraform"] : ["terraform", "pravo"]) {
    if (tool === "pravo") {
      note(
        tool,
        "plan",
        expect(await pravo(["plan", "--out", "b.plan"], suffix), [2], "pravo plan"),
      );
      note(tool, "apply", expect(await pravo(["apply"], suffix, "b.plan"), [0], "pravo apply"));
      note(tool, "no-op plan", expect(await pravo(["plan"], suffix), [0], "pravo no-op plan"));
      note(
        tool,
        "destroy",
        expect(await pravo(["apply", "-auto-approve", "--destroy"], suffix), [0], "pravo destroy"),
      );
    } else {
      note(
        tool,
        "plan",
        expect(await tf("plan", ["-out=b.plan", "-detailed-exitcode"], suffix), [2], "tf plan"),
      );
      note(tool, "apply", expect(await tf("apply", [], suffix, "b.plan"), [0], "tf apply"));
      note(
        tool,
        "no-op plan",
        expect(await tf("plan", ["-detailed-exitcode"], suffix), [0], "tf no-op plan"),
      );
      note(
        tool,
        "destroy",
        expect(await tf("destroy", ["-auto-approve"], suffix), [0], "tf destroy"),
      );
    }
  }
  console.error(`run ${i + 1} of ${RUNS} done`);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const sec = (ms: number) => (ms / 1000).toFixed(2);
const cell = (xs: number[]) =>
  `${sec(median(xs))} s (${sec(Math.min(...xs))}–${sec(Math.max(...xs))})`;

const lines: string[] = [];
lines.push(
  `AWS root of examples/aws, ${RUNS} runs, moto at ${server.url}, provider from ${MIRROR}`,
);
lines.push("");
lines.push("| step | pravo | Terraform | pravo / Terraform |");
lines.push("|---|---:|---:|---:|");
for (const s of steps) {
  const p = samples.pravo[s], t = samples.terraform[s];
  lines.push(`| ${s} | ${cell(p)} | ${cell(t)} | ${(median(p) / median(t)).toFixed(2)} |`);
}
lines.push("");
lines.push(
  "Where pravo's time goes (medians, ms; provider calls add up the calls in flight together):",
);
lines.push("");
const keys = [
  "cue_load",
  "cue_evaluate",
  "provider_start",
  "schema_fetch",
  "provider_configure",
  "provider_calls",
  "provider_calls_count",
];
lines.push(`| step | total | ${keys.join(" | ")} |`);
lines.push(`|---|---:|${keys.map(() => "---:").join("|")}|`);
for (const s of steps) {
  const rows = splits[s] ?? [];
  lines.push(
    `| ${s} | ${Math.round(median(samples.pravo[s]))} | ${
      keys.map((k) => Math.round(median(rows.map((r) => r[k] ?? 0)))).join(" | ")
    } |`,
  );
}
console.log(lines.join("\n"));
await server.stop();
await Deno.remove(work, { recursive: true });
