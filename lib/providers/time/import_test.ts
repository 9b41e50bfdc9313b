import { strict as assert } from "node:assert";
import { BUILTIN_REGISTRY } from "../registry.ts";
const { findTypes } = BUILTIN_REGISTRY;
import type { Attrs, Response } from "../runtime.ts";
import { TIME_RUNTIME } from "./runtime.ts";

function importOf(name: string, id: string, config: Attrs = {}): Promise<Response<Attrs | null>> {
  const type = findTypes(name).find((f) => f.type.mode === "managed")!.type;
  const h = TIME_RUNTIME.handlers.managed![name];
  return h.import!({ type, address: "t", root: "/", providerConfig: {}, id, config });
}

async function imported(name: string, id: string, config: Attrs = {}): Promise<Attrs> {
  const r = await importOf(name, id, config);
  assert.deepEqual(r.diagnostics, []);
  return r.value!;
}

async function refused(name: string, id: string): Promise<string> {
  const r = await importOf(name, id);
  assert.equal(r.value, undefined);
  assert.equal(r.diagnostics[0]?.summary, `Invalid import ID for ${name}`);
  return r.diagnostics[0].detail;
}

Deno.test("time_static import takes the timestamp, as Terraform's does", async () => {
  assert.deepEqual(await imported("time_static", "2020-02-12T06:36:13Z"), {
    rfc3339: "2020-02-12T06:36:13Z",
    year: 2020,
    month: 2,
    day: 12,
    hour: 6,
    minute: 36,
    second: 13,
    unix: 1581489373,
    id: "2020-02-12T06:36:13Z",
  });
  // triggers cannot be in an ID: they come from the configuration.
  assert.deepEqual(
    (await imported("time_static", "2020-02-12T06:36:13Z", { triggers: { a: "1" } })).triggers,
    { a: "1" },
  );
  assert.match(await refused("time_static", "yesterday"), /not an RFC 3339 timestamp/);
});

Deno.test("time_offset import takes the base and six offsets", async () => {
  const got = await imported("time_offset", "2020-02-12T06:36:13Z,0,0,7,0,0,0");
  assert.equal(got.base_rfc3339, "2020-02-12T06:36:13Z");
  assert.equal(got.offset_days, 7);
  assert.equal(got.offset_years, undefined);
  assert.equal(got.rfc3339, "2020-02-19T06:36:13Z");
  assert.equal(got.id, "2020-02-12T06:36:13Z");
  assert.equal((await imported("time_offset", "2020-02-12T06:36:13Z,,,,2,,")).offset_hours, 2);
  assert.match(await refused("time_offset", "2020-02-12T06:36:13Z,0,0,7"), /six offsets/);
  assert.match(await refused("time_offset", "2020-02-12T06:36:13Z,0,0,0,0,0,0"), /zero or empty/);
  assert.match(await refused("time_offset", "2020-02-12T06:36:13Z,0,0,x,0,0,0"), /"x" is not/);
});

Deno.test("time_rotating import takes the base and the rotation units, or the two timestamps", async () => {
  const units = await imported("time_rotating", "2020-02-12T06:36:13Z,0,0,30,0,0");
  assert.equal(units.rfc3339, "2020-02-12T06:36:13Z");
  assert.equal(units.rotation_days, 30);
  assert.equal(units.rotation_rfc3339, "2020-03-13T06:36:13Z");
  // As Terraform computes them: the parts are those of the rotation time.
  assert.equal(units.month, 3);
  assert.equal(units.day, 13);
  const stamps = await imported("time_rotating", "2020-02-12T06:36:13Z,2020-02-13T06:36:13Z");
  assert.equal(stamps.rotation_rfc3339, "2020-02-13T06:36:13Z");
  assert.equal(stamps.rotation_days, undefined);
  assert.match(await refused("time_rotating", "2020-02-12T06:36:13Z"), /separated by commas/);
  assert.match(await refused("time_rotating", "2020-02-12T06:36:13Z,0,0,0,0,0"), /zero or empty/);
  assert.match(await refused("time_rotating", "2020-02-12T06:36:13Z,0,0,-1,0,0"), /below 1/);
  assert.match(await refused("time_rotating", "2020-02-12T06:36:13Z,soon"), /not an RFC 3339/);
});

Deno.test("time_sleep import takes the two durations, either empty", async () => {
  const got = await imported("time_sleep", "30s,");
  assert.equal(got.create_duration, "30s");
  assert.equal(got.destroy_duration, undefined);
  assert.match(String(got.id), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal((await imported("time_sleep", ",1m")).destroy_duration, "1m");
  assert.match(await refused("time_sleep", "30s"), /two durations/);
  assert.match(await refused("time_sleep", "soon,"), /not a duration/);
});

Deno.test("time_rotating validate refuses a rotation unit below 1, as Terraform's AtLeast(1)", () => {
  const type = findTypes("time_rotating")[0].type;
  const diags = TIME_RUNTIME.handlers.managed!.time_rotating.validate!({
    type,
    address: "r",
    root: "/",
    providerConfig: {},
    config: { rotation_days: -3 },
    unknown: [],
  });
  assert.equal(diags.length, 1);
  assert.equal(diags[0].summary, "Invalid rotation_days -3");
  assert.deepEqual(diags[0].attribute, [{ name: "rotation_days" }]);
});
