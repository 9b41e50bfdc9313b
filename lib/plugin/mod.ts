/**
 * Terraform and OpenTofu provider plugins, over the plugin protocol
 * (versions 5 and 6): start a provider binary, speak to it through one
 * interface, stop it. See README.md beside this file for the design and
 * how the engine is to use it.
 *
 * ```ts ignore
 * const started = await startProvider({ command: "/path/terraform-provider-aws_v5.100.0_x5", name: "hashicorp/aws" });
 * if (!started.value) throw new DiagnosticsError(started.diagnostics, 1);
 * const aws = started.value;
 * const { schema } = await aws.getProviderSchema();
 * await aws.configureProvider({ config: { region: "eu-west-1" } });
 * await aws.close();
 * ```
 *
 * @module
 */

import { GrpcProvider, type GrpcProviderOptions } from "./grpc_provider.ts";
import { type Result, type StartOptions, startPlugin } from "./process.ts";
import type { PluginProvider } from "./provider.ts";

export * from "./provider.ts";
export type { Result, StartOptions } from "./process.ts";
export { PluginProcess, startPlugin } from "./process.ts";
export { GrpcProvider } from "./grpc_provider.ts";
export type { GrpcProviderOptions } from "./grpc_provider.ts";
export { exitOnSignals, killAllPlugins, runningPlugins } from "./exit.ts";
export { GRPC_ENV_VARS, isDenied, providerEnvironment } from "./env.ts";
export * from "./schema.ts";
export * from "./value.ts";
export { decodeMsgpack, encodeMsgpack } from "./msgpack.ts";
export { decodeJSON, encodeJSON } from "./json.ts";
export { plannedDataSourceState, proposedNewState } from "./proposed.ts";
export type { ProtocolVersion } from "./proto/tfplugin.ts";

/** Starts a provider process and connects to it. */
export async function startProvider(
  opts: StartOptions & GrpcProviderOptions,
): Promise<Result<PluginProvider>> {
  const started = await startPlugin(opts);
  if (!started.value) return { diagnostics: started.diagnostics };
  return { value: new GrpcProvider(started.value, opts), diagnostics: started.diagnostics };
}
