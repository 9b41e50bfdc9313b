import { strict as assert } from "node:assert";
import type { Block } from "../plugin/schema.ts";
import { ctySentinel, isCtyDefault, pluginPackage, usedTypes } from "./plugin_cue.ts";
import { evaluate } from "./engine.ts";
import { builtinName } from "./program.ts";

const attr = (type: unknown, flags: Record<string, boolean> = {}) => ({
  type,
  description: "",
  descriptionKind: "plain" as const,
  required: false,
  optional: false,
  computed: false,
  sensitive: false,
  deprecated: false,
  writeOnly: false,
  ...flags,
});

const empty = { description: "", descriptionKind: "plain" as const, deprecated: false };

const bucket: Block = {
  ...empty,
  attributes: {
    bucket: attr("string", { optional: true, computed: true }),
    arn: attr("string", { computed: true }),
    force_destroy: attr("bool", { optional: true }),
    name: attr("string", { required: true }),
    tags: attr(["map", "string"], { optional: true }),
  } as Block["attributes"],
  blockTypes: {
    versioning: {
      nesting: "list",
      minItems: 0,
      maxItems: 1,
      block: {
        ...empty,
        attributes: { enabled: attr("bool", { optional: true }) } as Block["attributes"],
        blockTypes: {},
      },
    },
    rule: {
      nesting: "list",
      minItems: 1,
      maxItems: 1,
      block: {
        ...empty,
        attributes: { days: attr("number", { required: true }) } as Block["attributes"],
        blockTypes: {},
      },
    },
    timeouts: {
      nesting: "single",
      minItems: 0,
      maxItems: 0,
      block: {
        ...empty,
        attributes: { create: attr("string", { optional: true }) } as Block["attributes"],
        blockTypes: {},
      },
    },
  },
};

function program(variant: "main" | "setness", body: string, tail = ""): string {
  const g = pluginPackage({
    source: "acme/cloud",
    config: {
      ...empty,
      attributes: { region: attr("string", { optional: true }) } as Block["attributes"],
      blockTypes: {},
    },
    types: [{ mode: "managed", name: "acme_bucket", block: bucket }],
    variant,
  });
  return `${
    g.usesList ? `import ${builtinName("list")} "list"\n` : ""
  }_pkg: close({\n${g.body}\n})\n${body}\n${tail}`;
}

Deno.test("pluginPackage() types attributes and blocks; a computed-only value holds a default, an optional one left unset nothing", async () => {
  const r = await evaluate(program(
    "main",
    `out: {
  $p: _pkg.#Provider & {region: "x"}
  b: $p.#Resource.acme_bucket & {name: "n", versioning: [{enabled: true}], rule: [{days: 3}], timeouts: {create: "1m"}}
}`,
  ));
  assert.ok(r.ok, r.ok ? "" : r.message);
  const b = JSON.parse(r.json).out.b;
  assert.equal(b.name, "n");
  assert.deepEqual(b.versioning, [{ enabled: true }]);
  assert.ok(isCtyDefault(b.arn, "string"), "a computed attribute holds the unknown default");
  // No CUE default that a module's own (`*null | string`) would conflict
  // with: the loader gives an unset one its value (state, or unknown).
  assert.ok(!("bucket" in b), "an optional and computed one left unset has no value of its own");
});

Deno.test("pluginPackage() refuses an unknown attribute, too many and too few blocks, and a wrong type", async () => {
  for (
    const [body, message] of [
      [`{name: "n", rule: [{days: 1}], bogus: 1}`, /field not allowed: bogus/],
      [`{name: "n", rule: [{days: 1}], versioning: [{}, {}]}`, /MaxItems\(1\)/],
      [`{name: "n", rule: []}`, /incompatible list lengths/],
      [`{name: "n", rule: [{days: "one"}]}`, /rule\.0\.days: conflicting values number and "one"/],
    ] as const
  ) {
    const r = await evaluate(
      program("main", `out: b: _pkg.#Provider.#Resource.acme_bucket & ${body}`),
    );
    assert.ok(!r.ok, body);
    assert.match(r.message, message, `${body}: ${r.message}`);
  }
});

Deno.test("pluginPackage()'s setness variant lists the fields a configuration sets", async () => {
  const r = await evaluate(program(
    "setness",
    `_w: {
  a: _pkg.#Provider.#Resource.acme_bucket & {name: "n", rule: [{days: 1}]}
  b: _pkg.#Provider.#Resource.acme_bucket & {name: "n", bucket: a.bucket, rule: [{days: 1}]}
}`,
    `out: {a: _w.a."@set", b: _w.b."@set"}`,
  ));
  assert.ok(r.ok, r.ok ? "" : r.message);
  const out = JSON.parse(r.json).out;
  assert.ok(!out.a.includes("bucket"), JSON.stringify(out.a));
  assert.ok(out.b.includes("bucket"), "set by a reference, even to a value not known");
});

Deno.test("ctySentinel(): a sentinel for a primitive, a value holding none for a collection", () => {
  assert.equal(ctySentinel("string", 3), JSON.stringify("⟦pravo:3⟧"));
  assert.ok(!ctySentinel(["list", "string"], 3).includes("⟦pravo:"));
  assert.deepEqual(
    usedTypes(new Set(["acme_bucket", "other"]), {
      managed: ["acme_bucket"],
      data: ["acme_bucket"],
      ephemeral: [],
      call: [],
    }),
    [{ mode: "managed", name: "acme_bucket" }, { mode: "data", name: "acme_bucket" }],
  );
});
