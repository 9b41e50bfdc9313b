/**
 * The environment a provider process gets.
 *
 * The rule: a provider gets the user's environment, as under Terraform
 * (that is where it reads its credentials: `AWS_*`, `GOOGLE_*`, `ARM_*`,
 * `KUBECONFIG`, proxies, `HOME`, `PATH`...), except pravo's own variables:
 * no variable whose name starts with `PRAVO_` (pravo's key `PRAVO_KEY`
 * above all, and `PRAVO_STATE`, which may hold a database password) or
 * `DENO_` (the runtime's, `DENO_AUTH_TOKENS` among them) ever reaches a
 * provider. pravo passes the rest on without reading it for itself.
 *
 * Where pravo may list its environment (full `--allow-env`), the provider
 * starts from an empty environment holding the allowed variables. Where it
 * may not (pravo's narrow permissions), the provider inherits the
 * environment and each of pravo's variables is set to the empty string
 * (Deno cannot remove a variable it may not read): the value never reaches
 * the provider either way.
 *
 * Then the protocol's variables, which pravo sets and a user cannot:
 * `TF_PLUGIN_MAGIC_COOKIE`, `PLUGIN_PROTOCOL_VERSIONS`, `PLUGIN_CLIENT_CERT`
 * (AutoMTLS) and `PLUGIN_UNIX_SOCKET_DIR` (the provider's socket goes in a
 * private directory). And, unless the user set a `TF_LOG*` variable, the
 * provider's logs are turned down to warnings (`TF_LOG_PROVIDER=WARN`,
 * `TF_LOG_SDK=WARN`, and `TF_LOG_PROVIDER_AWS=WARN` for `hashicorp/aws`:
 * a provider's own logger answers to its name): by default the SDKs log
 * every request at trace level and the AWS provider every HTTP exchange at
 * debug level, bodies included, megabytes per run that Terraform itself
 * filters out.
 *
 * @module
 */

import { ENV_VARS, PLUGIN_ENV_VARS } from "../permissions/permissions.ts";
import type { ProtocolVersion } from "./proto/tfplugin.ts";

/** go-plugin's magic cookie for Terraform providers: not a secret, a sign of intent. */
export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE =
  "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

/**
 * The variables `@grpc/grpc-js` reads in pravo's own process (its logging,
 * tracing, TLS roots and proxy settings): under pravo's narrow permissions,
 * `--allow-env` must name them wherever providers run, or loading it fails
 * with NotCapable.
 */
export const GRPC_ENV_VARS: readonly string[] = PLUGIN_ENV_VARS;

/** Names no provider ever gets from pravo's environment. */
export function isDenied(name: string): boolean {
  const n = name.toUpperCase();
  return n.startsWith("PRAVO_") || n.startsWith("DENO_");
}

/** The variables pravo sets itself; a user's value for them is ignored. */
export const PROTOCOL_VARIABLES: readonly string[] = [
  MAGIC_COOKIE_KEY,
  "PLUGIN_PROTOCOL_VERSIONS",
  "PLUGIN_CLIENT_CERT",
  "PLUGIN_UNIX_SOCKET_DIR",
  "PLUGIN_MIN_PORT",
  "PLUGIN_MAX_PORT",
];

/**
 * pravo's own variables that it knows by name: what gets emptied when the
 * environment is inherited.
 */
export const KNOWN_PRAVO_VARIABLES: readonly string[] = [
  ...new Set([
    ...ENV_VARS.filter(isDenied),
    "PRAVO_KEY",
    "PRAVO_KEY_FILE",
    "PRAVO_STATE",
    "PRAVO_ACTOR",
    "PRAVO_REASON",
    "DENO_AUTH_TOKENS",
  ]),
];

export interface EnvironmentOptions {
  protocols: readonly ProtocolVersion[];
  /** The provider's source address (`hashicorp/aws`): its logger is named after it. */
  provider?: string;
  /** The client certificate (PEM) for AutoMTLS. */
  clientCertPem?: string;
  /** The private directory for the provider's socket. */
  socketDir?: string;
  /** Variables to add (never a denied or protocol one). */
  extra?: Record<string, string>;
  /**
   * The environment to start from; by default pravo's own when it may list
   * it. Tests pass one to check the rule.
   */
  source?: Record<string, string>;
}

/** What to give `Deno.Command`: `env` and `clearEnv`. */
export interface ProviderEnvironment {
  env: Record<string, string>;
  /** True: `env` is the whole environment. False: `env` is laid over pravo's. */
  clearEnv: boolean;
}

/** pravo's environment, when it may list it. */
function ownEnvironment(): Record<string, string> | undefined {
  try {
    if (Deno.permissions.querySync({ name: "env" }).state !== "granted") return undefined;
    return Deno.env.toObject();
  } catch {
    return undefined;
  }
}

function userSetLogging(source: Record<string, string> | undefined): boolean {
  if (source) return Object.keys(source).some((k) => k.toUpperCase().startsWith("TF_LOG"));
  for (const k of ["TF_LOG", "TF_LOG_PROVIDER", "TF_LOG_SDK"]) {
    try {
      if (Deno.env.get(k) !== undefined) return true;
    } catch {
      // not readable: not pravo's to know
    }
  }
  return false;
}

/** The environment of a provider process, by the rule above. */
export function providerEnvironment(opts: EnvironmentOptions): ProviderEnvironment {
  const source = opts.source ?? ownEnvironment();
  const protocol = new Set(PROTOCOL_VARIABLES);
  const env: Record<string, string> = {};
  if (source) {
    for (const [k, v] of Object.entries(source)) {
      if (!isDenied(k) && !protocol.has(k)) env[k] = v;
    }
  } else {
    for (const k of KNOWN_PRAVO_VARIABLES) env[k] = "";
  }
  if (!userSetLogging(source)) {
    env.TF_LOG_PROVIDER = "WARN";
    env.TF_LOG_SDK = "WARN";
    const type = opts.provider?.split("/").pop()?.replace(/^terraform-provider-/, "");
    if (type) env[`TF_LOG_PROVIDER_${type.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`] = "WARN";
  }
  for (const [k, v] of Object.entries(opts.extra ?? {})) {
    if (!isDenied(k) && !protocol.has(k)) env[k] = v;
  }
  env[MAGIC_COOKIE_KEY] = MAGIC_COOKIE_VALUE;
  env.PLUGIN_PROTOCOL_VERSIONS = opts.protocols.join(",");
  if (opts.clientCertPem) env.PLUGIN_CLIENT_CERT = opts.clientCertPem;
  else if (!source) env.PLUGIN_CLIENT_CERT = "";
  if (opts.socketDir) env.PLUGIN_UNIX_SOCKET_DIR = opts.socketDir;
  return { env, clearEnv: source !== undefined };
}
