/**
 * `pravo show --format terraform PLANFILE`: the saved plan in Terraform's
 * JSON plan format (lib/terraform/plan_json.ts), one document on stdout.
 * Besides the plan file it reads the state (the records the plan skipped,
 * as they were when it was made), pravo.jsonc (the version constraints),
 * and the providers' schemas from pravo's cache: it starts no provider.
 *
 * @module
 */

import { DiagnosticsError, error } from "../diag/diag.ts";
import type { Plan } from "../plan/types.ts";
import { providerName } from "../terraform/plan_json_resources.ts";
import { openStore, stateLocation } from "../state/open.ts";
import { terraformPlan } from "../terraform/plan_json.ts";
import { recordsOfPlan } from "../terraform/plan_json_state.ts";
import { VERSION } from "../version.ts";
import { catalogOf, type Workspace } from "../workspace/workspace.ts";

/** The version constraints of pravo.jsonc, by full provider address. */
function constraints(ws: Workspace): Record<string, string> {
  const out: Record<string, string> = {};
  try {
    for (const p of ws.config.config.providers ?? []) {
      if (p.version) out[providerName(p.source)] = p.version;
    }
  } catch (e) {
    if (!(e instanceof DiagnosticsError)) throw e;
  }
  return out;
}

/** The plan's providers whose schemas are not in pravo's cache. */
function schemasMissing(ws: Workspace, plan: Plan): string[] {
  const catalog = catalogOf(ws);
  const used = new Set(plan.nodes.map((n) => n.provider));
  return [...used].filter((s) => catalog.entry(s) && !catalog.hasSchema(s)).sort();
}

/** The JSON plan of a saved plan of this root. */
export async function terraformDocument(
  ctx: { root: string; state?: string; workspace: Workspace },
  plan: Plan,
  path: string,
): Promise<Record<string, unknown>> {
  const missing = schemasMissing(ctx.workspace, plan);
  if (missing.length) {
    throw new DiagnosticsError([
      error(
        `The schema of ${missing.join(", ")} is not in pravo's cache`,
        "Terraform's format needs each type's attributes, which pravo reads from the schemas it keeps (show starts no provider). Run `pravo providers` in the root, which fetches them once, then show again.",
      ),
    ], "error");
  }
  const store = await openStore(ctx, { readOnly: true });
  let records;
  try {
    const where = await stateLocation(ctx);
    records = await recordsOfPlan(store, plan, {
      path,
      rootKey: where.backend === "postgres" ? where.rootKey : undefined,
    });
  } finally {
    await store.close();
  }
  return terraformPlan({
    plan,
    records,
    types: (source, mode, type) => ctx.workspace.registry.findType(source, mode, type),
    provider: (source) => ctx.workspace.registry.findProvider(source),
    constraints: constraints(ctx.workspace),
    version: VERSION,
  });
}
