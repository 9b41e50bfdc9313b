import { strict as assert } from "node:assert";
import { loadedModules } from "../_testing.ts";
import { BUILTIN_REGISTRY, MODES, PROVIDERS } from "./registry.ts";
const { allTypeNames, findProvider, findTypes } = BUILTIN_REGISTRY;
import type { Attribute, Mode, TypeSchema } from "./schema.ts";

function type(mode: Mode, name: string): TypeSchema {
  const found = findTypes(name).filter((f) => f.type.mode === mode);
  assert.equal(found.length, 1, `${mode}.${name} should exist once`);
  return found[0].type;
}

function attr(mode: Mode, name: string, attribute: string): Attribute {
  const a = type(mode, name).attributes[attribute];
  assert.ok(a, `${mode}.${name} should have attribute ${attribute}`);
  return a;
}

function everyType(): { source: string; type: TypeSchema }[] {
  return PROVIDERS.flatMap((p) => p.types.map((type) => ({ source: p.source, type })));
}

/** One sentence: ends with a period and has no sentence break inside. */
function isOneSentence(s: string): boolean {
  return /\.$/.test(s) && !/[.?!]\s+[A-Z]/.test(s.slice(0, -1));
}

Deno.test("PROVIDERS holds the four built-in providers, sorted by source, version 0.1.0", () => {
  assert.deepEqual(PROVIDERS.map((p) => p.source), [
    "hashicorp/local",
    "hashicorp/null",
    "hashicorp/random",
    "hashicorp/time",
  ]);
  for (const p of PROVIDERS) {
    assert.equal(p.version, "0.1.0", p.source);
    assert.ok(p.description.length > 0, p.source);
  }
});

Deno.test("every type and every attribute has a one-sentence description", () => {
  for (const { source, type } of everyType()) {
    const where = `${source} ${type.mode}.${type.name}`;
    assert.ok(isOneSentence(type.description), `${where}: "${type.description}"`);
    for (const [name, a] of Object.entries(type.attributes)) {
      assert.ok(isOneSentence(a.description), `${where}.${name}: "${a.description}"`);
    }
  }
});

Deno.test("every attribute is exactly one of required, optional or computed-only", () => {
  for (const { type } of everyType()) {
    for (const [name, a] of Object.entries(type.attributes)) {
      const where = `${type.mode}.${type.name}.${name}`;
      assert.ok(!(a.required && a.computed), `${where} is required and computed`);
      assert.ok(!(a.required && a.optional), `${where} is required and optional`);
      assert.ok(a.required || a.optional || a.computed, `${where} is none of them`);
      if (a.required) assert.equal(a.default, undefined, `${where}: required with a default`);
      if (a.computed && !a.optional) {
        assert.ok(!a.forceNew, `${where}: computed-only cannot force replacement`);
        assert.equal(a.default, undefined, `${where}: computed-only with a default`);
      }
    }
  }
});

Deno.test("type names are unique per mode and carry their provider's prefix", () => {
  const seen = new Set<string>();
  for (const { source, type } of everyType()) {
    const key = `${type.mode}.${type.name}`;
    assert.ok(!seen.has(key), `${key} twice`);
    seen.add(key);
    assert.ok(type.name.startsWith(source.split("/")[1] + "_"), key);
    assert.ok(MODES.includes(type.mode), key);
  }
});

/** The hashes of its content that local_file computes, resource and data source alike. */
const LOCAL_FILE_HASHES = [
  "content_base64sha256",
  "content_base64sha512",
  "content_md5",
  "content_sha1",
  "content_sha256",
  "content_sha512",
];

