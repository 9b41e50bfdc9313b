/**
 * Which values of a root are computed from a secret, read from the
 * references in the sources (see parser.ts) and not from any value: the
 * answer is the same whatever the secrets hold, so it tells nothing of them.
 *
 * A secret is an attribute that a node's schema marks sensitive, one that
 * the state records as sensitive, or any attribute of a data source whose
 * inputs are computed from a secret (what it reads depends on one). A value
 * is tainted when its declarations refer, directly or through other fields,
 * lets, definitions, comprehension variables or the structs around them, to
 * a secret or to a whole node that holds one. Where the sources do not say
 * where a value goes (a field under a dynamic label, a struct inside a
 * list), its references count for the field whose value holds it.
 *
 * A field, a node or an output whose existence is decided by a secret (a
 * comprehension clause or a dynamic label that refers to one, outside the
 * value of a node's attribute or of an output) cannot be hidden by redacting
 * a value: that is a diagnostic.
 *
 * The loader adds what an evaluation with stand-ins finds (secrets.ts); this
 * pass is the part whose answer does not depend on the secrets' values. Its
 * parts: the sources indexed (taint_index.ts), the references traced
 * (taint_trace.ts), existence decided by a secret (taint_existence.ts).
 *
 * @module
 */

import type { Diagnostic } from "../diag/diag.ts";
import type { ParsedFile } from "./syntax/mod.ts";
import { TaintIndex, type TaintNode } from "./taint_index.ts";
import { TaintTracer } from "./taint_trace.ts";
import { existenceDiagnostics } from "./taint_existence.ts";

export type { TaintNode };

export interface TaintInput {
  files: ParsedFile[];
  nodes: TaintNode[];
  /** Attributes that hold secrets beyond those the schemas mark, by node address. */
  secretAttrs: Map<string, Set<string>>;
  /**
   * Whether the attributes the schemas mark sensitive are secrets too
   * (default true). False to trace other values through the same roads:
   * the loader traces the values known only after apply so, to find what
   * they decide.
   */
  schemaSensitive?: boolean;
}

export interface Taint {
  /** By node address: the inputs whose values are computed from a secret. */
  inputs: Map<string, Set<string>>;
  /** The outputs whose values are computed from a secret. */
  outputs: Set<string>;
  /**
   * True when outputs that the sources do not name (under a dynamic label)
   * may be computed from a secret: every output is then.
   */
  allOutputs: boolean;
  /** Fields, nodes and outputs whose existence a secret decides. */
  diagnostics: Diagnostic[];
}

/** Reads the taint of every node input and output of a root. */
export function taint(input: TaintInput): Taint {
  const index = new TaintIndex(input.files, input.nodes);
  const tracer = new TaintTracer(index, input);
  tracer.settleDataSources();
  const out: Taint = { inputs: new Map(), outputs: new Set(), allOutputs: false, diagnostics: [] };
  for (const n of input.nodes) {
    const set = tracer.taintedInputs(n);
    if (set.size) out.inputs.set(n.address, set);
  }
  for (const k of index.outputNames()) if (tracer.valueTaint(["outputs", k])) out.outputs.add(k);
  // Outputs whose names the sources do not give (under a dynamic label)
  // are computed from what the struct "outputs" embeds and holds.
  out.allOutputs = index.at(["outputs"]).some((s) =>
    s.refs.some((r) => tracer.refTaint(r, [])) || index.owned(s).some((o) => tracer.siteTaint(o))
  );
  // Existence decided by a secret, outside a node attribute's or an output's value.
  out.diagnostics = existenceDiagnostics(tracer);
  return out;
}
