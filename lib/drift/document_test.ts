import { BUILTIN_REGISTRY } from "../providers/registry.ts";
import assert from "node:assert/strict";
import { Style } from "../diag/style.ts";
import type { StateRecord } from "../state/store.ts";
import { changedText, driftDocument, dueDocument } from "./document.ts";
import { renderDrift, renderDue } from "../render/drift.ts";
import type { DriftReport } from "./read.ts";

const SECRET = "pa55-w0rd-of-old";
const NEW_SECRET = "pa55-w0rd-by-hand";

function record(r: Partial<StateRecord> & Pick<StateRecord, "address">): StateRecord {
  return {
    mode: "managed",
    type: "local_file",
    provider: "hashicorp/local",
    attributes: {},
    sensitivePaths: [],
    dependencies: [],
    configDigest: "d",
    refreshAge: "1h",
    createdAt: "2030-01-01T00:00:00.000Z",
    updatedAt: "2030-01-01T00:00:00.000Z",
    refreshedAt: "2030-01-01T00:00:00.000Z",
    ...r,
  };
}

Deno.test("driftDocument() redacts sensitive values in the state and in what was read", () => {
  const key = record({
    address: "key",
    type: "local_sensitive_file",
    attributes: { filename: "key.txt", content: SECRET, id: "1" },
  });
  const copy = record({
    address: "copy",
    attributes: { filename: "copy.txt", content: `the key is ${NEW_SECRET}`, id: "2" },
  });
  const report: DriftReport = {
    results: [
      {
        record: key,
        status: "drifted",
        now: { filename: "key.txt", content: NEW_SECRET, id: "3" },
        changed: ["content", "id"],
      },
      { record: copy, status: "unchanged", now: copy.attributes, changed: [] },
    ],
    notReadable: [],
    failed: [],
    diagnostics: [],
  };
  const doc = driftDocument(report, [key, copy], BUILTIN_REGISTRY);
  const text = JSON.stringify(doc) + renderDrift(doc, new Style(false));
  assert.ok(!text.includes(SECRET) && !text.includes(NEW_SECRET), text);
  assert.deepEqual(doc.drift, [{
    address: "key",
    type: "local_sensitive_file",
    status: "drifted",
    changed: ["content", "id"],
    before: { filename: "key.txt", content: "(sensitive)", id: "1" },
    now: { filename: "key.txt", content: "(sensitive)", id: "3" },
  }]);
  assert.equal(doc.summary.unchanged, 1);
});

Deno.test("changedText() names the inputs and counts the computed attributes that followed", () => {
  assert.equal(
    changedText({ type: "local_file", changed: ["content", "content_md5", "id"] }),
    "content changed (and 2 computed attributes)",
  );
  assert.equal(changedText({ type: "local_file", changed: ["id"] }), "id changed");
  assert.equal(changedText({ type: "no_such_type", changed: ["a", "b"] }), "a, b changed");
});

Deno.test("renderDue() says how many more there are beyond the limit", () => {
  const due = ["a", "b", "c"].map((address) => ({
    address,
    type: "local_file",
    refreshedAt: "2030-01-01T00:00:00.000Z",
    refreshAge: "0s",
    dueSince: "2030-01-01T00:00:00.000Z",
    because: ["refresh_age" as const],
  }));
  const doc = dueDocument(due, 2);
  assert.equal(doc.total_due, 3);
  assert.equal(doc.truncated, true);
  assert.deepEqual(doc.due.map((d) => d.address), ["a", "b"]);
  assert.match(
    renderDue(doc, new Style(false)),
    /\n\n1 more not shown; pass --limit 3 to see all\.$/,
  );
});
