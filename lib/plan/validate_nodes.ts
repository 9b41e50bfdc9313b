/**
 * The providers' checks of the nodes' values (`TypeHandler.validate`:
 * ranges, formats, exclusive options), beyond what the types in CUE say.
 *
 * They belong to the specification: `validate` runs them (exit 3), and
 * `plan` runs them once on the configuration it plans (exit 3 too), each
 * diagnostic once. A diagnostic that names an attribute points at its
 * declaration.
 *
 * @module
 */

import type { Diagnostic } from "../diag/diag.ts";
import type { Node, Spec } from "../cue/loader.ts";
import { handlerFor } from "../providers/runtimes.ts";
import { scrubDiagnostics } from "../secrets/paths.ts";
import { hasUnknown, inputsOf, providerConfigOf, withoutUnknown } from "./node_values.ts";

/** The attribute a diagnostic is about: the one it names, else the one its summary quotes. */
function attributeOf(d: Diagnostic, n: Node): string | undefined {
  const step = d.attribute?.[0];
  if (step && "name" in step) return step.name;
  const m = /^Invalid ([a-z_0-9]+)\b/.exec(d.summary);
  return m && m[1] in n.schema.attributes ? m[1] : undefined;
}

/** The providers' diagnostics for every node of the spec, each once, in node order. */
export function validateNodes(spec: Spec, root: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const n of spec.nodes) {
    const handler = handlerFor(n.provider, n.mode, n.type);
    if (!handler?.validate) continue;
    const inputs = inputsOf(n);
    const config = withoutUnknown(inputs);
    const found = handler.validate({
      type: n.schema,
      address: n.address,
      root,
      providerConfig: providerConfigOf(spec, n),
      config,
      // Inputs computed from a secret are checked at apply, as unknown ones
      // are: whether a check fails (min above max, a path out of the root)
      // would tell of the secret on every plan.
      unknown: [
        ...new Set([
          ...Object.keys(inputs).filter((k) => hasUnknown(inputs[k])),
          ...n.sensitiveInputs,
        ]),
      ].sort(),
      ranges: n.attributeRanges,
    });
    const sensitive = [
      ...n.sensitiveInputs,
      ...Object.entries(n.schema.attributes).filter(([, a]) => a.sensitive).map(([k]) => k),
    ];
    for (const d of scrubDiagnostics(found, sensitive.map((k) => config[k]))) {
      const attr = attributeOf(d, n);
      const placed = {
        ...d,
        address: d.address ?? n.address,
        range: d.range ?? (attr ? n.attributeRanges[attr] : undefined) ?? n.range,
      };
      const key = JSON.stringify([placed.severity, placed.summary, placed.detail, placed.address]);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(placed);
    }
  }
  return out;
}
