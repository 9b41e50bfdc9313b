import { strict as assert } from "node:assert";
import { BLANK, INDENT, NEWLINE, NOOVERRIDE, Printer, UNINDENT, VTAB } from "./printer.ts";
import { tabwrite } from "./tabwriter.ts";
import type { RelPos, Tok } from "./tokens.ts";

/** A printer whose requests the tests make by hand; `text()` is what the tabwriter makes of it. */
class Probe extends Printer {
  req = (...flags: number[]) => this.ws(...flags);
  at = (t: Tok) => this.pos(t);
  punct = (text: string) => this.token(text);
  lit = (text: string, kind = "ident") => this.literal(text, kind, kind !== "ident");
  text(): string {
    this.finish();
    return tabwrite(this.output.join(""));
  }
}

function tok(text: string, rel: RelPos, more: Partial<Tok> = {}): Tok {
  return { kind: "ident", text, line: 1, column: 1, rel, lead: [], ...more };
}

Deno.test("Printer writes blanks, line breaks and indentation as requested, and one line break at the end", () => {
  const p = new Probe();
  p.lit("a");
  p.punct(":");
  p.req(BLANK);
  p.punct("{");
  p.req(NEWLINE, INDENT);
  p.lit("b");
  p.req(UNINDENT, NEWLINE);
  p.punct("}");
  assert.equal(p.text(), "a: {\n\tb\n}\n");
});

Deno.test("Printer aligns the cells that a column break (VTAB) ends on consecutive lines", () => {
  const p = new Probe();
  p.lit("a");
  p.punct(":");
  p.req(VTAB);
  p.lit("1", "int");
  p.req(NEWLINE);
  p.lit("bbb");
  p.punct(":");
  p.req(VTAB);
  p.lit("2", "int");
  assert.equal(p.text(), "a:   1\nbbb: 2\n");
});

Deno.test("Printer keeps the source's line breaks unless told not to, and puts a token's comments in place", () => {
  const p = new Probe();
  p.at(tok("a", "nospace", { trail: { text: "// after a", rel: "blank", line: 1 } }));
  p.lit("a");
  p.at(tok("b", "newline", { lead: [{ text: "// before b", rel: "section", line: 3 }] }));
  p.lit("b");
  p.req(NOOVERRIDE);
  p.at(tok("c", "newline"));
  p.lit("c");
  assert.equal(p.text(), "a // after a\n\n// before b\nbc\n");
});

Deno.test("Printer puts a blank between tokens that would fuse: - -, and after a keyword", () => {
  const p = new Probe();
  p.lit("a");
  p.req(BLANK);
  p.punct("-");
  p.punct("-");
  p.lit("b");
  p.req(BLANK);
  p.punct("div");
  p.lit("c");
  assert.equal(p.text(), "a - -b div c\n");
});
