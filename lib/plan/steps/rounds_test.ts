import { BUILTIN_ONLY } from "../../workspace/workspace_testing.ts";
import assert from "node:assert/strict";
import { parseSources } from "../../cue/loader.ts";
import type { StateRecord } from "../../state/store.ts";
import { planSession } from "../session.ts";
import { planRounds } from "./rounds.ts";
import { HEAD, record, sourcesOf } from "./_testing.ts";
import type { Sources } from "../../cue/loader.ts";
import type { KnownKind } from "../session.ts";

async function rounds(sources: Sources, records: Map<string, StateRecord>, replace?: string[]) {
  const opts = { root: sources.root, tags: {}, actor: "t", reason: "r", replace };
  const state = { records, knownKinds: new Map<string, KnownKind>([...records]) };
  const prior = new Map([...records].map(([a, r]) => [a, r.attributes]));
  return {
    state,
    got: await planRounds(sources, {
      opts,
      state,
      refreshed: { prior, stored: new Map(), refreshed: new Map(), diagnostics: [] },
      providers: planSession(sources, opts, state),
      located: () => (d) => d,
    }),
  };
}

Deno.test("planRounds() reads a data source, then plans with what it read", async () => {
  const root = await Deno.makeTempDir({ prefix: "pravo-rounds-" });
  try {
    await Deno.writeTextFile(`${root}/in.txt`, "hello");
    const parsed = parseSources(root, [{
      name: "main.cue",
      src: `${HEAD}
in: $local.#Data.local_file & {filename: "in.txt"}
out: $local.#Resource.local_file & {filename: "out.txt", content: in.content}
`,
    }], BUILTIN_ONLY);
    assert.ok(parsed.ok);
    const { state, got } = await rounds(parsed.value, new Map());
    assert.deepEqual(got.planned.map((p) => [p.address, p.action]), [
      ["in", "read"],
      ["out", "create"],
    ]);
    assert.equal(got.planned[1].config.content, "hello");
    assert.equal(got.spec.nodes.find((n) => n.address === "out")?.config.content, "hello");
    assert.equal(state.knownKinds.get("in")?.mode, "data");
    assert.deepEqual(got.diagnostics, []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("planRounds() plans again when a replace makes a dependency's values unknown", async () => {
  const sources = sourcesOf(`base: $random.#Resource.random_integer & {min: 1, max: 9}
size: $random.#Resource.random_integer & {min: base.result, max: 20}`);
  const records = new Map([
    ["base", record("base")],
    ["size", record("size", { attributes: { id: "7", min: 5, max: 20, result: 7 } })],
  ]);
  const kept = (await rounds(sources, records)).got;
  assert.deepEqual(kept.planned.map((p) => [p.address, p.action]), [
    ["base", "no-op"],
    ["size", "no-op"],
  ]);
  const replaced = (await rounds(sources, records, ["base"])).got;
  assert.deepEqual(replaced.planned.map((p) => [p.address, p.action]), [
    ["base", "replace"],
    ["size", "replace"],
  ]);
  assert.ok(replaced.planned[1].replaceBecause.includes("min"));
});
