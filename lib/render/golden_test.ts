/**
 * Every human view against its golden file: the view of a document that
 * `--json` printed (testdata/*.json), plain (testdata/NAME.txt) and in
 * colour (testdata/NAME.color.txt, the escapes as they are written). A view
 * that changes fails here until its golden files are written again, on
 * purpose: `PRAVO_UPDATE_GOLDEN=1 deno test -A lib/render/golden_test.ts`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Style } from "../diag/style.ts";
import { renderDrift, renderDue } from "./drift.ts";
import { renderPlan } from "./plan.ts";
import { renderDependents, renderLocks, renderLog, renderRecord } from "./state.ts";
import { progressLine } from "./apply_progress.ts";
import { renderApplied } from "./apply.ts";
import { renderDiagnostics } from "./diagnostics.ts";
import { renderDot } from "./graph.ts";
import { renderInit } from "./init.ts";
import { renderProviders } from "./providers.ts";
import { renderSchema } from "./schema.ts";
import { renderVersion } from "./version.ts";
import { renderOutputs } from "./output.ts";
import { renderPlanStatus } from "./plan_status.ts";
import { renderMigrated } from "./migrate.ts";
import { renderPlanOutcome } from "./plan_outcome.ts";
import { renderConvert } from "./convert.ts";
import { renderTfImport } from "./import_terraform.ts";
import { renderGenerated } from "./import_generate.ts";
import type { ProgressEvent } from "../apply/progress.ts";

const DATA = new URL("./testdata/", import.meta.url);
const UPDATE = Deno.env.get("PRAVO_UPDATE_GOLDEN") === "1";
// The commands that messages name are named "pravo" here, however this test was started.
Deno.env.delete("PRAVO_PROGRAM");

// deno-lint-ignore no-explicit-any
type View = (doc: any, style: Style) => string;

const VIEWS: [name: string, view: View][] = [
  ["plan_create", renderPlan],
  ["plan_replace", renderPlan],
  // `state show --json` holds the record under "record".
  ["state_show", (doc, style) => renderRecord(doc.record, style)],
  ["state_show_sensitive", (doc, style) => renderRecord(doc.record, style)],
  ["state_log", renderLog],
  ["state_locks", renderLocks],
  ["state_dependents", renderDependents],
  ["drift", renderDrift],
  ["drift_due", renderDue],
  [
    "apply_summary",
    (cases: { doc: never; view: never }[], style) =>
      cases.map((c) => renderApplied(c.doc, style, c.view)).join("\n---\n"),
  ],
  ["diagnostics", renderDiagnostics],
  ["graph", (doc) => renderDot(doc)],
  ["init", renderInit],
  ["providers", renderProviders],
  ["schema", renderSchema],
  ["version", (doc) => renderVersion(doc)],
  // Several documents or cases a file, their views apart by "---".
  ["output", (docs: never[], style) => docs.map((d) => renderOutputs(d, style)).join("\n---\n")],
  [
    "plan_status",
    (docs: never[], style) => docs.map((d) => renderPlanStatus(d, style)).join("\n---\n"),
  ],
  ["migrate", (docs: never[]) => docs.map(renderMigrated).join("\n---\n")],
  [
    "plan_outcome",
    (cases: { doc: never; view: never }[]) =>
      cases.map((c) => renderPlanOutcome(c.doc, c.view)).join("\n---\n"),
  ],
  ["convert", renderConvert],
  ["import_terraform", renderTfImport],
  [
    "import_generate",
    (cases: { doc: never; view: never }[], style) =>
      cases.map((c) => renderGenerated(c.doc, style, c.view)).join("\n---\n"),
  ],
  [
    "apply_progress",
    (events: ProgressEvent[]) => events.map(progressLine).filter((l) => l !== undefined).join("\n"),
  ],
];

async function golden(file: string, actual: string): Promise<void> {
  const url = new URL(file, DATA);
  if (UPDATE) {
    await Deno.writeTextFile(url, actual);
    return;
  }
  let expected: string;
  try {
    expected = await Deno.readTextFile(url);
  } catch {
    throw new Error(`no golden file ${file}: write it with PRAVO_UPDATE_GOLDEN=1`);
  }
  assert.equal(actual, expected, `${file} differs from its golden file`);
}

for (const [name, view] of VIEWS) {
  Deno.test(`the ${name} view reads as its golden file, plain and in colour`, async () => {
    const doc = JSON.parse(await Deno.readTextFile(new URL(`${name}.json`, DATA)));
    const plain = view(doc, new Style(false));
    assert.ok(!plain.includes("\x1b["), "no escape without colour");
    await golden(`${name}.txt`, plain + "\n");
    await golden(`${name}.color.txt`, view(doc, new Style(true)) + "\n");
  });
}

Deno.test("every document in testdata has a view here", async () => {
  const names = new Set(VIEWS.map(([n]) => n));
  for await (const e of Deno.readDir(DATA)) {
    if (e.name.endsWith(".json")) assert.ok(names.has(e.name.slice(0, -5)), e.name);
  }
});
