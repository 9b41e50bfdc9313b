/**
 * What the references say is computed from a secret, whatever its value
 * (taint.ts), for the nodes found; with what the evaluation with stand-ins
 * found (secret_dependence.ts), the structure a secret decides.
 *
 * @module
 */

import type { Diagnostic } from "../../diag/diag.ts";
import type { AttrPath } from "../secrets.ts";
import type { Node } from "../spec.ts";
import { allFiles, type Sources } from "../sources/sources.ts";
import { type Taint, taint } from "../taint.ts";
import type { SecretDependence } from "./secret_dependence.ts";

/**
 * The taint of the secrets among the known values, and the diagnostics of
 * structure decided by a secret: as the references say it, else as the
 * evaluations differ.
 */
export function taintBySecrets(
  sources: Sources,
  input: {
    nodes: Node[];
    secrets: ReadonlyMap<string, AttrPath[]>;
    dependence?: SecretDependence;
  },
): { tainted: Taint; diagnostics: Diagnostic[] } {
  const tainted = taint({
    files: allFiles(sources).map((f) => f.parsed),
    nodes: input.nodes,
    secretAttrs: new Map(
      [...input.secrets].map(([a, paths]) => [a, new Set(paths.map((p) => String(p[0])))]),
    ),
  });
  const diagnostics = tainted.diagnostics.length
    ? tainted.diagnostics
    : input.dependence?.diagnostics ?? [];
  return { tainted, diagnostics };
}
