import assert from "node:assert/strict";
import type { Block } from "../plugin/schema.ts";
import { attr, block, nested } from "../plugin/_testing.ts";
import type { TypeSchema } from "../providers/schema.ts";
import { BUILTIN_REGISTRY } from "../providers/registry.ts";
const { findType } = BUILTIN_REGISTRY;
import { evaluate } from "../cue/engine.ts";
import { formatSource } from "../cue/format/mod.ts";
import {
  chooseAttributes,
  commentLines,
  configOf,
  type NodeFile,
  nodeFileText,
  type OutField,
  secretsOf,
} from "./generate.ts";

/** A plugin type with an attribute of every kind, as a provider's schema gives them. */
const INNER = block({
  name: attr("string", { required: true, optional: false }),
  port: attr("number"),
  arn: attr("string", { computed: true, optional: false }),
  token: attr("string", { sensitive: true }),
});
const SCHEMA: Block = block(
  {
    id: attr("string", { computed: true }),
    arn: attr("string", { computed: true, optional: false }),
    name: attr("string", { required: true, optional: false }),
    description: attr("string"),
    script: attr("string"),
    policy: attr("string"),
    count: attr("number"),
    ratio: attr("number"),
    enabled: attr("bool"),
    off: attr("bool"),
    zones: attr(["list", "string"]),
    ports: attr(["set", "number"]),
    tags: attr(["map", "string"]),
    tags_all: attr(["map", "string"], { computed: true }),
    labels: attr(["map", "string"]),
    shape: attr(["object", { a: "string", b: ["list", "number"] }]),
    prefix: attr("string", { computed: true }),
    empty_optional: attr("string"),
    empty_required: attr("string", { required: true, optional: false }),
    gone: attr("string"),
    old: attr("string", { deprecated: true }),
    old_unset: attr("string", { deprecated: true }),
    password: attr("string", { sensitive: true }),
    secret_map: attr(["map", "string"], { sensitive: true }),
    write_only: attr("string", { writeOnly: true }),
    endpoint: attr(undefined, {
      nestedType: { nesting: "single", attributes: INNER.attributes },
    }),
    endpoints: attr(undefined, {
      nestedType: { nesting: "list", attributes: INNER.attributes },
    }),
    by_name: attr(undefined, {
      nestedType: { nesting: "map", attributes: INNER.attributes },
    }),
  },
  {
    single: nested("single", INNER),
    group: nested("group", INNER),
    rules: nested("list", INNER),
    grants: nested("set", INNER),
    named: nested("map", INNER),
    timeouts: nested("single", block({ create: attr("string") })),
    versioning: nested("list", block({ enabled: attr("bool") })),
    legacy: nested("list", block({ enabled: attr("bool") }, {}, true)),
    none: nested("list", INNER),
  },
);

const TYPE: TypeSchema = {
  name: "demo_thing",
  mode: "managed",
  description: "",
  attributes: {},
  plugin: { block: SCHEMA, version: 0 },
};

const OBJECT = {
  id: "thing-1",
  arn: "arn:demo:thing-1",
  name: 'the "first" thing',
  description: "line one\nline two\n",
  script: "echo \\(not interpolated) $HOME",
  policy: '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*"}]}',
  count: 3,
  ratio: 0.25,
  enabled: true,
  off: false,
  zones: ["a", "b"],
  ports: [80, 443],
  tags: { Name: "web", "aws:cloudformation:stack": "s" },
  tags_all: { Name: "web" },
  labels: {},
  shape: { a: "x", b: [1, 2] },
  prefix: "",
  empty_optional: "",
  empty_required: "",
  gone: null,
  old: "legacy value",
  old_unset: null,
  password: "hunter2",
  secret_map: { k: "v" },
  write_only: null,
  endpoint: { name: "e", port: 8080, arn: "arn:e", token: null },
  endpoints: [{ name: "e1", port: null, arn: "arn:e1", token: "t0ken" }],
  by_name: { main: { name: "m", port: 1, arn: "arn:m", token: null } },
  single: { name: "s", port: null, arn: "arn:s", token: null },
  group: { name: "g", port: 2, arn: "arn:g", token: null },
  rules: [{ name: "r1", port: 1, arn: "a1", token: null }, {
    name: "r2",
    port: 2,
    arn: "a2",
    token: null,
  }],
  grants: [{ name: "read", port: null, arn: "x", token: null }],
  named: { one: { name: "n1", port: null, arn: "x", token: null } },
  timeouts: null,
  versioning: [{ enabled: false }],
  legacy: [{ enabled: true }],
  none: [],
};

