import { strict as assert } from "node:assert";
import { BUILTIN_REGISTRY } from "../registry.ts";
const { findTypes } = BUILTIN_REGISTRY;
import type { Attrs, Response } from "../runtime.ts";
import { bcrypt, bcryptDecode, RANDOM_RUNTIME } from "./runtime.ts";

/** What import gives for a managed random type, with the node's configuration. */
function importOf(name: string, id: string, config: Attrs = {}): Promise<Response<Attrs | null>> {
  const type = findTypes(name).find((f) => f.type.mode === "managed")!.type;
  const h = RANDOM_RUNTIME.handlers.managed![name];
  assert.ok(h.import, `${name} imports`);
  return h.import!({ type, address: `x.${name}`, root: "/", providerConfig: {}, id, config });
}

async function imported(name: string, id: string, config: Attrs = {}): Promise<Attrs> {
  const r = await importOf(name, id, config);
  assert.deepEqual(r.diagnostics.filter((d) => d.severity === "error"), []);
  return r.value!;
}

async function refused(name: string, id: string): Promise<string> {
  const r = await importOf(name, id);
  assert.equal(r.value, undefined);
  assert.equal(r.diagnostics.length, 1);
  assert.equal(r.diagnostics[0].summary, `Invalid import ID for ${name}`);
  return r.diagnostics[0].detail;
}

Deno.test("random_integer import reads RESULT,MIN,MAX[,SEED] as Terraform's does", async () => {
  assert.deepEqual(await imported("random_integer", "15390,1,50000"), {
    min: 1,
    max: 50000,
    result: 15390,
    id: "15390",
  });
  assert.deepEqual(await imported("random_integer", "-3,-5,5,base"), {
    min: -5,
    max: 5,
    seed: "base",
    result: -3,
    id: "-3",
  });
});

Deno.test("random_integer import takes what the ID does not carry from the configuration", async () => {
  const got = await imported("random_integer", "7,1,9", {
    min: 1,
    max: 9,
    seed: "cfg",
    keepers: { a: "b" },
  });
  assert.deepEqual(got, { min: 1, max: 9, seed: "cfg", keepers: { a: "b" }, result: 7, id: "7" });
  // What the ID says wins over the configuration.
  assert.equal((await imported("random_integer", "7,1,9,id", { seed: "cfg" })).seed, "id");
  assert.equal((await imported("random_integer", "7,2,8", { min: 1, max: 9 })).min, 2);
});

Deno.test("random_integer import refuses a malformed ID or a result out of its range", async () => {
  assert.match(await refused("random_integer", "15390"), /of the form RESULT,MIN,MAX\[,SEED\]/);
  assert.match(await refused("random_integer", "a,1,2"), /not three whole numbers/);
  assert.match(await refused("random_integer", "1,2,3,4,5"), /not three whole numbers/);
  assert.match(await refused("random_integer", "10,1,9"), /10 is not between min 1 and max 9/);
  assert.match(await refused("random_integer", "5,9,1"), /`pravo import x\.random_integer /);
});

Deno.test("random_string import takes the value, its length from it, the rest from the configuration", async () => {
  assert.deepEqual(await imported("random_string", "abc123"), {
    length: 6,
    upper: true,
    lower: true,
    numeric: true,
    special: true,
    min_upper: 0,
    min_lower: 0,
    min_numeric: 0,
    min_special: 0,
    number: true,
    result: "abc123",
    id: "abc123",
  });
  const cfg = await imported("random_string", "abcdef", {
    length: 6,
    special: false,
    upper: false,
  });
  assert.equal(cfg.special, false);
  assert.equal(cfg.upper, false);
  assert.equal(cfg.length, 6);
  assert.match(await refused("random_string", ""), /The ID is empty/);
});

Deno.test("random_string import warns of characters its configuration does not allow", async () => {
  const r = await importOf("random_string", "ab!CD", { special: false, upper: false });
  assert.equal(r.value?.result, "ab!CD");
  assert.equal(r.diagnostics.length, 1);
  assert.equal(r.diagnostics[0].severity, "warning");
  assert.match(r.diagnostics[0].detail, /It holds upper, special characters/);
  const clean = await importOf("random_string", "abcd", { special: false, upper: false });
  assert.deepEqual(clean.diagnostics, []);
});

Deno.test("random_password import keeps the value secret and hashes it as a create would", async () => {
  const got = await imported("random_password", "s3cret-Value");
  assert.equal(got.result, "s3cret-Value");
  assert.equal(got.id, "none");
  assert.equal(got.length, 12);
  const hash = String(got.bcrypt_hash);
  assert.match(hash, /^\$2a\$10\$/);
  const salt = bcryptDecode(hash.slice(7, 29));
  assert.equal(bcrypt("s3cret-Value", 10, salt), hash);
});

Deno.test("random_id import reads [PREFIX,]B64_URL as Terraform's does", async () => {
  assert.deepEqual(await imported("random_id", "p-9hUg"), {
    byte_length: 4,
    id: "p-9hUg",
    b64_url: "p-9hUg",
    b64_std: "p+9hUg==",
    hex: "a7ef6152",
    dec: "2817483090",
  });
  const pre = await imported("random_id", "my-prefix-,p-9hUg");
  assert.equal(pre.prefix, "my-prefix-");
  assert.equal(pre.id, "p-9hUg");
  assert.equal(pre.b64_url, "my-prefix-p-9hUg");
  assert.equal(pre.hex, "my-prefix-a7ef6152");
  // A prefix with a comma in it: the ID is after the last one.
  assert.equal((await imported("random_id", "a,b,p-9hUg")).prefix, "a,b");
  // Without one in the ID, the configuration's prefix is in the encodings.
  assert.equal((await imported("random_id", "p-9hUg", { prefix: "cfg-" })).b64_url, "cfg-p-9hUg");
  assert.match(await refused("random_id", "p+9hUg=="), /not URL-safe base64/);
  assert.match(await refused("random_id", ""), /not URL-safe base64/);
});

Deno.test("random_uuid import takes a UUID", async () => {
  const u = "aabbccdd-eeff-0011-2233-445566778899";
  assert.deepEqual(await imported("random_uuid", u), { result: u, id: u });
  assert.match(await refused("random_uuid", "not-a-uuid"), /is not a UUID/);
});

Deno.test("random_bytes import reads standard base64", async () => {
  const got = await imported("random_bytes", "8/fu3q+2DcgSJ19i0jZ5Cw==");
  assert.equal(got.length, 16);
  assert.equal(got.base64, "8/fu3q+2DcgSJ19i0jZ5Cw==");
  assert.equal(got.hex, "f3f7eedeafb60dc812275f62d236790b");
  assert.equal(got.id, "none");
  assert.match(await refused("random_bytes", "***"), /not standard base64/);
});

Deno.test("random_pet and random_shuffle cannot be imported, as in Terraform", () => {
  for (const name of ["random_pet", "random_shuffle"]) {
    assert.equal(RANDOM_RUNTIME.handlers.managed![name].import, undefined, name);
  }
});
