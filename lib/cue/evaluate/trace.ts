/**
 * Tracing the values known only after apply: where a node's computed
 * attribute is not known yet, the program is evaluated again with a
 * distinct sentinel in each (unknowns.ts); what differs from the first
 * evaluation depends on them.
 *
 * @module
 */

import { ctyOf } from "../../providers/schema.ts";
import { formatPath } from "../errors.ts";
import { ctySentinel } from "../plugin_cue.ts";
import { computedValue, isTracked } from "../provider_cue.ts";
import { standIn } from "../secrets.ts";
import { hasUnknownDefault, sentinelFor, type SentinelRef } from "../unknowns.ts";
import type { Evaluator } from "./evaluator.ts";
import { type Found, kindOf } from "./find.ts";
import { nested, packageOf, type Tree } from "./values.ts";

/** What tracing found. */
export interface Traced {
  /** What each sentinel stands for, by index. */
  sentinels: SentinelRef[];
  /** The sentinels as the evaluation with secrets replaced is given them: sensitive ones differ. */
  standInHolders: string[];
  /** Nodes with a sensitive attribute known only after apply. */
  unknownSecrets: Set<string>;
  /** The traced evaluation's package, when it evaluated. */
  traced?: Tree;
}

/**
 * Evaluates again with a sentinel for each computed value not known yet,
 * when the evaluation traces and the first one (`tree`) holds one.
 */
export async function traceUnknowns(
  ev: Evaluator,
  evaluated: { found: Found; tree: Tree },
): Promise<Traced> {
  const { found, tree } = evaluated;
  const out: Traced = { sentinels: [], standInHolders: [], unknownSecrets: new Set() };
  if (!ev.trace || !hasUnknownDefault(tree)) return out;
  const holders = _holders(ev, found, out);
  const res = await ev.run([...ev.known.declarations(ev.given, false), ...holders], false);
  if (res.ok) out.traced = packageOf(res.json);
  return out;
}

/** The declarations of a sentinel for each value not known yet; `out` records them. */
function _holders(ev: Evaluator, found: Found, out: Traced): string[] {
  const { known } = ev;
  const { sentinels } = out;
  const holders: string[] = [];
  for (const n of found.nodes) {
    const { type } = kindOf(n.value, ev.sources.registry);
    const addr = formatPath(n.path);
    for (const [name, a] of Object.entries(type.attributes)) {
      if (type.plugin || isTracked(type, a)) {
        // Computed, and not set by the configuration: unknown until apply.
        if (!a.computed) continue;
        if ((a.required || a.optional) && known.isSet(addr, name, { value: n.value[name], type })) {
          continue;
        }
        const kv = known.valueOf(addr, name);
        if (kv !== undefined && kv !== null && known.injected(addr, name)) continue;
      } else {
        if (a.required || a.optional) continue;
        if (known.valueOf(addr, name) !== undefined) continue;
      }
      const cty = ctyOf(a);
      const sentinel = cty !== undefined
        ? ctySentinel(cty, sentinels.length)
        : sentinelFor(a.type, sentinels.length);
      // A computed-only attribute's value goes into its holder (provider_cue.ts).
      const put = (cue: string) =>
        a.required || a.optional
          ? nested([...n.path, name], cue)
          : computedValue(nested(n.path, ""), name, cue);
      holders.push(put(sentinel));
      out.standInHolders.push(
        put(a.sensitive ? JSON.stringify(standIn(JSON.parse(sentinel))) : sentinel),
      );
      if (a.sensitive) out.unknownSecrets.add(addr);
      sentinels.push({ address: addr, attr: name });
    }
  }
  return holders;
}
