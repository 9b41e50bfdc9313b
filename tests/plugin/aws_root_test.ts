/**
 * The whole lifecycle of a root on the real `hashicorp/aws` 5.100.0 (from
 * the Terraform mirror) against moto_server, through the real pravo with
 * its narrow permissions (scripts/pravo), as a user runs it: the root of
 * `examples/aws` (a bucket with versioning and a policy, an IAM role with a
 * policy attached, an SQS queue, a DynamoDB table).
 *
 * Plan, apply, a no-op plan (exit 0), an update in place, a replacement
 * (a bucket renamed), drift made with the `aws` CLI behind pravo's back,
 * import of a bucket made outside, SIGKILL in the middle of an apply and a
 * re-apply that converges, the MCP agent workflow (the SDK's client), and
 * destroy. One root, in steps; names carry a random suffix, so that runs
 * sharing a moto_server do not meet. When the mirror or moto_server is
 * missing, this file fails and says which (`_aws.ts`).
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { call, connect, text } from "../mcp/_client.ts";
import { SCRIPT } from "../_script.ts";
import { awsCli, awsProviderPath, moto } from "./_aws.ts";
import { gone } from "./_fake.ts";
import { awsRoot, type PluginRoot, script, type Scripted } from "./_roots.ts";

awsProviderPath(); // fails the file, naming it, when the provider is missing
const MOTO = await moto();
const EXAMPLE = fileURLToPath(new URL("../../examples/aws/main.cue", import.meta.url));
const SUFFIX = crypto.randomUUID().slice(0, 8);
const TAGS = ["-t", `moto=${MOTO.url}`, "-t", `suffix=${SUFFIX}`];

/**
 * pravo through scripts/pravo (narrow permissions), in the root, with the
 * moto tags; an apply of a saved plan without them (the plan holds its tags).
 */
function run(r: PluginRoot, args: string[]): Promise<Scripted> {
  const saved = args[0] === "apply" && args.some((a) => a.endsWith(".plan"));
  return script(r, [...(saved ? [] : TAGS), ...args], "aws-test");
}

/** The `aws` CLI on moto, its JSON answer parsed. */
// deno-lint-ignore no-explicit-any
const aws = (args: string[]): Promise<any> => awsCli(MOTO.url, args);

function planDoc(out: string): { nodes: { address: string; action: string }[] } {
  return JSON.parse(out.slice(out.indexOf("{")));
}

function actions(out: string): Record<string, string> {
  return Object.fromEntries(planDoc(out).nodes.map((n) => [n.address, n.action]));
}

