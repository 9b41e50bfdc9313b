import assert from "node:assert/strict";
import type { StateRecord } from "./store.ts";
import { BUILTIN_REGISTRY } from "../providers/registry.ts";
import { record } from "./store_testing.ts";
import { changedAttributes, dependentsOf, parseLimit, recordDocument, refreshDue } from "./view.ts";
import {
  redactAttributes,
  REDACTED,
  sensitivePathsOf,
  sensitiveStrings,
} from "../secrets/paths.ts";

const T = "2030-01-01T00:00:00.000Z";

/** A record as stored, with no attributes unless `over` gives some. */
function rec(address: string, over: Partial<StateRecord> = {}): StateRecord {
  return {
    ...record(address, { attributes: {}, configDigest: "d" }),
    createdAt: T,
    updatedAt: T,
    refreshedAt: T,
    ...over,
  };
}

Deno.test("redactAttributes() replaces sensitive paths and strings that hold a secret", () => {
  const attrs = { a: "keep", s: "hunter22", nested: { list: [{ k: "x" }, "has hunter22 in it"] } };
  const out = redactAttributes(
    attrs,
    [["nested", "list", 0, "k"], ["missing"]],
    new Set(["hunter22"]),
  );
  assert.deepEqual(out, {
    a: "keep",
    s: "(sensitive)",
    nested: { list: [{ k: "(sensitive)" }, "(sensitive)"] },
  });
  assert.equal(attrs.s, "hunter22"); // a copy
  assert.deepEqual(redactAttributes({ n: null }, [["n"]], new Set()), { n: null });
});

Deno.test("sensitivePathsOf() adds the attributes the schema marks sensitive", () => {
  const paths = sensitivePathsOf(rec("pw", { type: "random_password" }), BUILTIN_REGISTRY.findType);
  assert.deepEqual(paths.map((p) => p.join(".")).sort(), ["bcrypt_hash", "result"]);
  const strings = sensitiveStrings([
    rec("pw", { type: "random_password", attributes: { result: "p4ss", length: 4 } }),
  ], BUILTIN_REGISTRY.findType);
  assert.deepEqual([...strings], ["p4ss"]);
  const doc = recordDocument(
    rec("pw", { type: "random_password", attributes: { result: "p4ss" } }),
    { types: BUILTIN_REGISTRY.findType },
  );
  assert.equal(doc.attributes.result, "(sensitive)");
});

Deno.test("sensitivePathsOf() asks the type lookup it is given, and no other", () => {
  const asked: string[] = [];
  const types = (source: string, mode: string, name: string) => {
    asked.push(`${source} ${mode} ${name}`);
    return name === "acme_key"
      ? {
        name,
        mode: "managed" as const,
        description: "",
        attributes: { token: { sensitive: true } },
      }
      : undefined;
  };
  const key = rec("k", { provider: "acme/acme", type: "acme_key" });
  assert.deepEqual(sensitivePathsOf(key, types as never), [["token"]]);
  assert.deepEqual(asked, ["acme/acme managed acme_key"]);
  assert.deepEqual(sensitivePathsOf(key, BUILTIN_REGISTRY.findType), []);
});

Deno.test("refreshDue() adds the refresh age to the refresh time", () => {
  assert.equal(refreshDue(rec("a", { refreshAge: "1h30m" })), "2030-01-01T01:30:00.000Z");
  assert.equal(refreshDue(rec("a", { refreshAge: null })), null);
  assert.equal(refreshDue(rec("a", { refreshAge: "soon" })), null);
});

Deno.test("changedAttributes() names the attributes that differ", () => {
  assert.deepEqual(changedAttributes({ a: 1, b: [1], c: 3 }, { a: 1, b: [2], d: 4 }), [
    "b",
    "c",
    "d",
  ]);
  assert.deepEqual(changedAttributes(null, { x: 1 }), ["x"]);
});

Deno.test("dependentsOf() walks dependents transitively, shortest depth first", () => {
  const records = [
    rec("a"),
    rec("b", { dependencies: ["a"] }),
    rec("c", { dependencies: ["b", "a"] }),
    rec("d", { dependencies: ["c"] }),
    rec("e", { dependencies: ["d", "b"] }),
    rec("z"),
  ];
  assert.deepEqual(
    dependentsOf(records, "a").map((d) => `${d.address}@${d.depth} via ${d.via}`),
    ["b@1 via a", "c@1 via a", "d@2 via c", "e@2 via b"],
  );
  assert.deepEqual(dependentsOf(records, "z"), []);
});

Deno.test("dependentsOf() stops at cycles", () => {
  const records = [rec("a", { dependencies: ["b"] }), rec("b", { dependencies: ["a"] })];
  assert.deepEqual(dependentsOf(records, "a").map((d) => d.address), ["b"]);
});

Deno.test("parseLimit() reads whole numbers and refuses the rest", () => {
  assert.equal(parseLimit(undefined, 20), 20);
  assert.equal(parseLimit("0", 20), 0);
  assert.equal(parseLimit("7", 20), 7);
  assert.throws(() => parseLimit("-1", 20), /not a whole number/);
  assert.throws(() => parseLimit("1.5", 20), /not a whole number/);
});

Deno.test("REDACTED is the plan document's marker", async () => {
  const { REDACTED: planMarker } = await import("../plan/document.ts");
  assert.equal(REDACTED, planMarker);
});
