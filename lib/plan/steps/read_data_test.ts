import assert from "node:assert/strict";
import { DiagnosticsError, error } from "../../diag/diag.ts";
import { evaluateRoot } from "../../cue/loader.ts";
import type { ConfigRequest } from "../../providers/resource_provider.ts";
import { readDataSources } from "./read_data.ts";
import { fakeProvider, record, sessionWith, sourcesOf } from "./_testing.ts";

const BODY = `base: $random.#Resource.random_integer & {min: 1, max: 9}
named: $local.#Data.local_file & {filename: "f-\\(base.result).txt"}
plain: $local.#Data.local_file & {filename: "main.cue"}`;

/** The root evaluated with base's result known (4). */
async function spec() {
  const res = await evaluateRoot(sourcesOf(BODY), {
    tags: {},
    known: new Map([["base", { result: 4, id: "4" }]]),
    knownKinds: new Map([["base", {
      provider: "hashicorp/random",
      mode: "managed" as const,
      type: "random_integer",
    }]]),
  });
  assert.ok(res.ok, JSON.stringify(res.diagnostics));
  return res.value;
}

function reader(seen: string[]) {
  return fakeProvider({
    readData: (req: ConfigRequest) => {
      seen.push(`${req.address} ${req.config.filename}`);
      return Promise.resolve({ value: { ...req.config, content: "x" }, diagnostics: [] });
    },
  });
}

const HOW = {
  records: new Map([["base", record("base")]]),
  read: new Map(),
  root: "/nowhere",
  located: () => (d: ReturnType<typeof error>) => d,
};

Deno.test("readDataSources() reads the data sources whose configuration is known", async () => {
  const seen: string[] = [];
  const got = await readDataSources(await spec(), { ...HOW, session: sessionWith(reader(seen)) });
  assert.deepEqual(seen, ["named f-4.txt", "plain main.cue"]);
  assert.deepEqual(got.reads.map((r) => r.address), ["named", "plain"]);
  assert.deepEqual(got.reads[1], {
    address: "plain",
    attributes: { filename: "main.cue", content: "x" },
    kind: { provider: "hashicorp/local", mode: "data", type: "local_file" },
    secrets: got.reads[1].secrets,
  });
  assert.deepEqual(got.diagnostics, []);
});

Deno.test("readDataSources() leaves to apply one that depends on a node the plan creates or replaces", async () => {
  const s = await spec();
  for (const how of [{ replace: ["base"] }, { records: new Map() }]) {
    const seen: string[] = [];
    await readDataSources(s, { ...HOW, ...how, session: sessionWith(reader(seen)) });
    assert.deepEqual(seen, ["plain main.cue"]);
  }
});

Deno.test("readDataSources() reads nothing already read, nor in a plan that destroys", async () => {
  const s = await spec();
  const seen: string[] = [];
  const session = sessionWith(reader(seen));
  await readDataSources(s, { ...HOW, session, read: new Map([["named", {}], ["plain", {}]]) });
  const destroying = await readDataSources(s, { ...HOW, session, destroy: true });
  assert.deepEqual(seen, []);
  assert.deepEqual(destroying, { reads: [], diagnostics: [] });
});

Deno.test("readDataSources() throws the errors of a read, pointed at the node", async () => {
  const failing = fakeProvider({
    readData: () => Promise.resolve({ diagnostics: [error("No such file", "none")] }),
  });
  await assert.rejects(
    readDataSources(await spec(), { ...HOW, session: sessionWith(failing) }),
    (e) =>
      e instanceof DiagnosticsError && e.kind === "error" &&
      e.diagnostics[0].address === "named" && e.diagnostics[0].range !== undefined,
  );
});
