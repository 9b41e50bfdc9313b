/**
 * Saying why the evaluation of a root failed: a field that names itself, a
 * computed attribute set, a check of a secret made before apply, a function
 * of a value known only after apply, else CUE's message mapped to the
 * sources; never a message that quotes a secret.
 *
 * @module
 */

import type { Diagnostic } from "../../diag/diag.ts";
import { alternate } from "../secrets.ts";
import { selfReferences } from "../scoping.ts";
import type { Evaluator } from "./evaluator.ts";
import { computedSet, failsForSecret, failsForStandIn, incompleteOrError } from "./failures.ts";
import { functionOfUnknown } from "./function_of_unknown.ts";
import { unsetDefault } from "./pins.ts";

/** The diagnostics of an evaluation that failed with CUE's `message`. */
export async function explainFailure(ev: Evaluator, message: string): Promise<Diagnostic[]> {
  const { sources, index, known, reveal } = ev;
  // A field that names itself fails whatever CUE says about it: say so.
  const traps = selfReferences(sources.files.map((f) => f.parsed));
  if (traps.length) return traps;
  const computed = computedSet(message, index) ?? unsetDefault(message, index)?.diagnostic;
  if (computed) return [computed];
  if (known.holdsSecrets && !reveal) {
    // The neutral stand-in fails where the other would not: what the
    // configuration requires of a secret, which cannot be checked before apply.
    const other = await ev.run(known.declarations(alternate));
    if (other.ok) return [failsForStandIn(message, index)];
  }
  if (!reveal) {
    // A function of a value known only after apply, which fails on the
    // value that stands for it at plan time (`json.Unmarshal(q.policy)`).
    const at = await ev.sharpened(message);
    // CUE's word on a failed call is in the evaluation without `null`.
    const strict = /errors in empty disjunction/.test(at) ? await ev.strict() : undefined;
    const said = strict && !strict.ok && /error in call to /.test(strict.message)
      ? strict.message
      : at;
    const fn = functionOfUnknown(at, {
      said,
      deps: ev.aliasing(),
      sources,
      known: known.values,
      setness: known.setness,
    });
    if (fn) return [fn];
  }
  if (!known.holdsSecrets || !reveal) {
    // At plan time no secret is in it: the message quotes none.
    return [incompleteOrError(await ev.sharpened(message), sources)];
  }
  const n = await ev.neutralEvaluation();
  return [n.ok ? failsForSecret(message, index) : incompleteOrError(n.message, sources)];
}
