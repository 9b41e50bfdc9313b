/**
 * `pravo.lock.json`, the root's provider lock: JSON, keys sorted, written by
 * `pravo init` and meant to be committed.
 *
 * ```json
 * {
 *   "format_version": "1.0",
 *   "providers": {
 *     "hashicorp/random": { "version": "0.1.0" },
 *     "registry.terraform.io/hashicorp/aws": {
 *       "constraints": "~> 5.100",
 *       "hashes": ["h1:...", "zh:..."],
 *       "version": "5.100.0"
 *     }
 *   },
 *   "modules": {
 *     "example.com/pets@v0": {
 *       "digest": "sha256:...",
 *       "manifest": "sha256:...",
 *       "version": "v0.1.0"
 *     }
 *   }
 * }
 * ```
 *
 * `modules` (only when the root has any) pins the CUE dependency modules
 * that `pravo init` fetched from a registry (lib/cue/registry.ts): by the
 * module path with its major version, the version, the SHA-256 of the
 * module's zip (`digest`, which pravo checks each time it reads the module
 * from its cache) and that of the registry's manifest.
 *
 * A built-in provider is keyed by its source (`hashicorp/random`) and holds
 * its version; a plugin provider is keyed by its full address and holds its
 * version, its constraints in canonical form and its hashes, as
 * `.terraform.lock.hcl` does. Anyone who may edit the root may edit this
 * file, so it is read strictly: anything malformed is refused with its line
 * and column, never half-read.
 *
 * @module
 */

import { stableJson } from "../../json.ts";
import { DiagnosticsError, error, type SourcePos } from "../../diag/diag.ts";
import {
  type JsonNode as Node,
  nodeValue,
  parseStrictJson,
  properties,
} from "../../diag/json_nodes.ts";
import { AddressError, addressString, parseProviderSource } from "./address.ts";
import { hashScheme } from "./hash_scheme.ts";
import { ConstraintError, constraintsString, parseConstraints, parseVersion } from "./version.ts";

/** A plugin provider's entry in the lock file. */
export interface LockedPlugin {
  version: string;
  /** In Terraform's canonical form; `""`: any version. */
  constraints: string;
  /** Sorted, each once. */
  hashes: string[];
}

/** The lock file's name, in the root. */
export const LOCK_FILE = "pravo.lock.json";

/** A CUE dependency module fetched from a registry, in the lock file. */
export interface LockedModule {
  /** `v0.1.0`. */
  version: string;
  /** `sha256:HEX` of the module's zip. */
  digest: string;
  /** `sha256:HEX` of the registry's manifest. */
  manifest: string;
}

/** What the lock file holds. */
export interface LockFileContent {
  /** CUE dependency modules, by module path with major version (`example.com/pets@v0`). */
  modules?: Record<string, LockedModule>;
  /** Built-in providers' versions, by source (`hashicorp/random`). */
  builtins: Record<string, { version: string }>;
  /** Plugin providers, by full address (`registry.terraform.io/hashicorp/aws`). */
  plugins: Record<string, LockedPlugin>;
}

function refused(summary: string, detail: string, range?: SourcePos): DiagnosticsError {
  return new DiagnosticsError([
    error(
      `Invalid ${LOCK_FILE}: ${summary}`,
      `${detail} \`pravo init\` writes this file: fix the entry, or remove it and run ` +
        "`pravo init` to pin it again.",
      range ? { range } : {},
    ),
  ], "error");
}

