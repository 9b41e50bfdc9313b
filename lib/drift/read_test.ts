import { strict as assert } from "node:assert";
import { changedBetween } from "./read.ts";

Deno.test("changedBetween() takes JSON that is equal as JSON as no change, on plugin records", () => {
  const before = { policy: '{"Version":"2012-10-17","Statement":[{"Effect":"Allow"}]}', name: "q" };
  const reordered = '{\n  "Statement": [{"Effect": "Allow"}],\n  "Version": "2012-10-17"\n}';
  assert.deepEqual(
    changedBetween(before, { ...before, policy: reordered }, { emptyIsNull: true }),
    [],
  );
  const changed = '{"Version":"2012-10-17","Statement":[{"Effect":"Deny"}]}';
  assert.deepEqual(changedBetween(before, { ...before, policy: changed }, { emptyIsNull: true }), [
    "policy",
  ]);
  // A list's order is kept: it means something in JSON.
  assert.deepEqual(
    changedBetween({ p: "[1, 2]" }, { p: "[2, 1]" }, { emptyIsNull: true }),
    ["p"],
  );
  // A string that only looks like JSON is compared as a string.
  assert.deepEqual(changedBetween({ p: "{not json" }, { p: "{not json " }, { emptyIsNull: true }), [
    "p",
  ]);
  // Built-in records keep their bytes: a file's content "{}" and "{ }" differ.
  assert.deepEqual(changedBetween({ content: "{}" }, { content: "{ }" }), ["content"]);
});
