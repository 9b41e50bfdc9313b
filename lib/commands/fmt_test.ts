import { strict as assert } from "node:assert";
import { loadedModules } from "../_testing.ts";

Deno.test("the fmt command loads no CUE evaluation: only the scanner and the formatter", async () => {
  const lib = new URL("../", import.meta.url).href;
  const seen = await loadedModules(new URL("./fmt.ts", import.meta.url), { types: true });
  assert.ok(seen.some((s) => s.endsWith("/cue/format/printer.ts")));
  for (const s of seen) {
    if (!s.startsWith("node:")) assert.ok(s.startsWith(lib), `fmt.ts loads ${s}`);
    if (s.startsWith(lib + "cue/")) {
      assert.ok(
        s === lib + "cue/scanner.ts" || s.startsWith(lib + "cue/format/"),
        `fmt.ts loads ${s}`,
      );
    }
  }
});
