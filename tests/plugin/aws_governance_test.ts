/**
 * Governance round 3 on a real provider root: `hashicorp/aws` 5.100.0 on
 * moto, on a SQLite state and on a PostgreSQL one (when `PRAVO_TEST_PG`
 * names a server; `.ci/run` starts one), through the MCP server as an agent
 * drives it and the command line as the operator does:
 *
 * - `summary: delete: 0` refuses a change that forces the queue's
 *   replacement (its name), and a requested replacement;
 * - a saved plan's status: not approved, then approved by the operator's
 *   key, applied, then stale;
 * - a read-only session (`pravo_plan` with `refresh: "all"`, `pravo_drift`)
 *   leaves the state as it was, byte for byte or row for row;
 * - the plan document says it is pravo's.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import postgres from "postgres";
import { approverKey, call, connect, text, type ToolResult } from "../mcp/_client.ts";
import { awsProviderPath, moto } from "./_aws.ts";
import { awsProviderCue, awsRoot, PG, stateEnv, type Store, testOnEachStore } from "./_roots.ts";

awsProviderPath(); // fails the file, naming it, when the provider is missing
const MOTO = await moto();
const exitCode = (r: ToolResult) => r.structuredContent?.exit_code;

const MAIN = (suffix: string, queue = "jobs", tag = "a") =>
  `package demo

import aws "pravo.dev/providers/hashicorp/aws"

${awsProviderCue(MOTO.url, "$aws", ["sqs", "ssm", "sts"])}
q: $aws.#Resource.aws_sqs_queue & {
	name: "pravo-gov-${queue}-${suffix}"
	tags: owner: "${tag}"
}
p: $aws.#Resource.aws_ssm_parameter & {
	name:  "/pravo-gov/${suffix}/queue"
	type:  "String"
	value: q.url
}
`;

async function flow(store: Store): Promise<void> {
  const suffix = crypto.randomUUID().slice(0, 8);
  const key = `test/aws-governance/${suffix}`;
  const env = stateEnv(store, key);
  const r = await awsRoot({ "main.cue": MAIN(suffix) }, env);
  const policies = await Deno.makeTempDir({ prefix: "pravo-gov-policy-" });
  const k = await approverKey();
  const sql = store === "postgres" ? postgres(PG, { max: 1, onnotice: () => {} }) : undefined;
  /** The state as bytes (SQLite) or rows (PostgreSQL). */
  const state = async (): Promise<string> => {
    if (!sql) {
      const bytes = await Deno.readFile(join(r.root, ".pravo", "state.db"));
      return createHash("sha256").update(bytes).digest("hex");
    }
    const [root] = await sql`SELECT * FROM pravo.roots WHERE key = ${key}`;
    return JSON.stringify({
      root,
      records: await sql`SELECT * FROM pravo.records WHERE root_id = ${root.id} ORDER BY address`,
      log: await sql`SELECT * FROM pravo.log_entries WHERE root_id = ${root.id} ORDER BY id`,
    });
  };
  try {
    await Deno.writeTextFile(join(policies, "keep.cue"), "summary: delete: 0\n");
    const applied = await r.run(["apply", "-auto-approve"]);
    assert.equal(applied.code, 0, applied.stdout + applied.stderr);
    const s = await connect(r.root, {
      args: ["--policy", join(policies, "keep.cue"), "--approver", k.pub],
      env: { ...r.env, ...env },
    });
    try {
      // A new name forces the queue's replacement: the policy refuses it.
      await Deno.writeTextFile(join(r.root, "main.cue"), MAIN(suffix, "renamed"));
      const renamed = await call(s, "pravo_plan", { out: "x.plan" });
      assert.equal(exitCode(renamed), 5, text(renamed));
      assert.match(text(renamed), /summary\.delete/);
      await Deno.writeTextFile(join(r.root, "main.cue"), MAIN(suffix));
      const replaced = await call(s, "pravo_plan", { replace: ["q"], out: "x.plan" });
      assert.equal(exitCode(replaced), 5, text(replaced));

      // A tag changes in place: planned, not approved, approved, applied, stale.
      await Deno.writeTextFile(join(r.root, "main.cue"), MAIN(suffix, "jobs", "b"));
      const planned = await call(s, "pravo_plan", { out: "t.plan" });
      assert.equal(exitCode(planned), 2, text(planned));
      const doc = JSON.parse(text(planned));
      assert.equal(doc.format, "pravo-plan");
      assert.equal(doc.summary.delete, 0);
      const status = async () =>
        JSON.parse(text(await call(s, "pravo_show_plan", { planfile: "t.plan" }))).status;
      assert.equal((await status()).approval.approved, false);
      const approved = await r.run(["approve", "t.plan", "--key", k.key]);
      assert.equal(approved.code, 0, approved.stdout + approved.stderr);
      const st = await status();
      assert.equal(st.approval.approved, true);
      assert.equal(st.stale, false);
      const apply = await call(s, "pravo_apply_plan", { planfile: "t.plan" });
      assert.equal(exitCode(apply), 0, text(apply));
      assert.equal((await status()).stale, true);
    } finally {
      await s.close();
    }

    // Read-only: reading the real world records nothing.
    const before = await state();
    const ro = await connect(r.root, { args: ["--read-only"], env: { ...r.env, ...env } });
    try {
      const plan = await call(ro, "pravo_plan", { refresh: "all" });
      assert.equal(exitCode(plan), 0, text(plan));
      const drift = await call(ro, "pravo_drift", {});
      assert.equal(exitCode(drift), 0, text(drift));
    } finally {
      await ro.close();
    }
    assert.equal(await state(), before);

    const destroyed = await r.run(["destroy", "-auto-approve"]);
    assert.equal(destroyed.code, 0, destroyed.stdout + destroyed.stderr);
  } finally {
    await sql?.end();
    await Deno.remove(r.root, { recursive: true });
    await Deno.remove(policies, { recursive: true });
    await Deno.remove(k.dir, { recursive: true });
  }
}

testOnEachStore(flow, {
  file: "tests/plugin/aws_governance_test.ts",
  name: (store) =>
    `governance on an AWS root (moto), ${store} state: delete policy, approval status, read-only`,
});
