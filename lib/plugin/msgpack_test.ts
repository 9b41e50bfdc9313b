import assert from "node:assert/strict";
import { decodeMsgpack, encodeMsgpack } from "./msgpack.ts";
import { decodeJSON, encodeJSON } from "./json.ts";
import {
  type CtyType,
  formatPath,
  inferType,
  isWhollyKnown,
  parseType,
  Typed,
  typeName,
  UNKNOWN,
  Unknown,
  unknownPaths,
  type Value,
  ValueError,
} from "./value.ts";

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(" ");
const bytes = (h: string) => Uint8Array.from(h.split(" ").map((x) => parseInt(x, 16)));

function roundTrip(v: Value, t: CtyType): Value {
  return decodeMsgpack(encodeMsgpack(v, t), t);
}

Deno.test("encodeMsgpack() writes unknown as cty does: fixext1 type 0, d4 00 00", () => {
  assert.equal(hex(encodeMsgpack(UNKNOWN, "string")), "d4 00 00");
  assert.equal(hex(encodeMsgpack(UNKNOWN, ["list", "string"])), "d4 00 00");
  assert.equal(hex(encodeMsgpack(UNKNOWN, "dynamic")), "d4 00 00");
});

Deno.test("decodeMsgpack() reads unknown, and the refinements of extension 12", () => {
  assert.equal(decodeMsgpack(bytes("d4 00 00"), "number"), UNKNOWN);
  // What the AWS provider sends for a computed string it promises is not null.
  const u = decodeMsgpack(bytes("c7 03 0c 81 01 c2"), "string");
  assert.ok(u instanceof Unknown);
  assert.deepEqual(u.refinements, { notNull: true });
  // A dynamic value's refinements are ignored, as cty does.
  assert.equal(decodeMsgpack(bytes("c7 03 0c 81 01 c2"), "dynamic"), UNKNOWN);
});

Deno.test("encodeMsgpack() keeps refinements, and they come back", () => {
  const s = roundTrip(new Unknown({ notNull: true, stringPrefix: "arn:aws:" }), "string");
  assert.deepEqual((s as Unknown).refinements, { notNull: true, stringPrefix: "arn:aws:" });
  const n = roundTrip(
    new Unknown({
      numberMin: { value: 1, inclusive: true },
      numberMax: { value: 9.5, inclusive: false },
    }),
    "number",
  );
  assert.deepEqual((n as Unknown).refinements, {
    numberMin: { value: 1, inclusive: true },
    numberMax: { value: 9.5, inclusive: false },
  });
  const l = roundTrip(new Unknown({ lengthMin: 1, lengthMax: 3 }), ["list", "string"]);
  assert.deepEqual((l as Unknown).refinements, { lengthMin: 1, lengthMax: 3 });
  // A refinement that does not apply to the type is left out.
  assert.equal(hex(encodeMsgpack(new Unknown({ stringPrefix: "x" }), "number")), "d4 00 00");
});

Deno.test("decodeMsgpack() refuses an extension that is not unknown", () => {
  assert.throws(
    () => decodeMsgpack(bytes("d5 05 01 02"), "string"),
    /unsupported msgpack extension 5/,
  );
});

Deno.test("encodeMsgpack() writes objects with every attribute, sorted or not, nil where unset", () => {
  const t: CtyType = ["object", { a: "string", b: "number", c: ["list", "string"] }];
  const out = decodeMsgpack(encodeMsgpack({ a: "x" }, t), t);
  assert.deepEqual(out, { a: "x", b: null, c: null });
  // msgpack: a map of three entries.
  assert.equal(encodeMsgpack({ a: "x" }, t)[0], 0x83);
});

Deno.test("encodeMsgpack() names the path of an attribute the type lacks", () => {
  const t: CtyType = ["object", {
    tags: ["map", "string"],
    rules: ["list", ["object", { id: "string" }]],
  }];
  assert.throws(
    () => encodeMsgpack({ rules: [{ id: "a" }, { id: "b", extra: 1 }] }, t),
    (e: unknown) =>
      e instanceof ValueError && formatPath(e.path) === "rules[1].extra" &&
      /unsupported attribute/.test(e.message),
  );
  assert.throws(
    () => encodeMsgpack({ tags: { Name: ["x"] } }, t),
    (e: unknown) =>
      e instanceof ValueError && e.message === 'tags["Name"]: a string is required, not a list',
  );
});

Deno.test("encodeMsgpack() converts primitives as Terraform does for configuration", () => {
  assert.equal(roundTrip(5, "string"), "5");
  assert.equal(roundTrip(true, "string"), "true");
  assert.equal(roundTrip("true", "bool"), true);
  assert.equal(roundTrip("1.5", "number"), 1.5);
  assert.equal(roundTrip("42", "number"), 42);
  assert.throws(
    () => encodeMsgpack("many", "number"),
    /a number is required, not the string "many"/,
  );
  assert.throws(() => encodeMsgpack("yes", "bool"), /a bool is required/);
  assert.throws(() => encodeMsgpack(NaN, "number"), /NaN/);
});

