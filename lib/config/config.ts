/**
 * A root's configuration file, `pravo.jsonc`: JSON with comments and
 * trailing commas, read with `jsonc-parser`. It says where the root's state
 * lives, which plugin providers the root uses (Terraform/OpenTofu providers,
 * with version constraints in Terraform's syntax) and where to find them
 * without the network; every setting is documented in
 * `docs/reference/configuration.md`.
 *
 * ```jsonc
 * {
 *   "state": {
 *     // No password here: this file is meant to be committed.
 *     "url": "postgres://pravo@db.internal:5432/infra",
 *     "root": "network/prod",
 *   },
 *   "providers": { "hashicorp/aws": "~> 5.100" },
 *   "provider_mirrors": ["/opt/tf-plugins"],
 * }
 * ```
 *
 * The file is optional; a root without one keeps its state in SQLite under
 * `.pravo/`. Unknown settings are refused with their line and column, so
 * that a misspelt one is not silently ignored.
 *
 * @module
 */

import { FileRefusal, readRegular } from "../files/regular.ts";
import { stripComments } from "jsonc-parser";
import { dirname, join, resolve } from "node:path";
import { DiagnosticsError, editDistance, error, type SourcePos } from "../diag/diag.ts";
import { type JsonNode as Node, parseJsonTree, properties } from "../diag/json_tree.ts";
import {
  AddressError,
  addressString,
  displayAddress,
  parseProviderSource,
  type ProviderAddress,
} from "../providers/install/address.ts";
import { type Condition, ConstraintError, parseConstraints } from "../providers/install/version.ts";
import { PROVIDERS } from "../providers/registry.ts";
import { decodeUtf8, jsonTooDeep, lineColumn } from "../diag/text.ts";

// In a module of their own, which lib/state/open.ts loads without this one.
import { CONFIG_FILE, ROOT_KEY, SCHEMA_NAME } from "./names.ts";
// The types apart, so that who names them does not load jsonc-parser's.
import type {
  LoadedConfig,
  MirrorConfig,
  PravoConfig,
  ProviderRequirementConfig,
  StateConfig,
} from "./types.ts";

export type { LoadedConfig, MirrorConfig, PravoConfig, ProviderRequirementConfig, StateConfig };

/** The most bytes of `pravo.jsonc` pravo reads. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

const STATE_KEYS: Record<keyof StateConfig, string> = {
  url: "where the state lives: sqlite:PATH or postgres://USER@HOST:PORT/DATABASE",
  root: "the root's key in a shared database",
  schema: "the PostgreSQL schema of pravo's tables",
  lineage: "the lineage the state must have",
};

/** How deep pravo.jsonc may nest: far more than its settings need. */
const MAX_DEPTH = 32;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Reads `ROOT/pravo.jsonc`. A missing file is an empty configuration; a file
 * that does not parse, or holds an unknown or ill-typed setting, is refused
 * with the file, line and column. In a child of `pravo mcp` the
 * configuration is the one the server pinned: lib/workspace/lock.ts chooses.
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
    // Never a FIFO or a device (an agent can put one there), never more than a settings file is.
    const read = decodeUtf8(readRegular(path, { maxBytes: MAX_CONFIG_BYTES }));
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
    if (e instanceof FileRefusal && e.reason === "missing") return { config: {} };
    throw new DiagnosticsError([
      error(
        `Cannot read "${path}"`,
        `${
          (e as Error).message.replace(/^./, (c) => c.toUpperCase())
        }. Make it a plain file you can read, or remove it to use the defaults.`,
      ),
    ], "error");
  }
  return { config: parseConfig(text, path), path };
}

/** The top-level settings, and what each is, for messages. */
const TOP_KEYS = ["state", "providers", "provider_mirrors"];

/** Parses the text of a `pravo.jsonc`; `path` names it in messages. */
export function parseConfig(text: string, path: string): PravoConfig {
  if (stripComments(text).trim() === "") return {}; // empty, or only comments
  // Its settings are a few levels deep; a parser recurses once per level.
  const deep = jsonTooDeep(text, MAX_DEPTH);
  if (deep !== undefined) {
    const { line, column } = lineColumn(text, deep);
    throw invalid(
      path,
      `${path}:${line}:${column}: the value nests more than ${MAX_DEPTH} levels deep`,
      "Its settings are at most a few levels deep: remove what is nested below them.",
    );
  }
  const doc = parseJsonTree(text, path, true);
  if (!("root" in doc)) {
    throw invalid(
      path,
      `${path}:${doc.pos.line}:${doc.pos.column}: ${doc.message}`,
      "Correct the file: it is JSON with comments and trailing commas allowed.",
    );
  }
  const at = doc.at;
  if (doc.root.type !== "object") {
    throw invalid(path, "The file does not hold an object", 'Write {"state": {...}}.');
  }
  const out: PravoConfig = {};
  for (const { key, keyNode, valueNode } of properties(doc.root)) {
    if (key === "$schema") continue;
    if (!TOP_KEYS.includes(key)) throw unknownSetting(path, key, TOP_KEYS, at(keyNode));
    if (key === "state") {
      if (valueNode.type !== "object") {
        throw invalid(
          path,
          '"state" is not an object',
          'Write "state": {"url": "..."}.',
          at(valueNode),
        );
      }
      out.state = parseState(valueNode, path, at);
    } else if (key === "providers") {
      out.providers = parseProviders(valueNode, path, at);
    } else {
      out.provider_mirrors = parseMirrors(valueNode, path, at);
    }
  }
  return out;
}