Deno.test("computed-only attributes exist where Terraform has them", () => {
  const expected: Record<string, string[]> = {
    "managed.random_integer": ["id", "result"],
    "managed.random_string": ["id", "result"],
    "managed.random_password": ["bcrypt_hash", "id", "result"],
    "managed.random_id": ["b64_std", "b64_url", "dec", "hex", "id"],
    "managed.random_uuid": ["id", "result"],
    "managed.random_pet": ["id"],
    "managed.random_shuffle": ["id", "result"],
    "managed.random_bytes": ["base64", "hex", "id"],
    "ephemeral.random_password": ["result"],
    "managed.null_resource": ["id"],
    "managed.local_file": [...LOCAL_FILE_HASHES, "id"],
    "data.local_file": ["content", "content_base64", ...LOCAL_FILE_HASHES, "id"],
    "managed.time_static": ["day", "hour", "id", "minute", "month", "second", "unix", "year"],
    "managed.time_offset": [
      "day",
      "hour",
      "id",
      "minute",
      "month",
      "rfc3339",
      "second",
      "unix",
      "year",
    ],
    "managed.time_rotating": ["day", "hour", "id", "minute", "month", "second", "unix", "year"],
    "managed.time_sleep": ["id"],
  };
  for (const [key, names] of Object.entries(expected)) {
    const [mode, name] = key.split(".") as [Mode, string];
    const computedOnly = Object.entries(type(mode, name).attributes)
      .filter(([, a]) => a.computed && !a.optional)
      .map(([n]) => n)
      .sort();
    assert.deepEqual(computedOnly, names, key);
  }
});

Deno.test("attributes that force replacement in Terraform have forceNew", () => {
  const forceNew: Record<string, string[]> = {
    "managed.random_integer": ["keepers", "max", "min", "seed"],
    "managed.random_string": [
      "keepers",
      "length",
      "lower",
      "min_lower",
      "min_numeric",
      "min_special",
      "min_upper",
      "number",
      "numeric",
      "override_special",
      "special",
      "upper",
    ],
    "managed.random_id": ["byte_length", "keepers", "prefix"],
    "managed.random_uuid": ["keepers"],
    "managed.random_pet": ["keepers", "length", "prefix", "separator"],
    "managed.random_shuffle": ["input", "keepers", "result_count", "seed"],
    "managed.random_bytes": ["keepers", "length"],
    "managed.null_resource": ["triggers"],
    "managed.local_file": [
      "content",
      "content_base64",
      "directory_permission",
      "file_permission",
      "filename",
      "sensitive_content",
      "source",
    ],
    "managed.local_sensitive_file": [
      "content",
      "content_base64",
      "directory_permission",
      "file_permission",
      "filename",
      "source",
    ],
    "managed.time_static": ["rfc3339", "triggers"],
    "managed.time_offset": ["triggers"],
    "managed.time_rotating": ["rfc3339", "triggers"],
    "managed.time_sleep": ["triggers"],
    "ephemeral.random_password": [],
    "data.local_file": [],
  };
  for (const [key, names] of Object.entries(forceNew)) {
    const [mode, name] = key.split(".") as [Mode, string];
    const actual = Object.entries(type(mode, name).attributes)
      .filter(([, a]) => a.forceNew)
      .map(([n]) => n)
      .sort();
    assert.deepEqual(actual, names, key);
  }
  // random_password has the inputs of random_string, with the same flags.
  const str = type("managed", "random_string").attributes;
  const pw = type("managed", "random_password").attributes;
  for (const [name, a] of Object.entries(str)) {
    if (a.computed && !a.optional) continue;
    assert.deepEqual(pw[name], a, `random_password.${name}`);
  }
});

Deno.test("keepers and triggers are optional map(string) that force replacement", () => {
  let count = 0;
  for (const { type } of everyType()) {
    for (const name of ["keepers", "triggers"]) {
      const a = type.attributes[name];
      if (!a) continue;
      count++;
      assert.deepEqual(a.type, { map: "string" }, `${type.name}.${name}`);
      assert.equal(a.optional, true, `${type.name}.${name}`);
      assert.equal(a.forceNew, true, `${type.name}.${name}`);
    }
  }
  // Every managed random type has keepers; null and the four time types have triggers.
  assert.equal(count, 8 + 1 + 4);
});

Deno.test("optional attributes carry Terraform's defaults", () => {
  assert.equal(attr("managed", "random_string", "special").default, true);
  assert.equal(attr("managed", "random_string", "upper").default, true);
  assert.equal(attr("managed", "random_string", "min_lower").default, 0);
  assert.equal(attr("managed", "random_string", "override_special").default, undefined);
  assert.equal(attr("managed", "random_pet", "length").default, 2);
  assert.equal(attr("managed", "random_pet", "separator").default, "-");
  assert.equal(attr("managed", "local_file", "file_permission").default, "0777");
  assert.equal(attr("managed", "local_file", "directory_permission").default, "0777");
  assert.equal(attr("managed", "local_sensitive_file", "file_permission").default, "0700");
  assert.equal(attr("managed", "local_sensitive_file", "directory_permission").default, "0700");
  for (const { type } of everyType()) {
    for (const [name, a] of Object.entries(type.attributes)) {
      if (a.default === undefined) continue;
      const kind = typeof a.default;
      const want = a.type === "bool" ? "boolean" : a.type === "string" ? "string" : "number";
      assert.equal(kind, want, `${type.name}.${name}: default of the wrong type`);
      assert.ok(a.optional, `${type.name}.${name}: a default on a non-optional attribute`);
    }
  }
});

