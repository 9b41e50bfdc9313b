import assert from "node:assert/strict";
import { attrMessage, blockMessage } from "./_testing.ts";
import { blockType, blockValue, flaggedPaths, schemaFrom, toNumber } from "./schema.ts";
import { plannedDataSourceState, proposedNewState } from "./proposed.ts";
import { formatPath, isUnknown, UNKNOWN, type Value } from "./value.ts";

const a = attrMessage;

// A schema message as protobufjs decodes it (int64 may be a Long).
const message = {
  version: { low: 3, high: 0, toNumber: () => 3 },
  block: {
    attributes: [
      a("id", "string", { computed: true }),
      a("name", "string", { required: true }),
      a("arn", "string", { computed: true }),
      a("region", "string", { optional: true, computed: true }),
      a("password", "string", { optional: true, sensitive: true }),
      a("token_wo", "string", { optional: true, write_only: true }),
      {
        name: "ports",
        optional: true,
        nested_type: {
          nesting: 3,
          attributes: [
            a("n", "number", { required: true }),
            a("proto", "string", { computed: true }),
          ],
        },
      },
    ],
    block_types: [
      blockMessage("versioning", {
        nesting: "list",
        maxItems: 1,
        attributes: [
          a("enabled", "bool", { optional: true }),
          a("mfa", "string", { computed: true, sensitive: true }),
        ],
      }),
      blockMessage("rule", {
        nesting: "set",
        attributes: [
          a("id", "string", { optional: true }),
          a("status", "string", { computed: true }),
        ],
      }),
      blockMessage("logging", {
        nesting: "single",
        attributes: [a("target", "string", { optional: true })],
      }),
      blockMessage("site", {
        nesting: "map",
        attributes: [
          a("host", "string", { optional: true }),
          a("ip", "string", { computed: true }),
        ],
      }),
      blockMessage("timeouts", {
        nesting: "group",
        attributes: [a("create", "string", { optional: true })],
      }),
    ],
    description: "A thing",
    description_kind: 1,
  },
};
const s = schemaFrom(message);
const b = s.block;

Deno.test("schemaFrom() reads a schema message: version, flags, nesting, limits", () => {
  assert.equal(s.version, 3);
  assert.equal(b.descriptionKind, "markdown");
  assert.equal(b.attributes.password.sensitive, true);
  assert.equal(b.attributes.token_wo.writeOnly, true);
  assert.equal(b.attributes.region.optional && b.attributes.region.computed, true);
  assert.equal(b.attributes.ports.nestedType?.nesting, "set");
  assert.deepEqual(
    Object.entries(b.blockTypes).map(([k, n]) => [k, n.nesting, n.maxItems]),
    [["versioning", "list", 1], ["rule", "set", 0], ["logging", "single", 0], ["site", "map", 0], [
      "timeouts",
      "group",
      0,
    ]],
  );
  assert.equal(toNumber(7n), 7);
  assert.equal(toNumber({ low: -1, high: 0 }), 4294967295);
  assert.deepEqual(flaggedPaths(b, "sensitive").map(formatPath), ["password", "versioning.mfa"]);
  assert.deepEqual(flaggedPaths(b, "writeOnly").map(formatPath), ["token_wo"]);
  assert.throws(
    () => schemaFrom({ block: { attributes: [a("x", "strng")] } }),
    /x: unknown type "strng"/,
  );
});

Deno.test("blockType() is the object type of a block's values", () => {
  const t = blockType(b);
  assert.ok(Array.isArray(t) && t[0] === "object");
  const attrs = t[1] as Record<string, unknown>;
  assert.deepEqual(attrs.versioning, ["list", ["object", { enabled: "bool", mfa: "string" }]]);
  assert.deepEqual(attrs.logging, ["object", { target: "string" }]);
  assert.deepEqual(attrs.site, ["map", ["object", { host: "string", ip: "string" }]]);
  assert.deepEqual(attrs.timeouts, ["object", { create: "string" }]);
  assert.deepEqual(attrs.ports, ["set", ["object", { n: "number", proto: "string" }]]);
});

