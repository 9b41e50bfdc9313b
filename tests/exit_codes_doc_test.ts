import assert from "node:assert/strict";
import { Exit } from "../lib/cli/exit.ts";

Deno.test("docs/reference/exit-codes.md lists exactly the codes and names of lib/cli/exit.ts", async () => {
  const page = await Deno.readTextFile(new URL("../docs/reference/exit-codes.md", import.meta.url));
  const rows = [...page.matchAll(/^\|\s*(\d+)\s*\|\s*`([A-Z_]+)`\s*\|/gm)].map((m) => [
    m[2],
    Number(m[1]),
  ]);
  assert.deepEqual(Object.fromEntries(rows), { ...Exit });
  assert.equal(rows.length, Object.keys(Exit).length, "each code once");
});