Deno.test("encodeMsgpack() writes integers as integers, fractions as float64, and huge numbers as text", () => {
  assert.equal(hex(encodeMsgpack(5, "number")), "05");
  assert.equal(hex(encodeMsgpack(-1, "number")), "ff");
  assert.equal(hex(encodeMsgpack(300, "number")), "cd 01 2c");
  assert.equal(encodeMsgpack(1.5, "number")[0], 0xcb); // float64
  // 2^63 - 1 travels as a 64-bit integer and comes back as a bigint.
  const max = 2n ** 63n - 1n;
  assert.equal(encodeMsgpack(max, "number")[0], 0xcf); // uint64
  assert.equal(encodeMsgpack(-max, "number")[0], 0xd3); // int64
  assert.equal(roundTrip(-max, "number"), -max);
  assert.equal(roundTrip(max, "number"), max);
  // A number beyond 64 bits travels as its decimal string, as cty writes it.
  const huge = 10n ** 30n;
  assert.equal(encodeMsgpack(huge, "number")[0], 0xbe & 0xe0 | 0x1f); // fixstr of 31 chars
  assert.equal(roundTrip(huge, "number"), huge);
  assert.equal(roundTrip(huge.toString(), "number"), huge);
  // Safe integers come back as numbers even when sent as int64.
  assert.equal(decodeMsgpack(bytes("d3 00 00 00 00 00 00 00 07"), "number"), 7);
  assert.equal(decodeMsgpack(bytes("a3 31 2e 35"), "number"), 1.5); // "1.5"
});

Deno.test("encodeMsgpack() writes a dynamic value as [type JSON, value], null and unknown bare", () => {
  const b = encodeMsgpack({ a: 1, b: ["x"] }, "dynamic");
  assert.equal(b[0], 0x92); // a two-element array
  const v = decodeMsgpack(b, "dynamic");
  assert.ok(v instanceof Typed);
  assert.deepEqual(v.type, ["object", { a: "number", b: ["tuple", ["string"]] }]);
  assert.deepEqual(v.value, { a: 1, b: ["x"] });
  assert.equal(hex(encodeMsgpack(null, "dynamic")), "c0");
  assert.equal(decodeMsgpack(bytes("c0"), "dynamic"), null);
  // A typed value keeps its type through a round trip: a list stays a list.
  const typed = new Typed(["list", "string"], ["a", "b"]);
  const back = roundTrip(typed, "dynamic") as Typed;
  assert.deepEqual(back.type, ["list", "string"]);
  assert.deepEqual(back.value, ["a", "b"]);
  // The type JSON is read whether it came as bytes (cty) or as a string.
  assert.deepEqual(
    (decodeMsgpack(
      bytes("92 a8 22 73 74 72 69 6e 67 22 a1 78".replace(/'/g, "")),
      "dynamic",
    ) as Typed).value,
    "x",
  );
});

Deno.test("decodeMsgpack() round-trips lists, sets, maps, tuples and nested unknowns", () => {
  const t: CtyType = [
    "object",
    {
      l: ["list", "number"],
      s: ["set", "string"],
      m: ["map", ["object", { on: "bool" }]],
      t: ["tuple", ["string", "number"]],
      u: "string",
    },
  ];
  const v: Value = { l: [1, 2.5], s: ["a"], m: { k: { on: true } }, t: ["x", 1], u: UNKNOWN };
  const back = roundTrip(v, t);
  assert.deepEqual(back, v);
  assert.equal(isWhollyKnown(back), false);
  assert.deepEqual(unknownPaths(back).map(formatPath), ["u"]);
  assert.deepEqual(unknownPaths({ a: [1, { b: UNKNOWN }], m: { k: UNKNOWN } }).map(formatPath), [
    "a[1].b",
    "m.k",
  ]);
});

Deno.test("decodeMsgpack() names the path where an answer does not fit its type", () => {
  const t: CtyType = ["object", { rules: ["list", ["object", { port: "number" }]] }];
  const wrong = encodeMsgpack({ rules: [{ port: "80" }, { port: "x" }] }, [
    "object",
    { rules: ["list", ["object", { port: "string" }]] },
  ]);
  assert.throws(
    () => decodeMsgpack(wrong, t),
    (e: unknown) => e instanceof ValueError && formatPath(e.path) === "rules[1].port",
  );
  assert.throws(() => decodeMsgpack(bytes("c1"), "string"), /not valid msgpack/);
});

Deno.test("parseType() checks type expressions and typeName() writes them", () => {
  const t = parseType(["object", { a: "string", b: ["list", ["map", "bool"]] }, ["b"]]);
  assert.equal(typeName(t), "object({a = string, b = list(map(bool))})");
  assert.equal(typeName(parseType(["tuple", ["string", "number"]])), "tuple([string, number])");
  assert.throws(() => parseType("text"), /unknown type "text"/);
  assert.throws(() => parseType(["list"]), /one element type/);
  assert.throws(() => parseType(["object", { a: "string" }, ["z"]]), /optional attributes/);
  assert.throws(() => parseType(["object", { a: ["set", "strin"] }]), /a: unknown type "strin"/);
  assert.deepEqual(inferType([1, "a", true, null]), ["tuple", [
    "number",
    "string",
    "bool",
    "dynamic",
  ]]);
});

Deno.test("decodeJSON() reads Terraform's JSON values, dynamic ones as {value, type}", () => {
  const t: CtyType = ["object", { id: "string", extra: "dynamic", n: "number" }];
  const v = decodeJSON(
    '{"id":"b1","extra":{"value":["a"],"type":["list","string"]},"n":3}',
    t,
  ) as Record<
    string,
    Value
  >;
  assert.equal(v.id, "b1");
  assert.ok(v.extra instanceof Typed);
  assert.deepEqual((v.extra as Typed).type, ["list", "string"]);
  // And writes them back the same way, bigints as plain integers.
  assert.equal(
    new TextDecoder().decode(encodeJSON({ ...v, n: 2n ** 64n })),
    '{"id":"b1","extra":{"value":["a"],"type":["list","string"]},"n":18446744073709551616}',
  );
  assert.throws(() => decodeJSON('{"nope":1}', t), /nope: unsupported attribute/);
});
