import assert from "node:assert/strict";
import { node, plan, record, skipped, tfPlan } from "./plan_json_testing.ts";

const MAIN = String.raw`package t

$test: t.#Provider & {region: "r1", token: "tok-secret-1234"}
$test_west: t.#Provider & {region: "r2"}

var: env: *"dev" | string @tag(env)
var: n: *2 | int @tag(n,type=int)

test_thing: a: $test.#Resource.test_thing & {
	name:  "a-\(var.env)"
	value: "hunter2-secret"
	tags: team: "x"
	rule: [{port: 80, secret: "rule-secret"}, {port: test_thing.b.arn}]
}
test_thing: b: $test_west.#Resource.test_thing & {name: "b"}
test_thing: c: {for i in list.Range(0, var.n, 1) {"\(i)": $test.#Resource.test_thing & {
	name: "c-\(i)-\(test_thing.a.arn)"
}}}
data: test_info: i: $test.#Data.test_info & {name: var.env}
outputs: {arn: test_thing.a.arn, env: var.env}
`;

Deno.test("terraformPlan() writes format 1.2, pravo's version as build metadata, and the time without fractions", () => {
  const doc = tfPlan(plan([node("test_thing.a")]));
  assert.equal(doc.format_version, "1.2");
  assert.equal(doc.terraform_version, "1.11.4+pravo.0.1.0-dev");
  assert.equal(doc.timestamp, "2026-05-04T09:12:44Z");
  assert.deepEqual([doc.applyable, doc.complete, doc.errored], [true, true, false]);
});

Deno.test("terraformPlan() writes a create with unknowns left out of after and marked true", () => {
  const doc = tfPlan(plan([node("test_thing.a")]));
  const rc = doc.resource_changes[0];
  assert.equal(rc.address, "test_thing.a");
  assert.equal(rc.provider_name, "registry.terraform.io/hashicorp/test");
  assert.deepEqual(rc.change.actions, ["create"]);
  assert.equal(rc.change.before, null);
  assert.equal(rc.change.before_sensitive, false);
  assert.deepEqual(rc.change.after, { name: "n", value: null, tags: null, rule: [] });
  assert.deepEqual(rc.change.after_unknown, { arn: true, list: true, rule: [] });
  // An unknown list is [] in after_sensitive; a null sensitive value is marked.
  assert.deepEqual(rc.change.after_sensitive, { value: true, list: [], rule: [] });
  const pv = doc.planned_values.root_module.resources[0];
  assert.equal(pv.schema_version, 2);
  assert.deepEqual(pv.values, rc.change.after);
  assert.equal(doc.prior_state, undefined, "an empty state has no prior_state");
});

Deno.test("terraformPlan() never writes a secret: sensitive values, nested ones, and strings that hold one", () => {
  const before = {
    name: "n",
    value: "hunter2-secret",
    arn: "arn:a",
    tags: { copy: "was hunter2-secret" },
    list: [],
    rule: [{ port: 80, secret: "rule-secret" }],
  };
  const n = node("test_thing.a", {
    action: "update",
    before,
    after: { ...before, rule: [{ port: 81, secret: "rule-secret" }] },
    afterUnknown: [],
    config: { name: "n", value: "hunter2-secret" },
  });
  const doc = tfPlan(plan([n], { main: MAIN }));
  const text = JSON.stringify(doc);
  for (const s of ["hunter2-secret", "rule-secret", "tok-secret-1234"]) {
    assert.ok(!text.includes(s), `${s} is not written`);
  }
  const c = doc.resource_changes[0].change;
  assert.deepEqual(c.after.rule, [{ port: 81 }]);
  assert.deepEqual(c.after.tags, {});
  assert.deepEqual(c.after_sensitive, {
    value: true,
    tags: { copy: true },
    list: [],
    rule: [{ secret: true }],
  });
  assert.deepEqual(c.after_unknown, {}, "everything is known: {}");
});

Deno.test("terraformPlan() writes the order of a replacement, its paths and its reason", () => {
  const before = { name: "old", value: null, arn: "arn:x", tags: null, list: [], rule: [] };
  const p = plan([
    node("test_thing.a", { action: "replace", before, replaceBecause: ["name"] }),
    node("test_thing.b", {
      action: "replace",
      before,
      replaceBecause: ["requested"],
      lifecycle: { create_before_destroy: true },
    }),
  ]);
  const [a, b] = tfPlan(p).resource_changes;
  assert.deepEqual(a.change.actions, ["delete", "create"]);
  assert.deepEqual(a.change.replace_paths, [["name"]]);
  assert.equal(a.action_reason, "replace_because_cannot_update");
  assert.deepEqual(b.change.actions, ["create", "delete"]);
  assert.equal(b.change.replace_paths, undefined);
  assert.equal(b.action_reason, "replace_by_request");
});

