/**
 * Helpers for the tests of the evaluation's passes: sources from inline
 * text, and the program of an evaluation of them, made as evaluateRoot
 * makes it.
 *
 * @module
 */

import { BUILTIN_ONLY } from "../../workspace/workspace_testing.ts";
import { strict as assert } from "node:assert";
import type { EvaluateOptions } from "../spec.ts";
import { parseSources } from "../sources/parse.ts";
import type { Sources } from "../sources/sources.ts";
import type { Evaluator } from "./evaluator.ts";
import { type Found, structsOf } from "./find.ts";
import { prepare } from "./prepare.ts";
import { settle } from "./settle.ts";
import { packageOf, type Tree } from "./values.ts";

/** A root's head: a package that imports the random provider. */
export const RANDOM = 'package demo\n\nimport rnd "pravo.dev/providers/hashicorp/random"\n\n' +
  "$random: rnd.#Provider\n";

/** A root's head: a package that imports the time provider (time_rotating's setness is asked). */
export const TIME = 'package demo\n\nimport tm "pravo.dev/providers/hashicorp/time"\n\n' +
  "$time: tm.#Provider\n";

/** The sources of one file `main.cue`, checked; a root that does not exist. */
export function sourcesOf(src: string): Sources {
  const res = parseSources("/nowhere", [{ name: "main.cue", src }], BUILTIN_ONLY);
  assert.ok(res.ok, JSON.stringify(res.diagnostics));
  return res.value;
}

/** The program of an evaluation of the sources, as evaluateRoot prepares it. */
export async function evaluatorOf(
  sources: Sources,
  opts: EvaluateOptions = {},
): Promise<Evaluator> {
  const res = await prepare(sources, { setnessMemo: new Map(), ...opts });
  assert.ok(res.ok, JSON.stringify(res.diagnostics));
  return res.value;
}

/** The first evaluation's package and what it holds: it must evaluate. */
export async function firstTree(ev: Evaluator): Promise<{ tree: Tree; found: Found }> {
  const res = await settle(ev);
  assert.ok(res.ok, res.ok ? "" : res.message);
  const tree = packageOf(res.json) ?? {};
  return { tree, found: structsOf(tree) };
}
