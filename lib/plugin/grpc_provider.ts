/**
 * The translation layer: {@link PluginProvider} over gRPC, for protocol 5
 * and 6 alike. Each method turns a request into protocol messages (values
 * encoded by the schema of their type), makes the call, and turns the
 * response back, diagnostics included. Nothing else lives here.
 *
 * The schema is fetched once, on first need, and kept; a schema from a
 * cache may be given instead (providers that declare
 * `get_provider_schema_optional` need no GetProviderSchema call then).
 *
 * @module
 */

import type { Diagnostic } from "../diag/diag.ts";
import { error } from "../diag/diag.ts";
import {
  answerMalformed,
  callFailed,
  diagnosticsFrom,
  pathFrom,
  valueRejected,
} from "./diagnostics.ts";
import { CallError, STATUS } from "./grpc.ts";
import { decodeJSON } from "./json.ts";
import { decodeMsgpack, encodeMsgpack } from "./msgpack.ts";
import { type Message, providerMethod } from "./proto/load.ts";
import type { Method, ProtocolVersion } from "./proto/tfplugin.ts";
import { METHODS } from "./proto/tfplugin.ts";
import type { PluginProcess } from "./process.ts";
import {
  type CallOptions,
  type Diagnosed,
  type GetMetadataResponse,
  type GetProviderSchemaResponse,
  type PluginProvider,
  type ProviderSchema,
  TERRAFORM_COMPATIBLE_VERSION,
} from "./provider.ts";
import type * as P from "./provider.ts";
import { blockType, blockValue, type Schema, schemaFrom } from "./schema.ts";
import { type Value, ValueError } from "./value.ts";
import {
  bytes,
  capabilities,
  clientCaps,
  deferred,
  EMPTY,
  lazySchemas,
  timestamp,
} from "./grpc_messages.ts";

type Kind = "resource" | "data source" | "ephemeral resource";

/** Thrown inside a method to end it with diagnostics; caught at its edge. */
class Stop {
  constructor(readonly diagnostics: Diagnostic[]) {}
}

/** Options of {@link GrpcProvider}. */
export interface GrpcProviderOptions {
  /** A schema from a cache: no GetProviderSchema call unless asked for. */
  schema?: ProviderSchema;
  /**
   * When it aborts (the run is interrupted: Ctrl-C), pravo sends the
   * provider Stop, as Terraform does: its calls in flight return early.
   */
  stopSignal?: AbortSignal;
}

/** {@link PluginProvider} over a running {@link PluginProcess}. */
export class GrpcProvider implements PluginProvider {
  readonly process: PluginProcess;
  readonly protocol: ProtocolVersion;
  #schema?: Promise<GetProviderSchemaResponse>;

  constructor(process: PluginProcess, opts: GrpcProviderOptions = {}) {
    this.process = process;
    this.protocol = process.handshake.protocol;
    if (opts.schema) this.#schema = Promise.resolve({ schema: opts.schema, diagnostics: [] });
    const signal = opts.stopSignal;
    if (signal) {
      const stop = () => void this.stopProvider();
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
      process.exited.then(() => signal.removeEventListener("abort", stop));
    }
  }