Deno.test("terraformPlan() says why an instance is deleted: its resource left, or only its count key", () => {
  const gone = {
    action: "delete" as const,
    deleteBecause: "not in the configuration",
    after: null,
  };
  const before = { name: "n", value: null, arn: "arn", tags: null, list: [], rule: [] };
  const p = plan([
    node("test_thing.a", { ...gone, before }),
    node('test_thing.c."0"', { action: "no-op", before, after: before, afterUnknown: [] }),
    node('test_thing.c."1"', { ...gone, before }),
  ]);
  const doc = tfPlan(p, [
    record("test_thing.a"),
    record('test_thing.c."0"'),
    record('test_thing.c."1"'),
  ]);
  const reasons = Object.fromEntries(
    doc.resource_changes.map((r: { address: string; action_reason?: string }) => [
      r.address,
      r.action_reason,
    ]),
  );
  assert.deepEqual(reasons, {
    "test_thing.a": "delete_because_no_resource_config",
    "test_thing.c[0]": undefined,
    "test_thing.c[1]": "delete_because_count_index",
  });
  assert.deepEqual(
    doc.planned_values.root_module.resources.map((r: { address: string }) => r.address),
    ["test_thing.c[0]"],
    "what apply deletes is not in planned_values",
  );
});

Deno.test("terraformPlan() shows a node the plan skipped as no-op, its values its record's", () => {
  const p = plan([], {
    skipped: [skipped("test_thing.b")],
  });
  const rec = record("test_thing.b", { dependencies: ["test_thing.a"] });
  const doc = tfPlan(p, [record("test_thing.a"), rec]);
  const [rc] = doc.resource_changes;
  assert.deepEqual(rc.change.actions, ["no-op"]);
  assert.deepEqual(rc.change.before, rc.change.after);
  assert.equal(rc.change.after.arn, "arn:test_thing.b");
  const prior = doc.prior_state.values.root_module.resources;
  assert.deepEqual(prior.map((r: { address: string }) => r.address), [
    "test_thing.a",
    "test_thing.b",
  ]);
  assert.deepEqual(prior[1].depends_on, ["test_thing.a"]);
  assert.equal(doc.applyable, false);
});

Deno.test("terraformPlan() refuses a plan whose skipped nodes the state no longer holds", () => {
  const p = plan([], {
    skipped: [skipped("test_thing.b")],
  });
  assert.throws(() => tfPlan(p, []), /The state has no record of nodes the plan left alone/);
});

Deno.test("terraformPlan() puts a data source read now in prior_state only, and one read at apply in the changes", () => {
  const read = node("data.test_info.i", {
    mode: "data",
    type: "test_info",
    action: "read",
    after: { name: "dev", value: null, arn: "arn:i", tags: null, list: [], rule: [] },
    afterUnknown: [],
  });
  const doc = tfPlan(plan([read]));
  assert.equal(doc.resource_changes, undefined);
  assert.equal(doc.prior_state.values.root_module.resources[0].address, "data.test_info.i");
  const later = {
    ...read,
    after: { name: "dev" },
    afterUnknown: ["arn"],
    templates: { name: "x" },
  };
  const rc = tfPlan(plan([later])).resource_changes[0];
  assert.deepEqual(rc.change.actions, ["read"]);
  assert.equal(rc.action_reason, "read_because_config_unknown");
});

Deno.test("terraformPlan() writes Terraform's addresses: indexes, keys, modules, and a root not converted", () => {
  const doc = tfPlan(plan([
    node('test_thing.c."0"'),
    node('test_thing.e."a b"'),
    node("module.vpc.test_thing.x"),
    node('module.net."eu".module.sub.test_thing.y'),
    node("pets.web.pet"),
  ]));
  const heads = doc.resource_changes.map((r: Record<string, unknown>) => [
    r.address,
    r.module_address,
    r.name,
    r.index,
  ]);
  // Terraform's order: the root's first, then shorter module paths, then by name.
  assert.deepEqual(heads, [
    ["test_thing.c[0]", undefined, "c", 0],
    ['test_thing.e["a b"]', undefined, "e", "a b"],
    ["module.vpc.test_thing.x", "module.vpc", "x", undefined],
    ['module.net["eu"].module.sub.test_thing.y', 'module.net["eu"].module.sub', "y", undefined],
    ["module.pets.module.web.test_thing.pet", "module.pets.module.web", "pet", undefined],
  ]);
  const root = doc.planned_values.root_module;
  assert.deepEqual(root.child_modules.map((m: { address: string }) => m.address), [
    'module.net["eu"]',
    "module.pets",
    "module.vpc",
  ]);
  assert.equal(root.child_modules[0].child_modules[0].address, 'module.net["eu"].module.sub');
  const calls = doc.configuration.root_module.module_calls;
  assert.deepEqual(Object.keys(calls).sort(), ["net", "pets", "vpc"]);
  assert.equal(calls.net.module.module_calls.sub.module.resources[0].address, "test_thing.y");
});

