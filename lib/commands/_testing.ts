/**
 * Assertions shared by the tests of the commands, on what a run of pravo
 * (`{code, stdout, stderr}`) printed. Not used by pravo itself.
 *
 * @module
 */

import assert from "node:assert/strict";

/** What a run of pravo gave back. */
export interface Printed {
  code: number;
  stdout: string;
  stderr: string;
}

/** Asserts a run wrote nothing on stderr, exited `code` and printed exactly these lines. */
export function assertPrinted(ran: Printed, code: number, lines: string[]): void {
  assert.equal(ran.stderr, "");
  assert.equal(ran.code, code);
  assert.equal(ran.stdout, lines.join("\n"));
}

/** The JSON document a run printed, once asserted that it exited `code` and is of format 1.0. */
// deno-lint-ignore no-explicit-any
export function jsonDocument(ran: Printed, code = 0): any {
  assert.equal(ran.code, code, ran.stderr);
  const doc = JSON.parse(ran.stdout);
  assert.equal(doc.format_version, "1.0");
  return doc;
}

/** The stderr of a run refused as a refusal is: it exited `code` and printed nothing on stdout. */
export function refusal(ran: Printed, code: number): string {
  assert.equal(ran.code, code, ran.stderr);
  assert.equal(ran.stdout, "");
  return ran.stderr;
}
