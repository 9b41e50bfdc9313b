import { strict as assert } from "node:assert";
import { BUILTIN_REGISTRY } from "../registry.ts";
const { findTypes } = BUILTIN_REGISTRY;
import type { Attrs, RequestBase, TypeHandler } from "../runtime.ts";
import { TIME_RUNTIME } from "./runtime.ts";
import { formatRfc3339, parseDuration, parseRfc3339 } from "../_util.ts";

function base(name: string, signal?: AbortSignal): RequestBase {
  const type = findTypes(name)[0].type;
  return { type, address: `${name}.x`, root: "/", providerConfig: {}, signal };
}

const h = (name: string): TypeHandler => TIME_RUNTIME.handlers.managed![name];

async function create(name: string, config: Attrs, signal?: AbortSignal) {
  return await h(name).create!({ ...base(name, signal), config });
}

async function created(name: string, config: Attrs): Promise<Attrs> {
  const res = await create(name, config);
  assert.deepEqual(res.diagnostics, []);
  return res.value!;
}

const RFC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

Deno.test("time_static keeps a given timestamp and gives its parts", async () => {
  const v = await created("time_static", { rfc3339: "2024-02-29T13:45:07Z" });
  assert.deepEqual(v, {
    rfc3339: "2024-02-29T13:45:07Z",
    id: "2024-02-29T13:45:07Z",
    year: 2024,
    month: 2,
    day: 29,
    hour: 13,
    minute: 45,
    second: 7,
    unix: Date.UTC(2024, 1, 29, 13, 45, 7) / 1000,
  });
  const off = await created("time_static", { rfc3339: "2024-01-01T01:00:00+02:00" });
  assert.equal(off.rfc3339, "2024-01-01T01:00:00+02:00");
  assert.equal(off.hour, 1);
  assert.equal(off.unix, Date.UTC(2023, 11, 31, 23) / 1000);
});

Deno.test("time_static without rfc3339 takes the time of creation", async () => {
  const before = Math.floor(Date.now() / 1000);
  const v = await created("time_static", {});
  assert.match(v.rfc3339 as string, RFC);
  assert.equal(v.id, v.rfc3339);
  assert.ok((v.unix as number) >= before && (v.unix as number) <= Date.now() / 1000);
  const plan = h("time_static").plan!({
    ...base("time_static"),
    config: {},
    unknown: [],
    prior: null,
  });
  assert.ok(plan.value!.unknown.includes("rfc3339") && plan.value!.unknown.includes("unix"));
});

Deno.test("time_static validate refuses a timestamp that is not RFC 3339", () => {
  const d = h("time_static").validate!({
    ...base("time_static"),
    config: { rfc3339: "2024-02-30" },
    unknown: [],
  });
  assert.equal(d.length, 1);
  assert.match(d[0].summary, /Invalid rfc3339 "2024-02-30"/);
});

Deno.test("time_offset adds the offsets on the calendar and updates in place", async () => {
  const v = await created("time_offset", {
    base_rfc3339: "2024-01-31T10:00:00Z",
    offset_months: 1,
    offset_hours: 3,
  });
  assert.equal(v.rfc3339, "2024-03-02T13:00:00Z"); // 31 January + 1 month, as Go's AddDate
  assert.equal(v.id, "2024-01-31T10:00:00Z");
  assert.equal(v.base_rfc3339, "2024-01-31T10:00:00Z");
  assert.equal(v.month, 3);
  assert.equal(v.day, 2);
  assert.equal(v.hour, 13);
  const upd = await h("time_offset").update!({
    ...base("time_offset"),
    config: { offset_days: -1 },
    prior: v,
  });
  assert.deepEqual(upd.diagnostics, []);
  assert.equal(upd.value!.base_rfc3339, "2024-01-31T10:00:00Z");
  assert.equal(upd.value!.rfc3339, "2024-01-30T10:00:00Z");
  assert.equal(upd.value!.offset_days, -1);
  assert.equal(upd.value!.offset_months, undefined);
});

