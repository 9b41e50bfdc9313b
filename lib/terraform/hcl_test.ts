import assert from "node:assert/strict";
import { expressionAst, HclSyntaxError, parseHclFile, syntaxError } from "./hcl.ts";

Deno.test("parseHclFile() finds blocks, labels and attributes with their expressions' source", async () => {
  const f = await parseHclFile(
    "main.tf",
    'resource "aws_s3_bucket" "logs" {\n  bucket = "logs-${var.env}" # the name\n  tags = {\n    a = 1\n  }\n  versioning { enabled = true }\n}\n',
  );
  const r = f.body.blocks[0];
  assert.equal(r.type, "resource");
  assert.deepEqual(r.labels, ["aws_s3_bucket", "logs"]);
  assert.deepEqual(r.body.attributes.map((a) => [a.name, a.expr]), [
    ["bucket", '"logs-${var.env}"'],
    ["tags", "{\n    a = 1\n  }"],
  ]);
  assert.deepEqual(f.lines.at(r.body.attributes[0].offset), { line: 2, column: 3 });
  assert.equal(r.body.blocks[0].type, "versioning");
  assert.deepEqual(r.body.blocks[0].body.attributes.map((a) => a.expr), ["true"]);
});

Deno.test("parseHclFile() reads heredocs, nested templates and comments inside an expression", async () => {
  const f = await parseHclFile(
    "main.tf",
    'locals {\n  a = <<-EOT\n    x ${"}"} \n    EOT\n  b = [ # list\n    "a", /* c */ "b${jsonencode({k = "v"})}",\n  ]\n  c = "$${x} %%{y}"\n}\n',
  );
  const attrs = f.body.blocks[0].body.attributes;
  assert.deepEqual(attrs.map((a) => a.name), ["a", "b", "c"]);
  assert.equal(attrs[0].expr, '<<-EOT\n    x ${"}"} \n    EOT');
  assert.equal(attrs[2].expr, '"$${x} %%{y}"');
});

Deno.test("parseHclFile() refuses a syntax error with HCL's message, file, line and column", async () => {
  await assert.rejects(
    () => parseHclFile("bad.tf", 'resource "a" "b" {\n  x = 1 y = 2\n}\n'),
    (e: unknown) => {
      assert.ok(e instanceof HclSyntaxError);
      assert.deepEqual([e.file, e.line, e.column, e.summary], [
        "bad.tf",
        2,
        9,
        "Missing newline after argument",
      ]);
      assert.equal(e.detail, "An argument definition must end with a newline.");
      return true;
    },
  );
});

Deno.test("syntaxError() keeps the first of several diagnostics", () => {
  const e = syntaxError(
    "parse config: [bad.tf:1,7-2,1: Invalid multi-line string; Quoted strings may not be split. bad.tf:1,7-2,1: Unterminated template string; No closing marker.]",
    "x.tf",
  );
  assert.deepEqual([e.file, e.line, e.column, e.summary, e.detail], [
    "bad.tf",
    1,
    7,
    "Invalid multi-line string",
    "Quoted strings may not be split.",
  ]);
});

Deno.test("expressionAst() gives the syntax tree with byte offsets into the source", async () => {
  const ast = await expressionAst("x.tf", "upper(var.name)");
  assert.equal(ast.type, "function");
  assert.equal(ast.meta?.name, "upper");
  assert.equal(ast.children[0].type, "scopeTraversal");
  assert.equal(ast.children[0].range.start.byte, 6);
});
