/**
 * The inputs of nodes computed from a secret: at plan time each is unknown
 * (what the evaluation gave it comes from a stand-in), and what it is made
 * of (its value with each of pravo's two stand-ins) is kept for the
 * planner. Apply, which evaluates with the secrets, makes the same forms
 * with the stand-ins for the record it writes.
 *
 * @module
 */

import type { EvalResult } from "../engine.ts";
import { UNKNOWN } from "../program.ts";
import { alternate } from "../secrets.ts";
import type { Node } from "../spec.ts";
import type { Taint } from "../taint.ts";
import type { Evaluator } from "./evaluator.ts";
import { hasUnknown, isObject, packageOf, type Tree, valueAt } from "./values.ts";

/** What the forms are read from. */
export interface SecretFormsInput {
  nodes: Node[];
  /** The inputs the references say are computed from a secret (taint.ts). */
  tainted: Taint;
  /** The first evaluation's package. */
  tree: Tree;
  /** The evaluation with the second stand-in, at plan time (secret_dependence.ts). */
  stood?: Tree;
}

/**
 * Adds to each node the inputs the references say are computed from a
 * secret; then, for an evaluation that traces, sets the `secretForms` of
 * every sensitive input and, at plan time, makes the input unknown.
 */
export async function secretForms(ev: Evaluator, input: SecretFormsInput): Promise<void> {
  const { nodes, tainted } = input;
  for (const n of nodes) {
    const more = tainted.inputs.get(n.address);
    if (more) n.sensitiveInputs = [...new Set([...n.sensitiveInputs, ...more])].sort();
  }
  if (!ev.trace || !nodes.some((n) => n.sensitiveInputs.length)) return;
  const forms = await _forms(ev, input);
  for (const n of nodes) {
    for (const k of n.sensitiveInputs) {
      const f = (t: Tree | undefined) => {
        const v = t ? valueAt(t, n.path) : undefined;
        return isObject(v) ? v[k] ?? null : null;
      };
      if (n.config[k] === undefined) continue; // unset: nothing to compute
      n.secretForms[k] = forms ? [f(forms[0]), f(forms[1])] : [null, null];
      if (ev.reveal || hasUnknown(n.config[k])) continue;
      n.config[k] = UNKNOWN;
      if (!(k in n.templates) && !n.needsEvaluation.includes(k)) n.needsEvaluation.push(k);
    }
  }
}

/** The packages evaluated with each of the two stand-ins: at apply, evaluated now. */
async function _forms(
  ev: Evaluator,
  input: SecretFormsInput,
): Promise<[Tree, Tree | undefined] | undefined> {
  if (!ev.reveal) return [input.tree, input.stood];
  const [a, b] = [await ev.neutralEvaluation(), await ev.run(ev.known.declarations(alternate))];
  const treeOf = (r: EvalResult) => r.ok ? packageOf(r.json) : undefined;
  const [ta, tb] = [treeOf(a), treeOf(b)];
  return ta ? [ta, tb] : undefined;
}