Deno.test("time_offset plans the offset time when the base is known", () => {
  const plan = h("time_offset").plan!({
    ...base("time_offset"),
    config: { offset_days: 7 },
    unknown: [],
    prior: { base_rfc3339: "2024-01-01T00:00:00Z", offset_days: 1 },
  }).value!;
  assert.equal(plan.attributes.rfc3339, "2024-01-08T00:00:00Z");
  assert.deepEqual(plan.unknown, []);
  const fresh = h("time_offset").plan!({
    ...base("time_offset"),
    config: { offset_days: 7 },
    unknown: [],
    prior: null,
  }).value!;
  assert.ok(fresh.unknown.includes("rfc3339") && fresh.unknown.includes("base_rfc3339"));
  const d = h("time_offset").validate!({ ...base("time_offset"), config: {}, unknown: [] });
  assert.match(d[0].summary, /No offset for time_offset/);
});

Deno.test("time_rotating computes the rotation time and expiresAt returns it", async () => {
  const v = await created("time_rotating", { rfc3339: "2024-01-01T00:00:00Z", rotation_days: 30 });
  assert.equal(v.rotation_rfc3339, "2024-01-31T00:00:00Z");
  assert.equal(v.id, "2024-01-01T00:00:00Z");
  assert.equal(v.day, 31); // the parts are of the rotation time, as Terraform's
  assert.equal(h("time_rotating").expiresAt!(v), "2024-01-31T00:00:00.000Z");
  const given = await created("time_rotating", { rotation_rfc3339: "2030-06-01T00:00:00+01:00" });
  assert.equal(given.rotation_rfc3339, "2030-06-01T00:00:00+01:00");
  assert.match(given.rfc3339 as string, RFC);
  assert.equal(h("time_rotating").expiresAt!(given), "2030-05-31T23:00:00.000Z");
  assert.equal(h("time_rotating").expiresAt!({}), undefined);
});

Deno.test("time_rotating update moves the rotation time from the same base", async () => {
  const prior = await created("time_rotating", { rotation_hours: 1 });
  const upd = await h("time_rotating").update!({
    ...base("time_rotating"),
    config: { rotation_hours: 2 },
    prior,
  });
  assert.equal(upd.value!.rfc3339, prior.rfc3339);
  assert.equal(
    Date.parse(upd.value!.rotation_rfc3339 as string) - Date.parse(prior.rfc3339 as string),
    2 * 3600_000,
  );
});

Deno.test("time_rotating read reports it gone once the rotation time has passed", async () => {
  const past = await created("time_rotating", {
    rfc3339: "2020-01-01T00:00:00Z",
    rotation_days: 1,
  });
  const future = await created("time_rotating", { rotation_days: 1 });
  const read = (prior: Attrs) => h("time_rotating").read!({ ...base("time_rotating"), prior });
  assert.equal((await read(past)).value, null);
  assert.deepEqual((await read(future)).value, future);
});

Deno.test("time_rotating validate wants a rotation and warns when two kinds are set", () => {
  const v = (config: Attrs) =>
    h("time_rotating").validate!({ ...base("time_rotating"), config, unknown: [] });
  assert.match(v({})[0].summary, /No rotation/);
  const both = v({ rotation_days: 1, rotation_rfc3339: "2030-01-01T00:00:00Z" });
  assert.deepEqual(both.map((d) => d.severity), ["warning"]);
});

Deno.test("time_sleep create waits create_duration, then records the time", async () => {
  const started = performance.now();
  const v = await created("time_sleep", { create_duration: "50ms" });
  assert.ok(performance.now() - started >= 50, "should wait at least the duration");
  assert.match(v.id as string, RFC);
  assert.equal(v.create_duration, "50ms");
});