/** Parses the text of a lock file; `path` names it in messages. */
export function parseLockFile(text: string, path: string): LockFileContent {
  const doc = parseStrictJson(text, path);
  if (!("root" in doc)) {
    throw refused(`${doc.message}`, "The file is not valid JSON.", doc.pos);
  }
  const out: LockFileContent = { builtins: {}, plugins: {} };
  if (doc.root.type !== "object") {
    throw refused(
      "it does not hold an object",
      'It must be {"format_version": "1.0", ...}.',
      doc.at(doc.root),
    );
  }
  /** The entries of a section (`providers`, `modules`): refused unless it is an object. */
  const entriesOf = (p: Field, what: string): Field[] => {
    if (p.valueNode.type !== "object") {
      throw refused(`"${p.key}" is not an object`, what, doc.at(p.valueNode));
    }
    return properties(p.valueNode);
  };
  let format: Node | undefined;
  for (const p of properties(doc.root)) {
    if (p.key === "format_version") {
      format = p.valueNode;
      if (p.valueNode.value !== "1.0") {
        throw refused(
          `format_version ${JSON.stringify(nodeValue(p.valueNode))} is not "1.0"`,
          "It was written by another version of pravo.",
          doc.at(p.valueNode),
        );
      }
    } else if (p.key === "providers") {
      for (const entry of entriesOf(p, "It maps sources to their pins.")) {
        readEntry(entry, doc.at, out);
      }
    } else if (p.key === "modules") {
      out.modules = {};
      for (const entry of entriesOf(p, "It maps CUE module paths to their pins.")) {
        readModuleEntry(entry, doc.at, out.modules);
      }
    } else {
      throw refused(
        `unknown key "${p.key}"`,
        'The file holds "format_version", "providers" and "modules".',
        doc.at(p.keyNode),
      );
    }
  }
  if (!format) throw refused('"format_version" is missing', 'It must be "1.0".', doc.at(doc.root));
  return out;
}

/** A key of the lock file and its value, as read. */
type Field = { key: string; keyNode: Node; valueNode: Node };

/**
 * The fields of an entry of the lock file, by name. Refused when the entry
 * is not an object, or holds a key other than those `allowed`.
 */
function entryFields(
  entry: Field,
  at: (n: Node) => SourcePos,
  allowed: readonly string[],
): Map<string, Field> {
  const { key, valueNode } = entry;
  const holds = allowed.length === 1
    ? `a ${allowed[0]}`
    : `${allowed.slice(0, -1).join(", ")} and ${allowed[allowed.length - 1]}`;
  if (valueNode.type !== "object") {
    throw refused(
      `the entry of "${key}" is not an object`,
      `Each entry holds ${holds}.`,
      at(valueNode),
    );
  }
  const fields = new Map(properties(valueNode).map((p) => [p.key, p]));
  for (const [k, p] of fields) {
    if (!allowed.includes(k)) {
      throw refused(
        `unknown key "${k}" in the entry of "${key}"`,
        `An entry holds ${holds}.`,
        at(p.keyNode),
      );
    }
  }
  return fields;
}

/**
 * A CUE module path with its major version, as module.cue's `deps` keys it
 * and the lock pins it: a domain first, `example.com/pets@v0`.
 */
export function isModuleKey(key: string): boolean {
  return /^[a-z0-9][a-z0-9.-]*\.[a-z0-9.-]+(\/[A-Za-z0-9._~-]+)*@v\d+$/.test(key) &&
    !key.split("/").some((e) => /^\.+(@v\d+)?$/.test(e));
}

function readModuleEntry(
  entry: Field,
  at: (n: Node) => SourcePos,
  out: Record<string, LockedModule>,
): void {
  const { key, keyNode, valueNode } = entry;
  if (!isModuleKey(key)) {
    throw refused(
      `"${key}" is not a CUE module path with its major version`,
      'Write it as module.cue\'s deps do: "example.com/pets@v0".',
      at(keyNode),
    );
  }
  const fields = entryFields(entry, at, ["version", "digest", "manifest"]);
  const text = (name: string, pattern: RegExp, example: string): string => {
    const f = fields.get(name);
    if (!f || f.valueNode.type !== "string" || !pattern.test(String(f.valueNode.value))) {
      throw refused(
        `the entry of "${key}" has no valid ${name}`,
        `Give "${name}": "${example}".`,
        at(f?.valueNode ?? valueNode),
      );
    }
    return String(f.valueNode.value);
  };
  const digest = /^sha256:[0-9a-f]{64}$/;
  out[key] = {
    version: text("version", /^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/, "v0.1.0"),
    digest: text("digest", digest, "sha256:<64 hex digits>"),
    manifest: text("manifest", digest, "sha256:<64 hex digits>"),
  };
}

