/**
 * Governance round 3, item 2: text that reads differently from what it is.
 * An agent writes Unicode bidi controls (U+202E), zero-width characters
 * (U+200B, U+FEFF) and tag characters (U+E0041) into a node's address and
 * its values, so that an operator reviewing its plan on a terminal reads
 * something else than the bytes applied ("Trojan Source"). Every human
 * view shows them as escapes (`\u202e`): plan, show, approve's question,
 * apply and its progress, state show, state log, drift, why, output and
 * errors; `validate` warns, naming the file, line and column; the MCP
 * server's answers carry none raw.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { approverKey, call, connect, makeRoot, pravo, text } from "../mcp/_client.ts";
import { escapeOf, visible } from "../../lib/diag/visible.ts";
import { onTerminal, removing } from "../_pravo.ts";

const RLO = "\u202e";
const ZWSP = "\u200b";
const BOM = "\ufeff";
const TAG_A = "\u{e0041}";
const C1_CSI = "\u009b";
const HIDDEN = [RLO, ZWSP, BOM, TAG_A, C1_CSI, "\u2066", "\u2069", "\u200d"];

// The label reads "admin_txt" reversed on screen; the content hides a tag
// character and a zero-width space; the pet's prefix ends a bidi isolate.
const MAIN = `package demo

import (
	rnd "pravo.dev/providers/hashicorp/random"
	loc "pravo.dev/providers/hashicorp/local"
)

$random: rnd.#Provider
$local:  loc.#Provider

"note${RLO}txt.nimda": $local.#Resource.local_file & {
	filename: "note.txt"
	content:  "allow${ZWSP} all${TAG_A}\\uFEFF\\n"
}
pet: $random.#Resource.random_pet & {prefix: "a\u2066b\u2069c${C1_CSI}"}
outputs: shown: "x${RLO}y"
`;

/** Asserts that `out` holds none of the hidden characters, and shows the given escapes. */
function clean(out: string, where: string, shows: string[] = []): void {
  for (const c of HIDDEN) {
    assert.ok(!out.includes(c), `${where} prints ${escapeOf(c)} raw:\n${out}`);
  }
  for (const e of shows) assert.ok(out.includes(e), `${where} does not show ${e}:\n${out}`);
}

Deno.test("visible() escapes bidi, zero-width, tag and C1 characters, and leaves the rest", () => {
  assert.equal(
    visible(`a${RLO}b${ZWSP}c${TAG_A}d${C1_CSI}`),
    "a\\u202eb\\u200bc\\udb40\\udc41d\\u009b",
  );
  assert.equal(
    visible("plain, é, 日本, \x1b[1mbold\x1b[0m\n"),
    "plain, é, 日本, \x1b[1mbold\x1b[0m\n",
  );
  // Inside a JSON string the escape is JSON's own: the value reads back the same.
  const json = JSON.stringify({ v: `x${RLO}y${ZWSP}` });
  assert.deepEqual(JSON.parse(visible(json)), { v: `x${RLO}y${ZWSP}` });
});

Deno.test("adversarial: hidden characters show as escapes in every human view, and validate warns", async () => {
  const root = await makeRoot({ "main.cue": MAIN });
  await using _root = removing(root);
  assert.equal((await pravo(root, ["init"])).code, 0);
  const validate = await pravo(root, ["validate"]);
  assert.equal(validate.code, 0, validate.stderr);
  assert.match(
    validate.stderr,
    /Warning: main\.cue holds \d+ characters that read differently from what they are/,
  );
  assert.match(validate.stderr, /on main\.cue line 11, column 6:/);
  clean(validate.stderr, "validate", ["\\u202e"]);

  const plan = await pravo(root, ["plan", "--out", "a.plan"]);
  assert.equal(plan.code, 2, plan.stderr);
  clean(plan.stdout, "plan", ["\\u202e", "\\u200b", "\\udb40\\udc41", "\\ufeff", "\\u2066"]);
  const show = await pravo(root, ["show", "a.plan"]);
  clean(show.stdout, "show", ["\\u202e"]);

  // approve's question, on a terminal (script(1) gives it one), answered "no".
  await using k = await approverKey();
  const shown = await onTerminal(root, ["approve", "a.plan", "--key", k.key], { answer: "no" });
  assert.match(shown, /Do you approve exactly this plan\?/);
  clean(shown, "approve's question", ["\\u202e", "\\u200b"]);

  const apply = await pravo(root, ["apply", "a.plan"]);
  assert.equal(apply.code, 0, apply.stderr);
  clean(apply.stdout + apply.stderr, "apply", ["\\u202e"]);
  // The object has the bytes written, hidden characters and all.
  assert.equal(
    await Deno.readTextFile(join(root, "note.txt")),
    `allow${ZWSP} all${TAG_A}${BOM}\n`,
  );

  const address = `"note${RLO}txt.nimda"`;
  for (
    const [args, where] of [
      [["state", "list"], "state list"],
      [["state", "show", address], "state show"],
      [["state", "log"], "state log"],
      [["drift"], "drift"],
      [["why", "pet"], "why"],
      [["output"], "output"],
      [["state", "show", `"note${RLO}txt.nimdx"`], "an error naming the address"],
    ] as [string[], string][]
  ) {
    const r = await pravo(root, args);
    clean(r.stdout + r.stderr, where);
  }
  // A script reads the value as it is when it asks for one output alone, piped.
  const raw = await pravo(root, ["output", "shown"]);
  assert.equal(raw.stdout, `x${RLO}y\n`);
  // --json documents: the same values once parsed.
  const doc = JSON.parse((await pravo(root, ["state", "show", address, "--json"])).stdout);
  assert.equal(doc.record.attributes.content, `allow${ZWSP} all${TAG_A}${BOM}\n`);

  // Through the MCP server: no answer carries them raw.
  await Deno.writeTextFile(join(root, "main.cue"), MAIN.replace('"a\\u2066', '"b\\u2066'));
  await using s = await connect(root);
  for (
    const [tool, args] of [
      ["pravo_validate", {}],
      ["pravo_plan", {}],
      ["pravo_state_show", { addr: address }],
      ["pravo_state_log", {}],
      ["pravo_why", { addrs: ["pet"] }],
    ] as [string, Record<string, unknown>][]
  ) {
    clean(text(await call(s, tool, args)), tool);
  }
});
