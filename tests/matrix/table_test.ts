/**
 * The feature matrix's page matches its declarations, and every row has a
 * test that the worlds run.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { cell, COLUMNS, NOT_APPLICABLE, ROWS, WORLDS } from "./cells.ts";
import { STEP_IDS } from "./_scenario.ts";
import { formattedMatrix, PAGE, worldFile } from "./table.ts";

Deno.test("docs/reference/feature-matrix.md is the table the matrix's declarations make", async () => {
  const page = await Deno.readTextFile(fileURLToPath(new URL(`../../${PAGE}`, import.meta.url)));
  assert.equal(page, await formattedMatrix(), "run `deno task matrix` and commit the page");
});

Deno.test("every row of the matrix has its test, every world its file, every reason a cell", () => {
  assert.deepEqual(ROWS.map((r) => r.id).filter((id) => !STEP_IDS.includes(id)), []);
  assert.deepEqual(STEP_IDS.filter((id) => !ROWS.some((r) => r.id === id)), []);
  assert.equal(new Set(ROWS.map((r) => r.id)).size, ROWS.length, "rows are unique");
  for (const w of WORLDS) {
    assert.ok(worldFile(w.id), `${w.id} has a test file`);
    for (const s of w.skips ?? []) assert.ok(ROWS.some((r) => r.id === s), `${w.id} skips ${s}`);
  }
  for (const [row, cols] of Object.entries(NOT_APPLICABLE)) {
    assert.ok(ROWS.some((r) => r.id === row), `a reason for the row ${row}`);
    for (const c of Object.keys(cols)) assert.ok(COLUMNS.some((x) => x.id === c), c);
  }
});

Deno.test("no cell of the matrix is empty: a world runs it, or a reason says why it does not apply", () => {
  const empty = ROWS.flatMap((r) =>
    COLUMNS.filter((c) => {
      const x = cell(r, c.id);
      return x.worlds.length === 0 && !x.na;
    }).map((c) => `${r.id} x ${c.id}`)
  );
  assert.deepEqual(empty, []);
});
