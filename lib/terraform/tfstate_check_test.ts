import assert from "node:assert/strict";
import type { Node } from "../cue/loader.ts";
import { BUILTIN_REGISTRY } from "../providers/registry.ts";
const { findType } = BUILTIN_REGISTRY;
import { parseTfState, type TfState } from "./tfstate.ts";
import { checkTakeover } from "./tfstate_check.ts";
import { specNode } from "../cue/spec_testing.ts";

/** A node of a root, as the loader gives it, with only what the check reads. */
function node(address: string, type: string, opts: Partial<Node> = {}): Node {
  return specNode(address, {
    type,
    schema: findType("hashicorp/random", "managed", type) ??
      { name: type, mode: "managed", description: "", attributes: {} },
    range: { file: "main.cue", line: 7, column: 1 },
    ...opts,
  });
}

const RANDOM = 'provider[\\"registry.terraform.io/hashicorp/random\\"]';

/** A state holding `resources` (JSON text of each). */
function state(...resources: string[]): TfState {
  const r = parseTfState(
    `{"version": 4, "terraform_version": "1.11.4", "serial": 2, "lineage": "l", "resources": [${
      resources.join(",")
    }]}`,
    "terraform.tfstate",
  );
  if (!("state" in r)) throw new Error(r.diagnostics[0].summary);
  return r.state;
}

function resource(type: string, name: string, instances: string[], extra = ""): string {
  return `{${extra}"mode": "managed", "type": "${type}", "name": "${name}", "provider": "${RANDOM}", ` +
    `"instances": [${instances.join(",")}]}`;
}

const one = (fields = "") => `{"schema_version": 0, "attributes": {"id": "1"}${fields}}`;
const ROOT = {
  providers: [{ address: "$random", source: "hashicorp/random", config: {}, sensitive: [] }],
};

Deno.test("checkTakeover() maps count, for_each and module instances to the converted root's addresses", () => {
  const s = state(
    resource("random_integer", "n", [one(`, "index_key": 0`), one(`, "index_key": 1`)]),
    resource("random_pet", "p", [one(`, "index_key": "a b"`)]),
    resource("random_id", "i", [one()], `"module": "module.m[\\"x\\"].module.z", `),
  );
  const nodes = [
    node('random_integer.n."0"', "random_integer"),
    node('random_integer.n."1"', "random_integer"),
    node('random_pet.p."a b"', "random_pet"),
    node("module.m.x.module.z.random_id.i", "random_id"),
  ];
  const c = checkTakeover(s, { spec: { nodes, providers: ROOT.providers }, existing: new Set() });
  assert.deepEqual(c.diagnostics, []);
  assert.deepEqual(c.takeovers.map((t) => [t.instance.address, t.address]), [
    ["random_integer.n[0]", 'random_integer.n."0"'],
    ["random_integer.n[1]", 'random_integer.n."1"'],
    ['random_pet.p["a b"]', 'random_pet.p."a b"'],
    ['module.m["x"].module.z.random_id.i', "module.m.x.module.z.random_id.i"],
  ]);
});

Deno.test("checkTakeover() skips data sources, saying why", () => {
  const s = state(
    `{"mode": "data", "type": "local_file", "name": "f", "provider": "${RANDOM}", "instances": [${one()}]}`,
  );
  const c = checkTakeover(s, {
    spec: { nodes: [], providers: ROOT.providers },
    existing: new Set(),
  });
  assert.deepEqual(c.takeovers, []);
  assert.deepEqual(c.skipped, [{
    terraform_address: "data.local_file.f",
    address: "data.local_file.f",
    why: "a data source: pravo reads it again at the next plan, as Terraform does",
  }]);
});

