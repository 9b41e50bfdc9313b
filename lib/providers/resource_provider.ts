/**
 * The one provider interface the engine talks to: the planner, apply,
 * drift and import call these methods and never learn whether a provider
 * runs inside pravo (the built-in ones, `builtin.ts`) or as a plugin
 * process (`plugin/adapter.ts`).
 *
 * The split is Terraform's: the core proposes (the node's inputs, its
 * object in the state), the provider plans (what the object will look like
 * after apply, which values only apply will know, which changes force a
 * replacement), and the core checks and records. One instance serves one
 * provider configuration (a `$aws` field of the root); every response
 * carries diagnostics, and a method never throws for what a provider did.
 *
 * Values: attributes are plain JSON by top-level attribute (`Attrs`), as
 * the state keeps them; a node's inputs as evaluated hold {@linkcode
 * UNKNOWN_INPUT} where a value is known only after apply.
 *
 * @module
 */

import type { Diagnostic, SourcePos } from "../diag/diag.ts";
import type { Attrs, Response } from "./runtime.ts";
import type { TypeSchema } from "./schema.ts";

export type { Attrs, Response };

/** What stands in a node's inputs for a value known only after apply (the loader's UNKNOWN). */
export const UNKNOWN_INPUT: unique symbol = Symbol.for("pravo.unknown");

/** A node's object as the state keeps it. */
export interface StoredObject {
  attributes: Attrs;
  /** The schema version of its type when it was written (plugin types). */
  schemaVersion?: number;
  /** The provider's private data for it, opaque, base64 (plugin types). */
  private?: string;
}

/** What every request carries. */
export interface NodeRequest {
  /** The node's address, for messages. */
  address: string;
  type: TypeSchema;
  /** The root directory, absolute. */
  root: string;
  /** The provider instance's configuration (known values). */
  providerConfig: Attrs;
  /** Cancelled when the run is interrupted. */
  signal?: AbortSignal;
  /** Where each attribute is set in the sources, when known: for messages. */
  ranges?: Record<string, SourcePos>;
}

export interface InputsRequest extends NodeRequest {
  /** The inputs the configuration sets, with UNKNOWN_INPUT where only apply will know. */
  inputs: Record<string, unknown>;
  /** The inputs known now. */
  config: Attrs;
  /** The names of the inputs that hold a value known only after apply. */
  unknown: string[];
}

export interface PlanResourceRequest extends InputsRequest {
  /** The object in the state, or null for a new node (and to plan a replacement's create). */
  prior: StoredObject | null;
  /** `lifecycle.ignore_changes`: attributes whose configured value is not applied. */
  ignoreChanges: string[];
}

/** What the provider expects a managed node to become. */
export interface ResourcePlan {
  /** The values after apply that are known now. */
  after: Attrs;
  /**
   * What only apply will know: attribute names, and for values known in
   * part, the paths inside them (`versioning[0].mfa_delete`).
   */
  afterUnknown: string[];
  /** The inputs whose values change (or may: unknown). */
  changed: string[];
  /** The attributes whose change forces a replacement. */
  requiresReplace: string[];
  /** The prior object as the provider sees it now (upgraded to its type's version). */
  prior?: StoredObject | null;
  /** Private data the provider planned with, base64. */
  private?: string;
}

export interface ApplyResourceRequest extends NodeRequest {
  /** The inputs, every value known; null to destroy the object. */
  config: Attrs | null;
  /** The object in the state; null to create it. */
  prior: StoredObject | null;
  /** What the plan showed, to check that the provider still plans it. */
  planned?: { after: Attrs | null; afterUnknown: string[] };
}

export interface ReadResourceRequest extends NodeRequest {
  prior: StoredObject;
}

export interface ConfigRequest extends NodeRequest {
  /** The inputs, every value known. */
  config: Attrs;
}

export interface ImportResourceRequest extends NodeRequest {
  /** The object's id in the real world, as the provider's import takes it. */
  id: string;
  /**
   * The node's configuration, values known now: a built-in type takes the
   * inputs its ID does not carry from it (lib/providers/runtime.ts).
   */
  config?: Attrs;
  /** Where the configuration sets each attribute, for diagnostics. */
  ranges?: InputsRequest["ranges"];
}

/** An object of another tool's state (Terraform's), to bring to its type's current schema. */
export interface UpgradeResourceRequest extends NodeRequest {
  /** Its attributes as that state holds them, JSON. */
  rawStateJSON: string;
  /** The version of its type's schema they were written with. */
  version: number;
  /** The provider's private data for it, base64, kept as it is. */
  private?: string;
}

/** A provider, built in or plugin, for one provider configuration. */
export interface ResourceProvider {
  /** `hashicorp/aws`. */
  readonly source: string;
  /** Checks a node's configuration beyond its types. */
  validateResource(req: InputsRequest): Promise<Diagnostic[]>;
  /** Plans a managed node: create (prior null) or update. */
  planResource(req: PlanResourceRequest): Promise<Response<ResourcePlan>>;
  /**
   * Applies a change: create (prior null), update, or destroy (config
   * null, answering null). A response may carry an object and errors: the
   * object exists (half made), and the state must say so.
   */
  applyResource(req: ApplyResourceRequest): Promise<Response<StoredObject | null>>;
  /** Reads the real world: the object as it is now, or null when it is gone. */
  readResource(req: ReadResourceRequest): Promise<Response<StoredObject | null>>;
  /** Reads a data source. */
  readData(req: ConfigRequest): Promise<Response<Attrs>>;
  /** Opens an ephemeral value for this run. */
  openEphemeral(req: ConfigRequest): Promise<Response<Attrs>>;
  /**
   * Finds an object made outside pravo, by the id its provider knows it by:
   * null when there is no such object.
   */
  importResource(req: ImportResourceRequest): Promise<Response<StoredObject | null>>;
  /**
   * Brings an object of another tool's state (`pravo import --from
   * terraform`) to its type's current schema, as Terraform does with each
   * object it reads: the provider's UpgradeResourceState. Plugin providers
   * only; a built-in type has one version.
   */
  upgradeResource?(req: UpgradeResourceRequest): Promise<Response<StoredObject>>;
  /** Whether objects of this type can be read from the real world (drift). */
  canRead(type: TypeSchema): boolean;
  /** When a value expires by itself: the time after which a plan reads it again. */
  expiresAt(type: TypeSchema, attributes: Attrs): string | undefined;
}
