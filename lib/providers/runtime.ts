/**
 * The provider interface: requests and responses, each response carrying
 * diagnostics, so that a new provider slots in by implementing the handlers
 * of its types.
 *
 * The engine decides the action (create, update, replace, delete, read) from
 * the schema and the prior state; a handler does the work against the real
 * world and returns the new attributes. Attributes are plain JSON here: the
 * engine resolves every value known only after apply before it calls apply.
 *
 * @module
 */

import type { Diagnostic, SourcePos } from "../diag/diag.ts";
import type { TypeSchema } from "./schema.ts";

export type Attrs = Record<string, unknown>;

/** What every request carries. */
export interface RequestBase {
  type: TypeSchema;
  /** The node's address, for messages. */
  address: string;
  /** The root directory, absolute: relative file names are read from it. */
  root: string;
  /** The provider instance's configuration. */
  providerConfig: Attrs;
  /** Cancelled when the run is interrupted. */
  signal?: AbortSignal;
  /** Where each attribute is set in the sources, when known: for messages. */
  ranges?: Record<string, SourcePos>;
}

export interface Response<T> {
  value?: T;
  diagnostics: Diagnostic[];
}

export interface ValidateRequest extends RequestBase {
  /** The configuration; attributes known only after apply are absent. */
  config: Attrs;
  /** Attribute names whose values are known only after apply. */
  unknown: string[];
}

export interface PlanRequest extends RequestBase {
  /** The configuration; attributes known only after apply are absent. */
  config: Attrs;
  unknown: string[];
  /** The attributes in the state, or null when the node is new. */
  prior: Attrs | null;
}

/** What the provider expects the node to look like after apply. */
export interface PlannedState {
  /** Known attribute values after apply (inputs and computed values it can tell). */
  attributes: Attrs;
  /** Computed attributes known only after apply. */
  unknown: string[];
}

export interface CreateRequest extends RequestBase {
  /** The configuration, every value known. Defaults are filled in. */
  config: Attrs;
}

export interface UpdateRequest extends RequestBase {
  config: Attrs;
  prior: Attrs;
}

export interface DeleteRequest extends RequestBase {
  prior: Attrs;
}

export interface ReadRequest extends RequestBase {
  /** The attributes in the state. */
  prior: Attrs;
}

export interface ReadDataRequest extends RequestBase {
  config: Attrs;
}

export interface OpenRequest extends RequestBase {
  config: Attrs;
}

/** What `pravo import ADDR ID` asks of a managed type. */
export interface ImportRequest extends RequestBase {
  /** The ID given on the command line, in the type's own format (Terraform's for built-ins). */
  id: string;
  /**
   * The node's configuration as the root declares it, values known now with
   * the schema's defaults: the inputs that the ID does not carry come from
   * it, so that a plan after the import is a no-op when the two agree.
   */
  config: Attrs;
}

/**
 * The handler of one type. Managed types implement create, delete and, where
 * some attribute can change in place, update; read where the real world can
 * drift from the state. Data sources implement readData; ephemeral types
 * implement open; calls implement invoke.
 */
export interface TypeHandler {
  /** Checks configuration beyond its types (ranges, exclusive options). */
  validate?(req: ValidateRequest): Diagnostic[];
  /**
   * Adjusts the planned state of a create or update: computed values it can
   * already tell (e.g. a file's id from its content) and those it cannot.
   * Without it, the engine plans computed attributes as unknown on create and
   * as before on update.
   */
  plan?(req: PlanRequest): Response<PlannedState>;
  create?(req: CreateRequest): Promise<Response<Attrs>>;
  update?(req: UpdateRequest): Promise<Response<Attrs>>;
  delete?(req: DeleteRequest): Promise<Response<void>>;
  /**
   * Reads the real world: the attributes as they are now, or null when the
   * object is gone (deleted by hand).
   */
  read?(req: ReadRequest): Promise<Response<Attrs | null>>;
  readData?(req: ReadDataRequest): Promise<Response<Attrs>>;
  open?(req: OpenRequest): Promise<Response<Attrs>>;
  /**
   * Reads an existing object by the ID that `pravo import` was given: its
   * attributes as a create would have stored them, or null when there is no
   * such object. A type without it cannot be imported.
   */
  import?(req: ImportRequest): Promise<Response<Attrs | null>>;
  /** The format of the ID that import takes, for messages: `RESULT,MIN,MAX[,SEED]`. */
  importFormat?: string;
  /**
   * When a value expires by itself (time_rotating, certificates): the ISO
   * time after which `plan --refresh expired` reads it and plans a replace.
   */
  expiresAt?(prior: Attrs): string | undefined;
}

/** A provider's handlers by mode and type name. */
export interface ProviderRuntime {
  source: string;
  handlers: {
    managed?: Record<string, TypeHandler>;
    data?: Record<string, TypeHandler>;
    ephemeral?: Record<string, TypeHandler>;
    call?: Record<string, TypeHandler>;
  };
}