Deno.test("sensitive values are marked sensitive and the rest are not", () => {
  assert.equal(attr("managed", "random_password", "result").sensitive, true);
  assert.equal(attr("managed", "random_password", "bcrypt_hash").sensitive, true);
  assert.equal(attr("managed", "random_string", "result").sensitive, undefined);
  assert.equal(attr("managed", "random_bytes", "base64").sensitive, true);
  assert.equal(attr("managed", "random_bytes", "hex").sensitive, true);
  assert.equal(attr("managed", "local_file", "sensitive_content").sensitive, true);
  assert.equal(attr("managed", "local_file", "content").sensitive, undefined);
  assert.equal(attr("managed", "local_sensitive_file", "content").sensitive, true);
  assert.equal(attr("data", "local_sensitive_file", "content").sensitive, true);
  assert.equal(attr("data", "local_sensitive_file", "content_base64").sensitive, true);
  assert.equal(attr("data", "local_file", "content").sensitive, undefined);
});

Deno.test("the ephemeral random_password has the inputs but no id and no bcrypt_hash", () => {
  const eph = type("ephemeral", "random_password");
  assert.equal(eph.attributes.id, undefined);
  assert.equal(eph.attributes.bcrypt_hash, undefined);
  assert.equal(eph.attributes.keepers, undefined);
  assert.deepEqual(eph.attributes.result, {
    type: "string",
    description: eph.attributes.result.description,
    computed: true,
    sensitive: true,
  });
  assert.equal(eph.attributes.length.required, true);
  assert.equal(eph.attributes.special.default, true);
});

Deno.test("refreshAge: none for state-only values, 0s for local files (a read costs nothing) and data sources", () => {
  for (const { type } of everyType()) {
    const key = `${type.mode}.${type.name}`;
    if (type.mode === "data") assert.equal(type.refreshAge, "0s", key);
    else if (type.name.startsWith("local_")) assert.equal(type.refreshAge, "0s", key);
    else assert.equal(type.refreshAge, undefined, key);
  }
});

Deno.test("findTypes() returns every mode of a name, managed first", () => {
  const lf = findTypes("local_file");
  assert.deepEqual(lf.map((f) => f.type.mode), ["managed", "data"]);
  assert.ok(lf.every((f) => f.provider.source === "hashicorp/local"));
  assert.deepEqual(findTypes("random_password").map((f) => f.type.mode), [
    "managed",
    "ephemeral",
  ]);
  assert.deepEqual(findTypes("random_integer").map((f) => f.provider.source), [
    "hashicorp/random",
  ]);
  assert.deepEqual(findTypes("nope"), []);
});

Deno.test("findProvider() finds by source and nothing else", () => {
  assert.equal(findProvider("hashicorp/time")?.source, "hashicorp/time");
  assert.equal(findProvider("time"), undefined);
  assert.equal(findProvider("hashicorp/tls"), undefined);
});

Deno.test("allTypeNames() lists each name once, sorted", () => {
  const names = allTypeNames();
  assert.deepEqual(names, [...new Set(names)].sort());
  assert.equal(names.filter((n) => n === "local_file").length, 1);
  assert.equal(names.length, 15);
  assert.ok(names.includes("time_rotating"));
});

Deno.test("registry.ts imports nothing but the schema modules", async () => {
  // Type-only imports (`import type`) are erased at run time: not followed.
  const specifiers = await loadedModules(new URL("./registry.ts", import.meta.url));
  const here = new URL("./", import.meta.url).href;
  for (const s of specifiers) assert.ok(s.startsWith(here), `registry.ts loads ${s}`);
  assert.ok(specifiers.some((s) => s.endsWith("/random/schema.ts")));
});
