/**
 * A provider's diagnostic about a node, pointed at the node's declaration in
 * the sources (and at the attribute it names, where it names one).
 *
 * @module
 */

import type { Diagnostic } from "../diag/diag.ts";
import type { Sources } from "../cue/loader.ts";
import { addressPath } from "../addr/address.ts";
import { providerDiagnostics } from "../cue/errors.ts";

/** What a diagnostic is pointed at: a node, or a record (its path is its address's). */
export interface Locatable {
  address: string;
  path?: string[];
  range?: Diagnostic["range"];
}

/** Points the diagnostics of a node (or record) at its place in `sources`. */
export function locatedIn(
  sources: Pick<Sources, "index">,
): (n: Locatable) => (d: Diagnostic) => Diagnostic {
  return (n) => (d) =>
    providerDiagnostics(sources.index, n.path ?? addressPath(n.address), d, n.address, n.range);
}