function readEntry(
  entry: Field,
  at: (n: Node) => SourcePos,
  out: LockFileContent,
): void {
  const { key, keyNode, valueNode } = entry;
  const plugin = key.split("/").length === 3;
  const fields = entryFields(
    entry,
    at,
    plugin ? ["version", "constraints", "hashes"] : ["version"],
  );
  const required = (name: string, type: Node["type"], example: string): Field => {
    const f = fields.get(name);
    if (!f || f.valueNode.type !== type) {
      throw refused(
        `the entry of "${key}" has no ${name}`,
        `Give "${name}": ${example}.`,
        at(f?.valueNode ?? valueNode),
      );
    }
    return f;
  };
  const version = required("version", "string", '"X.Y.Z"');
  if (!plugin) {
    out.builtins[key] = { version: String(version.valueNode.value) };
    return;
  }
  let canonical: string;
  try {
    canonical = addressString(parseProviderSource(key));
  } catch (e) {
    if (!(e instanceof AddressError)) throw e;
    throw refused(e.summary, e.detail, at(keyNode));
  }
  if (canonical !== key) {
    throw refused(
      `"${key}" is not written as pravo writes it`,
      `Write "${canonical}".`,
      at(keyNode),
    );
  }
  const v = String(version.valueNode.value);
  if (!parseVersion(v)) {
    throw refused(
      `"${v}" is not a version`,
      "Give a version such as 5.100.0.",
      at(version.valueNode),
    );
  }
  const constraints = fields.get("constraints");
  let canonicalConstraints = "";
  if (constraints) {
    if (constraints.valueNode.type !== "string") {
      throw refused(
        `the constraints of "${key}" are not a string`,
        'Give them as "~> 5.100".',
        at(constraints.valueNode),
      );
    }
    try {
      canonicalConstraints = constraintsString(
        parseConstraints(String(constraints.valueNode.value)),
      );
    } catch (e) {
      if (!(e instanceof ConstraintError)) throw e;
      throw refused(
        `the constraints of "${key}" do not parse: ${e.message}`,
        "Give them as pravo.jsonc does.",
        at(constraints.valueNode),
      );
    }
  }
  const hashes = required("hashes", "array", '["h1:...", "zh:..."]');
  const list: string[] = [];
  for (const h of hashes.valueNode.children ?? []) {
    if (h.type !== "string" || hashScheme(String(h.value)) === undefined) {
      throw refused(
        `${JSON.stringify(nodeValue(h))} is not a hash pravo knows`,
        "A hash is h1: and 44 characters of base64, or zh: and 64 hex digits.",
        at(h),
      );
    }
    list.push(String(h.value));
  }
  out.plugins[key] = {
    version: v,
    constraints: canonicalConstraints,
    hashes: [...new Set(list)].sort(),
  };
}

/**
 * Reads `ROOT/pravo.lock.json`; undefined when there is none. Refused (an
 * `error`) when it cannot be read or is malformed. In a child of `pravo mcp`
 * the lock is the one the server pinned: lib/workspace/ chooses.
 */
export function readLockFile(root: string): LockFileContent | undefined {
  const path = `${root.replace(/\/+$/, "")}/${LOCK_FILE}`;
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw new DiagnosticsError([
      error(`Cannot read "${path}"`, `${(e as Error).message}. Make the file readable.`),
    ], "error");
  }
  return parseLockFile(text, path);
}

/** The text of a lock file: sorted keys, two-space indent, a final newline. */
export function lockFileText(content: LockFileContent): string {
  return stableJson({
    format_version: "1.0",
    providers: { ...content.builtins, ...content.plugins },
    ...(content.modules && Object.keys(content.modules).length ? { modules: content.modules } : {}),
  }) + "\n";
}
