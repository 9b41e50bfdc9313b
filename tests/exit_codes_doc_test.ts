import assert from "node:assert/strict";
import { Exit, EXIT_CODE_OF, exitCodeOf } from "../lib/cli/exit.ts";

Deno.test("docs/reference/exit-codes.md lists exactly the codes and names of lib/cli/exit.ts", async () => {
  const page = await Deno.readTextFile(new URL("../docs/reference/exit-codes.md", import.meta.url));
  const rows = [...page.matchAll(/^\|\s*(\d+)\s*\|\s*`([A-Z_]+)`\s*\|/gm)].map((m) => [
    m[2],
    Number(m[1]),
  ]);
  assert.deepEqual(Object.fromEntries(rows), { ...Exit });
  assert.equal(rows.length, Object.keys(Exit).length, "each code once");
});

Deno.test("every kind of failure has its own exit code, and only OK and CHANGES are not failures", () => {
  const codes = Object.values(EXIT_CODE_OF);
  assert.equal(new Set(codes).size, codes.length, "one kind, one code");
  const results = Object.entries(Exit).filter(([, c]) => !codes.includes(c)).map(([n]) => n);
  assert.deepEqual(results.sort(), ["CHANGES", "OK"]);
  assert.equal(exitCodeOf("plan_damaged"), Exit.PLAN_CORRUPT);
  assert.equal(exitCodeOf("terminated"), 143);
});