Deno.test("checkTakeover() refuses an address the root does not declare, with the Terraform address and a did-you-mean", () => {
  const s = state(resource("random_integer", "n", [one(`, "index_key": 2`)]));
  const c = checkTakeover(s, {
    spec: { nodes: [node('random_integer.n."0"', "random_integer")], providers: ROOT.providers },
    existing: new Set(),
  });
  const [d] = c.diagnostics;
  assert.equal(d.summary, 'random_integer.n."2" is not declared in the root');
  assert.match(d.detail, /Terraform's random_integer\.n\[2\] comes to random_integer\.n\."2"/);
  assert.match(d.detail, /\(did you mean random_integer\.n\."0"\?\)/);
  assert.match(d.detail, /terraform state rm random_integer\.n\[2\]`\), then import again\.$/);
  assert.equal(d.range?.file, "terraform.tfstate");
});

Deno.test("checkTakeover() refuses another type, another provider, an address pravo holds, and a newer schema", () => {
  const s = state(
    resource("random_integer", "a", [one()]),
    resource("random_integer", "b", [one()]),
    resource("random_integer", "c", [one()]),
    resource("random_integer", "d", [`{"schema_version": 9, "attributes": {}}`]),
  );
  const plugin = { block: { attributes: {}, blockTypes: {} }, version: 1 } as never;
  const c = checkTakeover(s, {
    existing: new Set(["random_integer.c"]),
    spec: {
      providers: ROOT.providers,
      nodes: [
        node("random_integer.a", "random_pet"),
        node("random_integer.b", "random_integer", { provider: "acme/random" }),
        node("random_integer.c", "random_integer"),
        node("random_integer.d", "random_integer", {
          schema: { ...node("x", "random_integer").schema, plugin },
        }),
      ],
    },
  });
  assert.deepEqual(c.diagnostics.map((d) => d.summary), [
    "random_integer.a is of type random_pet in the root, and random_integer in Terraform's state",
    "random_integer.b is of acme/random in the root, and of registry.terraform.io/hashicorp/random in Terraform's state",
    "random_integer.c is already in the state",
    "random_integer.d was written by a newer release of hashicorp/random",
  ]);
  assert.match(c.diagnostics[0].detail, /main\.cue line 7/);
  assert.equal(c.takeovers.length, 0);
});

Deno.test("checkTakeover() refuses tainted, deposed and Terraform 0.11 objects with what to do", () => {
  const s = state(
    resource("random_integer", "t", [one(`, "status": "tainted"`)]),
    resource("random_integer", "d", [one(), one(`, "deposed": "0a1b"`)]),
    resource("random_integer", "f", [`{"schema_version": 0, "attributes_flat": {"id": "1"}}`]),
  );
  const nodes = ["t", "d", "f"].map((n) => node(`random_integer.${n}`, "random_integer"));
  const c = checkTakeover(s, { spec: { nodes, providers: ROOT.providers }, existing: new Set() });
  assert.deepEqual(c.diagnostics.map((d) => d.summary), [
    "random_integer.t is tainted",
    "random_integer.d has a deposed object (0a1b)",
    "random_integer.f holds the flat attributes of Terraform 0.11",
  ]);
  assert.match(c.diagnostics[0].detail, /pravo plan --replace random_integer\.t/);
  assert.deepEqual(c.takeovers.map((t) => t.address), ["random_integer.d"]);
});

Deno.test("checkTakeover() names a provider the root lacks once, and Terraform's own provider apart", () => {
  const aws = 'provider[\\"registry.terraform.io/hashicorp/aws\\"]';
  const tf = 'provider[\\"terraform.io/builtin/terraform\\"]';
  const res = (type: string, name: string, p: string) =>
    `{"mode": "managed", "type": "${type}", "name": "${name}", "provider": "${p}", "instances": [${one()}]}`;
  const s = state(
    res("aws_s3_bucket", "a", aws),
    res("aws_s3_bucket", "b", aws),
    res("terraform_data", "x", tf),
  );
  const c = checkTakeover(s, {
    spec: { nodes: [], providers: ROOT.providers },
    existing: new Set(),
  });
  assert.deepEqual(c.diagnostics.map((d) => d.summary), [
    "The root has no provider registry.terraform.io/hashicorp/aws",
    "terraform_data.x is of Terraform's built-in provider",
  ]);
  assert.match(c.diagnostics[0].detail, /"hashicorp\/aws": "VERSION".*pravo init/);
});

Deno.test("checkTakeover() refuses two objects that come to one address", () => {
  const s = state(
    resource("random_integer", "n", [one(`, "index_key": 0`)]),
    resource("random_integer", "n", [one(`, "index_key": "0"`)]),
  );
  const c = checkTakeover(s, {
    spec: { nodes: [node('random_integer.n."0"', "random_integer")], providers: ROOT.providers },
    existing: new Set(),
  });
  assert.equal(
    c.diagnostics[0].summary,
    'random_integer.n["0"] and random_integer.n[0] both come to random_integer.n."0"',
  );
});

Deno.test("checkTakeover() compares a plugin provider by the full address its lock pins", () => {
  const fake = 'provider[\\"example.com/pravo/fake\\"]';
  const s = state(
    `{"mode": "managed", "type": "fake_thing", "name": "t", "provider": "${fake}", "instances": [${one()}]}`,
  );
  const spec = {
    nodes: [node("fake_thing.t", "fake_thing", { provider: "pravo/fake" })],
    providers: [{ address: "$fake", source: "pravo/fake", config: {}, sensitive: [] }],
  };
  const pinned = (source: string) => source === "pravo/fake" ? "example.com/pravo/fake" : source;
  const c = checkTakeover(s, { spec, existing: new Set(), fullAddress: pinned });
  assert.deepEqual(c.diagnostics, []);
  assert.equal(c.takeovers.length, 1);
  const unpinned = checkTakeover(s, { spec, existing: new Set() });
  assert.equal(unpinned.diagnostics[0].summary, "The root has no provider example.com/pravo/fake");
  assert.match(unpinned.diagnostics[0].detail, /"example\.com\/pravo\/fake": "VERSION"/);
});
