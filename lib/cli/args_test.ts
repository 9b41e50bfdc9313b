import assert from "node:assert/strict";
import { parse, parseTags, UsageError } from "./args.ts";

Deno.test("parse() finds the command among global flags, wherever they stand", () => {
  const p = parse(["-C", "/r", "--json", "plan", "--out", "x.plan", "-t", "a=1", "-t", "b=2"]);
  assert.equal(p.command?.name, "plan");
  assert.equal(p.options.C, "/r");
  assert.equal(p.options.out, "x.plan");
  assert.deepEqual(p.options.t, ["a=1", "b=2"]);
});

Deno.test("parse() reads -C=DIR as -C DIR, and -auto-approve as Terraform writes it", () => {
  assert.equal(parse(["-C=/some/dir", "validate"]).options.C, "/some/dir");
  assert.equal(parse(["apply", "-auto-approve"]).options["auto-approve"], true);
});

Deno.test("parse() refuses a flag given twice that takes one value", () => {
  assert.throws(() => parse(["-C", "/a", "-C", "/b", "validate"]), /-C may be given once/);
  assert.throws(() => parse(["plan", "--out", "a", "--out=b"]), /--out may be given once/);
});

Deno.test("parse() names a flag that lacks its value, with its placeholder", () => {
  assert.throws(() => parse(["validate", "-C"]), /flag -C needs a value: -C DIR/);
  assert.throws(() => parse(["plan", "--out"]), /flag --out needs a value: --out FILE/);
});

Deno.test("parse() suggests the nearest command and flag", () => {
  assert.throws(
    () => parse(["valdate"]),
    /unknown command "valdate" \(did you mean "validate"\?\)/,
  );
  assert.throws(
    () => parse(["plan", "--outt", "x"]),
    /unknown flag --outt for "plan" \(did you mean "--out"\?\)/,
  );
  assert.throws(
    () => parse(["nothing-like-it"]),
    (e: Error) => e instanceof UsageError && !/did you mean/.test(e.message),
  );
});

Deno.test("parse() counts positional arguments", () => {
  assert.throws(() => parse(["show"]), /"show" needs PLANFILE/);
  assert.throws(
    () => parse(["validate", "extra"]),
    /takes no arguments, and "extra" is one too many/,
  );
});

Deno.test("parseTags() splits KEY=VALUE and refuses the rest", () => {
  assert.deepEqual(parseTags(["a=1", "b=x=y"]), { a: "1", b: "x=y" });
  assert.throws(() => parseTags(["novalue"]), /tag "novalue" is not KEY=VALUE/);
  assert.throws(() => parseTags(["=v"]), /not KEY=VALUE/);
});
