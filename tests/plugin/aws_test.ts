/**
 * The plugin layer against the real `hashicorp/aws` 5.100.0 (protocol 5,
 * from the Terraform mirror) and moto_server, an AWS emulator on
 * 127.0.0.1: handshake with AutoMTLS, metadata, the whole schema, the
 * provider's validation and configuration with every endpoint at moto, an
 * S3 bucket created, read, updated, imported and deleted, and an error
 * diagnostic with its attribute path. When the mirror or moto_server is
 * missing, this file fails and says which (`_aws.ts`).
 *
 * @module
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  formatPath,
  isUnknown,
  type PlanResourceChangeResponse,
  type PluginProvider,
  proposedNewState,
  type Schema,
  startProvider,
  type Value,
} from "../../lib/plugin/mod.ts";
import { awsConfig, awsProviderPath, moto } from "./_aws.ts";
import { gone, PROJECT } from "./_fake.ts";

type Obj = Record<string, Value>;

// Fails the whole file, naming what is missing, when the mirror or moto is absent.
const PROVIDER = awsProviderPath();
const MOTO = await moto();
const bucket = (what: string) => `pravo-test-${what}-${crypto.randomUUID().slice(0, 8)}`;

const timings: [string, number][] = [];
async function timed<T>(what: string, f: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await f();
  } finally {
    timings.push([what, performance.now() - t0]);
  }
}

Deno.test("the real AWS provider over protocol 5 against moto: an S3 bucket's whole life", async (t) => {
  let p: PluginProvider | undefined;
  try {
    await t.step("handshake, with AutoMTLS", async () => {
      const r = await timed(
        "handshake (start to connected)",
        () => startProvider({ command: PROVIDER, name: "hashicorp/aws" }),
      );
      assert.deepEqual(r.diagnostics, []);
      p = r.value!;
      assert.equal(p.protocol, 5);
      assert.equal(p.process.tls, true);
      assert.equal(p.process.handshake.network, "unix");
    });
    const aws = () => p!;
    /** Plans a change of the bucket from `prior` to `config` (null: its deletion), proposed as the core does. */
    const planBucket = (
      change: { prior: Obj | null; config: Obj | null; priorPrivate?: Uint8Array },
    ) =>
      aws().planResourceChange({
        typeName: "aws_s3_bucket",
        priorState: change.prior,
        proposedNewState: proposedNewState(s3.block, change.prior, change.config),
        config: change.config,
        priorPrivate: change.priorPrivate,
      });
    /** Applies a planned change of the bucket, timed as `ApplyResourceChange (what)`. */
    const applyBucket = (
      what: string,
      change: { prior: Obj | null; plan: PlanResourceChangeResponse; config: Obj },
    ) =>
      timed(`ApplyResourceChange (${what})`, () =>
        aws().applyResourceChange({
          typeName: "aws_s3_bucket",
          priorState: change.prior,
          plannedState: change.plan.plannedState as Obj,
          config: change.config,
          plannedPrivate: change.plan.plannedPrivate,
        }));

    let s3: Schema;
    await t.step("metadata and the whole schema", async () => {
      const md = await timed("GetMetadata", () => aws().getMetadata());
      assert.deepEqual(md.diagnostics, []);
      assert.ok(md.resources.length > 1500, `${md.resources.length} resource types`);
      assert.ok(md.dataSources.length > 600);
      assert.ok(
        md.serverCapabilities.planDestroy && md.serverCapabilities.getProviderSchemaOptional,
      );
      const { schema, diagnostics } = await timed(
        "GetProviderSchema (whole AWS schema)",
        () => aws().getProviderSchema(),
      );
      assert.deepEqual(diagnostics, []);
      assert.equal(Object.keys(schema!.resources).length, md.resources.length);
      s3 = schema!.resources.aws_s3_bucket;
      assert.equal(
        s3.block.attributes.bucket.optional && s3.block.attributes.bucket.computed,
        true,
      );
      assert.equal(
        s3.block.attributes.region.computed && !s3.block.attributes.region.optional,
        true,
      );
      assert.equal(s3.block.blockTypes.versioning.nesting, "list");
      assert.equal(s3.block.blockTypes.versioning.maxItems, 1);
      const db = schema!.resources.aws_db_instance.block.attributes;
      assert.equal(db.password.sensitive, true);
      assert.equal(db.password_wo.writeOnly && db.password_wo.sensitive, true);
      assert.equal(schema!.provider.block.blockTypes.endpoints.nesting, "set");
    });

    await t.step("provider validation and configuration, every endpoint at moto", async () => {
      const v = await timed(
        "PrepareProviderConfig (with endpoints)",
        () => aws().validateProviderConfig({ config: awsConfig(MOTO.url) }),
      );
      assert.deepEqual(v.diagnostics, []);
      const c = await timed(
        "Configure",
        () => aws().configureProvider({ config: v.preparedConfig! }),
      );
      assert.deepEqual(c.diagnostics, []);
    });

    await t.step("an error diagnostic carries its attribute path", async () => {
      const r = await aws().validateResourceConfig({
        typeName: "aws_sqs_queue",
        config: { name: "q", delay_seconds: 9999 },
      });
      assert.equal(r.diagnostics.length, 1);
      assert.equal(r.diagnostics[0].severity, "error");
      assert.match(
        r.diagnostics[0].summary,
        /delay_seconds to be in the range \(0 - 900\), got 9999/,
      );
      assert.deepEqual(r.diagnostics[0].attribute, [{ name: "delay_seconds" }]);
      const role = await aws().validateResourceConfig({
        typeName: "aws_iam_role",
        config: { name: "r", assume_role_policy: "not json" },
      });
      assert.deepEqual(role.diagnostics.map((d) => formatPath(d.attribute ?? [])), [
        "assume_role_policy",
      ]);
    });

    const name = bucket("life");
    let state: Obj = {};
    let priv: Uint8Array | undefined;
    await t.step("plan and apply the create of a bucket", async () => {
      const config: Obj = { bucket: name };
      assert.deepEqual(
        (await aws().validateResourceConfig({ typeName: "aws_s3_bucket", config })).diagnostics,
        [],
      );
      const plan = await timed(
        "PlanResourceChange (create)",
        () => planBucket({ prior: null, config }),
      );
      assert.deepEqual(plan.diagnostics, []);
      assert.equal(plan.legacyTypeSystem, true, "SDKv2 resources say so");
      const planned = plan.plannedState as Obj;
      assert.equal(planned.bucket, name);
      assert.ok(
        isUnknown(planned.id) && isUnknown(planned.arn),
        "computed values are known after apply",
      );
      const applied = await applyBucket("create", { prior: null, plan, config });
      assert.deepEqual(applied.diagnostics, []);
      state = applied.newState as Obj;
      priv = applied.private;
      assert.equal(state.id, name);
      assert.equal(state.arn, `arn:aws:s3:::${name}`);
      assert.equal(state.region, "us-east-1");
      assert.ok(priv.length > 0, "private data (timeouts) comes back, opaque");
    });

    await t.step("read the bucket", async () => {
      const r = await timed(
        "ReadResource",
        () => aws().readResource({ typeName: "aws_s3_bucket", currentState: state, private: priv }),
      );
      assert.deepEqual(r.diagnostics, []);
      const now = r.newState as Obj;
      assert.equal(now.id, name);
      assert.equal(now.arn, state.arn);
      state = now;
    });

    await t.step("update the bucket in place: tags", async () => {
      const config: Obj = { bucket: name, tags: { env: "test", owner: "pravo" } };
      const plan = await planBucket({ prior: state, config, priorPrivate: priv });
      assert.deepEqual(plan.diagnostics, []);
      const planned = plan.plannedState as Obj;
      assert.deepEqual(planned.tags, { env: "test", owner: "pravo" });
      assert.equal(planned.id, name, "the id carries over: an update, not a create");
      const applied = await applyBucket("update", { prior: state, plan, config });
      assert.deepEqual(applied.diagnostics, []);
      state = applied.newState as Obj;
      assert.deepEqual(state.tags, { env: "test", owner: "pravo" });
      const r = await aws().readResource({
        typeName: "aws_s3_bucket",
        currentState: state,
        private: applied.private,
      });
      assert.deepEqual(
        (r.newState as Obj).tags,
        { env: "test", owner: "pravo" },
        "moto has the tags",
      );
      // Renaming the bucket forces a replacement.
      const renamed = { ...config, bucket: `${name}-2` };
      const replace = await planBucket({ prior: state, config: renamed });
      assert.ok(
        replace.requiresReplace.map(formatPath).includes("bucket"),
        JSON.stringify(replace.requiresReplace),
      );
    });

    await t.step("import a bucket made outside pravo", async () => {
      const outside = bucket("outside");
      // Made straight through moto's S3 API, behind the provider's back.
      const made = await fetch(`${MOTO.url}/${outside}`, { method: "PUT" });
      await made.body?.cancel();
      assert.equal(made.status, 200);
      const imp = await timed(
        "ImportResourceState",
        () => aws().importResourceState({ typeName: "aws_s3_bucket", id: outside }),
      );
      assert.deepEqual(imp.diagnostics, []);
      assert.equal(imp.importedResources.length, 1);
      assert.equal((imp.importedResources[0].state as Obj).id, outside);
      const r = await aws().readResource({
        typeName: "aws_s3_bucket",
        currentState: imp.importedResources[0].state,
        private: imp.importedResources[0].private,
      });
      assert.deepEqual(r.diagnostics, []);
      assert.equal((r.newState as Obj).bucket, outside);
      assert.equal((r.newState as Obj).arn, `arn:aws:s3:::${outside}`);
      // An id that exists nowhere reads as null: the caller must say "no such object".
      const none = await aws().importResourceState({
        typeName: "aws_s3_bucket",
        id: bucket("none"),
      });
      const nr = await aws().readResource({
        typeName: "aws_s3_bucket",
        currentState: none.importedResources[0].state,
      });
      assert.equal(nr.newState, null);
    });

    await t.step("delete the bucket", async () => {
      const plan = await planBucket({ prior: state, config: null });
      assert.deepEqual(plan.diagnostics, []);
      assert.equal(plan.plannedState, null);
      const applied = await timed(
        "ApplyResourceChange (delete)",
        () =>
          aws().applyResourceChange({
            typeName: "aws_s3_bucket",
            priorState: state,
            plannedState: null,
            config: null,
          }),
      );
      assert.deepEqual(applied.diagnostics, []);
      assert.equal(applied.newState, null);
      const r = await aws().readResource({ typeName: "aws_s3_bucket", currentState: state });
      assert.deepEqual(r.diagnostics, []);
      assert.equal(r.newState, null, "the bucket is gone from moto");
    });

    await t.step("stop and close", async () => {
      const stop = await timed("Stop", () => aws().stopProvider());
      assert.deepEqual(stop.diagnostics, []);
      const pid = aws().process.pid;
      await timed("close (Shutdown)", () => aws().close());
      assert.equal(aws().process.exitInfo?.code, 0, "Shutdown ended it cleanly");
      assert.ok(await gone(pid));
    });
  } finally {
    await p?.close();
    console.log(
      "AWS provider timings (ms):\n" +
        timings.map(([w, ms]) => `  ${w.padEnd(40)} ${ms.toFixed(0).padStart(6)}`).join("\n"),
    );
  }
});

Deno.test("the AWS provider does not outlive pravo when pravo exits without closing it", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", fileURLToPath(new URL("./_host.ts", import.meta.url)), "exit", "aws"],
    cwd: PROJECT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
  const out = await child.output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const pid = Number(text.match(/PID (\d+)/)?.[1]);
  assert.ok(pid > 0, text);
  assert.ok(await gone(pid), `the AWS provider ${pid} still runs`);
});

Deno.test("moto_server is stopped", async () => {
  await MOTO.stop();
});