function file(fields: readonly OutField[]): NodeFile {
  return {
    packageName: "demo",
    path: ["demo_thing", "my thing"],
    instance: "$demo",
    type: "demo_thing",
    fields,
    header: "Generated for a test.",
    secretNote: "Sensitive (TYPE): fill it in.",
  };
}

/** What CUE makes of a file's node, with a stand-in provider whose types take anything. */
async function nodeOf(text: string): Promise<unknown> {
  const r = await evaluate(`${text}\n$demo: #Resource: demo_thing: {...}\n`);
  if (!r.ok) throw new Error(`${r.message}\n${text}`);
  return JSON.parse(r.json).demo_thing["my thing"];
}

Deno.test("a plugin type: computed-only, id, unset, empty and write-only attributes are left out", () => {
  const c = chooseAttributes(TYPE, OBJECT);
  assert.deepEqual(Object.keys(c.leftOut).sort(), [
    "arn",
    "empty_optional",
    "gone",
    "id",
    "labels",
    "none",
    "old_unset",
    "prefix",
    "timeouts",
    "write_only",
  ]);
  assert.equal(c.leftOut.arn, "computed");
  assert.equal(c.leftOut.id, "id");
  assert.equal(c.leftOut.old_unset, "unset", "deprecated and unset: nothing to leave out");
  assert.equal(c.leftOut.none, "unset");
  // Optional and computed with a value (tags_all) is written, as Terraform does.
  const names = c.fields.map((f) => f.name);
  assert.ok(names.includes("tags_all"));
  assert.ok(names.includes("empty_required"), "a required attribute is written even when empty");
  assert.deepEqual(names, [...names].sort());
  // Optional and not computed may be the provider's default; deprecated may go.
  assert.equal(c.removable.description, "default");
  assert.equal(c.removable.old, "deprecated");
  assert.equal(c.removable.legacy, "deprecated");
  assert.equal(c.removable.name, undefined, "a required attribute stays");
  // Optional and computed: the provider may compute the same from the rest.
  assert.equal(c.removable.tags_all, "derived");
  assert.equal(c.removable.password, undefined, "a secret stays");
});

Deno.test("nested blocks and nested attribute types keep their shape, computed-only left out inside", () => {
  const c = chooseAttributes(TYPE, OBJECT);
  const config = configOf(c.fields);
  assert.deepEqual(config.single, { name: "s" });
  assert.deepEqual(config.group, { name: "g", port: 2 });
  assert.deepEqual(config.rules, [{ name: "r1", port: 1 }, { name: "r2", port: 2 }]);
  assert.deepEqual(config.grants, [{ name: "read" }]);
  assert.deepEqual(config.named, { one: { name: "n1" } });
  assert.deepEqual(config.endpoint, { name: "e", port: 8080 });
  assert.deepEqual(config.endpoints, [{ name: "e1", token: "t0ken" }]);
  assert.deepEqual(config.by_name, { main: { name: "m", port: 1 } });
  assert.deepEqual(config.versioning, [{ enabled: false }]);
});

Deno.test("secrets are never written: a placeholder of their type with a note, at every depth", async () => {
  const c = chooseAttributes(TYPE, OBJECT);
  assert.deepEqual(secretsOf(c.fields), ["endpoints[0].token", "password", "secret_map"]);
  const text = nodeFileText(file(c.fields));
  for (const secret of ["hunter2", "t0ken", '"v"']) assert.ok(!text.includes(secret), secret);
  assert.match(text, /\t\/\/ Sensitive \(string\): fill it in\.\n\tpassword: string\n/);
  assert.match(text, /\t\/\/ Sensitive \(map\(string\)\): fill it in\.\n\tsecret_map: _\n/);
  assert.match(text, /\t\t\t\/\/ Sensitive \(string\): fill it in\.\n\t\t\ttoken: string\n/);
  // The placeholders do not validate: CUE has no value for them.
  const r = await evaluate(`${text}\n$demo: #Resource: demo_thing: {...}\n`);
  assert.equal(r.ok, false);
  assert.match((r as { message: string }).message, /incomplete value/);
});

