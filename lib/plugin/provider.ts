/**
 * One interface for a provider plugin, whatever protocol version (5 or 6) it
 * speaks. Names follow version 6; each method is one call of the Provider
 * service. Requests carry values ({@link Value}: plain data, with
 * {@link Unknown} for what is known only after apply), and every response
 * carries diagnostics: a method never throws for what the provider or the
 * transport did, it answers with an error diagnostic.
 *
 * Values of a resource are objects of its schema's type. Configurations may
 * come in Terraform's JSON syntax, as CUE gives them (blocks as objects and
 * lists of objects, attributes left out where unset): the translation
 * shapes them into what providers require (every attribute and block
 * present, null where unset). `null` is "no object" (a create's prior
 * state, a destroy's planned state, a resource that is gone).
 *
 * @module
 */

import type { Diagnostic } from "../diag/diag.ts";
import type { PluginProcess } from "./process.ts";
import type { ProtocolVersion } from "./proto/tfplugin.ts";
import type { Schema } from "./schema.ts";
import type { PathStep, Value } from "./value.ts";

export interface Diagnosed {
  diagnostics: Diagnostic[];
}

/** Optional per call: cancel it (the gRPC call ends with CANCELLED). */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface ServerCapabilities {
  /** The provider wants PlanResourceChange before a destroy too. */
  planDestroy: boolean;
  /** The provider works without GetProviderSchema: a cached schema will do. */
  getProviderSchemaOptional: boolean;
  moveResourceState: boolean;
}

export interface ClientCapabilities {
  deferralAllowed?: boolean;
  writeOnlyAttributesAllowed?: boolean;
}

export interface GetMetadataResponse extends Diagnosed {
  serverCapabilities: ServerCapabilities;
  resources: string[];
  dataSources: string[];
  ephemeralResources: string[];
  functions: string[];
}

export interface ProviderSchema {
  provider: Schema;
  providerMeta?: Schema;
  resources: Record<string, Schema>;
  dataSources: Record<string, Schema>;
  ephemeralResources: Record<string, Schema>;
  serverCapabilities: ServerCapabilities;
}

export interface GetProviderSchemaResponse extends Diagnosed {
  /** Absent when the provider failed to answer. */
  schema?: ProviderSchema;
}

export interface ValidateProviderConfigResponse extends Diagnosed {
  /** Version 5: the configuration with the provider's defaults; version 6: the one given. */
  preparedConfig?: Value;
}

export interface TypedConfigRequest {
  typeName: string;
  config: Value;
  clientCapabilities?: ClientCapabilities;
}

export interface ConfigureProviderRequest {
  config: Value;
  /**
   * The core version providers are told (`terraform_version`): they parse
   * it as the Terraform whose behaviour the core has; default
   * {@link TERRAFORM_COMPATIBLE_VERSION}.
   */
  terraformVersion?: string;
  clientCapabilities?: ClientCapabilities;
}

/** The Terraform version whose plugin behaviour pravo follows. */
export const TERRAFORM_COMPATIBLE_VERSION = "1.11.4";

export interface UpgradeResourceStateRequest {
  typeName: string;
  /** The schema version the state was written with. */
  version: number;
  /** The stored state as JSON (Terraform's form: dynamic values as {value, type}). */
  rawStateJSON: string | Uint8Array;
}

export interface UpgradeResourceStateResponse extends Diagnosed {
  upgradedState?: Value;
}

export interface ReadResourceRequest {
  typeName: string;
  currentState: Value;
  private?: Uint8Array;
  providerMeta?: Value;
  clientCapabilities?: ClientCapabilities;
}

export type DeferredReason =
  | "unknown"
  | "resource_config_unknown"
  | "provider_config_unknown"
  | "absent_prereq";

export interface ReadResourceResponse extends Diagnosed {
  /** null: the object is gone. */
  newState?: Value;
  private: Uint8Array;
  deferred?: DeferredReason;
}

export interface PlanResourceChangeRequest {
  typeName: string;
  /** null on create. */
  priorState: Value;
  /** Terraform's ProposedNew: the config with prior computed values; null on destroy. */
  proposedNewState: Value;
  /** null on destroy. */
  config: Value;
  priorPrivate?: Uint8Array;
  providerMeta?: Value;
  clientCapabilities?: ClientCapabilities;
}

export interface PlanResourceChangeResponse extends Diagnosed {
  plannedState?: Value;
  /** Paths whose change forces a replacement (noise on a create). */
  requiresReplace: PathStep[][];
  plannedPrivate: Uint8Array;
  /** Set by the legacy SDK: its plans may differ from the proposal in ways Terraform tolerates. */
  legacyTypeSystem: boolean;
  deferred?: DeferredReason;
}

export interface ApplyResourceChangeRequest {
  typeName: string;
  priorState: Value;
  /** null on destroy. */
  plannedState: Value;
  config: Value;
  plannedPrivate?: Uint8Array;
  providerMeta?: Value;
}

