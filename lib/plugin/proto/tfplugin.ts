/**
 * The Terraform provider plugin protocol, versions 5 and 6, as protobuf
 * definitions written for pravo from the published protocol (tfplugin5.9 and
 * tfplugin6.9): the services, message and field names and the field numbers
 * are the protocol's; which messages are here, their layout and comments are
 * ours. Only what pravo uses is declared: a field that a provider sends and
 * that is not declared here is skipped by the decoder, as protobuf does.
 *
 * The two versions differ in a few names (v5 `GetSchema`, `Configure`,
 * `PrepareProviderConfig`, `Stop`; v6 `GetProviderSchema`,
 * `ConfigureProvider`, `ValidateProviderConfig`, `StopProvider`), in v6's
 * nested attribute types (`Schema.Object`) and in v6's provider validation
 * answering no prepared configuration. {@link protocolText} writes each from
 * one description: the types the calls share as protobuf text, and each
 * call's method names, request and response from one table of the calls,
 * their fields in protobuf's words.
 *
 * Messages are referred to by the wire only through field numbers: the
 * method paths (`/tfplugin5.Provider/GetSchema`) are what must match.
 *
 * @module
 */

/** The two protocol versions pravo speaks. */
export type ProtocolVersion = 5 | 6;

/** The protobuf package of each version: the prefix of its method paths. */
export function protocolPackage(v: ProtocolVersion): string {
  return `tfplugin${v}`;
}

/**
 * What a call of the Provider service sends and receives. A call is named as
 * in version 6, and its request and response are nested in a message of that
 * name (`PlanResourceChange.Request`), as the published protocol names them.
 */
interface Call {
  /** The method's name in version 5, where it is not version 6's. */
  v5?: string;
  /** The request's fields in protobuf's words, `;` between them. */
  request: string;
  /** The response's fields; by version where they differ. */
  response: string | Record<ProtocolVersion, string>;
  /** Messages of the call's own, declared after the response. */
  types?: string;
}