type At = (node: Node) => SourcePos;

function parseProviders(node: Node, path: string, at: At): ProviderRequirementConfig[] {
  if (node.type !== "object") {
    throw invalid(
      path,
      '"providers" is not an object',
      'Map each source address to a version constraint: "providers": {"hashicorp/aws": "~> 5.100"}.',
      at(node),
    );
  }
  const out: ProviderRequirementConfig[] = [];
  const builtins = new Set(PROVIDERS.map((p) => p.source));
  for (const { key, keyNode, valueNode } of properties(node)) {
    let address: ProviderAddress;
    try {
      address = parseProviderSource(key);
    } catch (e) {
      if (!(e instanceof AddressError)) throw e;
      throw invalid(path, e.summary, `${e.detail}`, at(keyNode));
    }
    const short = `${address.namespace}/${address.type}`;
    if (builtins.has(short)) {
      throw invalid(
        path,
        `"${key}" is built into pravo`,
        `pravo ships ${short} itself (pravo.dev/providers/${short}), with the attribute names of ` +
          `the Terraform provider. Remove "${key}" from "providers".`,
        at(keyNode),
      );
    }
    const same = out.find((p) => addressString(p.address) === addressString(address));
    if (same) {
      throw invalid(
        path,
        `"${key}" names the same provider as "${same.source}"`,
        `Both are ${addressString(address)}. Keep one of them.`,
        at(keyNode),
      );
    }
    const clash = out.find((p) => `${p.address.namespace}/${p.address.type}` === short);
    if (clash) {
      throw invalid(
        path,
        `"${key}" and "${clash.source}" would share the import path pravo.dev/providers/${short}`,
        `A root can use one provider named ${short}: ${displayAddress(clash.address)} or ` +
          `${displayAddress(address)}. Keep one of them.`,
        at(keyNode),
      );
    }
    if (valueNode.type !== "string") {
      throw invalid(
        path,
        `The version constraint of "${key}" is not a string`,
        'Give it in Terraform\'s syntax, such as "~> 5.100" or ">= 1.2, < 2.0" ("" for any version).',
        at(valueNode),
      );
    }
    const version = String(valueNode.value);
    let constraints: Condition[];
    try {
      constraints = parseConstraints(version);
    } catch (e) {
      if (!(e instanceof ConstraintError)) throw e;
      throw invalid(
        path,
        `Invalid version constraint "${version}" for "${key}": ${e.message}`,
        'Write it in Terraform\'s syntax, such as "~> 5.100", ">= 1.2, < 2.0" or "= 5.100.0".',
        at(valueNode),
      );
    }
    out.push({ source: key, address, version, constraints, range: at(keyNode) });
  }
  return out;
}

function parseMirrors(node: Node, path: string, at: At): MirrorConfig[] {
  const hint = 'Write "provider_mirrors": ["/opt/tf-plugins"]: directories in Terraform\'s ' +
    "filesystem-mirror layout, absolute or relative to the root.";
  if (node.type !== "array") {
    throw invalid(path, '"provider_mirrors" is not a list', hint, at(node));
  }
  const out: MirrorConfig[] = [];
  for (const item of node.children ?? []) {
    if (item.type !== "string" || String(item.value).trim() === "") {
      throw invalid(path, 'An entry of "provider_mirrors" is not a directory name', hint, at(item));
    }
    const resolved = resolve(dirname(path), String(item.value));
    if (!out.some((m) => m.path === resolved)) out.push({ path: resolved, range: at(item) });
  }
  return out;
}

function parseState(node: Node, path: string, at: At): StateConfig {
  const state: StateConfig = {};
  for (const { key: k, keyNode, valueNode } of properties(node)) {
    if (!(k in STATE_KEYS)) {
      throw unknownSetting(path, `state.${k}`, Object.keys(STATE_KEYS), at(keyNode));
    }
    if (valueNode.type !== "string") {
      throw invalid(
        path,
        `"state.${k}" is not a string`,
        `Give ${STATE_KEYS[k as keyof StateConfig]} as a string.`,
        at(valueNode),
      );
    }
    state[k as keyof StateConfig] = String(valueNode.value);
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

function unknownSetting(
  path: string,
  key: string,
  known: string[],
  range: SourcePos,
): DiagnosticsError {
  const last = key.split(".").pop()!;
  const near = known.map((k) => ({ k, d: editDistance(k, last) })).filter((x) => x.d <= 3)
    .sort((a, b) => a.d - b.d);
  const hint = near.length ? ` (did you mean "${near[0].k}"?)` : "";
  return invalid(
    path,
    `Unknown setting "${key}"${hint}`,
    `The settings pravo reads here are: ${known.join(", ")}. ` +
      "Correct or remove it; docs/reference/configuration.md lists every setting.",
    range,
  );
}

/** A refusal: with a range, the renderer names the file, line and column. */
function invalid(
  path: string,
  summary: string,
  detail: string,
  range?: SourcePos,
): DiagnosticsError {
  return new DiagnosticsError([
    range
      ? error(`Invalid ${CONFIG_FILE}: ${summary}`, detail, { range })
      : error(`Invalid ${CONFIG_FILE}: ${summary}`, `In "${path}". ${detail}`),
  ], "error");
}