Deno.test("an AWS root on the real provider against moto: the whole lifecycle", async (t) => {
  const source = await Deno.readTextFile(EXAMPLE);
  const r = await awsRoot({ "main.cue": source });
  const edit = (f: (s: string) => string) =>
    Deno.writeTextFile(join(r.root, "main.cue"), f(source));

  try {
    await t.step("plan: eight resources to add", async () => {
      const res = await run(r, ["plan", "--out", "first.plan", "--json"]);
      assert.equal(res.code, 2, res.out);
      const a = actions(res.out);
      assert.equal(Object.keys(a).length, 8, res.out);
      assert.ok(Object.values(a).every((x) => x === "create"), JSON.stringify(a));
    });

    await t.step("apply the saved plan", async () => {
      const res = await run(r, ["apply", "first.plan"]);
      assert.equal(res.code, 0, res.out);
      assert.match(res.out, /8 added/);
      const buckets = await aws(["s3api", "list-buckets"]);
      assert.ok(
        buckets.Buckets.some((b: { Name: string }) => b.Name === `pravo-logs-${SUFFIX}`),
        JSON.stringify(buckets),
      );
      const v = await aws(["s3api", "get-bucket-versioning", "--bucket", `pravo-logs-${SUFFIX}`]);
      assert.equal(v.Status, "Enabled");
    });

    await t.step("a plan with nothing changed: exit 0", async () => {
      const res = await run(r, ["plan"]);
      assert.equal(res.code, 0, res.out);
      assert.match(res.out, /No changes/);
    });

    await t.step("an update in place", async () => {
      await edit((s) => s.replace('tags: team: "platform"', 'tags: team: "data"'));
      const res = await run(r, ["plan", "--json"]);
      assert.equal(res.code, 2, res.out);
      assert.equal(actions(res.out).logs, "update");
      const applied = await run(r, ["apply", "-auto-approve"]);
      assert.equal(applied.code, 0, applied.out);
      const tags = await aws(["s3api", "get-bucket-tagging", "--bucket", `pravo-logs-${SUFFIX}`]);
      assert.deepEqual(tags.TagSet, [{ Key: "team", Value: "data" }]);
    });

    await t.step("a renamed bucket is replaced, and why says what forces it", async () => {
      await edit((s) =>
        s.replace('tags: team: "platform"', 'tags: team: "data"')
          .replace('bucket: "pravo-logs-\\(suffix)"', 'bucket: "pravo-logs2-\\(suffix)"')
      );
      const res = await run(r, ["plan", "--json"]);
      assert.equal(res.code, 2, res.out);
      const a = actions(res.out);
      assert.equal(a.logs, "replace");
      assert.equal(a.logs_versioning, "replace");
      const why = await run(r, ["why", "logs"]);
      assert.match(why.out, /bucket changed: .* \(forces replacement\)/);
      const applied = await run(r, ["apply", "-auto-approve"]);
      assert.equal(applied.code, 0, applied.out);
      const buckets = (await aws(["s3api", "list-buckets"])).Buckets.map((
        b: { Name: string },
      ) => b.Name);
      assert.ok(buckets.includes(`pravo-logs2-${SUFFIX}`));
      assert.ok(!buckets.includes(`pravo-logs-${SUFFIX}`));
    });

    await t.step("drift made behind pravo's back is seen, and a plan puts it back", async () => {
      await aws([
        "s3api",
        "put-bucket-tagging",
        "--bucket",
        `pravo-logs2-${SUFFIX}`,
        "--tagging",
        "TagSet=[{Key=team,Value=rogue}]",
      ]);
      const drift = await run(r, ["drift"]);
      assert.equal(drift.code, 2, drift.out);
      assert.match(drift.out, /logs: .*tags/);
      const plan = await run(r, ["plan", "--refresh", "all", "--json"]);
      assert.equal(plan.code, 2, plan.out);
      assert.equal(actions(plan.out).logs, "update");
      const applied = await run(r, ["apply", "-auto-approve", "--refresh", "all"]);
      assert.equal(applied.code, 0, applied.out);
      const again = await run(r, ["drift"]);
      assert.equal(again.code, 0, again.out);
    });

    await t.step("import a bucket made outside", async () => {
      await aws(["s3api", "create-bucket", "--bucket", `pravo-outside-${SUFFIX}`]);
      await edit((s) =>
        s.replace('tags: team: "platform"', 'tags: team: "data"')
          .replace('bucket: "pravo-logs-\\(suffix)"', 'bucket: "pravo-logs2-\\(suffix)"') +
        `\noutside: $aws.#Resource.aws_s3_bucket & {bucket: "pravo-outside-\\(suffix)"}\n`
      );
      const res = await run(r, ["import", "outside", `pravo-outside-${SUFFIX}`]);
      assert.equal(res.code, 0, res.out);
      const show = await run(r, ["state", "show", "outside"]);
      assert.match(show.out, new RegExp(`arn += "arn:aws:s3:::pravo-outside-${SUFFIX}"`));
      const missing = await run(r, ["import", "ghost", "no-such-bucket"]);
      assert.notEqual(missing.code, 0);
    });

    await t.step("SIGKILL in the middle of an apply, then an apply that converges", async () => {
      await edit((s) =>
        s.replace('tags: team: "platform"', 'tags: team: "data"')
          .replace('bucket: "pravo-logs-\\(suffix)"', 'bucket: "pravo-logs2-\\(suffix)"') +
        `\noutside: $aws.#Resource.aws_s3_bucket & {bucket: "pravo-outside-\\(suffix)"}\n` +
        `\nlater: $aws.#Resource.aws_sqs_queue & {name: "pravo-later-\\(suffix)"}\n`
      );
      const child = new Deno.Command(SCRIPT, {
        args: [...TAGS, "apply", "-auto-approve"],
        cwd: r.root,
        env: { ...r.env, PRAVO_ACTOR: "aws-test" },
        stdout: "null",
        stderr: "null",
      }).spawn();
      // The queue exists as soon as it is created; the provider then waits
      // for it: kill pravo then, before it can record it.
      const name = `pravo-later-${SUFFIX}`;
      const until = Date.now() + 60_000;
      while (!JSON.stringify(await aws(["sqs", "list-queues"])).includes(name)) {
        if (Date.now() > until) throw new Error("the queue was never created");
        await new Promise((res) => setTimeout(res, 200));
      }
      const providers = childrenOf(child.pid);
      child.kill("SIGKILL");
      await child.status;
      // A provider cannot see its parent die (as under Terraform): end it.
      for (const pid of providers) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch {
          // gone
        }
      }
      for (const pid of providers) {
        assert.ok(await gone(pid, 5_000), `provider ${pid} still runs`);
      }
      const res = await run(r, ["apply", "-auto-approve"]);
      assert.equal(res.code, 0, res.out);
      const plan = await run(r, ["plan"]);
      assert.equal(plan.code, 0, plan.out);
    });

    await t.step("the MCP agent workflow on that root", async () => {
      const s = await connect(r.root, {
        script: true,
        env: { ...r.env },
        args: TAGS,
      });
      try {
        const schema = await call(s, "pravo_schema", { types: ["aws_sqs_queue"], required: true });
        assert.equal(schema.structuredContent?.exit_code, 0, text(schema));
        assert.match(text(schema), /"aws_sqs_queue"/);
        await edit((x) =>
          x.replace('tags: team: "platform"', 'tags: team: "data"')
            .replace('bucket: "pravo-logs-\\(suffix)"', 'bucket: "pravo-logs2-\\(suffix)"')
            .replace(
              'name:         "pravo-sessions-\\(suffix)"',
              'name:         "pravo-sessions-\\(suffix)"\n\ttags: owner: "agent"',
            ) +
          `\noutside: $aws.#Resource.aws_s3_bucket & {bucket: "pravo-outside-\\(suffix)"}\n` +
          `\nlater: $aws.#Resource.aws_sqs_queue & {name: "pravo-later-\\(suffix)"}\n`
        );
        const valid = await call(s, "pravo_validate", {});
        assert.equal(valid.structuredContent?.exit_code, 0, text(valid));
        const plan = await call(s, "pravo_plan", { out: "agent.plan" });
        assert.equal(plan.structuredContent?.exit_code, 2, text(plan));
        assert.match(text(plan), /"address": "sessions"/);
        const shown = await call(s, "pravo_show_plan", { planfile: "agent.plan" });
        assert.equal(shown.structuredContent?.exit_code, 0, text(shown));
        const applied = await call(s, "pravo_apply_plan", { planfile: "agent.plan" });
        assert.equal(applied.structuredContent?.exit_code, 0, text(applied));
        const state = await call(s, "pravo_state_show", { addr: "sessions" });
        assert.match(text(state), /"owner": "agent"/);
        const providers = await call(s, "pravo_providers", {});
        assert.equal(providers.structuredContent?.exit_code, 0, text(providers));
      } finally {
        await s.close();
      }
    });

    await t.step("destroy", async () => {
      const res = await run(r, ["apply", "-auto-approve", "--destroy"]);
      assert.equal(res.code, 0, res.out);
      const buckets = (await aws(["s3api", "list-buckets"])).Buckets.map((
        b: { Name: string },
      ) => b.Name);
      assert.ok(!buckets.some((b: string) => b.endsWith(SUFFIX)), JSON.stringify(buckets));
      const queues = JSON.stringify(await aws(["sqs", "list-queues"]));
      assert.ok(!queues.includes(SUFFIX), queues);
    });
  } finally {
    await MOTO.stop();
  }
});

/** The processes whose parent is `pid`, and theirs (scripts/pravo execs deno, which runs the provider). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  const todo = [pid];
  while (todo.length) {
    const p = todo.pop()!;
    for (const e of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(e.name)) continue;
      try {
        const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        if (ppid === p) {
          out.push(Number(e.name));
          todo.push(Number(e.name));
        }
      } catch {
        // ended meanwhile
      }
    }
  }
  return out;
}