/** Every call pravo makes, by pravo's name for it: the version 6 name in camelCase. */
const CALLS = {
  getMetadata: {
    request: "",
    response: "ServerCapabilities server_capabilities = 1; repeated Diagnostic diagnostics = 2; " +
      "repeated TypeName data_sources = 3; repeated TypeName resources = 4; " +
      "repeated FunctionName functions = 5; repeated TypeName ephemeral_resources = 6",
    types: "message TypeName { string type_name = 1; } message FunctionName { string name = 1; }",
  },
  getProviderSchema: {
    v5: "GetSchema",
    request: "",
    response: "Schema provider = 1; map<string, Schema> resource_schemas = 2; " +
      "map<string, Schema> data_source_schemas = 3; repeated Diagnostic diagnostics = 4; " +
      "Schema provider_meta = 5; ServerCapabilities server_capabilities = 6; " +
      "map<string, Schema> ephemeral_resource_schemas = 8",
  },
  validateProviderConfig: {
    v5: "PrepareProviderConfig",
    request: "DynamicValue config = 1",
    // Version 5 answers the configuration with the provider's defaults too.
    response: {
      5: "DynamicValue prepared_config = 1; repeated Diagnostic diagnostics = 2",
      6: "repeated Diagnostic diagnostics = 2",
    },
  },
  validateResourceConfig: {
    v5: "ValidateResourceTypeConfig",
    request: "string type_name = 1; DynamicValue config = 2; " +
      "ClientCapabilities client_capabilities = 3",
    response: "repeated Diagnostic diagnostics = 1",
  },
  validateDataResourceConfig: {
    v5: "ValidateDataSourceConfig",
    request: "string type_name = 1; DynamicValue config = 2",
    response: "repeated Diagnostic diagnostics = 1",
  },
  validateEphemeralResourceConfig: {
    request: "string type_name = 1; DynamicValue config = 2",
    response: "repeated Diagnostic diagnostics = 1",
  },
  upgradeResourceState: {
    // `version`: the schema version the state was written with.
    request: "string type_name = 1; int64 version = 2; RawState raw_state = 3",
    response: "DynamicValue upgraded_state = 1; repeated Diagnostic diagnostics = 2",
  },
  configureProvider: {
    v5: "Configure",
    request: "string terraform_version = 1; DynamicValue config = 2; " +
      "ClientCapabilities client_capabilities = 3",
    response: "repeated Diagnostic diagnostics = 1",
  },
  readResource: {
    request: "string type_name = 1; DynamicValue current_state = 2; bytes private = 3; " +
      "DynamicValue provider_meta = 4; ClientCapabilities client_capabilities = 5",
    response: "DynamicValue new_state = 1; repeated Diagnostic diagnostics = 2; " +
      "bytes private = 3; Deferred deferred = 4",
  },
  planResourceChange: {
    request: "string type_name = 1; DynamicValue prior_state = 2; " +
      "DynamicValue proposed_new_state = 3; DynamicValue config = 4; bytes prior_private = 5; " +
      "DynamicValue provider_meta = 6; ClientCapabilities client_capabilities = 7",
    // `legacy_type_system`: set by providers on the legacy SDK, whose plans
    // may differ from the proposal in ways the strict checks would reject.
    response: "DynamicValue planned_state = 1; repeated AttributePath requires_replace = 2; " +
      "bytes planned_private = 3; repeated Diagnostic diagnostics = 4; " +
      "bool legacy_type_system = 5; Deferred deferred = 6",
  },
  applyResourceChange: {
    request: "string type_name = 1; DynamicValue prior_state = 2; " +
      "DynamicValue planned_state = 3; DynamicValue config = 4; bytes planned_private = 5; " +
      "DynamicValue provider_meta = 6",
    response: "DynamicValue new_state = 1; bytes private = 2; " +
      "repeated Diagnostic diagnostics = 3; bool legacy_type_system = 4",
  },
  importResourceState: {
    request: "string type_name = 1; string id = 2; ClientCapabilities client_capabilities = 3",
    response: "repeated ImportedResource imported_resources = 1; " +
      "repeated Diagnostic diagnostics = 2; Deferred deferred = 3",
    types: "message ImportedResource " +
      "{ string type_name = 1; DynamicValue state = 2; bytes private = 3; }",
  },
  moveResourceState: {
    request: "string source_provider_address = 1; string source_type_name = 2; " +
      "int64 source_schema_version = 3; RawState source_state = 4; " +
      "string target_type_name = 5; bytes source_private = 6",
    response: "DynamicValue target_state = 1; repeated Diagnostic diagnostics = 2; " +
      "bytes target_private = 3",
  },
  readDataSource: {
    request: "string type_name = 1; DynamicValue config = 2; DynamicValue provider_meta = 3; " +
      "ClientCapabilities client_capabilities = 4",
    response: "DynamicValue state = 1; repeated Diagnostic diagnostics = 2; Deferred deferred = 3",
  },
  openEphemeralResource: {
    request: "string type_name = 1; DynamicValue config = 2; " +
      "ClientCapabilities client_capabilities = 3",
    response: "repeated Diagnostic diagnostics = 1; optional Timestamp renew_at = 2; " +
      "DynamicValue result = 3; optional bytes private = 4; Deferred deferred = 5",
  },
  renewEphemeralResource: {
    request: "string type_name = 1; optional bytes private = 2",
    response: "repeated Diagnostic diagnostics = 1; optional Timestamp renew_at = 2; " +
      "optional bytes private = 3",
  },
  closeEphemeralResource: {
    request: "string type_name = 1; optional bytes private = 2",
    response: "repeated Diagnostic diagnostics = 1",
  },
  stopProvider: {
    v5: "Stop",
    request: "",
    // `Error`: empty when the provider stopped its work; the reason otherwise.
    response: "string Error = 1",
  },
} satisfies Record<string, Call>;

/** A call of the Provider service, by pravo's (version 6) name. */
export type Method = keyof typeof CALLS;

const _calls = Object.entries(CALLS) as [Method, Call][];
const _capital = (m: Method) => m[0].toUpperCase() + m.slice(1);

/** The method name of each call, by version. */
export const METHODS = Object.fromEntries(
  _calls.map(([m, c]) => [m, { 5: c.v5 ?? _capital(m), 6: _capital(m) }]),
) as Record<Method, Record<ProtocolVersion, string>>;

/**
 * The message that nests each call's request and response, as the
 * published protocol names it (`PlanResourceChange.Request`).
 */
export const MESSAGES = Object.fromEntries(_calls.map(([m]) => [m, _capital(m)])) as Record<
  Method,
  string
>;

/** A message of fields given in protobuf's words, `;` between them. */
function _message(name: string, fields: string): string {
  return fields ? `message ${name} { ${fields}; }` : `message ${name} {}`;
}

