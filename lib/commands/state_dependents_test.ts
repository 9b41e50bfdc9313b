import assert from "node:assert/strict";
import { assertPrinted, jsonDocument } from "./_testing.ts";
import { pravo, put, record, seededRoot, storeOf } from "./state_testing.ts";

Deno.test("state dependents lists direct and transitive dependents with their depth", async () => {
  const root = await seededRoot();
  assertPrinted(await pravo(["-C", root, "state", "dependents", "base"]), 0, [
    "3 nodes depend on base (1 directly, 2 through others):",
    "  depth  address  type             via",
    "  1      pw       random_password  base",
    "  2      file     local_file       pw",
    "  3      pet      random_pet       file",
    "",
  ]);
  await Deno.remove(root, { recursive: true });
});

Deno.test("state dependents --json gives each dependent the shortest depth once", async () => {
  const root = await seededRoot();
  // A diamond: both pw and extra lead to late; late is at depth 2 via both.
  const store = await storeOf(root);
  await store.transaction({ actor: "t", reason: "", command: "test" }, async (tx) => {
    await put(tx, record({ address: "extra", dependencies: ["base"] }));
    await put(tx, record({ address: "late", dependencies: ["extra", "pw", "pet"] }));
  });
  await store.close();
  const doc = jsonDocument(await pravo(["-C", root, "state", "dependents", "base", "--json"]));
  assert.equal(doc.address, "base");
  assert.deepEqual(
    doc.dependents.map((d: { address: string; depth: number; via: string[] }) => [
      d.address,
      d.depth,
      d.via,
    ]),
    [
      ["extra", 1, ["base"]],
      ["pw", 1, ["base"]],
      ["file", 2, ["pw"]],
      ["late", 2, ["extra", "pw"]],
      ["pet", 3, ["file"]],
    ],
  );
  await Deno.remove(root, { recursive: true });
});

Deno.test("state dependents of a leaf says nothing depends on it", async () => {
  const root = await seededRoot();
  const { code, stdout } = await pravo(["-C", root, "state", "dependents", "pet"]);
  assert.equal(code, 0);
  assert.equal(stdout, "Nothing in the state depends on pet.\n");
  const json = JSON.parse(
    (await pravo(["-C", root, "state", "dependents", "pet", "--json"])).stdout,
  );
  assert.deepEqual(json.dependents, []);
  await Deno.remove(root, { recursive: true });
});

Deno.test("state dependents of an unknown address says did you mean, exit 1", async () => {
  const root = await seededRoot();
  const { code, stderr } = await pravo(["-C", root, "state", "dependents", "pett"]);
  assert.equal(code, 1);
  assert.match(stderr, /No record for "pett"/);
  assert.match(stderr, /did you mean "pet"\?/);
  await Deno.remove(root, { recursive: true });
});