Deno.test("time_sleep delete waits destroy_duration", async () => {
  const started = performance.now();
  const res = await h("time_sleep").delete!({
    ...base("time_sleep"),
    prior: { destroy_duration: "0.05s", id: "2024-01-01T00:00:00Z" },
  });
  assert.deepEqual(res.diagnostics, []);
  assert.ok(performance.now() - started >= 50);
});

Deno.test("time_sleep create stops when the signal aborts and says so", async () => {
  const ctl = new AbortController();
  setTimeout(() => ctl.abort(), 20);
  const started = performance.now();
  const res = await create("time_sleep", { create_duration: "10s" }, ctl.signal);
  assert.ok(performance.now() - started < 5000);
  assert.equal(res.value, undefined);
  assert.equal(res.diagnostics[0].summary, "Interrupted while waiting");
  assert.match(res.diagnostics[0].detail, /run apply again to create it\.$/);
});

Deno.test("time_sleep update changes durations without waiting and keeps the id", async () => {
  const started = performance.now();
  const res = await h("time_sleep").update!({
    ...base("time_sleep"),
    config: { create_duration: "1h" },
    prior: { create_duration: "1s", id: "2024-01-01T00:00:00Z" },
  });
  assert.ok(performance.now() - started < 1000);
  assert.deepEqual(res.value, { create_duration: "1h", id: "2024-01-01T00:00:00Z" });
});

Deno.test("time_sleep validate refuses durations Go would not parse", () => {
  const v = (config: Attrs) =>
    h("time_sleep").validate!({ ...base("time_sleep"), config, unknown: [] });
  assert.deepEqual(v({ create_duration: "1m30s", destroy_duration: "250ms" }), []);
  assert.match(v({ create_duration: "30" })[0].summary, /Invalid create_duration "30"/);
  assert.equal(v({ destroy_duration: "-1s" }).length, 1);
});

Deno.test("parseDuration() and parseRfc3339() read what Go reads", () => {
  assert.equal(parseDuration("1h30m"), 5_400_000);
  assert.equal(parseDuration("1.5s"), 1500);
  assert.equal(parseDuration("250ms"), 250);
  assert.equal(parseDuration("0"), 0);
  assert.equal(parseDuration("30"), undefined);
  assert.equal(parseDuration(""), undefined);
  assert.equal(parseDuration("1d"), undefined);
  assert.equal(parseRfc3339("2023-02-29T00:00:00Z"), undefined);
  assert.equal(parseRfc3339("2024-01-01 00:00:00Z"), undefined);
  const t = parseRfc3339("0050-01-01T00:00:00-01:30")!;
  assert.equal(formatRfc3339(t), "0050-01-01T00:00:00-01:30");
  assert.equal(new Date(t.ms).toISOString(), "0050-01-01T01:30:00.000Z");
});

Deno.test("time_offset and time_rotating refuse to create with a timestamp that does not parse", async () => {
  const offset = await create("time_offset", { base_rfc3339: "soon", offset_days: 1 });
  assert.equal(offset.value, undefined);
  assert.deepEqual(offset.diagnostics.map((d) => d.summary), ['Invalid base_rfc3339 "soon"']);
  const rotating = await create("time_rotating", {
    rfc3339: "2024-01-01T00:00:00Z",
    rotation_rfc3339: "later",
  });
  assert.equal(rotating.value, undefined);
  assert.deepEqual(rotating.diagnostics.map((d) => d.summary), ["Invalid timestamp"]);
});

Deno.test("time_offset updates from the prior base when the configuration sets none", async () => {
  const prior = { base_rfc3339: "2024-01-01T00:00:00Z" };
  const r = await h("time_offset").update!({
    ...base("time_offset"),
    config: { offset_days: 1 },
    prior,
  });
  assert.deepEqual(r.diagnostics, []);
  assert.equal(r.value!.base_rfc3339, "2024-01-01T00:00:00Z");
  assert.equal(r.value!.rfc3339, "2024-01-02T00:00:00Z");
});
