import { strict as assert } from "node:assert";
import { hasErrors } from "../diag/diag.ts";
import { PROVIDERS } from "./registry.ts";
import type { Attrs, RequestBase, TypeHandler } from "./runtime.ts";
import { handlerFor, RUNTIMES } from "./runtimes.ts";
import type { TypeSchema } from "./schema.ts";

/** The methods a handler of each mode must have. */
const NEEDS: Record<string, (keyof TypeHandler)[]> = {
  managed: ["create", "delete"],
  data: ["readData"],
  ephemeral: ["open"],
  call: [],
};

/** A configuration of each type that sets its required attributes (and a few optional ones). */
const SAMPLES: Record<string, Attrs> = {
  "managed.local_file": { filename: "out/a.txt", content: "a" },
  "managed.local_sensitive_file": { filename: "out/b.txt", content_base64: "Yg==" },
  "data.local_file": { filename: "in.txt" },
  "data.local_sensitive_file": { filename: "in.txt" },
  "managed.null_resource": { triggers: { k: "v" } },
  "managed.random_bytes": { length: 4 },
  "managed.random_id": { byte_length: 4, prefix: "p" },
  "managed.random_integer": { min: 1, max: 9, seed: "s" },
  "managed.random_password": { length: 8 },
  "ephemeral.random_password": { length: 8 },
  "managed.random_pet": { prefix: "x" },
  "managed.random_shuffle": { input: ["a", "b"] },
  "managed.random_string": { length: 8, keepers: { k: "v" } },
  "managed.random_uuid": {},
  "managed.time_offset": { offset_days: 1 },
  "managed.time_rotating": { rotation_days: 1 },
  "managed.time_sleep": { create_duration: "1ms" },
  "managed.time_static": {},
};

/**
 * Computed attributes that create may leave unset because they are set only
 * when the configuration sets them. None so far: every computed attribute of
 * every built-in type is returned.
 */
const OPTIONAL_ONLY = new Set<string>();

function everyType(): { source: string; type: TypeSchema }[] {
  return PROVIDERS.flatMap((p) => p.types.map((type) => ({ source: p.source, type })));
}

function assertDeclared(type: TypeSchema, attrs: Attrs, what: string) {
  for (const name of Object.keys(attrs)) {
    assert.ok(
      name in type.attributes,
      `${type.mode}.${type.name} ${what} returns undeclared ${name}`,
    );
  }
}

Deno.test("RUNTIMES has one runtime for every provider schema", () => {
  assert.deepEqual([...RUNTIMES.keys()].sort(), PROVIDERS.map((p) => p.source));
});

Deno.test("every type in every schema has a handler with the methods its mode needs", () => {
  for (const { source, type } of everyType()) {
    const h = handlerFor(source, type.mode, type.name);
    assert.ok(h, `no handler for ${source} ${type.mode}.${type.name}`);
    for (const m of NEEDS[type.mode]) {
      assert.equal(typeof h[m], "function", `${type.mode}.${type.name} lacks ${m}`);
    }
  }
});

Deno.test("every handler is of a type that a schema declares", () => {
  for (const [source, runtime] of RUNTIMES) {
    for (const [mode, handlers] of Object.entries(runtime.handlers)) {
      for (const name of Object.keys(handlers ?? {})) {
        const schema = PROVIDERS.find((p) => p.source === source)!;
        assert.ok(schema.types.some((t) => t.mode === mode && t.name === name), `${mode}.${name}`);
      }
    }
  }
});

Deno.test("handlerFor() is undefined for an unknown provider, mode or type", () => {
  assert.equal(handlerFor("hashicorp/nope", "managed", "random_pet"), undefined);
  assert.equal(handlerFor("hashicorp/random", "data", "random_pet"), undefined);
  assert.equal(handlerFor("hashicorp/random", "managed", "toString"), undefined);
});

Deno.test("every handler returns only declared attributes and every computed one", async () => {
  const root = await Deno.makeTempDir({ prefix: "pravo-runtimes-" });
  try {
    await Deno.writeTextFile(`${root}/in.txt`, "in");
    for (const { source, type } of everyType()) {
      const key = `${type.mode}.${type.name}`;
      const config = SAMPLES[key];
      assert.ok(config, `no sample configuration for ${key}`);
      const h = handlerFor(source, type.mode, type.name)!;
      const base: RequestBase = { type, address: key, root, providerConfig: {} };
      const diags = h.validate?.({ ...base, config, unknown: [] }) ?? [];
      assert.ok(!hasErrors(diags), `${key} sample is invalid: ${JSON.stringify(diags)}`);
      const planned = h.plan?.({ ...base, config, unknown: [], prior: null });
      if (planned?.value) {
        assertDeclared(type, planned.value.attributes, "plan");
        for (const u of planned.value.unknown) assert.ok(u in type.attributes, `${key} plan ${u}`);
      }
      const res = type.mode === "managed"
        ? await h.create!({ ...base, config })
        : type.mode === "data"
        ? await h.readData!({ ...base, config })
        : await h.open!({ ...base, config });
      assert.deepEqual(res.diagnostics, [], key);
      const attrs = res.value!;
      assertDeclared(type, attrs, "create");
      for (const [name, a] of Object.entries(type.attributes)) {
        if (a.computed && !OPTIONAL_ONLY.has(`${key}.${name}`)) {
          assert.ok(attrs[name] !== undefined, `${key} does not return computed ${name}`);
        }
        if (a.type === "int" && attrs[name] !== undefined) {
          assert.ok(Number.isInteger(attrs[name]), `${key}.${name} should be an int`);
        }
      }
      if (type.mode === "managed") {
        assert.deepEqual((await h.delete!({ ...base, prior: attrs })).diagnostics, [], key);
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
