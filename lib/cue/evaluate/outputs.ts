/**
 * The outputs of an evaluated root: the top-level field `outputs`, one
 * field each, with what is known only after apply marked unknown.
 *
 * @module
 */

import { type Diagnostic, error } from "../../diag/diag.ts";
import { locate, type SourceIndex } from "../errors.ts";
import type { Value } from "../program.ts";
import { markUnknown } from "../unknowns.ts";
import { isObject, type Tree } from "./values.ts";

/** The outputs of the package `tree` (the traced evaluation's beside it); not a struct is a diagnostic. */
export function outputsOf(
  evaluated: { tree: Tree; traced?: Tree },
  index: SourceIndex,
): { outputs: Record<string, Value>; diagnostics: Diagnostic[] } {
  const { tree, traced } = evaluated;
  const outputsValue = tree["outputs"];
  const outputs: Record<string, Value> = isObject(outputsValue)
    ? markUnknown(outputsValue, traced ? traced["outputs"] : undefined) as Record<string, Value>
    : {};
  if (outputsValue !== undefined && !isObject(outputsValue)) {
    return {
      outputs,
      diagnostics: [
        error(
          "outputs is not a struct",
          `The top-level field "outputs" holds the root's outputs, one field each. Make it a struct: outputs: {name: value}.`,
          { range: locate(index, ["outputs"])?.pos },
        ),
      ],
    };
  }
  return { outputs, diagnostics: [] };
}
