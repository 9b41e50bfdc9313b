import { strict as assert } from "node:assert";
import { type CursorToken, isPunct, TokenCursor } from "./cursor.ts";
import { scan, type Token } from "./scanner.ts";

/** A cursor over the tokens of `src` that throws its messages with their positions. */
class Probe extends TokenCursor<Token> {
  constructor(src: string) {
    super(scan(src));
  }
  protected fail(message: string, t: Token = this.cur()): never {
    throw new Error(`${t.line}:${t.column} ${message}`);
  }
  step(n = 1): this {
    for (let i = 0; i < n; i++) this.next();
    return this;
  }
  // The protected moves, opened for the tests.
  read = () => this.next();
  current = () => this.cur();
  ahead = (n?: number) => this.peek(n);
  isAt = (text: string, t?: Token) => this.is(text, t);
  isWordAt = (word: string, t?: Token) => this.isWord(word, t);
  named = (t: Token) => this.describe(t);
  colonAt = (n: number) => this.labelColonAt(n);
  valueEnd = () => this.atValueEnd();
  letHere = () => this.atLet();
  forVars = () => this.forVariables();
  body = () => this.comprehensionBody();
}

Deno.test("isPunct() matches punctuation and commas by their text, not names or strings", () => {
  const t = (kind: Token["kind"], text: string): CursorToken => ({
    kind,
    text,
    line: 1,
    column: 1,
  });
  assert.equal(isPunct(t("punct", "{"), "{"), true);
  assert.equal(isPunct(t("comma", ","), ","), true);
  assert.equal(isPunct(t("ident", "{"), "{"), false);
  assert.equal(isPunct(t("string", ":"), ":"), false);
});

Deno.test("TokenCursor reads, peeks (up to the end) and describes tokens", () => {
  const c = new Probe("a: b\n");
  assert.equal(c.ahead(10).kind, "eof", "peek stops at the end");
  assert.equal(c.read().text, "a");
  assert.equal(c.isAt(":"), true);
  assert.equal(c.isWordAt("b", c.ahead()), true);
  assert.equal(c.named(c.current()), '":"');
  c.step(2);
  assert.equal(c.named(c.current()), "a new line");
  c.step();
  assert.equal(c.named(c.current()), "the end of the file");
});

Deno.test("TokenCursor.labelColonAt() sees :, ?: and !: after a label, and nothing else", () => {
  for (
    const [src, want] of [["a: 1", true], ["a?: 1", true], ["a!: 1", true], ["a ? 1", false], [
      "a = 1",
      false,
    ]] as const
  ) {
    assert.equal(new Probe(src).colonAt(1), want, src);
  }
});

Deno.test("TokenCursor.atValueEnd() is true at a comma, a closing bracket and the end", () => {
  for (const src of [", x", "} x", "] x", ") x", ""]) {
    assert.equal(new Probe(src).valueEnd(), true, JSON.stringify(src));
  }
  for (const src of ["x", "{", "&"]) assert.equal(new Probe(src).valueEnd(), false, src);
});

Deno.test("TokenCursor.atLet() sees a let declaration, not a field or a reference named let", () => {
  assert.equal(new Probe("let x = 1").letHere(), true);
  assert.equal(new Probe("let: 1").letHere(), false);
  assert.equal(new Probe("let x: 1").letHere(), false);
});

Deno.test("TokenCursor.forVariables() reads `v in` and `k, v in`, and says what is wrong", () => {
  const one = new Probe("for v in x").step().forVars();
  assert.deepEqual([one.key, one.value.text, one.in.text], [undefined, "v", "in"]);
  const two = new Probe("for k, v in x").step().forVars();
  assert.deepEqual([two.key?.text, two.comma?.text, two.value.text], ["k", ",", "v"]);
  assert.throws(
    () => new Probe("for 1, v in x").step().forVars(),
    /^Error: 1:5 expected a variable name after "for"$/,
  );
  assert.throws(
    () => new Probe("for k v").step().forVars(),
    /^Error: 1:7 expected "in" after the variables of "for", found "v"$/,
  );
});

Deno.test("TokenCursor.comprehensionBody() wants the { after the clauses", () => {
  new Probe("{").body();
  assert.throws(
    () => new Probe("x").body(),
    /1:1 expected \{ after the comprehension clauses, found "x"/,
  );
});
