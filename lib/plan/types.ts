/**
 * Plan types: what a plan decided for each node, and what a plan file holds.
 *
 * @module
 */

import type { Mode } from "../providers/schema.ts";
import type { LifecycleSettings, ProviderInstance } from "../cue/loader.ts";
import type { SentinelRef } from "../cue/unknowns.ts";
import type { NodeOrigin } from "../cue/modules.ts";

export type Attrs = Record<string, unknown>;

/** What apply will do to a node. */
export type Action = "create" | "update" | "replace" | "delete" | "read" | "open" | "no-op";

/**
 * The format of the plan document (`format_version`). The plan file that
 * holds a plan has its own format (`PLAN_FILE_FORMAT` in planfile.ts).
 */
export const PLAN_FORMAT_VERSION = "1.0";

/** One reason a node has its action, for `pravo why` and the plan document. */
export interface Reason {
  kind:
    | "new"
    | "gone"
    | "config"
    | "dependency"
    | "refresh"
    | "drift"
    | "requested"
    | "removed"
    | "destroy"
    | "data"
    | "ephemeral"
    | "unchanged"
    | "skipped"
    | "reservation"
    | "moved";
  detail: string;
  attributes?: string[];
  dependencies?: string[];
}

/** A node the plan left alone without running it. */
export interface SkippedNode {
  address: string;
  mode: Mode;
  type: string;
  name: string;
  reason: string;
  /**
   * The provider configuration its type comes from (`$aws_west`): an apply
   * writes it into a record that lacks it (lib/apply/bookkeeping.ts).
   */
  providerInstance?: string;
}

export interface PlannedNode {
  address: string;
  mode: Mode;
  type: string;
  name: string;
  provider: string;
  action: Action;
  /** The attributes in the state (as refreshed), or null for a new node. */
  before: Attrs | null;
  /** The attributes after apply that are known now; null when it will not exist. */
  after: Attrs | null;
  /** Attributes known only after apply. */
  afterUnknown: string[];
  /** Attributes whose value changes (or may change: unknown). */
  changed: string[];
  /** Why a replace: attributes that force it, `requested` (--replace), `gone`. */
  replaceBecause: string[];
  /** Why a delete: `not in the configuration`, `destroy`. */
  deleteBecause?: string;
  dependencies: string[];
  /** Attributes whose values are sensitive. */
  sensitive: string[];
  /** Inputs for apply, known now. */
  config: Attrs;
  /** Inputs known only after apply: templates with sentinels (see lib/cue/unknowns.ts). */
  templates: Record<string, unknown>;
  /** Inputs that need CUE evaluated again at apply. */
  needsEvaluation: string[];
  /**
   * For inputs computed from a secret: what the configuration computes for
   * them with pravo's two stand-ins (lib/cue/loader.ts `Node.secretForms`),
   * which apply puts in the record's digest in place of their values.
   */
  secretForms?: Record<string, [unknown, unknown]>;
  /** A digest of the node's configuration. */
  configDigest: string;
  refreshAge: string | null;
  lifecycle: LifecycleSettings;
  /** The provider instance's configuration. */
  providerConfig: Attrs;
  /** The provider configuration (`$aws`) the node's type comes from, when the sources say. */
  providerInstance?: string;
  /** The package (and module) the node's configuration is written in (lib/cue/loader.ts `Node`). */
  origin?: NodeOrigin;
  /**
   * The schema version and private data of the object in `before`, as the
   * provider last gave them (plugin types): what apply hands back to it.
   */
  stored?: { schemaVersion?: number; private?: string };
  /** Why the node has its action. */
  reasons?: Reason[];
  /** The address its record had, when a `moved` entry gives it this one. */
  movedFrom?: string;
}

export interface Plan {
  formatVersion: string;
  id: string;
  createdAt: string;
  /** Where the plan was made (for messages): a plan applies wherever its state is. */
  root: string;
  tags: Record<string, string>;
  actor: string;
  reason: string;
  /** The state the plan was made against: what tells the root, wherever it is. */
  lineage: string;
  serial: number;
  /** The root key of a state on PostgreSQL. */
  stateRootKey?: string;
  configDigest: string;
  destroy: boolean;
  /** The nodes the plan ran. */
  nodes: PlannedNode[];
  /** The nodes it left alone without running them (see `--full`). */
  skipped: SkippedNode[];
  /** Made with --full: every node ran. */
  full: boolean;
  /** The reservation made with --reserve. */
  reservation?: { id: string; expires: string; addresses: string[] };
  /** Output values; unknown ones are listed in outputsUnknown. */
  outputs: Record<string, unknown>;
  outputsUnknown: string[];
  /**
   * The outputs the last whole apply recorded in the state (null: none yet),
   * for the plan to show those that change. Absent in plans made before
   * pravo recorded outputs: then every output is shown.
   */
  outputsBefore?: Record<string, unknown> | null;
  sentinels: SentinelRef[];
  /** The sources the plan was made from, so apply can evaluate again. */
  sources: { name: string; src: string }[];
  providers: ProviderInstance[];
}

/** A plan with nothing in it: no root, no state, no nodes (a policy is compiled against one). */
export function emptyPlan(): Plan {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    id: "",
    createdAt: "",
    root: "",
    tags: {},
    actor: "",
    reason: "",
    lineage: "",
    serial: 0,
    configDigest: "",
    destroy: false,
    nodes: [],
    skipped: [],
    full: false,
    outputs: {},
    outputsUnknown: [],
    sentinels: [],
    sources: [],
    providers: [],
  };
}

export interface Summary {
  add: number;
  change: number;
  replace: number;
  destroy: number;
  /**
   * Every real object deleted, whatever the action: each managed node
   * destroyed and each one replaced (a replacement deletes the old object).
   * `summary: delete: 0` is the policy for "nothing is lost".
   */
  delete: number;
  read: number;
  unchanged: number;
}

export function summarize(nodes: readonly PlannedNode[], skipped = 0): Summary {
  const s: Summary = {
    add: 0,
    change: 0,
    replace: 0,
    destroy: 0,
    delete: 0,
    read: 0,
    unchanged: skipped,
  };
  for (const n of nodes) {
    if (deletesObject(n)) s.delete++;
    if (n.action === "create") s.add++;
    else if (n.action === "update") s.change++;
    else if (n.action === "replace") s.replace++;
    else if (n.action === "delete" && n.mode === "managed") s.destroy++;
    else if (n.action === "read") s.read++;
    else if (n.action === "no-op") s.unchanged++;
  }
  return s;
}

/** True when applying the node deletes a real object: a managed node destroyed or replaced. */
export function deletesObject(n: { action: string; mode: string }): boolean {
  return n.mode === "managed" && (n.action === "delete" || n.action === "replace");
}

/** True when applying the plan would change the state. */
export function hasChanges(plan: Plan): boolean {
  return plan.nodes.some((n) =>
    n.action === "create" || n.action === "update" || n.action === "replace" ||
    n.action === "delete" || n.movedFrom !== undefined
  );
}
