import { strict as assert } from "node:assert";
import { BUILTIN_REGISTRY } from "../registry.ts";
const { findTypes } = BUILTIN_REGISTRY;
import type { Attrs, RequestBase, TypeHandler } from "../runtime.ts";
import type { Mode } from "../schema.ts";
import { bcrypt, bcryptDecode, generateString, petName, RANDOM_RUNTIME } from "./runtime.ts";
import { cryptoBytes, seededBytes } from "../_util.ts";

function base(mode: Mode, name: string): RequestBase {
  const type = findTypes(name).find((f) => f.type.mode === mode)!.type;
  return { type, address: name, root: "/", providerConfig: {} };
}

function handler(mode: "managed" | "ephemeral", name: string): TypeHandler {
  return RANDOM_RUNTIME.handlers[mode]![name];
}

async function create(name: string, config: Attrs): Promise<Attrs> {
  const res = await handler("managed", name).create!({ ...base("managed", name), config });
  assert.deepEqual(res.diagnostics, []);
  return res.value!;
}

function validate(mode: "managed" | "ephemeral", name: string, config: Attrs, unknown = []) {
  return handler(mode, name).validate!({ ...base(mode, name), config, unknown });
}

Deno.test("random_integer create stays within [min, max] and covers it", async () => {
  const seen = new Set<number>();
  for (let i = 0; i < 400; i++) {
    const v = await create("random_integer", { min: -3, max: 3 });
    assert.ok(
      Number.isInteger(v.result) && (v.result as number) >= -3 && (v.result as number) <= 3,
    );
    assert.equal(v.id, String(v.result));
    seen.add(v.result as number);
  }
  assert.equal(seen.size, 7);
  assert.equal((await create("random_integer", { min: 5, max: 5 })).result, 5);
});

Deno.test("random_integer with a seed gives the same result for the same inputs", async () => {
  const a = await create("random_integer", { min: 1, max: 1_000_000, seed: "base" });
  const b = await create("random_integer", { min: 1, max: 1_000_000, seed: "base" });
  assert.equal(a.result, b.result);
  assert.equal(a.seed, "base");
  const others = new Set<unknown>();
  for (const seed of ["a", "b", "c", "d", "e"]) {
    others.add((await create("random_integer", { min: 1, max: 1_000_000, seed })).result);
  }
  assert.ok(others.size > 1, "different seeds should give different results");
});

Deno.test("random_integer validate refuses min greater than max", () => {
  const d = validate("managed", "random_integer", { min: 9, max: 1 });
  assert.equal(d.length, 1);
  assert.equal(d[0].severity, "error");
  assert.match(d[0].detail, /Set min to at most max\.$/);
  assert.deepEqual(validate("managed", "random_integer", { min: 9 }, ["max"] as never), []);
});

function classes(s: string) {
  return {
    upper: [...s].filter((c) => /[A-Z]/.test(c)).length,
    lower: [...s].filter((c) => /[a-z]/.test(c)).length,
    numeric: [...s].filter((c) => /[0-9]/.test(c)).length,
    special: [...s].filter((c) => /[^A-Za-z0-9]/.test(c)).length,
  };
}

Deno.test("random_string honours length, character classes and min_* counts over many samples", async () => {
  const all = new Set<string>();
  for (let i = 0; i < 300; i++) {
    const v = await create("random_string", {
      length: 12,
      special: false,
      upper: false,
      min_numeric: 4,
      min_lower: 2,
    });
    const s = v.result as string;
    assert.equal(s.length, 12);
    assert.equal(v.id, s);
    const c = classes(s);
    assert.equal(c.upper, 0, s);
    assert.equal(c.special, 0, s);
    assert.ok(c.numeric >= 4 && c.lower >= 2, s);
    for (const ch of s) all.add(ch);
  }
  assert.equal(all.size, 36, "every lowercase letter and digit should appear");
});

Deno.test("random_string uses override_special and min_special", async () => {
  for (let i = 0; i < 200; i++) {
    const s = (await create("random_string", {
      length: 8,
      override_special: "_%",
      min_special: 3,
      min_upper: 1,
    })).result as string;
    assert.match(s, /^[A-Za-z0-9_%]{8}$/);
    assert.ok(classes(s).special >= 3 && classes(s).upper >= 1, s);
  }
});

Deno.test("random_string with numeric or number false has no digits", async () => {
  for (const off of [{ numeric: false }, { number: false }]) {
    for (let i = 0; i < 100; i++) {
      const s = (await create("random_string", { length: 20, ...off })).result as string;
      assert.equal(classes(s).numeric, 0, s);
    }
  }
});

Deno.test("random_string validate checks length against the min_* counts and empty classes", () => {
  const short = validate("managed", "random_string", { length: 3, min_upper: 2, min_lower: 2 });
  assert.equal(short.length, 1);
  assert.match(short[0].summary, /Invalid length 3/);
  const none = validate("managed", "random_string", {
    length: 3,
    upper: false,
    lower: false,
    numeric: false,
    special: false,
  });
  assert.match(none[0].summary, /No characters/);
  const warn = validate("managed", "random_string", { length: 3, upper: false, min_upper: 1 });
  assert.deepEqual(warn.map((d) => d.severity), ["warning"]);
  assert.deepEqual(validate("managed", "random_string", { length: 0 }).map((d) => d.summary), [
    "Invalid length 0",
  ]);
});

