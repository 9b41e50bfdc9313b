/**
 * The plugin layer's costs against the real AWS provider and moto_server
 * (the same as tests/plugin/aws_test.ts uses): for each of N runs, a fresh
 * provider process, and the time of each step. Prints medians and ranges.
 *
 *   deno run -A scripts/bench/plugin.ts [--runs N]
 *
 * Steps: the handshake with AutoMTLS and without (start to connected),
 * GetMetadata, GetProviderSchema split into the call (transfer and protobuf
 * decoding) and pravo's conversion of the whole schema, provider validation
 * and configuration with and without the `endpoints` block, and a plan and
 * apply round trip (create, then delete, of an S3 bucket).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { providerMethod } from "../../lib/plugin/proto/load.ts";
import {
  type PluginProvider,
  proposedNewState,
  schemaFrom,
  startProvider,
} from "../../lib/plugin/mod.ts";
import { awsConfig, awsProviderPath, moto } from "../../tests/plugin/_aws.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const runs = Number(values.runs);
const samples = new Map<string, number[]>();
const note = (what: string, ms: number) => {
  const l = samples.get(what) ?? [];
  l.push(ms);
  samples.set(what, l);
};
async function time<T>(what: string, f: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const r = await f();
  note(what, performance.now() - t0);
  return r;
}
function must<T extends { diagnostics: unknown[] }>(r: T): T {
  if (r.diagnostics.length) throw new Error(JSON.stringify(r.diagnostics));
  return r;
}

const command = awsProviderPath();
const m = await moto();
try {
  for (let i = 0; i < runs; i++) {
    // Without AutoMTLS: handshake only.
    const plain = await time(
      "handshake, plain gRPC",
      () => startProvider({ command, name: "hashicorp/aws", autoMTLS: false }),
    );
    await plain.value!.close();

    const started = await time(
      "handshake, AutoMTLS",
      () => startProvider({ command, name: "hashicorp/aws" }),
    );
    const p: PluginProvider = started.value!;
    try {
      must(await time("GetMetadata", () => p.getMetadata()));
      const raw = await time(
        "GetProviderSchema: call and protobuf decode",
        () => p.process.connection.unary(providerMethod(5, "getProviderSchema"), {}),
      );
      await time("GetProviderSchema: conversion to pravo's schema", () => {
        for (const s of Object.values(raw.resource_schemas ?? {})) schemaFrom(s);
        for (const s of Object.values(raw.data_source_schemas ?? {})) schemaFrom(s);
        return Promise.resolve();
      });
      const schema = must(
        await time("GetProviderSchema (interface, whole)", () => p.getProviderSchema()),
      ).schema!;
      const noEp = must(
        await time(
          "PrepareProviderConfig, no endpoints",
          () => p.validateProviderConfig({ config: awsConfig(m.url, false) }),
        ),
      );
      void noEp;
      const v = must(
        await time(
          "PrepareProviderConfig, with endpoints",
          () => p.validateProviderConfig({ config: awsConfig(m.url) }),
        ),
      );
      must(await time("Configure", () => p.configureProvider({ config: v.preparedConfig! })));
      const block = schema.resources.aws_s3_bucket.block;
      const config = { bucket: `pravo-bench-${crypto.randomUUID().slice(0, 8)}` };
      const t0 = performance.now();
      const plan = must(
        await time("PlanResourceChange (create)", () =>
          p.planResourceChange({
            typeName: "aws_s3_bucket",
            priorState: null,
            proposedNewState: proposedNewState(block, null, config),
            config,
          })),
      );
      const applied = must(
        await time("ApplyResourceChange (create)", () =>
          p.applyResourceChange({
            typeName: "aws_s3_bucket",
            priorState: null,
            plannedState: plan.plannedState!,
            config,
            plannedPrivate: plan.plannedPrivate,
          })),
      );
      note("plan + apply round trip (create)", performance.now() - t0);
      must(
        await time("ReadResource", () =>
          p.readResource({
            typeName: "aws_s3_bucket",
            currentState: applied.newState!,
            private: applied.private,
          })),
      );
      const t1 = performance.now();
      const del = must(
        await p.planResourceChange({
          typeName: "aws_s3_bucket",
          priorState: applied.newState!,
          proposedNewState: null,
          config: null,
        }),
      );
      must(
        await time("ApplyResourceChange (delete)", () =>
          p.applyResourceChange({
            typeName: "aws_s3_bucket",
            priorState: applied.newState!,
            plannedState: del.plannedState!,
            config: null,
          })),
      );
      note("plan + apply round trip (delete)", performance.now() - t1);
    } finally {
      await time("close (Shutdown)", () => p.close());
    }
    console.error(`run ${i + 1}/${runs} done`);
  }
} finally {
  await m.stop();
}

const median = (l: number[]) => {
  const s = [...l].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
console.log(`| step (${runs} runs, fresh process each) | median ms | min–max ms |`);
console.log("|---|---:|---:|");
for (const [what, l] of samples) {
  console.log(
    `| ${what} | ${median(l).toFixed(0)} | ${Math.min(...l).toFixed(0)}–${
      Math.max(...l).toFixed(0)
    } |`,
  );
}
