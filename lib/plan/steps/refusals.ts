/**
 * What makes pravo refuse a plan it has made: a `--replace` of an address
 * that is not a managed node of the root, a node with
 * `lifecycle.prevent_destroy` that the plan would destroy; and the
 * diagnostics of the plan, each once, which end it when one is an error.
 *
 * @module
 */

import { type Diagnostic, DiagnosticsError, didYouMean, error } from "../../diag/diag.ts";
import type { Spec } from "../../cue/loader.ts";
import type { PlannedNode } from "../types.ts";
import { undeclaredConfiguration } from "../../providers/session.ts";

/** An error for each address of `replace` that is not a managed node of the plan. */
export function unknownReplaceTargets(
  planned: readonly PlannedNode[],
  replace: readonly string[] = [],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const r of replace) {
    if (!planned.some((p) => p.address === r && p.mode === "managed")) {
      const hint = didYouMean(r, planned.filter((p) => p.mode === "managed").map((p) => p.address));
      out.push(
        error(
          `Cannot replace "${r}"`,
          `--replace names "${r}", which is not a managed node of this root${
            hint ? ` (${hint})` : ""
          }. Give the address of a resource, as \`pravo state list\` or the plan lists them.`,
        ),
      );
    }
  }
  return out;
}

/** An error for each node with `lifecycle.prevent_destroy` that the plan deletes or replaces. */
export function protectedFromDestruction(
  planned: readonly PlannedNode[],
  spec: Pick<Spec, "nodes">,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const ranges = new Map(spec.nodes.map((n) => [n.address, n.range]));
  for (const p of planned) {
    if ((p.action === "delete" || p.action === "replace") && p.lifecycle.prevent_destroy) {
      const what = p.deleteBecause === "destroy"
        ? "--destroy would destroy it"
        : `the plan would ${p.action} it`;
      out.push(
        error(
          `${p.address} is protected from destruction`,
          `${p.address} has lifecycle.prevent_destroy set, and ${what}. Nothing was planned. ` +
            (p.deleteBecause === "destroy"
              ? "To destroy it, remove prevent_destroy from its configuration first. To destroy " +
                "only the other nodes, remove them from the configuration and apply."
              : "Change the configuration so that it is kept, or remove prevent_destroy first."),
          { address: p.address, range: ranges.get(p.address) },
        ),
      );
    }
  }
  return out;
}

/**
 * The deletes whose record names a provider configuration the root no
 * longer declares: refused when planned, before apply would refuse them
 * (lib/providers/session.ts), as Terraform refuses an orphan whose
 * provider configuration is gone.
 */
export function undeclaredConfigurations(
  planned: readonly PlannedNode[],
  spec: Pick<Spec, "providers">,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of planned) {
    if (p.action !== "delete" || !p.providerInstance) continue;
    const others = spec.providers.filter((c) => c.source === p.provider);
    if (!others.length || others.some((c) => c.address === p.providerInstance)) continue;
    out.push(
      undeclaredConfiguration(
        { address: p.address, instance: p.providerInstance },
        others.map((c) => c.address),
      ),
    );
  }
  return out;
}

/**
 * Each diagnostic once (the nodes are planned again after each round of data
 * reads), in the order given. Throws a DiagnosticsError with them all when
 * one is an error.
 */
export function settleDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const once = diagnostics.filter((d) => {
    const key = JSON.stringify(d);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (once.some((d) => d.severity === "error")) throw new DiagnosticsError(once, "error");
  return once;
}