Deno.test("random_password has a sensitive result, id none and a bcrypt hash of it", async () => {
  const v = await create("random_password", { length: 16, min_special: 2 });
  const s = v.result as string;
  assert.equal(s.length, 16);
  assert.ok(classes(s).special >= 2);
  assert.equal(v.id, "none");
  const hash = v.bcrypt_hash as string;
  assert.match(hash, /^\$2a\$10\$[./A-Za-z0-9]{53}$/);
  assert.equal(bcrypt(s, 10, bcryptDecode(hash.slice(7, 29))), hash);
});

Deno.test("bcrypt() matches the OpenBSD test vectors", () => {
  const vectors: [string, string][] = [
    ["", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy"],
    ["U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"],
    ["U*U*", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK"],
    ["U*U*U", "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"],
    [
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" +
      "chars after 72 are ignored",
      "$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui",
    ],
  ];
  for (const [password, hash] of vectors) {
    assert.equal(bcrypt(password, 5, bcryptDecode(hash.slice(7, 29))), hash, password);
  }
});

Deno.test("ephemeral random_password open returns a result and stores nothing", async () => {
  const h = handler("ephemeral", "random_password");
  assert.equal(h.create, undefined);
  const res = await h.open!({ ...base("ephemeral", "random_password"), config: { length: 24 } });
  assert.deepEqual(res.diagnostics, []);
  assert.equal((res.value!.result as string).length, 24);
  assert.equal(res.value!.length, 24);
});

Deno.test("generateString() draws min_* characters even from a disabled class, as Terraform", () => {
  const s = generateString({
    length: 4,
    classes: [
      { name: "upper", chars: ["A"], enabled: false, min: 2 },
      { name: "lower", chars: ["b"], enabled: true, min: 0 },
    ],
  }, cryptoBytes);
  assert.equal([...s].sort().join(""), "AAbb");
});

Deno.test("random_id gives the same bytes in every encoding, with the prefix", async () => {
  const v = await create("random_id", { byte_length: 8, prefix: "p-" });
  const hex = (v.hex as string).slice(2);
  assert.match(v.hex as string, /^p-[0-9a-f]{16}$/);
  const bytes = Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16)));
  const std = btoa(String.fromCharCode(...bytes));
  assert.equal(v.b64_std, "p-" + std);
  const url = std.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  assert.equal(v.id, url);
  assert.equal(v.b64_url, "p-" + url);
  assert.equal(v.dec, "p-" + BigInt("0x" + hex).toString());
  assert.deepEqual(validate("managed", "random_id", { byte_length: 0 }).length, 1);
});

Deno.test("random_uuid is a version 4 UUID", async () => {
  const v = await create("random_uuid", {});
  assert.match(
    v.result as string,
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
  assert.equal(v.id, v.result);
});

Deno.test("random_pet joins length words with the separator after the prefix", async () => {
  const two = (await create("random_pet", {})).id as string;
  assert.match(two, /^[a-z]+-[a-z]+$/);
  const v = await create("random_pet", { length: 4, separator: "_", prefix: "web" });
  assert.match(v.id as string, /^web_[a-z]+_[a-z]+_[a-z]+_[a-z]+$/);
  assert.match(petName(1, "-", cryptoBytes), /^[a-z]+$/);
  const names = new Set<string>();
  for (let i = 0; i < 50; i++) names.add(petName(2, "-", cryptoBytes));
  assert.ok(names.size > 40);
});

Deno.test("random_shuffle permutes the input, repeats past it, and is stable with a seed", async () => {
  const input = ["a", "b", "c", "d", "e"];
  const v = await create("random_shuffle", { input });
  assert.deepEqual([...(v.result as string[])].sort(), input);
  assert.equal(v.id, "-");
  const two = await create("random_shuffle", { input, result_count: 2 });
  assert.equal((two.result as string[]).length, 2);
  const many = await create("random_shuffle", { input, result_count: 12 });
  assert.equal((many.result as string[]).length, 12);
  assert.deepEqual([...(many.result as string[]).slice(0, 5)].sort(), input);
  const s1 = await create("random_shuffle", { input, seed: "x" });
  const s2 = await create("random_shuffle", { input, seed: "x" });
  assert.deepEqual(s1.result, s2.result);
  assert.deepEqual((await create("random_shuffle", { input: [] })).result, []);
});

Deno.test("random_bytes gives base64 and hex of length bytes", async () => {
  const v = await create("random_bytes", { length: 32 });
  assert.match(v.hex as string, /^[0-9a-f]{64}$/);
  assert.equal(atob(v.base64 as string).length, 32);
  assert.equal(v.id, "none");
});

Deno.test("seededBytes() is a deterministic stream", () => {
  assert.deepEqual(seededBytes("s")(100), seededBytes("s")(100));
  assert.notDeepEqual(seededBytes("s")(32), seededBytes("t")(32));
});

Deno.test("random types have no update and no read: their values never change in place", () => {
  for (const [name, h] of Object.entries(RANDOM_RUNTIME.handlers.managed!)) {
    assert.equal(h.update, undefined, name);
    assert.equal(h.read, undefined, name);
  }
});
