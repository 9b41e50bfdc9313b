/**
 * A node's `depends_on`: the nodes it waits for besides those its values
 * refer to, written as references (the edges come from the references, as
 * for any other value); here only its shape is checked.
 *
 * @module
 */

import { type Diagnostic, error, type SourcePos } from "../../diag/diag.ts";
import type { Value } from "../program.ts";
import { structsOf } from "./find.ts";
import { isObject } from "./values.ts";

/**
 * The diagnostics of a node's `depends_on`: `null`, or a list whose every
 * element is a node or a struct that holds nodes (the references give the
 * edges, as for any other value).
 */
export function dependsOnErrors(
  v: Value,
  at: { address: string; range?: SourcePos },
): Diagnostic[] {
  const { address, range } = at;
  if (v === null) return [];
  const fix =
    "Write depends_on: [node, ...], each element a reference to a node (such as base) or to a struct of nodes.";
  if (!Array.isArray(v)) {
    return [error(`depends_on of ${address} is not a list`, `It is ${JSON.stringify(v)}. ${fix}`, {
      address,
      range,
    })];
  }
  const out: Diagnostic[] = [];
  v.forEach((e, i) => {
    const found = structsOf(e);
    if (isObject(e) && found.nodes.length && !found.providers.length) return;
    out.push(
      error(
        `depends_on[${i}] of ${address} is not a node`,
        `Element ${i} holds ${
          isObject(e) ? "a struct with no node in it" : JSON.stringify(e)
        }, and depends_on names nodes. ${fix}`,
        { address, range },
      ),
    );
  });
  return out;
}