Deno.test("terraformPlan() writes the configuration: references, constants, count, provider keys", () => {
  const nodes = [
    node("test_thing.a", {
      config: {
        name: "a-dev",
        value: "hunter2-secret",
        tags: { team: "x" },
        rule: [{ port: 80, secret: "rule-secret" }, {}],
      },
    }),
    node("test_thing.b", { providerInstance: "$test_west", config: { name: "b" } }),
    node('test_thing.c."0"', { config: {} }),
    node('test_thing.c."1"', { config: {} }),
  ];
  const p = plan(nodes, {
    main: MAIN,
    providers: [
      {
        address: "$test",
        source: "hashicorp/test",
        config: { region: "r1", token: "tok-secret-1234" },
        sensitive: ["token"],
      },
      { address: "$test_west", source: "hashicorp/test", config: { region: "r2" }, sensitive: [] },
    ],
    outputsUnknown: ["arn"],
    outputs: { env: "dev" },
    tags: { n: "2" },
  });
  const doc = tfPlan(p);
  const cfg = doc.configuration;
  assert.deepEqual(Object.keys(cfg.provider_config), ["test", "test.west"]);
  assert.deepEqual(cfg.provider_config.test, {
    name: "test",
    full_name: "registry.terraform.io/hashicorp/test",
    version_constraint: "~> 1.0",
    expressions: { region: { constant_value: "r1" }, token: {} },
  });
  assert.equal(cfg.provider_config["test.west"].alias, "west");
  const [a, b, c] = cfg.root_module.resources;
  assert.deepEqual(a.expressions.name, { references: ["var.env"] });
  assert.deepEqual(a.expressions.value, {}, "a sensitive value's expression is empty");
  assert.deepEqual(a.expressions.tags, { constant_value: { team: "x" } });
  assert.deepEqual(a.expressions.rule, [
    { port: { constant_value: 80 }, secret: {} },
    { port: { references: ["test_thing.b.arn", "test_thing.b"] } },
  ]);
  assert.equal(b.provider_config_key, "test.west");
  assert.equal(c.address, "test_thing.c");
  assert.deepEqual(c.count_expression, { references: ["var.n"] });
  assert.deepEqual(c.expressions.name, {
    references: ["count.index", "test_thing.a.arn", "test_thing.a"],
  });
  assert.deepEqual(cfg.root_module.variables, { env: { default: "dev" }, n: { default: 2 } });
  assert.deepEqual(doc.variables, { env: { value: "dev" }, n: { value: 2 } });
  assert.deepEqual(cfg.root_module.outputs.arn, {
    expression: { references: ["test_thing.a.arn", "test_thing.a"] },
  });
  assert.deepEqual(doc.relevant_attributes, [
    { resource: "test_thing.a", attribute: ["arn"] },
    { resource: "test_thing.b", attribute: ["arn"] },
  ]);
});

Deno.test("terraformPlan() lists every output's change, and never a sensitive output's value", () => {
  const p = plan([], {
    outputs: { same: 1, changed: "new", added: [1], secret: "(sensitive)" },
    outputsUnknown: ["later"],
    outputsBefore: { same: 1, changed: "old", removed: true, secret: "(sensitive)", later: "x" },
  });
  const oc = tfPlan(p).output_changes;
  const actions = Object.fromEntries(
    Object.entries(oc).map(([k, v]) => [k, (v as { actions: string[] }).actions[0]]),
  );
  assert.deepEqual(actions, {
    added: "create",
    changed: "update",
    later: "update",
    removed: "delete",
    same: "no-op",
    secret: "no-op",
  });
  assert.deepEqual(oc.secret, {
    actions: ["no-op"],
    after_unknown: false,
    before_sensitive: true,
    after_sensitive: true,
  });
  assert.deepEqual(oc.later, {
    actions: ["update"],
    before: "x",
    after_unknown: true,
    before_sensitive: false,
    after_sensitive: false,
  });
  assert.deepEqual(oc.removed.after, null);
});
