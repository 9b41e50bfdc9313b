/**
 * The data sources a plan reads, in the round whose evaluation knows their
 * configuration: what they read is given to the next evaluation as known
 * values. Some are read at apply instead: those whose inputs are computed
 * from a secret, and those that depend on a managed node the plan creates or
 * replaces.
 *
 * @module
 */

import { type Diagnostic, DiagnosticsError } from "../../diag/diag.ts";
import type { Spec } from "../../cue/loader.ts";
import type { AttrPath } from "../../cue/secrets.ts";
import type { ProviderSession } from "../../providers/session.ts";
import { scrubDiagnostics } from "../../secrets/paths.ts";
import type { Locatable } from "../located.ts";
import {
  dataSensitive,
  hasUnknown,
  inputsOf,
  providerConfigOf,
  withoutUnknown,
} from "../node_values.ts";
import type { KnownKind } from "../session.ts";
import type { Attrs } from "../types.ts";

/** What a data source read. */
export interface DataRead {
  address: string;
  attributes: Attrs;
  /** Its kind, which types the values in the next evaluation. */
  kind: KnownKind;
  /** Its sensitive attributes (lib/plan/node_values.ts `dataSensitive`), as paths. */
  secrets: AttrPath[];
}

/**
 * Reads, one after the other, the data sources of `spec` not read yet
 * (`how.read`) that can be read now; none in a plan that destroys. Throws a
 * DiagnosticsError for a read that fails.
 */
export async function readDataSources(
  spec: Spec,
  how: {
    session: Pick<ProviderSession, "providerFor">;
    /** The addresses of the state's records. */
    records: ReadonlyMap<string, unknown>;
    read: ReadonlyMap<string, Attrs>;
    root: string;
    replace?: readonly string[];
    destroy?: boolean;
    located: (n: Locatable) => (d: Diagnostic) => Diagnostic;
  },
): Promise<{ reads: DataRead[]; diagnostics: Diagnostic[] }> {
  const reads: DataRead[] = [];
  const diagnostics: Diagnostic[] = [];
  if (how.destroy) return { reads, diagnostics };
  const managed = new Set(spec.nodes.filter((m) => m.mode === "managed").map((m) => m.address));
  for (const n of spec.nodes) {
    if (n.mode !== "data" || how.read.has(n.address)) continue;
    const inputs = inputsOf(n);
    if (hasUnknown(inputs)) continue;
    // Inputs computed from a secret: read at apply, not now. Whether the
    // read succeeds (a file named after part of a password exists or not)
    // would tell of the secret on every plan.
    if (n.sensitiveInputs.length) continue;
    // A data source that depends on a managed node this plan creates or
    // replaces (a reference, or depends_on) reads what that node makes:
    // read at apply, after it, as Terraform does.
    if (
      n.dependencies.some((d) =>
        managed.has(d) && (!how.records.has(d) || (how.replace ?? []).includes(d))
      )
    ) continue;
    const provider = await how.session.providerFor(n);
    const r = await provider.readData({
      type: n.schema,
      address: n.address,
      root: how.root,
      providerConfig: providerConfigOf(spec, n),
      config: withoutUnknown(inputs),
      ranges: n.attributeRanges,
    });
    r.diagnostics = r.diagnostics.map(how.located(n));
    r.diagnostics = scrubDiagnostics(r.diagnostics, n.sensitiveInputs.map((k) => inputs[k]));
    if (r.diagnostics.some((d) => d.severity === "error")) {
      throw new DiagnosticsError(
        r.diagnostics.map((d) => ({
          ...d,
          address: d.address ?? n.address,
          range: d.range ?? n.range,
        })),
        "error",
      );
    }
    diagnostics.push(...r.diagnostics);
    reads.push({
      address: n.address,
      attributes: r.value ?? {},
      kind: { provider: n.provider, mode: n.mode, type: n.type },
      secrets: dataSensitive(n, r.value ?? {}).map((a) => [a]),
    });
  }
  return { reads, diagnostics };
}