/** The message of one call in one version: its request, its response and its own types. */
function _callText(m: Method, v: ProtocolVersion): string {
  const c: Call = CALLS[m];
  const response = typeof c.response === "string" ? c.response : c.response[v];
  return `message ${MESSAGES[m]} {
  ${_message("Request", c.request)}
  ${_message("Response", response)}${c.types ? `\n  ${c.types}` : ""}
}`;
}

/** The protobuf text of one version of the protocol. */
export function protocolText(v: ProtocolVersion): string {
  const v6 = v === 6;
  const rpcs = (Object.keys(METHODS) as Method[])
    .map((m) => `  rpc ${METHODS[m][v]}(${MESSAGES[m]}.Request) returns (${MESSAGES[m]}.Response);`)
    .join("\n");
  const calls = _calls.map(([m]) => _callText(m, v)).join("\n\n");
  return `
syntax = "proto3";
package ${protocolPackage(v)};

// Values: msgpack (every response) or JSON, typed by the schema.
message DynamicValue { bytes msgpack = 1; bytes json = 2; }

message AttributePath {
  message Step {
    oneof selector {
      string attribute_name = 1;
      string element_key_string = 2;
      int64 element_key_int = 3;
    }
  }
  repeated Step steps = 1;
}

message Diagnostic {
  enum Severity { INVALID = 0; ERROR = 1; WARNING = 2; }
  Severity severity = 1;
  string summary = 2;
  string detail = 3;
  AttributePath attribute = 4;
}

// Stored state as JSON, for upgrades and moves (flatmap is the pre-0.12 form).
message RawState { bytes json = 1; map<string, string> flatmap = 2; }

enum StringKind { PLAIN = 0; MARKDOWN = 1; }

message Schema {
  int64 version = 1;
  Block block = 2;

  message Block {
    int64 version = 1;
    repeated Attribute attributes = 2;
    repeated NestedBlock block_types = 3;
    string description = 4;
    StringKind description_kind = 5;
    bool deprecated = 6;
  }

  message Attribute {
    string name = 1;
    // The type as JSON: "string", ["list","string"], ["object",{...}].
    bytes type = 2;
    string description = 3;
    bool required = 4; bool optional = 5; bool computed = 6; bool sensitive = 7;
    StringKind description_kind = 8;
    bool deprecated = 9;${
    v6
      ? `
    Object nested_type = 10;
    bool write_only = 11;`
      : `
    bool write_only = 10;`
  }
  }

  message NestedBlock {
    enum NestingMode { INVALID = 0; SINGLE = 1; LIST = 2; SET = 3; MAP = 4; GROUP = 5; }
    string type_name = 1;
    Block block = 2;
    NestingMode nesting = 3;
    int64 min_items = 4;
    int64 max_items = 5;
  }${
    v6
      ? `

  // A nested attribute type (version 6 only).
  message Object {
    enum NestingMode { INVALID = 0; SINGLE = 1; LIST = 2; SET = 3; MAP = 4; }
    repeated Attribute attributes = 1;
    NestingMode nesting = 3;
  }`
      : ""
  }
}

message ServerCapabilities {
  bool plan_destroy = 1;
  bool get_provider_schema_optional = 2;
  bool move_resource_state = 3;
}

message ClientCapabilities { bool deferral_allowed = 1; bool write_only_attributes_allowed = 2; }

message Deferred {
  enum Reason {
    UNKNOWN = 0;
    RESOURCE_CONFIG_UNKNOWN = 1;
    PROVIDER_CONFIG_UNKNOWN = 2;
    ABSENT_PREREQ = 3;
  }
  Reason reason = 1;
}

message Timestamp { int64 seconds = 1; int32 nanos = 2; }

service Provider {
${rpcs}
}

${calls}
`;
}

/**
 * go-plugin's own services, served by every provider beside the Provider
 * service: the controller (Shutdown ends the process cleanly) and the stdio
 * stream (what the provider writes to its os.Stdout/os.Stderr after the
 * handshake travels here, and blocks the provider once its pipe is full
 * unless someone reads it).
 */
export const GO_PLUGIN_TEXT = `
syntax = "proto3";
package plugin;

message Empty {}

service GRPCController {
  rpc Shutdown(Empty) returns (Empty);
}

message StdioData {
  enum Channel {
    INVALID = 0;
    STDOUT = 1;
    STDERR = 2;
  }
  Channel channel = 1;
  bytes data = 2;
}

service GRPCStdio {
  rpc StreamStdio(Empty) returns (stream StdioData);
}
`;
