import { strict as assert } from "node:assert";
import { formatNumber, indentTabs } from "./literals.ts";

Deno.test("formatNumber() writes numbers as cue fmt does, and says integer or float", () => {
  const cases: [string, string, "int" | "float"][] = [
    ["1_000", "1_000", "int"],
    ["0x1F", "0x1F", "int"],
    ["017", "0o17", "int"],
    ["0", "0", "int"],
    ["2Ki", "2Ki", "int"],
    ["1.5Gi", "1.5Gi", "int"],
    [".5", "0.5", "float"],
    ["1.", "1.0", "float"],
    ["1.e3", "1.0e3", "float"],
    ["1E3", "1e3", "float"],
    ["1.5E-3", "1.5e-3", "float"],
  ];
  for (const [text, want, kind] of cases) {
    assert.deepEqual(formatNumber(text), { text: want, kind }, text);
  }
});

Deno.test("indentTabs() re-indents a multi-line string to n tabs and leaves others alone", () => {
  assert.equal(
    indentTabs('"""\n    text\n      more\n    """', 2),
    '"""\n\t\ttext\n\t\t  more\n\t\t"""',
  );
  assert.equal(indentTabs('#"""\n  a\n  """#', 1), '#"""\n\ta\n\t"""#');
  assert.equal(indentTabs('"""\n\ta\n\t"""', 1), '"""\n\ta\n\t"""', "already so");
  assert.equal(indentTabs('"x"', 2), '"x"');
});
