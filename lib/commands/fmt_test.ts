import { strict as assert } from "node:assert";
import { fileFailure } from "./fmt.ts";

/** What the formatter shares with the structural parser: the scanner, the token cursor, the operators. */
const SYNTAX = ["cue/syntax/scanner.ts", "cue/syntax/cursor.ts", "cue/syntax/operators.ts"];
import { loadedModules } from "../_testing.ts";

Deno.test("the fmt command loads no CUE evaluation: only the scanner and the formatter", async () => {
  const lib = new URL("../", import.meta.url).href;
  const seen = await loadedModules(new URL("./fmt.ts", import.meta.url), { types: true });
  assert.ok(seen.some((s) => s.endsWith("/cue/format/printer.ts")));
  for (const s of seen) {
    if (!s.startsWith("node:")) assert.ok(s.startsWith(lib), `fmt.ts loads ${s}`);
    if (s.startsWith(lib + "cue/")) {
      assert.ok(
        SYNTAX.some((f) => s === lib + f) || s.startsWith(lib + "cue/format/"),
        `fmt.ts loads ${s}`,
      );
    }
  }
});

Deno.test("fileFailure() names the file, what failed and what to check", () => {
  const e = new Error("Permission denied (os error 13)");
  assert.deepEqual(
    [fileFailure("read", "a.cue", e), fileFailure("write", "a.cue", e)].map((d) => [
      d.summary,
      d.detail,
    ]),
    [
      [
        "Cannot read the file",
        'Reading "a.cue" failed: Permission denied (os error 13). Check the path and its permissions.',
      ],
      [
        "Cannot write the file",
        'Writing "a.cue" failed: Permission denied (os error 13). Check that the file and its directory are writable.',
      ],
    ],
  );
  const d = fileFailure("readDir", "mods", e);
  assert.equal(d.summary, "Cannot read the directory");
  assert.equal(
    d.detail,
    'Reading "mods" failed: Permission denied (os error 13). Give a directory that exists, or run pravo in the root.',
  );
});
