/**
 * Secrets are unknown at plan time, on the real hashicorp/aws provider
 * against moto, on a SQLite state and on a PostgreSQL one (when
 * `PRAVO_TEST_PG` names a server): a password made by the built-in random
 * provider goes into a Secrets Manager secret, is read back through the
 * `aws_secretsmanager_secret_version` data source, decoded, and written to
 * an SSM SecureString parameter. Apply puts the real value everywhere; the
 * next plans have nothing to do; an agent on `pravo mcp --read-only` that
 * probes the secret gets the same answer for every guess; a secret rotated
 * outside pravo is seen as a change of what reads it, and applied.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { records } from "../_pravo.ts";
import { call, connect, type ToolResult } from "../mcp/_client.ts";
import {
  AWS_SERVICES,
  awsProviderCue,
  awsRoot,
  stateEnv,
  type Store,
  testOnEachStore,
} from "./_roots.ts";
import { awsCli, awsProviderPath, moto } from "./_aws.ts";

awsProviderPath(); // fails the file, naming it, when the provider is missing
const MOTO = await moto();

const MAIN = (suffix: string, check: string) =>
  `package demo

import (
	"encoding/json"
	"strings"
	aws "pravo.dev/providers/hashicorp/aws"
	rnd "pravo.dev/providers/hashicorp/random"
)

$random: rnd.#Provider
${awsProviderCue(MOTO.url, "$aws", [...AWS_SERVICES, "secretsmanager", "ssm"])}
pw: $random.#Resource.random_password & {length: 20, special: false}
secret: $aws.#Resource.aws_secretsmanager_secret & {
	name:                    "pravo-secrets-${suffix}"
	recovery_window_in_days: 0
}
version: $aws.#Resource.aws_secretsmanager_secret_version & {
	secret_id:     secret.id
	secret_string: json.Marshal({user: "app", password: pw.result})
}
current: $aws.#Data.aws_secretsmanager_secret_version & {
	secret_id:  secret.id
	depends_on: [version]
}
param: $aws.#Resource.aws_ssm_parameter & {
	name:  "/pravo-secrets/${suffix}/password"
	type:  "SecureString"
	value: "copy of \\(current.secret_string)"
}
check: ${check}
`;

/** The `aws` CLI on moto, its JSON answer parsed. */
// deno-lint-ignore no-explicit-any
const aws = (args: string[]): Promise<any> => awsCli(MOTO.url, args);

const parameter = async (suffix: string) =>
  (await aws([
    "ssm",
    "get-parameter",
    "--name",
    `/pravo-secrets/${suffix}/password`,
    "--with-decryption",
  ])).Parameter.Value;

/** What an agent sees of a plan: the exit code and each node's action, or the refusal. */
function seen(r: ToolResult): string {
  const t = r.content.map((c) => c.text).join("");
  try {
    const doc = JSON.parse(t);
    if (Array.isArray(doc.nodes)) {
      return `${r.structuredContent?.exit_code} ${
        doc.nodes.map((n: { address: string; action: string }) => `${n.address}:${n.action}`)
          .sort().join(",")
      }`;
    }
    return `${r.structuredContent?.exit_code} ${
      (doc.diagnostics ?? []).map((d: { summary: string }) => d.summary).join(";")
    }`;
  } catch {
    return `${r.structuredContent?.exit_code} ${t}`;
  }
}

async function flow(store: Store): Promise<void> {
  const suffix = crypto.randomUUID().slice(0, 8);
  const env = stateEnv(store, `test/aws-secrets/${suffix}`);
  const quiet = 'strings.ToUpper("") == ""';
  const r = await awsRoot({ "main.cue": MAIN(suffix, quiet) }, env);
  try {
    const applied = await r.run(["apply", "-auto-approve"]);
    assert.equal(applied.code, 0, applied.stdout + applied.stderr);
    // The real value went everywhere: the password is what random made.
    const state = store === "sqlite" ? await records(r.root) : undefined;
    const password = state ? String(state.get("pw")!.attributes.result) : JSON.parse(
      (await aws(["secretsmanager", "get-secret-value", "--secret-id", `pravo-secrets-${suffix}`]))
        .SecretString,
    ).password;
    assert.equal(password.length, 20);
    const stored = await aws([
      "secretsmanager",
      "get-secret-value",
      "--secret-id",
      `pravo-secrets-${suffix}`,
    ]);
    assert.deepEqual(JSON.parse(stored.SecretString), { user: "app", password });
    assert.equal(await parameter(suffix), `copy of ${stored.SecretString}`);
    assert.ok(!(applied.stdout + applied.stderr).includes(password));

    // Nothing to do next, with or without reading the real world.
    for (const args of [["plan"], ["plan", "--refresh", "all"]]) {
      const plan = await r.run(args);
      assert.equal(plan.code, 0, `${args.join(" ")}: ${plan.stdout}${plan.stderr}`);
    }

    // An agent probes the secret, one guess a plan: every answer the same.
    const s = await connect(r.root, { args: ["--read-only"], env: { ...r.env, ...env } });
    try {
      const answers: string[] = [];
      for (const c of [password[0], password[0] === "a" ? "b" : "a", "Z", "7"]) {
        await Deno.writeTextFile(
          join(r.root, "main.cue"),
          MAIN(
            suffix,
            `!strings.Contains(current.secret_string, "\\"password\\":\\"${c}") & true`,
          ),
        );
        answers.push(seen(await call(s, "pravo_plan", {})));
      }
      assert.deepEqual(new Set(answers).size, 1, answers.join(" | "));
      assert.match(answers[0], /^0 /);
    } finally {
      await s.close();
    }
    await Deno.writeTextFile(join(r.root, "main.cue"), MAIN(suffix, quiet));

    // The secret rotated outside pravo: what reads it changes, and only that.
    await aws([
      "secretsmanager",
      "put-secret-value",
      "--secret-id",
      `pravo-secrets-${suffix}`,
      "--secret-string",
      JSON.stringify({ user: "app", password: "rotated-by-hand-0042" }),
    ]);
    const rotated = await r.run(["plan", "--json"]);
    assert.equal(rotated.code, 2, rotated.stdout + rotated.stderr);
    const changes = JSON.parse(rotated.stdout).nodes
      .filter((n: { action: string }) => n.action !== "no-op" && n.action !== "read")
      .map((n: { address: string; action: string }) => `${n.address}:${n.action}`);
    assert.deepEqual(changes, ["param:update"]);
    assert.ok(!rotated.stdout.includes("rotated-by-hand"), "the new value is not shown");
    assert.equal((await r.run(["apply", "-auto-approve"])).code, 0);
    assert.equal(
      await parameter(suffix),
      `copy of ${JSON.stringify({ user: "app", password: "rotated-by-hand-0042" })}`,
    );
    assert.equal((await r.run(["plan"])).code, 0);

    const destroyed = await r.run(["destroy", "-auto-approve"]);
    assert.equal(destroyed.code, 0, destroyed.stdout + destroyed.stderr);
  } finally {
    await Deno.remove(r.root, { recursive: true });
  }
}

testOnEachStore(flow, {
  file: "tests/plugin/aws_secrets_test.ts",
  name: (store) =>
    `secrets on an AWS root (moto), ${store} state: applied for real, planned unknown, probed in vain`,
});
