/**
 * What evaluating a root takes (its options) and gives: the nodes, the
 * provider instances and the outputs of a {@link Spec}.
 *
 * @module
 */

import type { Mode, TypeSchema } from "../providers/schema.ts";
import type { SourcePos } from "../diag/diag.ts";
import type { Value } from "./program.ts";
import type { SentinelRef } from "./unknowns.ts";
import type { MovedEntry } from "./moved.ts";
import type { NodeOrigin } from "./modules.ts";
import type { AttrPath } from "./secrets.ts";
import type { SetnessMemo } from "./evaluate/setness.ts";

export interface LifecycleSettings {
  prevent_destroy?: boolean;
  create_before_destroy?: boolean;
  ignore_changes?: string[];
  refresh_age?: string;
}

/** A node: a field whose value is a provider's resource, data source, ephemeral value or call. */
export interface Node {
  address: string;
  path: string[];
  mode: Mode;
  type: string;
  /** The last label of the path. */
  name: string;
  /** The provider's source: `hashicorp/random`. */
  provider: string;
  /** The field that holds the provider instance (`$random`), when found. */
  providerInstance?: string;
  /** The configuration: attributes as evaluated; UNKNOWN where known only after apply. */
  config: Record<string, Value>;
  lifecycle: LifecycleSettings;
  /**
   * For inputs known only after apply: the input with sentinels where the
   * unknown values go (see unknowns.ts), by attribute.
   */
  templates: Record<string, unknown>;
  /** Inputs known only after apply that need CUE evaluated again at apply. */
  needsEvaluation: string[];
  /**
   * Inputs whose values depend on a sensitive value (see secrets.ts): known
   * from the state, read from a data source, or known only after apply.
   */
  sensitiveInputs: string[];
  /**
   * For each input of `sensitiveInputs`: what the configuration computes
   * for it with each of the two stand-ins pravo gives the secrets at plan
   * time ({@linkcode neutral}, {@linkcode alternate}). Made of the
   * configuration and the secrets' types alone, it tells the planner whether
   * the input is computed as when it was applied, without the secret's
   * value (planner.ts); at plan time the input itself is unknown.
   */
  secretForms: Record<string, [unknown, unknown]>;
  /** Addresses of the nodes this one refers to, sorted. */
  dependencies: string[];
  range?: SourcePos;
  /** Where each attribute the configuration sets is declared: for messages. */
  attributeRanges: Record<string, SourcePos>;
  schema: TypeSchema;
  /** The package (and module) whose file declares the node's type. */
  origin?: NodeOrigin;
}

export interface ProviderInstance {
  /** The field's path: `$random`. */
  address: string;
  source: string;
  config: Record<string, Value>;
  /** Attributes of the configuration whose values depend on a sensitive value. */
  sensitive: string[];
}

/** A root, evaluated. */
export interface Spec {
  root: string;
  packageName: string;
  nodes: Node[];
  providers: ProviderInstance[];
  outputs: Record<string, Value>;
  /** The outputs whose values depend on a sensitive value, sorted. */
  outputsSensitive: string[];
  /** A digest of the sources and the tags: what the evaluation depends on. */
  configDigest: string;
  /** What each sentinel in the nodes' templates stands for, by index. */
  sentinels: SentinelRef[];
  /** The renamed nodes the root declares (`moved`, see moved.ts). */
  moved: MovedEntry[];
}

export interface EvaluateOptions {
  /** `-t KEY=VALUE` values. */
  tags?: Record<string, string>;
  /**
   * Values known from the state, by node address: computed attributes that
   * are unified in so that references to them are concrete.
   */
  known?: Map<string, Record<string, unknown>>;
  /**
   * Which of the `known` values are secrets: by node address, the paths in
   * the attributes given. When one holds a value, the configuration is
   * evaluated again with a stand-in for each, and what differs is marked
   * sensitive (`Node.sensitiveInputs`, `Spec.outputsSensitive`); no message
   * computed with a secret is returned.
   */
  secrets?: Map<string, AttrPath[]>;
  /**
   * What each node of `known` is (its provider, mode and type): a plugin
   * node's optional and computed attributes are unified in only where the
   * configuration does not set them.
   */
  knownKinds?: Map<string, { provider: string; mode: Mode; type: string }>;
  /**
   * Trace values known only after apply (a second evaluation), for plans and
   * for validate's provider checks (no stand-in taken for known). Default true.
   */
  trace?: boolean;
  /**
   * Evaluate with the secrets' real values: apply alone, where they enter
   * the provider calls (and `output --show-sensitive`, for an operator at a
   * terminal). Otherwise, as at plan time, a secret of `known` is unknown:
   * the evaluation is given two stand-ins of its type and format instead
   * ({@linkcode neutral}, {@linkcode alternate}), never its value, so that
   * nothing a plan shows (its shape, its failures, which nodes change) is
   * computed from a secret. An input computed from one is unknown in the
   * node's configuration ({@linkcode Node.secretForms} says what it is made
   * of). Default false.
   */
  reveal?: boolean;
  /**
   * Where the evaluation remembers which fields the nodes set (one
   * evaluation saved each, evaluate/setness.ts), for the evaluations of the
   * same sources that follow. Default: one memo for the process.
   */
  setnessMemo?: SetnessMemo;
}
