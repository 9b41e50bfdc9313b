/**
 * A root's configuration file, `pravo.jsonc`: JSON with comments and
 * trailing commas, read with `jsonc-parser`. Today it says where the root's
 * state lives; every setting is documented in
 * `docs/reference/configuration.md`.
 *
 * ```jsonc
 * {
 *   "state": {
 *     // No password here: this file is meant to be committed.
 *     "url": "postgres://pravo@db.internal:5432/infra",
 *     "root": "network/prod",
 *   },
 * }
 * ```
 *
 * The file is optional; a root without one keeps its state in SQLite under
 * `.pravo/`. Unknown settings are refused, so that a misspelt one is not
 * silently ignored.
 *
 * @module
 */

import { parse, type ParseError, printParseErrorCode, stripComments } from "jsonc-parser";
import { join } from "node:path";
import { Exit } from "../cli/exit.ts";
import { DiagnosticsError, editDistance, error } from "../diag/diag.ts";
import { decodeUtf8, jsonTooDeep } from "../diag/text.ts";

/** The configuration file's name, in the root. */
export const CONFIG_FILE = "pravo.jsonc";

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

/** What `pravo.jsonc` holds. */
export interface PravoConfig {
  state?: StateConfig;
}

/** A configuration and the file it came from. */
export interface LoadedConfig {
  config: PravoConfig;
  /** The file, absolute; undefined when the root has none. */
  path?: string;
}

const STATE_KEYS: Record<keyof StateConfig, string> = {
  url: "where the state lives: sqlite:PATH or postgres://USER@HOST:PORT/DATABASE",
  root: "the root's key in a shared database",
  schema: "the PostgreSQL schema of pravo's tables",
  lineage: "the lineage the state must have",
};

/** A root key: letters, digits and `._-/`, 1 to 200 of them, not starting with `/`. */
export const ROOT_KEY = /^[A-Za-z0-9._-][A-Za-z0-9._/-]{0,199}$/;
/** A schema name pravo accepts: lower case, digits and `_`. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** How deep pravo.jsonc may nest: far more than its settings need. */
const MAX_DEPTH = 32;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Reads `ROOT/pravo.jsonc`. A missing file is an empty configuration; a file
 * that does not parse, or holds an unknown or ill-typed setting, is refused
 * with the file, line and column.
 *
 * @example
 * ```ts
 * import { readConfig } from "./config.ts";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/pravo.jsonc`, '{"state": {"root": "web",},}');
 * if (readConfig(dir).config.state?.root !== "web") throw new Error("not read");
 * ```
 */
export function readConfig(root: string): LoadedConfig {
  const path = join(root, CONFIG_FILE);
  let text: string;
  try {
    const read = decodeUtf8(Deno.readFileSync(path));
    if (!read.ok) {
      const b = read.bad;
      throw invalid(
        path,
        `${path}:${b.line}:${b.column}: the byte ${b.byte} is not UTF-8`,
        "The file is JSON with comments, which is UTF-8 text. Save it as UTF-8.",
      );
    }
    text = read.text;
  } catch (e) {
    if (e instanceof DiagnosticsError) throw e;
    if (e instanceof Deno.errors.NotFound) return { config: {} };
    throw new DiagnosticsError([
      error(
        `Cannot read "${path}"`,
        `${(e as Error).message}. Make the file readable, or remove it to use the defaults.`,
      ),
    ], Exit.ERROR);
  }
  return { config: parseConfig(text, path), path };
}

/** Parses the text of a `pravo.jsonc`; `path` names it in messages. */
export function parseConfig(text: string, path: string): PravoConfig {
  if (stripComments(text).trim() === "") return {}; // empty, or only comments
  // Its settings are two levels deep; the parser recurses once per level.
  const deep = jsonTooDeep(text, MAX_DEPTH);
  if (deep !== undefined) {
    const { line, column } = position(text, deep);
    throw invalid(
      path,
      `${path}:${line}:${column}: the value nests more than ${MAX_DEPTH} levels deep`,
      'Its settings are {"state": {...}}: remove what is nested below them.',
    );
  }
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const e = errors[0];
    const { line, column } = position(text, e.offset);
    throw invalid(
      path,
      `${path}:${line}:${column}: ${describeParseError(printParseErrorCode(e.error))}`,
      "Correct the file: it is JSON with comments and trailing commas allowed.",
    );
  }
  if (!isObject(value)) {
    throw invalid(path, "The file does not hold an object", 'Write {"state": {...}}.');
  }
  const out: PravoConfig = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "$schema") continue;
    if (k !== "state") throw unknownSetting(path, k, ["state"]);
    if (!isObject(v)) {
      throw invalid(path, '"state" is not an object', 'Write "state": {"url": "..."}.');
    }
    out.state = parseState(v, path);
  }
  return out;
}

function parseState(v: Record<string, unknown>, path: string): StateConfig {
  const state: StateConfig = {};
  for (const [k, x] of Object.entries(v)) {
    if (!(k in STATE_KEYS)) throw unknownSetting(path, `state.${k}`, Object.keys(STATE_KEYS));
    if (typeof x !== "string") {
      throw invalid(
        path,
        `"state.${k}" is not a string`,
        `Give ${STATE_KEYS[k as keyof StateConfig]} as a string.`,
      );
    }
    state[k as keyof StateConfig] = x;
  }
  if (state.url !== undefined && /^postgres(ql)?:\/\/[^/@]*:[^/@]*@/i.test(state.url)) {
    throw invalid(
      path,
      '"state.url" holds a password',
      "pravo.jsonc is meant to be committed, so it must not hold a secret. Remove the " +
        "password from the URL and give it in $PGPASSWORD, or in --state / $PRAVO_STATE.",
    );
  }
  if (state.root !== undefined && !ROOT_KEY.test(state.root)) {
    throw invalid(
      path,
      `"state.root" is not a valid root key: "${state.root}"`,
      "Use 1 to 200 letters, digits and the characters . _ - /, such as network/prod.",
    );
  }
  if (state.schema !== undefined && !SCHEMA_NAME.test(state.schema)) {
    throw invalid(
      path,
      `"state.schema" is not a valid schema name: "${state.schema}"`,
      "Use lower-case letters, digits and _, starting with a letter or _, such as pravo.",
    );
  }
  if (state.lineage !== undefined && !UUID.test(state.lineage)) {
    throw invalid(
      path,
      `"state.lineage" is not a lineage: "${state.lineage}"`,
      "Give the lineage that `pravo init` printed: a UUID in lower case.",
    );
  }
  return state;
}

function unknownSetting(path: string, key: string, known: string[]): DiagnosticsError {
  const last = key.split(".").pop()!;
  const near = known.filter((k) => editDistance(k, last) <= 2);
  const hint = near.length ? ` (did you mean "${near[0]}"?)` : "";
  return invalid(
    path,
    `Unknown setting "${key}"${hint}`,
    `The settings pravo reads here are: ${known.join(", ")}. ` +
      "Correct or remove it; docs/reference/configuration.md lists every setting.",
  );
}

function invalid(path: string, summary: string, detail: string): DiagnosticsError {
  return new DiagnosticsError([
    error(`Invalid ${CONFIG_FILE}: ${summary}`, `In "${path}". ${detail}`),
  ], Exit.ERROR);
}

function describeParseError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