Deno.test("the file is formatted, and CUE gives back every value written (stand-ins for secrets)", async () => {
  const c = chooseAttributes(TYPE, OBJECT);
  const text = nodeFileText(file(c.fields));
  assert.equal(formatSource(text), text, "pravo fmt --check has nothing to change");
  assert.match(text, /^\/\/ Generated for a test\.\npackage demo\n\nimport "encoding\/json"\n\n/);
  assert.match(text, /\ndemo_thing: "my thing": \$demo\.#Resource\.demo_thing & \{\n/);
  assert.match(text, /\tpolicy: json\.Marshal\(\{\n/);
  assert.match(text, /\tdescription: """\n\t\tline one\n\t\tline two\n\n\t\t"""\n/);
  const standIns = nodeFileText(file(c.fields), { standIns: true });
  const expected = configOf(c.fields) as Record<string, unknown>;
  expected.password = "";
  expected.secret_map = {};
  (expected.endpoints as Record<string, unknown>[])[0].token = "";
  assert.deepEqual(await nodeOf(standIns), expected);
  // And what CUE gives is the object as read, where it is written.
  assert.equal(expected.policy, OBJECT.policy);
  assert.equal(expected.script, OBJECT.script);
  assert.equal(expected.name, OBJECT.name);
  assert.equal(expected.description, OBJECT.description);
});

Deno.test("a built-in type: defaults and computed-only attributes left out, the rest written", () => {
  const t = findType("hashicorp/random", "managed", "random_password")!;
  const c = chooseAttributes(t, {
    id: "none",
    length: 16,
    special: true,
    upper: false,
    min_numeric: 0,
    override_special: "",
    keepers: null,
    result: "s3cret-value-123",
    bcrypt_hash: "$2a$10$...",
    number: true,
    numeric: true,
    lower: true,
    min_lower: 0,
    min_special: 0,
    min_upper: 0,
  });
  assert.deepEqual(c.fields.map((f) => f.name), ["length", "upper"]);
  assert.equal(c.leftOut.result, "computed");
  assert.equal(c.leftOut.special, "default");
  assert.equal(c.leftOut.override_special, "unset");
  assert.deepEqual(c.removable, {});
  const rot = chooseAttributes(findType("hashicorp/time", "managed", "time_rotating")!, {
    rfc3339: "2099-02-12T06:36:13Z",
    rotation_days: 30,
    rotation_rfc3339: "2099-03-14T06:36:13Z",
  });
  assert.deepEqual(rot.removable, { rfc3339: "derived", rotation_rfc3339: "derived" });
  const text = nodeFileText({ ...file(c.fields), instance: "$random", type: "random_password" });
  assert.ok(!text.includes("s3cret"));
  assert.match(text, /\tlength: 16\n\tupper: +false\n/);
});

Deno.test("a node with nothing to write is an empty struct; labels are quoted where needed", () => {
  const text = nodeFileText({ ...file([]), path: ["0", "if", "_x", "json", "ok"] });
  assert.match(text, /\n"0": "if": "_x": "json": ok: \$demo\.#Resource\.demo_thing & \{\}\n$/);
});

Deno.test("comments are wrapped: the header and the notes above secrets", () => {
  const long = "word ".repeat(60).trim();
  const lines = commentLines(long);
  assert.ok(lines.every((l) => l.length <= 80));
  assert.equal(lines.join(" "), long);
  assert.deepEqual(commentLines("a-very-long-word-that-does-not-fit", 10), [
    "a-very-long-word-that-does-not-fit",
  ]);
  const c = chooseAttributes(TYPE, OBJECT);
  const text = nodeFileText({ ...file(c.fields), header: long, secretNote: long });
  for (const l of text.split("\n")) assert.ok(l.replace(/^\t+/, "").length <= 100, l);
});
