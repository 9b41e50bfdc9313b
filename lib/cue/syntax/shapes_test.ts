import { strict as assert } from "node:assert";
import { scan } from "./scanner.ts";
import { bareReference, literalOfReferences, oneStructLiteral, presenceTest } from "./shapes.ts";

/** The tokens of `src` without the comma and the end the scanner adds after them. */
function run(src: string) {
  return scan(src).filter((t, i, all) =>
    t.kind !== "eof" && !(i === all.length - 2 && t.text === "\n")
  );
}

Deno.test("bareReference() is true for one reference, selectors and quoted ones included", () => {
  for (const src of ["a", "a.b.c", 'a."b-c".d', "a.\nb"]) {
    assert.equal(bareReference(run(src)), true, src);
  }
  for (const src of ["", "1", "a.b + 1", "a[0]", "f(x)", "a.", '"s"']) {
    assert.equal(bareReference(run(src)), false, src);
  }
});

Deno.test("oneStructLiteral() is true for one struct written out, not for two or an expression", () => {
  for (const src of ["{}", "{a: 1}", "{a: {b: 1}}", "{\na: 1\n}"]) {
    assert.equal(oneStructLiteral(run(src)), true, src);
  }
  for (const src of ["{a: 1} & {b: 2}", "{", "x", "[{}]", "{a: 1} & x"]) {
    assert.equal(oneStructLiteral(run(src)), false, src);
  }
});

Deno.test("literalOfReferences() is true when every value of the struct is one reference", () => {
  for (const src of ['{"a": x, b: y.z}', "{}", "{a: x\nb: y}"]) {
    assert.equal(literalOfReferences(run(src)), true, src);
  }
  for (const src of ["{a: 1}", "{a: x + 1}", '{"\\(k)": x}', "{a}", "{[string]: x}"]) {
    assert.equal(literalOfReferences(run(src)), false, src);
  }
});

Deno.test("presenceTest() knows REF != _|_ and REF == _|_, and with null the tests for null", () => {
  for (const src of ["x.a != _|_", "x == _|_", 'x."a-b" != _|_']) {
    assert.equal(presenceTest(run(src)), true, src);
    assert.equal(presenceTest(run(src), "null"), false, src);
  }
  for (const src of ["x.a != null", "x == null"]) {
    assert.equal(presenceTest(run(src), "null"), true, src);
    assert.equal(presenceTest(run(src)), false, src);
  }
  for (const src of ["_|_ != x", "x + 1 != _|_", "x < _|_", "x"]) {
    assert.equal(presenceTest(run(src)), false, src);
  }
});