export interface ApplyResourceChangeResponse extends Diagnosed {
  /** null after a destroy. */
  newState?: Value;
  private: Uint8Array;
  legacyTypeSystem: boolean;
}

export interface ImportResourceStateRequest {
  typeName: string;
  id: string;
  clientCapabilities?: ClientCapabilities;
}

export interface ImportedResource {
  typeName: string;
  state: Value;
  private: Uint8Array;
}

export interface ImportResourceStateResponse extends Diagnosed {
  importedResources: ImportedResource[];
  deferred?: DeferredReason;
}

export interface MoveResourceStateRequest {
  sourceProviderAddress: string;
  sourceTypeName: string;
  sourceSchemaVersion: number;
  sourceStateJSON: string | Uint8Array;
  targetTypeName: string;
  sourcePrivate?: Uint8Array;
}

export interface MoveResourceStateResponse extends Diagnosed {
  targetState?: Value;
  targetPrivate: Uint8Array;
}

export interface ReadDataSourceRequest {
  typeName: string;
  config: Value;
  providerMeta?: Value;
  clientCapabilities?: ClientCapabilities;
}

export interface ReadDataSourceResponse extends Diagnosed {
  state?: Value;
  deferred?: DeferredReason;
}

export interface OpenEphemeralResourceResponse extends Diagnosed {
  result?: Value;
  private?: Uint8Array;
  /** When to renew it, if it must be. */
  renewAt?: Date;
  deferred?: DeferredReason;
}

export interface RenewEphemeralResourceRequest {
  typeName: string;
  private?: Uint8Array;
}

export interface RenewEphemeralResourceResponse extends Diagnosed {
  private?: Uint8Array;
  renewAt?: Date;
}

export interface CloseEphemeralResourceRequest {
  typeName: string;
  private?: Uint8Array;
}

export interface StopProviderResponse extends Diagnosed {
  /** What the provider said when it could not stop; "" when it did. */
  error: string;
}

/** A provider plugin behind one interface, protocol 5 or 6. */
export interface PluginProvider {
  /** The protocol version it speaks. */
  readonly protocol: ProtocolVersion;
  /** Its process. */
  readonly process: PluginProcess;

  getMetadata(opts?: CallOptions): Promise<GetMetadataResponse>;
  /** The schema, fetched once and kept (or given at connection from a cache). */
  getProviderSchema(opts?: CallOptions): Promise<GetProviderSchemaResponse>;
  validateProviderConfig(
    req: { config: Value },
    opts?: CallOptions,
  ): Promise<ValidateProviderConfigResponse>;
  validateResourceConfig(req: TypedConfigRequest, opts?: CallOptions): Promise<Diagnosed>;
  validateDataResourceConfig(req: TypedConfigRequest, opts?: CallOptions): Promise<Diagnosed>;
  validateEphemeralResourceConfig(req: TypedConfigRequest, opts?: CallOptions): Promise<Diagnosed>;
  configureProvider(req: ConfigureProviderRequest, opts?: CallOptions): Promise<Diagnosed>;
  upgradeResourceState(
    req: UpgradeResourceStateRequest,
    opts?: CallOptions,
  ): Promise<UpgradeResourceStateResponse>;
  readResource(req: ReadResourceRequest, opts?: CallOptions): Promise<ReadResourceResponse>;
  planResourceChange(
    req: PlanResourceChangeRequest,
    opts?: CallOptions,
  ): Promise<PlanResourceChangeResponse>;
  applyResourceChange(
    req: ApplyResourceChangeRequest,
    opts?: CallOptions,
  ): Promise<ApplyResourceChangeResponse>;
  importResourceState(
    req: ImportResourceStateRequest,
    opts?: CallOptions,
  ): Promise<ImportResourceStateResponse>;
  moveResourceState(
    req: MoveResourceStateRequest,
    opts?: CallOptions,
  ): Promise<MoveResourceStateResponse>;
  readDataSource(req: ReadDataSourceRequest, opts?: CallOptions): Promise<ReadDataSourceResponse>;
  openEphemeralResource(
    req: TypedConfigRequest,
    opts?: CallOptions,
  ): Promise<OpenEphemeralResourceResponse>;
  renewEphemeralResource(
    req: RenewEphemeralResourceRequest,
    opts?: CallOptions,
  ): Promise<RenewEphemeralResourceResponse>;
  closeEphemeralResource(
    req: CloseEphemeralResourceRequest,
    opts?: CallOptions,
  ): Promise<Diagnosed>;
  /**
   * Asks the provider to stop what it is doing (Ctrl-C): calls in flight
   * return early, with errors. The process keeps running.
   */
  stopProvider(): Promise<StopProviderResponse>;
  /** Ends the process: Shutdown, then a kill after the grace period. */
  close(): Promise<void>;
}
