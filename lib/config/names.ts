/**
 * The names `pravo.jsonc`'s reader (config.ts) shares with the state's
 * location (open.ts), which loads the reader (jsonc-parser, `node:fs`) only
 * when the file is there.
 *
 * @module
 */

/** The configuration file's name, in the root. */
export const CONFIG_FILE = "pravo.jsonc";

/** A root key: letters, digits and `._-/`, 1 to 200 of them, not starting with `/`. */
export const ROOT_KEY = /^[A-Za-z0-9._-][A-Za-z0-9._/-]{0,199}$/;
/** A schema name pravo accepts: lower case, digits and `_`. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