  /** The protocol's name of a call in this version: `PrepareProviderConfig`. */
  #name(m: Method): string {
    return METHODS[m][this.protocol];
  }

  /**
   * One call. A failure becomes a {@link Stop} with its diagnostic; with
   * `unimplemented`, a provider that lacks the call answers `undefined`.
   */
  /**
   * One call. A failure becomes a {@link Stop} with its diagnostic; with
   * `unimplemented`, a provider that lacks the call answers `undefined`.
   */
  async #call(
    m: Method,
    req: Record<string, unknown>,
    opts?: CallOptions,
    unimplemented = false,
  ): Promise<Message> {
    try {
      return await this.process.connection.unary(providerMethod(this.protocol, m), req, {
        signal: opts?.signal,
      });
    } catch (e) {
      if (unimplemented && e instanceof CallError && e.code === STATUS.UNIMPLEMENTED) {
        return undefined;
      }
      if (
        !(e instanceof CallError) ||
        (e.code !== STATUS.CANCELLED && e.code !== STATUS.UNIMPLEMENTED)
      ) {
        // The connection may have broken because the process died: let its
        // exit be seen, so that the message can say how it ended.
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          this.process.exited,
          new Promise((r) => (timer = setTimeout(r, 500))),
        ]);
        clearTimeout(timer);
      }
      throw new Stop([callFailed(this.process, this.#name(m), e)]);
    }
  }

  /** Runs a method body: a {@link Stop} becomes its diagnostics. */
  async #run<T extends Diagnosed>(fallback: Partial<T>, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (e) {
      if (e instanceof Stop) return { ...fallback, diagnostics: e.diagnostics } as T;
      throw e;
    }
  }

  // --- Schemas -----------------------------------------------------------------

  getProviderSchema(opts?: CallOptions): Promise<GetProviderSchemaResponse> {
    this.#schema ??= this.#fetchSchema(opts);
    return this.#schema;
  }

  async #fetchSchema(opts?: CallOptions): Promise<GetProviderSchemaResponse> {
    const r = await this.#run<GetProviderSchemaResponse>({}, async () => {
      const m = await this.#call("getProviderSchema", {}, opts);
      const diagnostics = diagnosticsFrom(m.diagnostics);
      let schema: ProviderSchema;
      try {
        schema = {
          provider: schemaFrom(m.provider),
          resources: lazySchemas(m.resource_schemas),
          dataSources: lazySchemas(m.data_source_schemas),
          ephemeralResources: lazySchemas(m.ephemeral_resource_schemas),
          serverCapabilities: capabilities(m.server_capabilities),
        };
        if (m.provider_meta?.block) schema.providerMeta = schemaFrom(m.provider_meta);
      } catch (e) {
        throw new Stop([
          ...diagnostics,
          answerMalformed(this.process, this.#name("getProviderSchema"), e),
        ]);
      }
      return { schema, diagnostics };
    });
    // A failed fetch is not kept: the next caller asks again.
    if (!r.schema) this.#schema = undefined;
    return r;
  }

  async #providerSchema(): Promise<ProviderSchema> {
    const r = await this.getProviderSchema();
    if (!r.schema) throw new Stop(r.diagnostics);
    return r.schema;
  }

  async #typeSchema(kind: Kind, typeName: string): Promise<Schema> {
    const s = await this.#providerSchema();
    const table = kind === "resource"
      ? s.resources
      : kind === "data source"
      ? s.dataSources
      : s.ephemeralResources;
    const found = table[typeName];
    if (!found) {
      throw new Stop([
        error(
          `The provider "${this.process.name}" has no ${kind} type "${typeName}"`,
          `Its schema does not list it. Check the type name against \`pravo schema\`.`,
        ),
      ]);
    }
    return found;
  }

  // --- Values ------------------------------------------------------------------

  #encode(call: Method, v: Value | undefined, s: Schema): Message {
    try {
      return { msgpack: encodeMsgpack(blockValue(v ?? null, s.block), blockType(s.block)) };
    } catch (e) {
      if (e instanceof ValueError) {
        throw new Stop([valueRejected(this.process, this.#name(call), e)]);
      }
      throw e;
    }
  }

  #decode(call: Method, dv: Message, s: Schema, diagnostics: Diagnostic[]): Value {
    try {
      if (dv?.msgpack?.length) return decodeMsgpack(dv.msgpack, blockType(s.block));
      if (dv?.json?.length) return decodeJSON(dv.json, blockType(s.block));
      return null;
    } catch (e) {
      throw new Stop([...diagnostics, answerMalformed(this.process, this.#name(call), e)]);
    }
  }

  // --- Calls ---------------------------------------------------------------------

  getMetadata(opts?: CallOptions): Promise<GetMetadataResponse> {
    const empty = {
      serverCapabilities: {
        planDestroy: false,
        getProviderSchemaOptional: false,
        moveResourceState: false,
      },
      resources: [],
      dataSources: [],
      ephemeralResources: [],
      functions: [],
    };
    return this.#run<GetMetadataResponse>(empty, async () => {
      const m = await this.#call("getMetadata", {}, opts, true);
      if (m === undefined) {
        // An older provider: the schema tells the same.
        const s = await this.getProviderSchema(opts);
        if (!s.schema) return { ...empty, diagnostics: s.diagnostics };
        return {
          serverCapabilities: s.schema.serverCapabilities,
          resources: Object.keys(s.schema.resources),
          dataSources: Object.keys(s.schema.dataSources),
          ephemeralResources: Object.keys(s.schema.ephemeralResources),
          functions: [],
          diagnostics: s.diagnostics,
        };
      }
      const names = (l: Message[] | undefined, f = "type_name") =>
        (l ?? []).map((x) => String(x[f]));
      return {
        serverCapabilities: capabilities(m.server_capabilities),
        resources: names(m.resources),
        dataSources: names(m.data_sources),
        ephemeralResources: names(m.ephemeral_resources),
        functions: names(m.functions, "name"),
        diagnostics: diagnosticsFrom(m.diagnostics),
      };
    });
  }

  validateProviderConfig(
    req: { config: Value },
    opts?: CallOptions,
  ): Promise<P.ValidateProviderConfigResponse> {
    return this.#run<P.ValidateProviderConfigResponse>({}, async () => {
      const s = (await this.#providerSchema()).provider;
      const m = await this.#call("validateProviderConfig", {
        config: this.#encode("validateProviderConfig", req.config, s),
      }, opts);
      const diagnostics = diagnosticsFrom(m.diagnostics);
      const preparedConfig = this.protocol === 5 && m.prepared_config
        ? this.#decode("validateProviderConfig", m.prepared_config, s, diagnostics)
        : blockValue(req.config ?? null, s.block);
      return { preparedConfig, diagnostics };
    });
  }

  #validate(
    call: Method,
    kind: Kind,
    req: P.TypedConfigRequest,
    opts?: CallOptions,
  ): Promise<Diagnosed> {
    return this.#run<Diagnosed>({}, async () => {
      const s = await this.#typeSchema(kind, req.typeName);
      const msg: Message = { type_name: req.typeName, config: this.#encode(call, req.config, s) };
      if (call === "validateResourceConfig") {
        msg.client_capabilities = clientCaps(req.clientCapabilities);
      }
      const m = await this.#call(call, msg, opts);
      return { diagnostics: diagnosticsFrom(m.diagnostics) };
    });
  }

  validateResourceConfig(req: P.TypedConfigRequest, opts?: CallOptions): Promise<Diagnosed> {
    return this.#validate("validateResourceConfig", "resource", req, opts);
  }

  validateDataResourceConfig(req: P.TypedConfigRequest, opts?: CallOptions): Promise<Diagnosed> {
    return this.#validate("validateDataResourceConfig", "data source", req, opts);
  }

  validateEphemeralResourceConfig(
    req: P.TypedConfigRequest,
    opts?: CallOptions,
  ): Promise<Diagnosed> {
    return this.#validate("validateEphemeralResourceConfig", "ephemeral resource", req, opts);
  }

  configureProvider(req: P.ConfigureProviderRequest, opts?: CallOptions): Promise<Diagnosed> {
    return this.#run<Diagnosed>({}, async () => {
      const s = (await this.#providerSchema()).provider;
      const m = await this.#call("configureProvider", {
        terraform_version: req.terraformVersion ?? TERRAFORM_COMPATIBLE_VERSION,
        config: this.#encode("configureProvider", req.config, s),
        client_capabilities: clientCaps(req.clientCapabilities),
      }, opts);
      return { diagnostics: diagnosticsFrom(m.diagnostics) };
    });
  }

  upgradeResourceState(
    req: P.UpgradeResourceStateRequest,
    opts?: CallOptions,
  ): Promise<P.UpgradeResourceStateResponse> {
    return this.#run<P.UpgradeResourceStateResponse>({}, async () => {
      const s = await this.#typeSchema("resource", req.typeName);
      const json = typeof req.rawStateJSON === "string"
        ? new TextEncoder().encode(req.rawStateJSON)
        : req.rawStateJSON;
      const m = await this.#call("upgradeResourceState", {
        type_name: req.typeName,
        version: req.version,
        raw_state: { json },
      }, opts);
      const diagnostics = diagnosticsFrom(m.diagnostics);
      return {
        upgradedState: this.#decode("upgradeResourceState", m.upgraded_state, s, diagnostics),
        diagnostics,
      };
    });
  }

  readResource(req: P.ReadResourceRequest, opts?: CallOptions): Promise<P.ReadResourceResponse> {
    return this.#run<P.ReadResourceResponse>({ private: EMPTY }, async () => {
      const s = await this.#typeSchema("resource", req.typeName);
      const msg: Message = {
        type_name: req.typeName,
        current_state: this.#encode("readResource", req.currentState, s),
        client_capabilities: clientCaps(req.clientCapabilities),
      };
      if (req.private) msg.private = req.private;
      await this.#meta("readResource", msg, req.providerMeta);
      const m = await this.#call("readResource", msg, opts);
      const diagnostics = diagnosticsFrom(m.diagnostics);
      return {
        newState: this.#decode("readResource", m.new_state, s, diagnostics),
        private: bytes(m.private),
        deferred: deferred(m.deferred),
        diagnostics,
      };
    });
  }

  async #meta(call: Method, msg: Message, v: Value | undefined): Promise<void> {
    if (v === undefined) return;
    const meta = (await this.#providerSchema()).providerMeta;
    if (meta) msg.provider_meta = this.#encode(call, v, meta);
  }

  planResourceChange(
    req: P.PlanResourceChangeRequest,
    opts?: CallOptions,
  ): Promise<P.PlanResourceChangeResponse> {
    return this.#run<P.PlanResourceChangeResponse>({
      requiresReplace: [],
      plannedPrivate: EMPTY,
      legacyTypeSystem: false,
    }, async () => {
      const s = await this.#typeSchema("resource", req.typeName);
      const msg: Message = {
        type_name: req.typeName,
        prior_state: this.#encode("planResourceChange", req.priorState, s),
        proposed_new_state: this.#encode("planResourceChange", req.proposedNewState, s),
        config: this.#encode("planResourceChange", req.config, s),
        client_capabilities: clientCaps(req.clientCapabilities),
      };
      if (req.priorPrivate) msg.prior_private = req.priorPrivate;
      await this.#meta("planResourceChange", msg, req.providerMeta);
      const m = await this.#call("planResourceChange", msg, opts);
      const diagnostics = diagnosticsFrom(m.diagnostics);
      return {
        plannedState: this.#decode("planResourceChange", m.planned_state, s, diagnostics),
        requiresReplace: (m.requires_replace ?? []).map(pathFrom),
        plannedPrivate: bytes(m.planned_private),
        legacyTypeSystem: !!m.legacy_type_system,
        deferred: deferred(m.deferred),
        diagnostics,
      };
    });
  }

  applyResourceChange(
    req: P.ApplyResourceChangeRequest,
    opts?: CallOptions,
  ): Promise<P.ApplyResourceChangeResponse> {
    return this.#run<P.ApplyResourceChangeResponse>(
      { private: EMPTY, legacyTypeSystem: false },
      async () => {
        const s = await this.#typeSchema("resource", req.typeName);
        const msg: Message = {
          type_name: req.typeName,
          prior_state: this.#encode("applyResourceChange", req.priorState, s),
          planned_state: this.#encode("applyResourceChange", req.plannedState, s),
          config: this.#encode("applyResourceChange", req.config, s),
        };
        if (req.plannedPrivate) msg.planned_private = req.plannedPrivate;
        await this.#meta("applyResourceChange", msg, req.providerMeta);
        const m = await this.#call("applyResourceChange", msg, opts);
        const diagnostics = diagnosticsFrom(m.diagnostics);
        return {
          newState: this.#decode("applyResourceChange", m.new_state, s, diagnostics),
          private: bytes(m.private),
          legacyTypeSystem: !!m.legacy_type_system,
          diagnostics,
        };
      },
    );
  }

  importResourceState(
    req: P.ImportResourceStateRequest,
    opts?: CallOptions,
  ): Promise<P.ImportResourceStateResponse> {
    return this.#run<P.ImportResourceStateResponse>({ importedResources: [] }, async () => {
      await this.#typeSchema("resource", req.typeName);
      const m = await this.#call("importResourceState", {
        type_name: req.typeName,
        id: req.id,
        client_capabilities: clientCaps(req.clientCapabilities),
      }, opts);
      const diagnostics = diagnosticsFrom(m.diagnostics);
      const importedResources: P.ImportedResource[] = [];
      for (const r of m.imported_resources ?? []) {
        const s = await this.#typeSchema("resource", r.type_name);
        importedResources.push({
          typeName: r.type_name,
          state: this.#decode("importResourceState", r.state, s, diagnostics),
          private: bytes(r.private),
        });
      }
      return { importedResources, deferred: deferred(m.deferred), diagnostics };
    });
  }

  moveResourceState(
    req: P.MoveResourceStateRequest,
    opts?: CallOptions,
  ): Promise<P.MoveResourceStateResponse> {
    return this.#run<P.MoveResourceStateResponse>({ targetPrivate: EMPTY }, async () => {
      const s = await this.#typeSchema("resource", req.targetTypeName);
      const json = typeof req.sourceStateJSON === "string"
        ? new TextEncoder().encode(req.sourceStateJSON)
        : req.sourceStateJSON;
      const msg: Message = {
        source_provider_address: req.sourceProviderAddress,
        source_type_name: req.sourceTypeName,
        source_schema_version: req.sourceSchemaVersion,
        source_state: { json },
        target_type_name: req.targetTypeName,
      };
      if (req.sourcePrivate) msg.source_private = req.sourcePrivate;
      const m = await this.#call("moveResourceState", msg, opts);
      const diagnostics = diagnosticsFrom(m.diagnostics);
      return {
        targetState: this.#decode("moveResourceState", m.target_state, s, diagnostics),
        targetPrivate: bytes(m.target_private),
        diagnostics,
      };
    });
  }

  readDataSource(
    req: P.ReadDataSourceRequest,
    opts?: CallOptions,
  ): Promise<P.ReadDataSourceResponse> {
    return this.#run<P.ReadDataSourceResponse>({}, async () => {
      const s = await this.#typeSchema("data source", req.typeName);
      const msg: Message = {
        type_name: req.typeName,
        config: this.#encode("readDataSource", req.config, s),
        client_capabilities: clientCaps(req.clientCapabilities),
      };
      await this.#meta("readDataSource", msg, req.providerMeta);
      const m = await this.#call("readDataSource", msg, opts);
      const diagnostics = diagnosticsFrom(m.diagnostics);
      return {
        state: this.#decode("readDataSource", m.state, s, diagnostics),
        deferred: deferred(m.deferred),
        diagnostics,
      };
    });
  }

  openEphemeralResource(
    req: P.TypedConfigRequest,
    opts?: CallOptions,
  ): Promise<P.OpenEphemeralResourceResponse> {
    return this.#run<P.OpenEphemeralResourceResponse>({}, async () => {
      const s = await this.#typeSchema("ephemeral resource", req.typeName);
      const m = await this.#call("openEphemeralResource", {
        type_name: req.typeName,
        config: this.#encode("openEphemeralResource", req.config, s),
        client_capabilities: clientCaps(req.clientCapabilities),
      }, opts);
      const diagnostics = diagnosticsFrom(m.diagnostics);
      const out: P.OpenEphemeralResourceResponse = {
        result: this.#decode("openEphemeralResource", m.result, s, diagnostics),
        deferred: deferred(m.deferred),
        diagnostics,
      };
      if (Object.hasOwn(m, "private")) out.private = bytes(m.private);
      if (m.renew_at) out.renewAt = timestamp(m.renew_at);
      return out;
    });
  }

  renewEphemeralResource(
    req: P.RenewEphemeralResourceRequest,
    opts?: CallOptions,
  ): Promise<P.RenewEphemeralResourceResponse> {
    return this.#run<P.RenewEphemeralResourceResponse>({}, async () => {
      await this.#typeSchema("ephemeral resource", req.typeName);
      const msg: Message = { type_name: req.typeName };
      if (req.private) msg.private = req.private;
      const m = await this.#call("renewEphemeralResource", msg, opts);
      const out: P.RenewEphemeralResourceResponse = { diagnostics: diagnosticsFrom(m.diagnostics) };
      if (Object.hasOwn(m, "private")) out.private = bytes(m.private);
      if (m.renew_at) out.renewAt = timestamp(m.renew_at);
      return out;
    });
  }

  closeEphemeralResource(
    req: P.CloseEphemeralResourceRequest,
    opts?: CallOptions,
  ): Promise<Diagnosed> {
    return this.#run<Diagnosed>({}, async () => {
      await this.#typeSchema("ephemeral resource", req.typeName);
      const msg: Message = { type_name: req.typeName };
      if (req.private) msg.private = req.private;
      const m = await this.#call("closeEphemeralResource", msg, opts);
      return { diagnostics: diagnosticsFrom(m.diagnostics) };
    });
  }

  stopProvider(): Promise<P.StopProviderResponse> {
    return this.#run<P.StopProviderResponse>({ error: "" }, async () => {
      const m = await this.#call("stopProvider", {});
      const said = String(m.Error ?? "");
      return {
        error: said,
        diagnostics: said
          ? [
            error(
              `The provider "${this.process.name}" could not stop`,
              `It said: ${said}. Wait for it, or end pravo.`,
            ),
          ]
          : [],
      };
    });
  }

  close(): Promise<void> {
    return this.process.close();
  }
}
