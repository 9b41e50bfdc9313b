/**
 * The plugin layer against a provider that speaks protocol 6: the fake one
 * in `fake_provider.ts`, a real gRPC server in its own process. Mutual TLS,
 * every call of the interface, the attribute paths of diagnostics, many
 * calls in flight, Stop, and the ways a provider fails: a bad handshake
 * line, dying before or during a call, a slow handshake, ignoring Stop and
 * Shutdown.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { makeClientCertificate } from "../../lib/plugin/cert.ts";
import { CallError, Connection } from "../../lib/plugin/grpc.ts";
import { providerMethod } from "../../lib/plugin/proto/load.ts";
import {
  formatPath,
  isUnknown,
  proposedNewState,
  runningPlugins,
  Typed,
  UNKNOWN,
  type Value,
} from "../../lib/plugin/mod.ts";
import { alive, gone, mustStartFake, planThing, startFake } from "./_fake.ts";

type Obj = Record<string, Value>;

Deno.test("a protocol 6 provider starts with AutoMTLS, answers metadata and its schema, and closes", async () => {
  const p = await mustStartFake();
  try {
    assert.equal(p.protocol, 6);
    assert.equal(p.process.tls, true);
    const md = await p.getMetadata();
    assert.deepEqual(md.diagnostics, []);
    assert.deepEqual(md.resources, ["fake_thing"]);
    assert.deepEqual(md.ephemeralResources, ["fake_token"]);
    assert.equal(md.serverCapabilities.getProviderSchemaOptional, true);
    const { schema, diagnostics } = await p.getProviderSchema();
    assert.deepEqual(diagnostics, []);
    const thing = schema!.resources.fake_thing;
    assert.equal(thing.version, 1);
    const a = thing.block.attributes;
    // Every flag is kept.
    assert.equal(a.secret.sensitive, true);
    assert.equal(a.password_wo.writeOnly, true);
    assert.equal(a.id.computed, true);
    assert.equal(a.name.required, true);
    assert.deepEqual(a.payload.type, "dynamic");
    assert.equal(a.rules.nestedType?.nesting, "list");
    assert.equal(a.rules.nestedType?.attributes.port.required, true);
    const b = thing.block.blockTypes;
    assert.deepEqual(
      Object.fromEntries(Object.entries(b).map(([k, n]) => [k, n.nesting])),
      { settings: "single", listener: "list", extra: "set", labels: "map", limits: "group" },
    );
    assert.equal(b.listener.maxItems, 2);
    assert.equal(schema!.provider.block.attributes.token.sensitive, true);
  } finally {
    await p.close();
  }
  assert.ok(p.process.exitInfo, "the process has exited");
  assert.equal(p.process.exitInfo?.code, 0);
  assert.ok(!alive(p.process.pid));
});

Deno.test("without AutoMTLS the connection is plain gRPC over the unix socket", async () => {
  await using p = await mustStartFake("normal", { autoMTLS: false });
  assert.equal(p.process.tls, false);
  assert.deepEqual((await p.getMetadata()).resources, ["fake_thing"]);
});

Deno.test("with AutoMTLS the provider refuses a client that has another certificate", async () => {
  const p = await mustStartFake();
  const stranger = await makeClientCertificate();
  const hs = p.process.handshake;
  const conn = new Connection({ network: hs.network, address: hs.address }, {
    serverPem: hs.serverCert!.pem,
    serverDer: hs.serverCert!.der,
    clientCertPem: stranger.certPem,
    clientKeyPem: stranger.keyPem,
  });
  try {
    await assert.rejects(
      conn.unary(providerMethod(6, "getMetadata"), {}, { deadlineMs: 5000 }),
      (e: unknown) => e instanceof CallError,
    );
    // pravo's own connection still works.
    assert.deepEqual((await p.getMetadata()).diagnostics, []);
  } finally {
    conn.close();
    await p.close();
  }
});

Deno.test("provider diagnostics keep their severity and attribute paths", async () => {
  await using p = await mustStartFake();
  const r = await p.validateResourceConfig({
    typeName: "fake_thing",
    config: { name: "a", size: -1, rules: [{ port: 1 }, { port: 70000 }], tags: { bad: "1" } },
  });
  assert.deepEqual(
    r.diagnostics.map((d) => [d.severity, d.summary, formatPath(d.attribute ?? [])]),
    [
      ["error", "Invalid size", "size"],
      ["error", "Invalid port", "rules[1].port"],
      ["warning", "Odd tag", 'tags["bad"]'],
    ],
  );
  assert.deepEqual(r.diagnostics[1].attribute, [{ name: "rules" }, { index: 1 }, {
    name: "port",
  }]);
  const c = await p.validateProviderConfig({ config: { endpoint: "bad" } });
  assert.deepEqual(c.diagnostics.map((d) => d.attribute), [[{ name: "endpoint" }]]);
  // A value that does not fit the schema never leaves pravo: a diagnostic names its path.
  const wrong = await p.validateResourceConfig({
    typeName: "fake_thing",
    config: { name: "a", colour: "red" },
  });
  assert.equal(wrong.diagnostics.length, 1);
  assert.match(wrong.diagnostics[0].summary, /could not send ValidateResourceConfig/);
  assert.deepEqual(wrong.diagnostics[0].attribute, [{ name: "colour" }]);
  const noType = await p.validateResourceConfig({ typeName: "fake_nope", config: {} });
  assert.match(noType.diagnostics[0].summary, /has no resource type "fake_nope"/);
});

Deno.test("a resource's whole life over protocol 6: plan, apply, read, update, replace, import, upgrade, move, delete", async () => {
  await using p = await mustStartFake();
  const { schema } = await p.getProviderSchema();
  const block = schema!.resources.fake_thing.block;
  assert.deepEqual(
    (await p.configureProvider({ config: { endpoint: "http://fake" } })).diagnostics,
    [],
  );

  const config: Obj = {
    name: "one",
    size: 2.5,
    tags: { env: "test" },
    secret: "s3cret",
    password_wo: "hunter2",
    payload: { any: ["shape", 1] },
    rules: [{ port: 80 }],
    settings: { mode: "fast" },
    listener: [{ port: 8080 }],
    extra: [{ k: "a" }],
    labels: { blue: { v: "b" } },
  };
  // Create.
  const plan = await p.planResourceChange({
    typeName: "fake_thing",
    priorState: null,
    proposedNewState: proposedNewState(block, null, config),
    config,
  });
  assert.deepEqual(plan.diagnostics, []);
  const planned = plan.plannedState as Obj;
  assert.ok(isUnknown(planned.id) && isUnknown(planned.created));
  assert.equal(planned.password_wo, null, "a write-only value is never planned");
  assert.deepEqual(planned.limits, { max: null }, "an absent group block is an object of nulls");
  assert.deepEqual((planned.rules as Obj[])[0], { port: 80, note: null });
  assert.ok(planned.payload instanceof Typed);
  const applied = await p.applyResourceChange({
    typeName: "fake_thing",
    priorState: null,
    plannedState: planned,
    config,
    plannedPrivate: plan.plannedPrivate,
  });
  assert.deepEqual(applied.diagnostics, []);
  const state = applied.newState as Obj;
  assert.equal(state.id, "thing-1");
  assert.equal(state.size, 2.5);
  assert.deepEqual(JSON.parse(new TextDecoder().decode(applied.private)), { planned: true });

  // Read it back.
  const read = await p.readResource({
    typeName: "fake_thing",
    currentState: state,
    private: applied.private,
  });
  assert.deepEqual(read.diagnostics, []);
  assert.deepEqual(read.newState, state);

  // Update in place: id and created carry over from the prior state (ProposedNew).
  const config2 = { ...config, size: 3 };
  const proposed2 = proposedNewState(block, state, config2) as Obj;
  assert.equal(proposed2.id, "thing-1");
  const plan2 = await p.planResourceChange({
    typeName: "fake_thing",
    priorState: state,
    proposedNewState: proposed2,
    config: config2,
  });
  assert.deepEqual(plan2.requiresReplace, []);
  const up = await p.applyResourceChange({
    typeName: "fake_thing",
    priorState: state,
    plannedState: plan2.plannedState!,
    config: config2,
  });
  assert.equal((up.newState as Obj).size, 3);
  assert.equal((up.newState as Obj).id, "thing-1");

  // A new name forces a replacement.
  const config3 = { ...config2, name: "two" };
  const plan3 = await p.planResourceChange({
    typeName: "fake_thing",
    priorState: up.newState!,
    proposedNewState: proposedNewState(block, up.newState!, config3),
    config: config3,
  });
  assert.deepEqual(plan3.requiresReplace.map(formatPath), ["name"]);

  // Import: the provider gives the id, a read fills the rest.
  const imp = await p.importResourceState({ typeName: "fake_thing", id: "thing-1" });
  assert.deepEqual(imp.diagnostics, []);
  assert.equal(imp.importedResources.length, 1);
  assert.equal((imp.importedResources[0].state as Obj).id, "thing-1");
  const filled = await p.readResource({
    typeName: "fake_thing",
    currentState: imp.importedResources[0].state,
  });
  assert.equal((filled.newState as Obj).size, 3);

  // A state written with schema version 0 is upgraded from its JSON.
  const upg = await p.upgradeResourceState({
    typeName: "fake_thing",
    version: 0,
    rawStateJSON: JSON.stringify({ id: "old-1", title: "legacy", created: "then" }),
  });
  assert.deepEqual(upg.diagnostics, []);
  assert.equal((upg.upgradedState as Obj).name, "legacy");

  // A move from another type.
  const mv = await p.moveResourceState({
    sourceProviderAddress: "example/fake",
    sourceTypeName: "fake_old",
    sourceSchemaVersion: 0,
    sourceStateJSON: '{"id":"m1","label":"moved"}',
    targetTypeName: "fake_thing",
  });
  assert.deepEqual(mv.diagnostics, []);
  assert.equal((mv.targetState as Obj).name, "moved");

  // Delete: plan with the proposal and config null, apply with planned null.
  const del = await p.planResourceChange({
    typeName: "fake_thing",
    priorState: up.newState!,
    proposedNewState: null,
    config: null,
  });
  assert.equal(del.plannedState, null);
  const gone = await p.applyResourceChange({
    typeName: "fake_thing",
    priorState: up.newState!,
    plannedState: null,
    config: null,
  });
  assert.deepEqual(gone.diagnostics, []);
  assert.equal(gone.newState, null);
  const after = await p.readResource({ typeName: "fake_thing", currentState: up.newState! });
  assert.equal(after.newState, null, "a deleted object reads as null");
});

Deno.test("data sources and ephemeral resources over protocol 6", async () => {
  await using p = await mustStartFake();
  const ds = await p.readDataSource({ typeName: "fake_slow", config: { ms: 1 } });
  assert.deepEqual(ds.diagnostics, []);
  assert.equal((ds.state as Obj).done, true);
  const open = await p.openEphemeralResource({
    typeName: "fake_token",
    config: { prefix: "p-" },
  });
  assert.deepEqual(open.diagnostics, []);
  assert.equal((open.result as Obj).value, "p-secret-1");
  assert.ok(open.renewAt instanceof Date && open.renewAt.getTime() > Date.now());
  const renewed = await p.renewEphemeralResource({
    typeName: "fake_token",
    private: open.private,
  });
  assert.equal(new TextDecoder().decode(renewed.private), "token-1-renewed");
  const closed = await p.closeEphemeralResource({
    typeName: "fake_token",
    private: renewed.private,
  });
  assert.deepEqual(closed.diagnostics, []);
  const ok = await p.validateEphemeralResourceConfig({
    typeName: "fake_token",
    config: { prefix: "x" },
  });
  assert.deepEqual(ok.diagnostics, []);
  const bad = await p.validateEphemeralResourceConfig({
    typeName: "fake_token",
    config: { prefix: "bad" },
  });
  assert.deepEqual(bad.diagnostics.map((d) => [d.summary, d.attribute]), [
    ["Bad prefix", [{ name: "prefix" }]],
  ]);
  // A call the provider does not implement is a diagnostic that says so.
  const other = await p.validateDataResourceConfig({ typeName: "fake_slow", config: { ms: 1 } });
  assert.match(
    other.diagnostics[0]?.summary ?? "",
    /does not support ValidateDataResourceConfig/,
  );
});

Deno.test("many calls are in flight at once on one provider", async () => {
  await using p = await mustStartFake();
  const reads = await Promise.all(
    Array.from(
      { length: 8 },
      () => p.readDataSource({ typeName: "fake_slow", config: { ms: 300 } }),
    ),
  );
  assert.ok(reads.every((r) => r.diagnostics.length === 0));
  const stats = await p.readDataSource({ typeName: "fake_stats", config: {} });
  assert.ok(((stats.state as Obj).max_in_flight as number) > 1, JSON.stringify(stats.state));
});

Deno.test("stopProvider() makes calls in flight return early", async () => {
  await using p = await mustStartFake();
  const slow = p.readDataSource({ typeName: "fake_slow", config: { ms: 60_000 } });
  // Wait until the read is in the provider.
  for (let i = 0; i < 100; i++) {
    const s = await p.readDataSource({ typeName: "fake_stats", config: {} });
    if (((s.state as Obj).max_in_flight as number) >= 2) break;
  }
  const stop = await p.stopProvider();
  assert.deepEqual(stop.diagnostics, []);
  const r = await slow;
  assert.deepEqual(r.diagnostics.map((d) => d.summary), ["Stopped"]);
  // The process still serves after a Stop.
  assert.deepEqual((await p.getMetadata()).diagnostics, []);
});

Deno.test("an AbortSignal cancels one call", async () => {
  await using p = await mustStartFake();
  const ac = new AbortController();
  const slow = p.readDataSource({ typeName: "fake_slow", config: { ms: 60_000 } }, {
    signal: ac.signal,
  });
  setTimeout(() => ac.abort(), 100);
  const r = await slow;
  assert.match(r.diagnostics[0].summary, /ReadDataSource .* was cancelled/);
});

Deno.test("the provider's environment holds the user's variables and none of pravo's", async () => {
  const p = await mustStartFake("normal", {
    environment: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      AWS_REGION: "eu-west-3",
      HTTPS_PROXY: "http://proxy:3128",
      PRAVO_KEY: "c2VjcmV0",
      PRAVO_STATE: "postgres://u:pw@db/x",
      pravo_key: "lower",
      DENO_AUTH_TOKENS: "tok@example",
      PLUGIN_CLIENT_CERT: "forged",
    },
    env: { EXTRA: "yes", PRAVO_SNEAKY: "no" },
  });
  try {
    const names = [
      "AWS_REGION",
      "HTTPS_PROXY",
      "PRAVO_KEY",
      "PRAVO_STATE",
      "pravo_key",
      "DENO_AUTH_TOKENS",
      "EXTRA",
      "PRAVO_SNEAKY",
      "TF_LOG_PROVIDER",
      "TF_LOG_PROVIDER_FAKE",
    ];
    const r = await p.readDataSource({ typeName: "fake_env", config: { names } });
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual((r.state as Obj).values, {
      AWS_REGION: "eu-west-3",
      HTTPS_PROXY: "http://proxy:3128",
      EXTRA: "yes",
      TF_LOG_PROVIDER: "WARN",
      TF_LOG_PROVIDER_FAKE: "WARN",
    });
    // The forged client certificate was replaced by pravo's own: TLS works.
    assert.equal(p.process.tls, true);
  } finally {
    await p.close();
  }
});

Deno.test("a provider that prints something else than a handshake line is stopped, with what it printed", async () => {
  const before = runningPlugins();
  const r = await startFake("bad-line");
  assert.equal(r.value, undefined);
  assert.equal(r.diagnostics.length, 1);
  const d = r.diagnostics[0];
  assert.equal(d.summary, 'The provider "example/fake" did not start');
  assert.match(
    d.detail,
    /it printed "hello, I am not a plugin", which is not a plugin handshake line/,
  );
  assert.match(d.detail, /Check that ".*" is a Terraform or OpenTofu provider/);
  assert.equal(runningPlugins(), before);
});

Deno.test("a provider that dies before its handshake: its exit code and last output are reported", async () => {
  const r = await startFake("die");
  assert.equal(r.value, undefined);
  const d = r.diagnostics[0];
  assert.equal(d.summary, 'The provider "example/fake" did not start');
  assert.match(d.detail, /It exited with code 3 before it printed its handshake line/);
  assert.match(d.detail, /fatal: the fake provider cannot start \(as asked\)/);
});

Deno.test("a provider that is too slow to shake hands is killed after the time limit", async () => {
  // A shell that says it starts and then waits: its line comes within
  // milliseconds, long before the limit. (The fake provider itself loads
  // gRPC first, 0.7 s on an idle machine: a loaded one passed the limit
  // before the line came.)
  const r = await startFake("normal", {
    command: "/bin/sh",
    args: ["-c", 'echo "fake provider starting" >&2; exec sleep 60'],
    handshakeTimeoutMs: 1500,
  });
  assert.equal(r.value, undefined);
  const d = r.diagnostics[0];
  assert.match(d.detail, /It printed no handshake line within 1\.5 s and was stopped/);
  assert.match(d.detail, /fake provider starting/);
});

Deno.test("a provider that prints kilobytes and no newline is stopped, not waited for", async () => {
  const before = runningPlugins();
  const r = await startFake("noisy");
  assert.equal(r.value, undefined);
  const d = r.diagnostics[0];
  assert.match(
    d.detail,
    /Its handshake failed: it printed "x{200}…" instead of its handshake line/,
  );
  assert.equal(runningPlugins(), before);
});

Deno.test("a stop signal sends Stop to the provider, as Ctrl-C does", async () => {
  const ac = new AbortController();
  await using p = await mustStartFake("normal", { stopSignal: ac.signal });
  const slow = p.readDataSource({ typeName: "fake_slow", config: { ms: 60_000 } });
  // Stop only once the slow read is in flight (the stats call is the other).
  const end = Date.now() + 60_000;
  for (;;) {
    const s = await p.readDataSource({ typeName: "fake_stats", config: {} });
    if (((s.state as Obj).max_in_flight as number) >= 2) break;
    if (Date.now() > end) throw new Error("the slow read never reached the provider");
    await new Promise((r) => setTimeout(r, 20));
  }
  ac.abort();
  const r = await slow;
  assert.deepEqual(r.diagnostics.map((d) => d.summary), ["Stopped"]);
  const stats = await p.readDataSource({ typeName: "fake_stats", config: {} });
  assert.equal((stats.state as Obj).stops, 1);
});

Deno.test("a missing executable is a diagnostic that says to run pravo init", async () => {
  const r = await startFake("normal", { command: "/nonexistent/terraform-provider-x" });
  assert.equal(r.value, undefined);
  assert.match(r.diagnostics[0].detail, /does not exist\. Run `pravo init` to install it\./);
});

Deno.test("a provider that ignores Stop and Shutdown is killed after the grace period", async () => {
  const p = await mustStartFake("ignore-stop", { shutdownGraceMs: 500 });
  const pid = p.process.pid;
  const slow = p.readDataSource({ typeName: "fake_slow", config: { ms: 60_000 } });
  const stop = await p.stopProvider();
  assert.deepEqual(stop.diagnostics, []);
  await p.close();
  assert.equal(p.process.exitInfo?.signal, "SIGKILL");
  assert.ok(await gone(pid), "the process is gone");
  // The call in flight ends with a diagnostic, not a hang.
  const r = await slow;
  assert.match(r.diagnostics[0].summary, /stopped during ReadDataSource/);
});

Deno.test("a provider that crashes during apply: the diagnostic names the call, the exit and its panic", async () => {
  await using p = await mustStartFake();
  const config = { name: "crash" };
  const plan = await planThing(p, config);
  const r = await p.applyResourceChange({
    typeName: "fake_thing",
    priorState: null,
    plannedState: plan.plannedState!,
    config,
  });
  assert.equal(r.diagnostics.length, 1);
  const d = r.diagnostics[0];
  assert.equal(d.summary, 'The provider "example/fake" stopped during ApplyResourceChange');
  assert.match(d.detail, /The provider process exited with code 2\./);
  assert.match(d.detail, /panic: boom/);
  assert.match(d.detail, /about to crash/, "what came over GRPCStdio is in the report too");
  assert.match(d.detail, /run the command again/);
  // Later calls fail the same way, at once.
  const again = await p.getMetadata();
  assert.match(again.diagnostics[0].summary, /stopped during GetMetadata/);
});

Deno.test("unknown values travel to a provider and back, refinements included", async () => {
  await using p = await mustStartFake();
  // A configuration with a value known only after apply (another node's id).
  const plan = await planThing(p, { name: "u", tags: { owner: UNKNOWN } });
  assert.deepEqual(plan.diagnostics, []);
  assert.ok(isUnknown(((plan.plannedState as Obj).tags as Obj).owner));
});

Deno.test("GRPCStdio output and stderr are drained and kept", async () => {
  await using p = await mustStartFake();
  await p.configureProvider({ config: { endpoint: "http://drained" } });
  // The stdio stream is asynchronous: wait for the line (at most 60 s: a
  // guard, not a measure; 1 s was short on a loaded machine).
  const end = Date.now() + 60_000;
  while (!p.process.outputReport().includes("drained") && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.match(
    p.process.outputReport(),
    /configured with endpoint http:\/\/drained for core 1\.11\.4/,
  );
  assert.ok(p.process.outputBytes > 0);
});

Deno.test("the logSink gets every byte the provider writes", async () => {
  const chunks: Uint8Array[] = [];
  const p = await mustStartFake("normal", { logSink: (b) => chunks.push(b) });
  await p.close();
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  assert.match(text, /fake provider starting/);
  assert.match(text, /fake provider serving/);
});