Deno.test("blockValue() shapes a configuration: every attribute and block, absent blocks by nesting", () => {
  const v = blockValue(
    { name: "x", versioning: { enabled: true }, ports: [{ n: 1 }] },
    b,
  ) as Record<string, Value>;
  assert.deepEqual(v, {
    id: null,
    name: "x",
    arn: null,
    region: null,
    password: null,
    token_wo: null,
    ports: [{ n: 1, proto: null }],
    // A lone object for a list block is one block (Terraform's JSON syntax).
    versioning: [{ enabled: true, mfa: null }],
    rule: [],
    logging: null,
    site: {},
    timeouts: { create: null },
  });
  assert.equal(blockValue(null, b), null);
  assert.equal(blockValue(UNKNOWN, b), UNKNOWN);
  assert.throws(
    () => blockValue({ name: "x", colour: 1 }, b),
    /colour: unsupported argument or block/,
  );
  assert.throws(
    () => blockValue({ name: "x", site: [1] }, b),
    /site: an object of blocks by key is required/,
  );
  assert.throws(
    () => blockValue({ name: "x", rule: [{ id: "a", nope: 1 }] }, b),
    /rule\[0\]\.nope: unsupported/,
  );
});

Deno.test("proposedNewState() on a create: the configuration, computed attributes null", () => {
  const p = proposedNewState(b, null, { name: "x", rule: [{ id: "r1" }] }) as Record<string, Value>;
  assert.equal(p.name, "x");
  assert.equal(p.id, null);
  assert.deepEqual(p.rule, [{ id: "r1", status: null }]);
  assert.equal(proposedNewState(b, null, null), null);
});

Deno.test("proposedNewState() on an update keeps computed values from the prior state, in blocks too", () => {
  const prior = blockValue({
    id: "b1",
    name: "x",
    arn: "arn:1",
    region: "eu-west-1",
    versioning: [{ enabled: false, mfa: "m" }],
    rule: [{ id: "r1", status: "on" }, { id: "r2", status: "off" }],
    site: { a: { host: "h", ip: "1.2.3.4" } },
    ports: [{ n: 1, proto: "tcp" }],
  }, b);
  const config = {
    name: "y",
    versioning: [{ enabled: true }],
    rule: [{ id: "r2" }, { id: "r3" }],
    site: { a: { host: "h2" }, b: { host: "new" } },
    ports: [{ n: 1 }, { n: 2 }],
  };
  const p = proposedNewState(b, prior, config) as Record<string, Value>;
  assert.equal(p.id, "b1");
  assert.equal(p.arn, "arn:1");
  assert.equal(p.region, "eu-west-1", "optional and computed, unset: the prior value");
  assert.equal(p.name, "y");
  // List blocks by index.
  assert.deepEqual(p.versioning, [{ enabled: true, mfa: "m" }]);
  // Set blocks by equal non-computed attributes: r2 keeps its status, r3 is new.
  assert.deepEqual(p.rule, [{ id: "r2", status: "off" }, { id: "r3", status: null }]);
  // Map blocks by key.
  assert.deepEqual(p.site, { a: { host: "h2", ip: "1.2.3.4" }, b: { host: "new", ip: null } });
  // Nested attribute sets too.
  assert.deepEqual(p.ports, [{ n: 1, proto: "tcp" }, { n: 2, proto: null }]);
  // Setting an optional+computed attribute takes the configuration's value.
  assert.equal(
    (proposedNewState(b, prior, { name: "y", region: "us-east-1" }) as Record<string, Value>)
      .region,
    "us-east-1",
  );
  // Destroy: null.
  assert.equal(proposedNewState(b, prior, null), null);
});

Deno.test("plannedDataSourceState() makes every computed attribute the configuration leaves unset unknown", () => {
  const p = plannedDataSourceState(b, { name: "x", region: "r" }) as Record<string, Value>;
  assert.ok(isUnknown(p.id) && isUnknown(p.arn));
  assert.equal(p.region, "r");
  assert.equal(p.password, null);
});
