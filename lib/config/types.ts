/**
 * What `pravo.jsonc` holds, as types only: config.ts reads the file. Apart
 * so that a module that names them (the workspace, the pinned document)
 * loads neither the reader nor its parser.
 *
 * @module
 */

import type { SourcePos } from "../diag/diag.ts";
import type { ProviderAddress } from "../providers/install/address.ts";
import type { Condition } from "../providers/install/version.ts";

/** The `state` section of `pravo.jsonc`. */
export interface StateConfig {
  /** `sqlite:PATH` or `postgres://USER@HOST:PORT/DATABASE` (no password). */
  url?: string;
  /** The root's key in a shared database: `network/prod`. */
  root?: string;
  /** The PostgreSQL schema that holds pravo's tables; default `pravo`. */
  schema?: string;
  /** The lineage the state must have: a guard against a wrong `root`. */
  lineage?: string;
}

/** A plugin provider that the root uses: an entry of `providers`. */
export interface ProviderRequirementConfig {
  /** The source address as written: `hashicorp/aws`. */
  source: string;
  address: ProviderAddress;
  /** The constraint as written: `~> 5.100` (`""`: any version). */
  version: string;
  constraints: Condition[];
  /** Where the entry is. */
  range: SourcePos;
}

/** A directory of `provider_mirrors`. */
export interface MirrorConfig {
  /** Absolute: as written, or resolved against the root. */
  path: string;
  range: SourcePos;
}

/** What `pravo.jsonc` holds. */
export interface PravoConfig {
  state?: StateConfig;
  providers?: ProviderRequirementConfig[];
  provider_mirrors?: MirrorConfig[];
}

/** A configuration and the file it came from. */
export interface LoadedConfig {
  config: PravoConfig;
  /** The file, absolute; undefined when the root has none. */
  path?: string;
}
