/**
 * What a plan is asked for: the root, its tags, who plans and why, and the
 * switches of `pravo plan` (destroy, replace, refresh, full).
 *
 * @module
 */

import type { ProviderSession } from "../providers/session.ts";

/** Which records a plan reads from the real world (`--refresh`). */
export type RefreshMode = "age" | "expired" | "false" | "all";

export interface PlanOptions {
  root: string;
  tags: Record<string, string>;
  actor: string;
  reason: string;
  destroy?: boolean;
  /** Addresses to replace even though nothing changed. */
  replace?: string[];
  refresh?: RefreshMode;
  /** Run every node, also those whose configuration and inputs did not change. */
  full?: boolean;
  /** Report reservations of others as reasons instead of refusing (`pravo why`). */
  explainReservations?: boolean;
  now?: () => Date;
  /** The providers of the run; by default a session of its own. */
  session?: ProviderSession;
}
