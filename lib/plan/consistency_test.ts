import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRoot, pravo } from "../../tests/_pravo.ts";
import { keyFromBytes } from "../keys/key.ts";
import { checkPlanConsistency } from "./consistency.ts";
import { BUILTIN_REGISTRY } from "../providers/registry.ts";
import { readPlanFile } from "./planfile.ts";
import type { Plan, PlannedNode } from "./types.ts";

const KEY_TEXT = "a key of 32 bytes for this test!";
const KEY = keyFromBytes(new TextEncoder().encode(KEY_TEXT), "test");
const ENV = { PRAVO_KEY: btoa(KEY_TEXT) };

const SPEC = (max: number) =>
  `package c

import rnd "pravo.dev/providers/hashicorp/random"
import loc "pravo.dev/providers/hashicorp/local"
import tm "pravo.dev/providers/hashicorp/time"

$random: rnd.#Provider
$local: loc.#Provider
$time: tm.#Provider

base: $random.#Resource.random_integer & {min: 1, max: ${max}, seed: "base"}
size: $random.#Resource.random_integer & {min: base.result, max: base.result + 10}
pw: $random.#Resource.random_password & {length: 12}
note: $local.#Resource.local_file & {filename: "note.txt", content: "hi \\(base.result)"}
spec: $local.#Data.local_file & {filename: "main.cue"}
nap: $time.#Resource.time_sleep & {create_duration: "${max}ms"}
`;

/** Plans in `root` with the test's key and reads the plan back. */
async function planOf(root: string, args: string[] = []): Promise<Plan> {
  const r = await pravo(root, ["plan", "--out", "p.plan", ...args], { env: ENV });
  assert.equal(r.code, 2, r.stderr);
  return readPlanFile(join(root, "p.plan"), KEY).plan;
}

function node(plan: Plan, address: string): PlannedNode {
  const n = plan.nodes.find((x) => x.address === address);
  assert.ok(n, `${address} is in the plan`);
  return n;
}

/** The details of the disagreements after `change` is made to a copy of `plan`. */
function after(plan: Plan, change: (p: Plan) => void): string {
  const copy = structuredClone(plan);
  change(copy);
  return checkPlanConsistency(copy, BUILTIN_REGISTRY).map((d) => `${d.address ?? ""}: ${d.detail}`)
    .join("\n");
}

Deno.test("checkPlanConsistency() finds no disagreement in the plans pravo makes", async () => {
  const root = await makeRoot({ "main.cue": SPEC(5) });
  await pravo(root, ["init"], { env: ENV });
  const first = await planOf(root);
  assert.deepEqual(checkPlanConsistency(first, BUILTIN_REGISTRY), []);
  assert.equal((await pravo(root, ["apply", "p.plan"], { env: ENV })).code, 0);
  await Deno.writeTextFile(join(root, "main.cue"), SPEC(7));
  const second = await planOf(root, ["--full"]);
  assert.deepEqual(second.nodes.map((n) => [n.address, n.action]), [
    ["base", "replace"],
    ["nap", "update"],
    ["note", "replace"],
    ["pw", "no-op"],
    ["size", "replace"],
    ["spec", "read"],
  ]);
  assert.deepEqual(checkPlanConsistency(second, BUILTIN_REGISTRY), []);
  const destroy = await planOf(root, ["--destroy"]);
  assert.deepEqual(checkPlanConsistency(destroy, BUILTIN_REGISTRY), []);
  await Deno.remove(root, { recursive: true });
});

Deno.test("checkPlanConsistency() refuses a plan whose parts disagree: shown is not what apply would use", async () => {
  const root = await makeRoot({ "main.cue": SPEC(5) });
  await pravo(root, ["init"], { env: ENV });
  const plan = await planOf(root);

  // The hole: config says max 99 while after says 5.
  assert.match(
    after(plan, (p) => node(p, "base").config.max = 99),
    /base: The plan shows max = 5 after apply, and apply would use 99/,
  );
  // The sources apply evaluates again are not those the plan was made from.
  assert.match(
    after(plan, (p) => p.sources[0].src = p.sources[0].src.replace("max: 5", "max: 99")),
    /not those whose digest the plan records/,
  );
  assert.match(after(plan, (p) => p.tags = { env: "prod" }), /config_digest/);
  // A value apply waits for, not shown as unknown; or taken from a node it does not depend on.
  assert.match(
    after(plan, (p) => node(p, "size").afterUnknown = ["id", "result"]),
    /"max" is known only at apply, yet the plan does not show it as unknown/,
  );
  assert.match(
    after(plan, (p) => node(p, "size").dependencies = []),
    /waits for base\.result, which is not among its dependencies/,
  );
  // An input known now and at apply, a computed attribute set, an unknown type.
  assert.match(after(plan, (p) => node(p, "base").config.result = 3), /not an input/);
  assert.match(after(plan, (p) => node(p, "base").type = "random_nothing"), /has no managed type/);
  // The action: a create shown as an update, a data source that creates.
  assert.match(after(plan, (p) => node(p, "base").action = "update"), /shows no values before/);
  assert.match(after(plan, (p) => node(p, "spec").action = "create"), /cannot have the action/);
  assert.match(after(plan, (p) => node(p, "base").changed = ["min"]), /lists as changed min/);
  // What apply uses and the document did not show: provider configuration,
  // refresh age, a sensitive attribute not marked.
  assert.match(
    after(plan, (p) => node(p, "base").providerConfig = { endpoint: "https://evil" }),
    /provider configuration is not that of the hashicorp\/random instance/,
  );
  assert.match(
    after(plan, (p) => node(p, "note").refreshAge = null),
    /refresh age "null" is not the one its lifecycle and type give/,
  );
  assert.match(after(plan, (p) => node(p, "pw").sensitive = []), /"result" is sensitive/);
  assert.match(
    after(plan, (p) => p.nodes.push(structuredClone(node(p, "base")))),
    /in the plan twice/,
  );
  await Deno.remove(root, { recursive: true });
});

Deno.test("checkPlanConsistency() recomputes update, replace and no-op from the inputs and the values before", async () => {
  const root = await makeRoot({ "main.cue": SPEC(5) });
  await pravo(root, ["init"], { env: ENV });
  await planOf(root);
  assert.equal((await pravo(root, ["apply", "p.plan"], { env: ENV })).code, 0);
  await Deno.writeTextFile(join(root, "main.cue"), SPEC(7));
  const plan = await planOf(root, ["--full"]);

  assert.match(
    after(plan, (p) => node(p, "base").action = "update"),
    /make it replace, and the plan says update/,
  );
  assert.match(
    after(plan, (p) => node(p, "base").replaceBecause = []),
    /reasons to replace nothing, and the inputs give max/,
  );
  // A replace whose inputs are those of the state: the plan would destroy for nothing.
  assert.match(
    after(plan, (p) => {
      const n = node(p, "base");
      n.config.max = 5;
      n.after!.max = 5;
    }),
    /make it no-op, and the plan says replace/,
  );
  // A no-op that would change what it shows.
  assert.match(
    after(plan, (p) => node(p, "pw").after!.length = 20),
    /left as it is, yet the plan shows other values/,
  );
  // A destroy that would carry inputs.
  const destroy = await planOf(root, ["--destroy"]);
  assert.match(after(destroy, (p) => node(p, "base").after = { max: 1 }), /deleted, yet/);
  await Deno.remove(root, { recursive: true });
});
