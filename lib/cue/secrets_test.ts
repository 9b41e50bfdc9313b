import assert from "node:assert/strict";
import { alternate, neutral, standIn, standInNumber, standInText, textFormat } from "./secrets.ts";

const utf8 = (s: string) => new TextEncoder().encode(s).length;

/** True when no character of `a` equals, up to case, the one at the same place in `b`. */
function apartEverywhere(a: string, b: string): boolean {
  const x = [...a], y = [...b];
  return x.every((c, i) =>
    y[i] === undefined ||
    (c.toLowerCase() !== y[i].toLowerCase() && c.toUpperCase() !== y[i].toUpperCase())
  );
}

Deno.test("standInText() differs from the secret in every character, also after casing, and in length", () => {
  const secrets = [
    "",
    "a",
    "hunter2",
    "GxJOfk%MPdAIPWTW",
    "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!",
    "é€🔑 mixed ÀÉ",
    "x".repeat(300),
    [...Array(94)].map((_, i) => String.fromCharCode(0x21 + i)).join(""),
  ];
  for (const s of secrets) {
    const t = standInText(s);
    assert.notEqual(t, s);
    assert.notEqual([...t].length, [...s].length, `rune length of ${s}`);
    assert.notEqual(utf8(t), utf8(s), `byte length of ${s}`);
    assert.ok(
      apartEverywhere(t, s),
      `${JSON.stringify(t)} shares a character with ${JSON.stringify(s)}`,
    );
    assert.ok(apartEverywhere(t.toUpperCase(), s.toUpperCase()));
    assert.equal(standInText(s), t, "the same secret, the same stand-in");
  }
  // A generic stand-in holds every printable ASCII character: a search finds another answer.
  const t = standInText("abc");
  for (let c = 0x21; c < 0x7f; c++) assert.ok(t.includes(String.fromCharCode(c)));
});

Deno.test("standInText() keeps the format of a secret so that decoding it still evaluates", () => {
  const cases: [string, string, RegExp][] = [
    ["123456", "digits", /^[0-9]+$/],
    ["deadbeef01", "hex", /^[0-9a-f]+$/],
    ["DEADBEEF", "hex", /^[0-9A-F]+$/],
    [btoa("some secret bytes!"), "base64", /^[A-Za-z0-9+/]+$/],
    ['{"user": "u", "password": "p", "n": 3}', "json", /^[{]/],
    ["plain text", "text", /./],
  ];
  for (const [s, format, shape] of cases) {
    assert.equal(textFormat(s), format, s);
    const t = standInText(s);
    assert.match(t, shape);
    assert.notEqual(t.length, s.length);
    if (format === "hex") assert.equal(t.length % 2, 0);
    if (format === "base64") {
      assert.equal(t.length % 4, 0);
      assert.doesNotThrow(() => atob(t));
    }
    if (format === "json") {
      const parsed = JSON.parse(t);
      assert.deepEqual(Object.keys(parsed), ["user", "password", "n"], "the same keys");
      assert.notEqual(parsed.password, "p");
      assert.equal(typeof parsed.n, "number");
    }
  }
});

Deno.test("standIn() keeps the type of every value and changes every leaf", () => {
  assert.equal(typeof standIn(5), "number");
  assert.ok(Number.isInteger(standIn(5)));
  for (const n of [0, 1, 5, -5, 11, 109, 123456789, 8_000_000_000_000_000]) {
    const m = standInNumber(n);
    assert.notEqual(m, n);
    assert.ok(Number.isInteger(m) && Number.isSafeInteger(m) || Math.abs(n) >= 2 ** 53, String(n));
    assert.notEqual(Math.sign(m), Math.sign(n) || 2, `the sign of ${n} changes`);
  }
  assert.equal(standIn(true), false);
  assert.equal(standIn(null), null);
  const v = standIn({ a: ["x", 1], b: { c: false } }) as Record<string, unknown>;
  assert.deepEqual(Object.keys(v), ["a", "b"]);
  assert.notEqual((v.a as unknown[])[0], "x");
});

Deno.test("neutral() depends on the type and format only", () => {
  assert.equal(neutral("hunter2"), neutral("GxJOfk%MPdAIPWTW"));
  assert.ok(String(neutral("hunter2")).startsWith("(sensitive)"));
  assert.equal(String(neutral("x")).length, 64, "long enough for the slices configurations take");
  assert.equal(neutral("123"), neutral("999999"));
  assert.equal(neutral(btoa("a secret!!!!")), neutral(btoa("other secret")));
  assert.equal(neutral(42), 0);
  assert.equal(neutral(true), false);
  assert.deepEqual(JSON.parse(String(neutral('{"p": "secret"}'))), { p: neutral("secret") });
});

Deno.test("alternate() differs from neutral() in every way a configuration measures a secret", () => {
  for (const secret of ["hunter2", "123456", "deadbeef", btoa("a secret!!!!"), '{"p": "x"}']) {
    const [a, b] = [String(neutral(secret)), String(alternate(secret))];
    assert.notEqual(a.length, b.length, secret);
    assert.notEqual(a.toUpperCase(), b.toUpperCase(), secret);
    assert.notEqual(a.toLowerCase(), b.toLowerCase(), secret);
    if (textFormat(secret) !== "json") assert.notEqual(a[0], b[0], secret);
    assert.equal(textFormat(a), textFormat(secret), `${secret}: neutral keeps the format`);
    assert.equal(textFormat(b), textFormat(secret), `${secret}: alternate keeps the format`);
    assert.deepEqual(alternate(secret), alternate(secret === "hunter2" ? "other" : secret));
  }
  assert.notEqual(alternate(3), neutral(3));
  assert.notEqual(alternate(false), neutral(false));
});
