/**
 * Loading a root: its `.cue` files, the provider packages they import, tags,
 * and the nodes the evaluated package declares, with their dependencies.
 *
 * `readRoot` reads and checks the sources without CUE; `evaluateRoot` runs
 * cue-wasm on them, with tags and with values known from the state unified
 * in, and returns the nodes. Every problem comes back as a diagnostic with a
 * file, line and column.
 *
 * @module
 */

import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import {
  type Diagnostic,
  DiagnosticsError,
  didYouMean,
  error,
  type SourcePos,
} from "../diag/diag.ts";
import {
  allProviders,
  findProvider,
  findType,
  findTypes,
  typeNamesOfMode,
} from "../providers/registry.ts";
import type { Mode, TypeSchema } from "../providers/schema.ts";
import { ctyOf, importPath, typeString } from "../providers/schema.ts";
import { tryCatalogFor } from "../providers/catalog.ts";
import { ctyDefault, ctySentinel, isCtyDefault, pluginPackage, usedTypes } from "./plugin_cue.ts";
import {
  type Generator,
  newTopScope,
  type ParsedFile,
  parseFile,
  type Ref,
  resolve,
  type Site,
  SyntaxError,
} from "./syntax/mod.ts";
import {
  buildProgram,
  HIDDEN_WRAP,
  type ProgramInput,
  UNKNOWN,
  type Value,
  WRAP,
} from "./program.ts";
import {
  computedValue,
  DEPENDS_ON,
  isTracked,
  LIFECYCLE,
  NODE_MARKER,
  PROVIDER_MARKER,
  providerPackage,
  SET_MARKER,
  tracksSetness,
} from "./provider_cue.ts";
import {
  cueErrorDiagnostic,
  formatPath,
  locate,
  pathKey,
  type SourceIndex,
  splitPath,
} from "./errors.ts";
import { type EvalResult, evaluate, rootCache } from "./engine.ts";
import { alternate, type AttrPath, holdsSecret, neutral, replaceAt, standIn } from "./secrets.ts";
import { taint } from "./taint.ts";
import { MOVED, type MovedEntry, readMoved } from "./moved.ts";
import { selfReferences } from "./scoping.ts";
import {
  declareImports,
  dependencyOf,
  dependencyVersions,
  MODULE_FILE,
  type ModulePackage,
  type NodeOrigin,
  packageDirectory,
  packageLabel,
  packagePathOf,
  readModuleFile,
  VENDOR_DIR,
} from "./modules.ts";
import { type BadByte, decodeUtf8 } from "../diag/text.ts";
import type { LockedModule } from "../providers/install/lock.ts";
import { lockedModuleFiles, ModuleReadError } from "./module_cache.ts";
import { FileRefusal, readRegular } from "../files/regular.ts";
import { ConfinementError, realInsideRoot } from "../providers/confine.ts";
import type { Token } from "./syntax/scanner.ts";
import {
  explains,
  hasUnknownDefault,
  isUnknownDefault,
  isUnknownLabel,
  markUnknown,
  sentinelFor,
  type SentinelRef,
  sentinelRefs,
  unknownDefault,
} from "./unknowns.ts";
import { rootLockFile } from "../workspace/lock.ts";
import { rootConfig } from "../workspace/config.ts";
import { pluginInputs } from "../workspace/lock.ts";
import { findCycle } from "../graph/cycle.ts";
import { addressPath } from "../addr/address.ts";

/** The builtin packages of CUE v0.4.3 that a specification may import. */
export const BUILTIN_PACKAGES = [
  "crypto/ed25519",
  "crypto/hmac",
  "crypto/md5",
  "crypto/sha1",
  "crypto/sha256",
  "crypto/sha512",
  "encoding/base64",
  "encoding/csv",
  "encoding/hex",
  "encoding/json",
  "encoding/yaml",
  "html",
  "list",
  "math",
  "math/bits",
  "net",
  "path",
  "regexp",
  "strconv",
  "strings",
  "struct",
  "text/tabwriter",
  "text/template",
  "time",
  "uuid",
];

const PROVIDER_PREFIX = "pravo.dev/providers/";

export interface TagDecl {
  name: string;
  type: "string" | "int" | "number" | "bool";
  path: string[];
  pos: SourcePos;
}

/** A root's sources, read and checked; no CUE evaluated yet. */
export interface Sources {
  root: string;
  packageName: string;
  files: { name: string; src: string; parsed: ParsedFile }[];
  /** Provider sources imported by any file. */
  providers: string[];
  tags: TagDecl[];
  index: SourceIndex;
  /** A digest of every file's name and content. */
  digest: string;
  /** The packages of the root's CUE module that the files import (modules.ts). */
  packages: ModulePackage[];
  /** The root's module path, when it is a CUE module. */
  modulePath?: string;
  /** Every file as read: the root's, `cue.mod/module.cue`, the packages'. What a plan carries. */
  given: { name: string; src: string }[];
  /** Every identifier and label of the files: which plugin types they may use. */
  words: Set<string>;
}

export interface LifecycleSettings {
  prevent_destroy?: boolean;
  create_before_destroy?: boolean;
  ignore_changes?: string[];
  refresh_age?: string;
}

/** A node: a field whose value is a provider's resource, data source, ephemeral value or call. */
export interface Node {
  address: string;
  path: string[];
  mode: Mode;
  type: string;
  /** The last label of the path. */
  name: string;
  /** The provider's source: `hashicorp/random`. */
  provider: string;
  /** The field that holds the provider instance (`$random`), when found. */
  providerInstance?: string;
  /** The configuration: attributes as evaluated; UNKNOWN where known only after apply. */
  config: Record<string, Value>;
  lifecycle: LifecycleSettings;
  /**
   * For inputs known only after apply: the input with sentinels where the
   * unknown values go (see unknowns.ts), by attribute.
   */
  templates: Record<string, unknown>;
  /** Inputs known only after apply that need CUE evaluated again at apply. */
  needsEvaluation: string[];
  /**
   * Inputs whose values depend on a sensitive value (see secrets.ts): known
   * from the state, read from a data source, or known only after apply.
   */
  sensitiveInputs: string[];
  /**
   * For each input of `sensitiveInputs`: what the configuration computes
   * for it with each of the two stand-ins pravo gives the secrets at plan
   * time ({@linkcode neutral}, {@linkcode alternate}). Made of the
   * configuration and the secrets' types alone, it tells the planner whether
   * the input is computed as when it was applied, without the secret's
   * value (planner.ts); at plan time the input itself is unknown.
   */
  secretForms: Record<string, [unknown, unknown]>;
  /** Addresses of the nodes this one refers to, sorted. */
  dependencies: string[];
  range?: SourcePos;
  /** Where each attribute the configuration sets is declared: for messages. */
  attributeRanges: Record<string, SourcePos>;
  schema: TypeSchema;
  /** The package (and module) whose file declares the node's type. */
  origin?: NodeOrigin;
}

export interface ProviderInstance {
  /** The field's path: `$random`. */
  address: string;
  source: string;
  config: Record<string, Value>;
  /** Attributes of the configuration whose values depend on a sensitive value. */
  sensitive: string[];
}

/** A root, evaluated. */
export interface Spec {
  root: string;
  packageName: string;
  nodes: Node[];
  providers: ProviderInstance[];
  outputs: Record<string, Value>;
  /** The outputs whose values depend on a sensitive value, sorted. */
  outputsSensitive: string[];
  /** A digest of the sources and the tags: what the evaluation depends on. */
  configDigest: string;
  /** What each sentinel in the nodes' templates stands for, by index. */
  sentinels: SentinelRef[];
  /** The renamed nodes the root declares (`moved`, see moved.ts). */
  moved: MovedEntry[];
}

export type Result<T> = { ok: true; value: T; diagnostics: Diagnostic[] } | {
  ok: false;
  diagnostics: Diagnostic[];
};

function sha256(s: string): string {
  return createHash("sha256").update(s).digest("hex");
}

/** A digest of the sources: every file's name and content. */
export function sourcesDigest(files: readonly { name: string; src: string }[]): string {
  return sha256(files.map((f) => `${f.name}\u0000${f.src}`).join("\u0001"));
}

/** A digest of what an evaluation depends on: the sources' digest and the tags. */
export function specDigest(sourcesDigest: string, tags: Record<string, string>): string {
  return sha256(sourcesDigest + "\u0000" + JSON.stringify(Object.entries(tags).sort()));
}

function pos(file: string, line: number, column: number): SourcePos {
  return { file, line, column };
}

/**
 * The `.cue` files of a directory, sorted. Links are looked at, not
 * followed: where one leads is checked when it is read.
 */
function cueFilesIn(dir: string): string[] {
  return readdirSync(dir).filter((n) => {
    if (!n.endsWith(".cue")) return false;
    const st = lstatSync(join(dir, n));
    return st.isFile() || st.isSymbolicLink();
  }).sort();
}

/** Reads the root's `.cue` files and checks what can be checked without CUE. */
export function readRoot(root: string): Result<Sources> {
  let names: string[];
  try {
    names = cueFilesIn(root);
  } catch (e) {
    return {
      ok: false,
      diagnostics: [
        error(
          "Cannot read the root",
          `Reading the directory "${root}" failed: ${
            (e as Error).message
          }. Check the path given with -C, or run pravo in the root.`,
        ),
      ],
    };
  }
  if (names.length === 0) {
    return {
      ok: false,
      diagnostics: [
        error(
          "No .cue files in the root",
          `"${root}" holds no .cue file. Write the specification in a file such as main.cue that starts with a package clause, or give the root with -C DIR.`,
        ),
      ],
    };
  }
  // CUE source is UTF-8 text: a file that is not is refused where it stops
  // being so, rather than read with U+FFFD in place of what it holds.
  const given: { name: string; src: string }[] = [];
  const diags: Diagnostic[] = [];
  const readText = (name: string): string | undefined => {
    const bytes = readSource(root, name);
    if (!(bytes instanceof Uint8Array)) {
      diags.push(bytes);
      return undefined;
    }
    const read = decodeUtf8(bytes);
    if (read.ok) return read.text;
    diags.push(notUtf8(name, read.bad));
    return undefined;
  };
  for (const name of names) {
    const src = readText(name);
    if (src !== undefined) given.push({ name, src });
  }
  if (diags.length) return { ok: false, diagnostics: diags };
  given.push(...readModule(root, given, readText, diags));
  if (diags.length) return { ok: false, diagnostics: diags };
  return parseSources(root, given);
}

/**
 * When the root is a CUE module (modules.ts): its `cue.mod/module.cue`, and
 * the files of every package of the module that the files import, read
 * beneath the root, as names relative to it.
 */
function readModule(
  root: string,
  rootFiles: readonly { name: string; src: string }[],
  readText: (name: string) => string | undefined,
  diags: Diagnostic[],
): { name: string; src: string }[] {
  let st;
  try {
    st = lstatSync(join(root, MODULE_FILE));
  } catch {
    return []; // not a module
  }
  if (!st.isFile() && !st.isSymbolicLink()) return [];
  const moduleSrc = readText(MODULE_FILE);
  if (moduleSrc === undefined) return [];
  const out = [{ name: MODULE_FILE, src: moduleSrc }];
  const declared = readModuleFile(moduleSrc);
  if (!("path" in declared)) {
    diags.push(declared);
    return out;
  }
  const registry = registryModules(root, moduleSrc, diags);
  const seen = new Set<string>();
  const queue = [...rootFiles];
  while (queue.length) {
    const f = queue.shift()!;
    let imports: ParsedFile["imports"];
    try {
      imports = parseFile(f.name, f.src, newTopScope()).imports;
    } catch {
      continue; // reported where the file is parsed
    }
    for (const imp of imports) {
      const dir = packageDirectory(declared.path, imp.path);
      if (dir === undefined || seen.has(dir)) continue;
      seen.add(dir);
      const at = { range: pos(f.name, imp.line, imp.column) };
      const fromRegistry = dir.startsWith(VENDOR_DIR + "/")
        ? registry.filesOf(dir.slice(VENDOR_DIR.length + 1), at)
        : undefined;
      if (fromRegistry) {
        for (const file of fromRegistry) {
          out.push(file);
          queue.push(file);
        }
        continue;
      }
      let names: string[] = [];
      try {
        // The package's directory by its real path, beneath the root: a
        // link that leads out is not listed.
        names = cueFilesIn(realInsideRoot(root, dir));
      } catch (e) {
        if (e instanceof ConfinementError) {
          diags.push(
            error(
              `Cannot read the package ${dir}: ${e.message}`,
              "pravo reads a package of the module from a directory of the root. Replace the symbolic link by the directory itself.",
              { range: pos(f.name, imp.line, imp.column) },
            ),
          );
        }
        // no such directory: parseSources says so at the import
      }
      for (const n of names) {
        const src = readText(`${dir}/${n}`);
        if (src === undefined) continue;
        const file = { name: `${dir}/${n}`, src };
        out.push(file);
        queue.push(file);
      }
    }
  }
  return out;
}

/**
 * The dependency modules `pravo.lock.json` pins, which `pravo init` fetched
 * from a registry (registry.ts, module_cache.ts): `filesOf(importPath)`
 * gives the files of a package of one of them, named as if vendored
 * (`cue.mod/pkg/example.com/pets/pets/pets.cue`), or undefined when no
 * locked module holds the package. Each module is read once, from pravo's
 * cache (or what `pravo mcp` pinned), and checked against the lock; a
 * module.cue whose deps ask another version than the lock, or a vendored
 * copy beside a locked one, is a diagnostic.
 */
function registryModules(
  root: string,
  moduleSrc: string,
  diags: Diagnostic[],
): {
  filesOf(
    importPath: string,
    at: { range: SourcePos },
  ): { name: string; src: string }[] | undefined;
} {
  let lock: Record<string, LockedModule> | undefined;
  const wanted = dependencyVersions(moduleSrc);
  const read = new Map<string, Map<string, Uint8Array> | undefined>();
  return {
    filesOf(importPath, at) {
      if (lock === undefined) {
        try {
          lock = rootLockFile(root)?.modules ?? {};
        } catch (e) {
          if (!(e instanceof DiagnosticsError)) throw e;
          diags.push(...e.diagnostics);
          lock = {};
        }
      }
      let key: string | undefined;
      for (const k of Object.keys(lock)) {
        const bare = k.replace(/@v\d+$/, "");
        if (importPath !== bare && !importPath.startsWith(bare + "/")) continue;
        if (!key || bare.length > key.replace(/@v\d+$/, "").length) key = k;
      }
      if (key === undefined) return undefined;
      const bare = key.replace(/@v\d+$/, "");
      const pin = lock[key];
      if (!read.has(key)) {
        read.set(key, undefined);
        let vendored = false;
        try {
          lstatSync(join(root, VENDOR_DIR, bare));
          vendored = true;
        } catch { /* not vendored */ }
        if (vendored) {
          diags.push(error(
            `${bare} is both vendored and pinned from a registry`,
            `${VENDOR_DIR}/${bare} holds a copy of the module, and pravo.lock.json pins ${key} ${pin.version} from a registry: pravo does not choose between them. Remove the vendored copy, or remove the module from pravo.lock.json by running \`pravo init\` with it vendored.`,
            at,
          ));
        } else if (wanted.get(bare) !== pin.version) {
          diags.push(error(
            `pravo.lock.json pins another version of ${bare}`,
            `${
              wanted.has(bare)
                ? `cue.mod/module.cue's deps ask ${key} ${wanted.get(bare)}`
                : `cue.mod/module.cue's deps do not list ${key}`
            }, and pravo.lock.json pins ${pin.version}; nothing is fetched until \`pravo init\` runs. Run \`pravo init\` to fetch and pin the version module.cue asks, or ask ${pin.version} there.`,
            at,
          ));
        } else {
          try {
            read.set(key, lockedModuleFiles(key, pin));
          } catch (e) {
            if (!(e instanceof ModuleReadError)) throw e;
            diags.push(error(`Cannot read the module ${key}`, `${e.message}.`, at));
          }
        }
      }
      const files = read.get(key);
      if (!files) return [];
      const sub = importPath === bare ? "" : importPath.slice(bare.length + 1) + "/";
      const out: { name: string; src: string }[] = [];
      for (const [name, bytes] of [...files].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)) {
        if (!name.startsWith(sub) || !name.endsWith(".cue")) continue;
        const rest = name.slice(sub.length);
        if (rest.includes("/")) continue;
        const shown = `${VENDOR_DIR}/${importPath}/${rest}`;
        const text = decodeUtf8(bytes);
        if (!text.ok) {
          diags.push(notUtf8(shown, text.bad));
          continue;
        }
        out.push({ name: shown, src: text.text });
      }
      return out;
    },
  };
}

/** The most bytes of one `.cue` file pravo reads: a 10,000-node root is about 1 MB. */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

/**
 * The bytes of the root's file `name`, read beneath the root: a symbolic link
 * that leads outside it (or into `.pravo/`) is not followed, a FIFO or a
 * device is not opened, a file larger than {@link MAX_SOURCE_BYTES} is not
 * read. An agent with an editor can make such links, and the message of a
 * syntax error would quote what pravo read.
 */
function readSource(root: string, name: string): Uint8Array | Diagnostic {
  const refuse = (why: string, todo: string) =>
    error(`Cannot read ${name}: ${why}`, todo, { range: pos(name, 1, 1) });
  let real: string;
  try {
    real = realInsideRoot(root, name);
  } catch (e) {
    if (!(e instanceof ConfinementError)) throw e;
    return refuse(
      e.message,
      "pravo reads the specification from the root's own files. Replace the symbolic link by the file itself, or remove it.",
    );
  }
  try {
    return readRegular(real, { maxBytes: MAX_SOURCE_BYTES });
  } catch (e) {
    if (!(e instanceof FileRefusal)) throw e;
    return refuse(
      e.message,
      "A .cue file of the root is a plain text file: replace it by one, or remove it.",
    );
  }
}

/** The diagnostic for a .cue file that is not UTF-8. */
function notUtf8(name: string, bad: BadByte): Diagnostic {
  return error(
    "File is not UTF-8",
    `${name} holds the byte ${bad.byte} at line ${bad.line}, column ${bad.column}, which is not ` +
      "UTF-8: CUE source is UTF-8 text, and pravo does not guess another encoding. Save the " +
      "file as UTF-8, or write the character as an escape such as \\u00e9.",
    { range: pos(name, bad.line, bad.column) },
  );
}

/**
 * Checks sources given as text: the root's files as read, or as a saved plan
 * holds them.
 */
export function parseSources(
  root: string,
  all: { name: string; src: string }[],
): Result<Sources> {
  const diags: Diagnostic[] = [];
  // The root's own files; the module's declaration and packages (modules.ts).
  const given = all.filter((f) => !f.name.includes("/"));
  const moduleFile = all.find((f) => f.name === MODULE_FILE);
  let modulePath: string | undefined;
  if (moduleFile) {
    const declared = readModuleFile(moduleFile.src);
    if ("path" in declared) modulePath = declared.path;
    else diags.push(declared);
  }
  const top = newTopScope();
  const files: Sources["files"] = [];
  const parse = (name: string, src: string, scope: ReturnType<typeof newTopScope>) => {
    try {
      declareImports(scope, name, src, modulePath);
      return parseFile(name, src, scope);
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      diags.push(
        error("Syntax error", `${e.message}. Correct the syntax at this place.`, {
          range: pos(e.file, e.line, e.column),
        }),
      );
      return undefined;
    }
  };
  for (const { name, src } of given) {
    const parsed = parse(name, src, top);
    if (parsed) files.push({ name, src, parsed });
  }
  const packages: ModulePackage[] = [];
  if (modulePath) {
    const byDir = new Map<string, { name: string; src: string }[]>();
    for (const f of all) {
      if (!f.name.includes("/") || f.name === MODULE_FILE) continue;
      const dir = f.name.slice(0, f.name.lastIndexOf("/"));
      byDir.set(dir, [...(byDir.get(dir) ?? []), f]);
    }
    for (const [dir, fs] of [...byDir].sort()) {
      const path = packagePathOf(modulePath, dir);
      // One scope a package; its declarations lie under the package's label.
      const scope = { ...newTopScope(), path: [packageLabel(path)] };
      const pkg: ModulePackage = { path, dir, files: [] };
      for (const { name, src } of fs) {
        const parsed = parse(name, src, scope);
        if (parsed) pkg.files.push({ name, src, parsed });
      }
      const names = new Set(pkg.files.map((f) => f.parsed.packageName));
      if (names.size > 1) {
        diags.push(
          error(
            `The files of ${dir} are of several packages`,
            `A directory of the module holds one package; ${dir} has files of packages ${
              [...names].join(", ")
            }. Give them one package clause.`,
            { range: pos(pkg.files[0].name, pkg.files[0].parsed.packageLine ?? 1, 1) },
          ),
        );
      }
      packages.push(pkg);
    }
  }
  if (diags.length) return { ok: false, diagnostics: diags };

  // One package: the first file's name, unless most files agree on another.
  const counts = new Map<string, number>();
  for (const f of files) {
    if (f.parsed.packageName) {
      counts.set(f.parsed.packageName, (counts.get(f.parsed.packageName) ?? 0) + 1);
    }
  }
  const packageName = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  for (const f of files) {
    if (!f.parsed.packageName) {
      diags.push(
        error(
          "File without a package clause",
          `${f.name} does not say which package it belongs to. Add "package ${
            packageName ?? "main"
          }" as its first line.`,
          { range: pos(f.name, 1, 1) },
        ),
      );
    } else if (packageName && f.parsed.packageName !== packageName) {
      diags.push(
        error(
          "File of another package",
          `${f.name} is in package "${f.parsed.packageName}", but the root's files are in package "${packageName}". A root holds one package: change its package clause to "package ${packageName}", or move the file out of the root.`,
          { range: pos(f.name, f.parsed.packageLine ?? 1, 1) },
        ),
      );
    }
  }

  // Imports: providers that pravo ships or that the root's lock pins, or
  // CUE's builtin packages; each used.
  const catalog = tryCatalogFor(root, pluginInputs(root));
  if (!catalog.catalog) return { ok: false, diagnostics: catalog.diagnostics };
  const providers = new Set<string>();
  const packagePaths = new Set(packages.map((p) => p.path));
  const listedDeps = dependencyVersions(moduleFile?.src ?? "");
  for (const f of [...files, ...packages.flatMap((p) => p.files)]) {
    for (const imp of f.parsed.imports) {
      const where = { range: pos(f.name, imp.line, imp.column) };
      const dir = modulePath ? packageDirectory(modulePath, imp.path) : undefined;
      if (dir !== undefined) {
        // A package of the root's own module, or of a dependency module
        // vendored in cue.mod/pkg (modules.ts).
        const bare = packagePathOf(modulePath!, dir);
        if (!packagePaths.has(bare)) {
          diags.push(
            error(
              "Unknown package",
              dir.startsWith(VENDOR_DIR + "/")
                ? dependencyOf(bare, listedDeps)
                  ? `"${imp.path}" is a package of the module ${
                    dependencyOf(bare, listedDeps)!.module
                  }, which cue.mod/module.cue's deps list but pravo.lock.json does not pin, and which is not vendored in ${VENDOR_DIR}. Run \`pravo init\` to fetch it from its registry ($CUE_REGISTRY) and pin it; or copy the module's files under ${VENDOR_DIR}/<module path>.`
                  : `"${imp.path}" is a package of another module, so it lives in the directory ${dir} of the root (CUE's vendored layout), which holds no .cue file. List its module in cue.mod/module.cue's deps and run \`pravo init\`, which fetches it from a registry ($CUE_REGISTRY) and pins it in pravo.lock.json; or copy the module's files there (its packages under ${VENDOR_DIR}/<module path>); or correct the import.`
                : `"${imp.path}" is a package of this module (${modulePath}), so it lives in the directory ${dir} of the root, which holds no .cue file. Write the package there, or correct the import.`,
              where,
            ),
          );
          continue;
        }
        const used = [...f.parsed.sites, ...f.parsed.lets].some((s) =>
          s.refs.some((r) =>
            r.name === imp.name
          )
        ) || f.parsed.topRefs.some((r) => r.name === imp.name);
        if (!used) {
          diags.push(
            error(
              `Import "${imp.path}" is not used`,
              `CUE refuses an import that nothing refers to. Use "${imp.name}" in ${f.name}, or remove the import.`,
              where,
            ),
          );
        }
        continue;
      }
      if (imp.path.startsWith(PROVIDER_PREFIX)) {
        const source = imp.path.slice(PROVIDER_PREFIX.length);
        if (!findProvider(source)) {
          const known = allProviders().map((p) => importPath(p.source));
          const hint = didYouMean(imp.path, known);
          diags.push(
            error(
              "Unknown provider",
              `No provider is imported as "${imp.path}"${hint ? ` (${hint})` : ""}. ${
                requiredNotLocked(root, source)
                  ? `pravo.jsonc requires ${source}, but pravo.lock.json does not pin it: run \`pravo init\` to install and pin it.`
                  : `The providers are: ${
                    known.join(", ")
                  }. Import one of them (run \`pravo providers\` for their types), or require a Terraform provider in pravo.jsonc ("providers") and run \`pravo init\`.`
              }`,
              where,
            ),
          );
          continue;
        }
        providers.add(source);
      } else if (!BUILTIN_PACKAGES.includes(imp.path)) {
        const hint = didYouMean(imp.path, BUILTIN_PACKAGES);
        diags.push(
          error(
            "Unknown import",
            `"${imp.path}" is neither one of CUE's builtin packages nor a pravo provider${
              hint ? ` (${hint})` : ""
            }${
              modulePath
                ? ` nor a package of this module (${modulePath})`
                : ", and the root is no CUE module (cue.mod/module.cue)"
            }. Import a builtin package (such as "strings"), a provider as "${PROVIDER_PREFIX}<namespace>/<name>", or a package of the root's module by its path.`,
            where,
          ),
        );
        continue;
      }
      const used = [...f.parsed.sites, ...f.parsed.lets].some((s) =>
        s.refs.some((r) =>
          r.name === imp.name && !resolve(r)
        )
      ) ||
        f.parsed.topRefs.some((r) => r.name === imp.name && !resolve(r));
      if (!used) {
        diags.push(
          error(
            `Import "${imp.path}" is not used`,
            `CUE refuses an import that nothing refers to. Use "${imp.name}" in ${f.name}, or remove the import.`,
            where,
          ),
        );
      }
    }
  }

  // Tags: @tag(name) and @tag(name,type=int|number|bool) on regular fields.
  const tags: TagDecl[] = [];
  for (const f of files) {
    for (const s of f.parsed.sites) {
      for (const a of s.attrs) {
        const m = /^@tag\((.*)\)$/s.exec(a.text);
        if (!m) continue;
        const args = m[1].split(",").map((x) => x.trim());
        const name = args[0];
        const where = { range: pos(f.name, a.line, a.column) };
        let type: TagDecl["type"] = "string";
        let bad = !/^[A-Za-z_][\w.-]*$/.test(name ?? "");
        for (const arg of args.slice(1)) {
          const t = /^type=(string|int|number|bool)$/.exec(arg);
          if (t) type = t[1] as TagDecl["type"];
          else if (!/^short=/.test(arg)) bad = true;
        }
        if (bad) {
          diags.push(
            error(
              "Malformed tag attribute",
              `${a.text} is not @tag(NAME) or @tag(NAME,type=int|number|bool). Write it in one of those forms.`,
              where,
            ),
          );
          continue;
        }
        if (s.nonRegular || !s.path) {
          diags.push(
            error(
              "Tag in an unsupported place",
              `@tag(${name}) is on a field inside a definition, hidden field, let or comprehension, which -t cannot reach. Put the tag on a regular field and refer to that field.`,
              where,
            ),
          );
          continue;
        }
        tags.push({ name, type, path: s.path, pos: where.range });
      }
    }
  }
  if (diags.length) return { ok: false, diagnostics: diags };

  const index: SourceIndex = { sites: new Map(), refs: new Map(), lets: new Map() };
  for (const f of [...files, ...packages.flatMap((p) => p.files)]) {
    for (const s of f.parsed.sites) {
      if (!s.path) continue;
      const k = pathKey(s.path);
      if (!index.sites.has(k)) index.sites.set(k, []);
      index.sites.get(k)!.push(s);
      for (const r of s.refs) {
        if (!index.refs.has(r.name)) index.refs.set(r.name, []);
        index.refs.get(r.name)!.push(pos(f.name, r.line, r.column));
      }
    }
    for (const l of f.parsed.lets) {
      index.lets.set(l.label, [...(index.lets.get(l.label) ?? []), pos(f.name, l.line, l.column)]);
    }
  }
  index.attributesOf = (path) => {
    const MODES: Record<string, Mode> = {
      "#Resource": "managed",
      "#Data": "data",
      "#Ephemeral": "ephemeral",
      "#Call": "call",
    };
    for (const site of index.sites.get(pathKey(path)) ?? []) {
      for (const r of site.refs) {
        const i = r.selectors.findIndex((x) => x in MODES);
        if (i < 0 || i + 1 >= r.selectors.length) continue;
        const typeName = r.selectors[i + 1];
        for (const p of allProviders()) {
          const t = findType(p.source, MODES[r.selectors[i]], typeName);
          if (t) {
            return {
              type: t.name,
              names: [...Object.keys(t.attributes), LIFECYCLE, DEPENDS_ON],
              attributes: t.attributes,
              mode: t.mode,
            };
          }
        }
      }
    }
    return undefined;
  };
  index.typesOf = (def) => {
    const mode = ({
      "#Resource": "managed",
      "#Data": "data",
      "#Ephemeral": "ephemeral",
      "#Call": "call",
    } as Record<string, Mode>)[def];
    return typeNamesOfMode(mode);
  };
  // Every file read counts: an edit to a package of the module is a change.
  const digest = sourcesDigest(all.length === given.length ? files : all);
  const words = new Set<string>();
  const collect = (toks: Token[]) => {
    for (const t of toks) {
      if (t.kind === "ident") words.add(t.text);
      if (t.interpolations) t.interpolations.forEach(collect);
    }
  };
  for (const f of [...files, ...packages.flatMap((p) => p.files)]) collect(f.parsed.tokens);
  return {
    ok: true,
    value: {
      root,
      packageName: packageName!,
      files,
      packages,
      modulePath,
      given: all,
      providers: [...providers].sort(),
      tags,
      index,
      digest,
      words,
    },
    diagnostics: [],
  };
}

/** True when pravo.jsonc requires this plugin source (`hashicorp/aws`) for the root. */
function requiredNotLocked(root: string, source: string): boolean {
  try {
    return (rootConfig(root).config.providers ?? []).some((p) =>
      `${p.address.namespace}/${p.address.type}` === source
    );
  } catch {
    return false;
  }
}

export interface EvaluateOptions {
  /** `-t KEY=VALUE` values. */
  tags?: Record<string, string>;
  /**
   * Values known from the state, by node address: computed attributes that
   * are unified in so that references to them are concrete.
   */
  known?: Map<string, Record<string, unknown>>;
  /**
   * Which of the `known` values are secrets: by node address, the paths in
   * the attributes given. When one holds a value, the configuration is
   * evaluated again with a stand-in for each, and what differs is marked
   * sensitive (`Node.sensitiveInputs`, `Spec.outputsSensitive`); no message
   * computed with a secret is returned.
   */
  secrets?: Map<string, AttrPath[]>;
  /**
   * What each node of `known` is (its provider, mode and type): a plugin
   * node's optional and computed attributes are unified in only where the
   * configuration does not set them.
   */
  knownKinds?: Map<string, { provider: string; mode: Mode; type: string }>;
  /**
   * Trace values known only after apply (a second evaluation), for plans and
   * for validate's provider checks (no stand-in taken for known). Default true.
   */
  trace?: boolean;
  /**
   * Evaluate with the secrets' real values: apply alone, where they enter
   * the provider calls (and `output --show-sensitive`, for an operator at a
   * terminal). Otherwise, as at plan time, a secret of `known` is unknown:
   * the evaluation is given two stand-ins of its type and format instead
   * ({@linkcode neutral}, {@linkcode alternate}), never its value, so that
   * nothing a plan shows (its shape, its failures, which nodes change) is
   * computed from a secret. An input computed from one is unknown in the
   * node's configuration ({@linkcode Node.secretForms} says what it is made
   * of). Default false.
   */
  reveal?: boolean;
}

/** Turns the `-t` values into CUE declarations; wrong names or types are diagnostics. */
function tagDeclarations(sources: Sources, given: Record<string, string>): Result<string[]> {
  const diags: Diagnostic[] = [];
  const out: string[] = [];
  const declared = new Set(sources.tags.map((t) => t.name));
  for (const [name, raw] of Object.entries(given)) {
    if (!declared.has(name)) {
      const hint = didYouMean(name, declared);
      diags.push(
        error(
          `No field declares the tag "${name}"`,
          `-t ${name}=${raw} names a tag that no field declares with @tag(${name})${
            hint ? ` (${hint})` : ""
          }. ${
            declared.size
              ? `The tags declared are: ${[...declared].sort().join(", ")}.`
              : "The root declares no tags."
          } Correct the name, or add @tag(${name}) to the field it should fill.`,
        ),
      );
      continue;
    }
    for (const t of sources.tags.filter((t) => t.name === name)) {
      let lit: string | undefined;
      if (t.type === "string") lit = JSON.stringify(raw);
      else if (t.type === "int" && /^[+-]?\d+$/.test(raw)) lit = String(BigInt(raw));
      else if (t.type === "number" && raw.trim() !== "" && Number.isFinite(Number(raw))) {
        lit = String(Number(raw));
      } else if (t.type === "bool" && (raw === "true" || raw === "false")) lit = raw;
      if (lit === undefined) {
        diags.push(
          error(
            `Tag "${name}" needs a value of type ${t.type}`,
            `-t ${name}=${raw} gives "${raw}", which is not ${
              t.type === "int" ? "an int" : `a ${t.type}`
            }. Pass a value such as ${
              { int: "3", number: "1.5", bool: "true", string: "x" }[t.type]
            }.`,
            { range: t.pos },
          ),
        );
        continue;
      }
      out.push(nested(t.path, lit));
    }
  }
  return diags.length
    ? { ok: false, diagnostics: diags }
    : { ok: true, value: out, diagnostics: [] };
}

/** `"a": "b": value` for a path. */
function nested(path: string[], lit: string): string {
  return path.map((l) => JSON.stringify(l)).join(": ") + ": " + lit;
}

function isObject(v: Value | undefined): v is { [k: string]: Value } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function hasUnknown(v: Value): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(hasUnknown);
  if (isObject(v)) return Object.values(v).some(hasUnknown);
  return false;
}

interface Found {
  nodes: { path: string[]; value: Record<string, Value> }[];
  providers: { path: string[]; value: Record<string, Value> }[];
  inLists: string[][];
}

function walk(v: Value, path: string[], found: Found, inList = false): void {
  if (Array.isArray(v)) {
    v.forEach((e, i) => walk(e, [...path, String(i)], found, true));
    return;
  }
  if (!isObject(v)) return;
  if (NODE_MARKER in v) {
    if (inList) found.inLists.push(path);
    else found.nodes.push({ path, value: v });
    return;
  }
  if (PROVIDER_MARKER in v) {
    found.providers.push({ path, value: v });
    return;
  }
  for (const [k, c] of Object.entries(v)) walk(c, [...path, k], found, inList);
}

/** The provider packages of a root's program. */
interface Packages {
  /** The package body of each provider source. */
  main: Map<string, string>;
  /** The `setness` variant of the plugin providers' bodies (plugin_cue.ts). */
  setness: Map<string, string>;
  /** The bodies without `null` on optional attributes: for precise messages. */
  strict: Map<string, string>;
  /** The bodies for the traced evaluation (provider_cue.ts `computedHolder`). */
  traced: Map<string, string>;
  /** Builtin packages the bodies use. */
  imports: string[];
  /** The plugin sources. */
  plugins: Set<string>;
  /** Whether the sources may use a type whose nodes' setness is asked (provider_cue.ts `tracksSetness`). */
  tracked: boolean;
}

/**
 * The packages of the providers the sources import: the built-in ones as
 * they ship, the plugin ones generated with the types the files may use
 * (their schemas fetched and cached first when they are not).
 */
async function providerPackages(sources: Sources): Promise<Result<Packages>> {
  const main = new Map<string, string>();
  const setness = new Map<string, string>();
  const strict = new Map<string, string>();
  const traced = new Map<string, string>();
  const plugins = new Set<string>();
  let usesList = false;
  let tracked = false;
  const catalog = tryCatalogFor(sources.root, pluginInputs(sources.root)).catalog;
  const pluginSources = sources.providers.filter((s) =>
    findProvider(s)?.plugin || !findProvider(s)
  );
  if (catalog && pluginSources.length) {
    const diags = await catalog.ensureSchemas(pluginSources);
    // Not the specification's fault: a provider that cannot give its schema.
    if (diags.some((d) => d.severity === "error")) throw new DiagnosticsError(diags, "error");
  }
  for (const s of sources.providers) {
    const p = findProvider(s);
    if (!p) {
      return {
        ok: false,
        diagnostics: [
          error(
            `The schema of ${s} is not at hand`,
            "pravo could not read it from its cache nor from the provider. Run `pravo init`, then try again.",
          ),
        ],
      };
    }
    if (!p.plugin) {
      main.set(s, providerPackage(p));
      setness.set(s, providerPackage(p, { setness: true }));
      tracked ||= p.types.some((t) => tracksSetness(t) && sources.words.has(t.name));
      strict.set(s, providerPackage(p, { strict: true }));
      traced.set(s, providerPackage(p, { traced: true }));
      continue;
    }
    plugins.add(s);
    tracked = true;
    const names = catalog?.typeNames(s) ?? { managed: [], data: [], ephemeral: [], call: [] };
    const types = usedTypes(sources.words, names).flatMap(({ mode, name }) => {
      const t = findType(s, mode, name);
      return t?.plugin ? [{ mode, name, block: t.plugin.block }] : [];
    });
    for (const variant of ["main", "setness"] as const) {
      const g = pluginPackage({ source: s, config: p.plugin.config, types, variant });
      usesList ||= g.usesList;
      (variant === "main" ? main : setness).set(s, g.body);
    }
    strict.set(
      s,
      pluginPackage({ source: s, config: p.plugin.config, types, variant: "main", strict: true })
        .body,
    );
    traced.set(
      s,
      pluginPackage({ source: s, config: p.plugin.config, types, variant: "main", traced: true })
        .body,
    );
  }
  return {
    ok: true,
    value: { main, setness, strict, traced, imports: usesList ? ["list"] : [], plugins, tracked },
    diagnostics: [],
  };
}

/**
 * The paths where the sources declare nodes: fields whose value refers to a
 * provider's `#Resource`, `#Data` or `#Ephemeral` type. Nodes made by
 * comprehensions are not among them.
 */
function staticNodePaths(sources: Sources): string[] {
  const out = new Set<string>();
  for (const f of sources.files) {
    for (const s of f.parsed.sites) {
      if (!s.path || s.nonRegular) continue;
      if (
        s.refs.some((r) => {
          const i = r.selectors.findIndex((x) =>
            x === "#Resource" || x === "#Data" || x === "#Ephemeral"
          );
          return i >= 0 && i + 1 < r.selectors.length;
        })
      ) out.add(formatPath(s.path));
    }
  }
  return [...out];
}

const settled = new Map<string, Map<string, Set<string>>>();

/**
 * Which fields the configuration sets in each of these nodes (addresses):
 * one evaluation of the `setness` variant of the plugin packages, which
 * lists each node's regular fields. Remembered per sources, declarations
 * and addresses. A node that is none is left out. When the evaluation
 * fails at one node's list (its value reads an optional and computed
 * attribute of another node that is not pinned yet, say), that node is left
 * out and the others are evaluated again, so that one node that cannot be
 * told yet does not hide the rest (the loader asks again for it, with the
 * values it has pinned by then).
 */
async function setnessOf(
  sources: Sources,
  decls: string[],
  packages: Packages,
  addresses: string[],
): Promise<Map<string, Set<string>>> {
  const key = JSON.stringify([sources.digest, decls, addresses.sort()]);
  const memo = settled.get(key);
  if (memo) return memo;
  const out = new Map<string, Set<string>>();
  const bodies = new Map(packages.main);
  for (const [s, b] of packages.setness) bodies.set(s, b);
  const cache = rootCache(sources.root);
  let asked = [...addresses];
  while (asked.length) {
    const projection = `"@setness": {\n${
      asked.map((a, i) =>
        `\t"${i}": *${formatPath([HIDDEN_WRAP, ...addressPath(a)])}.${
          JSON.stringify(SET_MARKER)
        } | null`
      ).join("\n")
    }\n}`;
    const res = await evaluate(
      buildProgram({
        files: sources.files.map((f) => ({ parsed: f.parsed, src: f.src })),
        ...modulePackages(sources),
        providers: bodies,
        imports: packages.imports,
        extra: decls,
        projection,
      }).source,
      { cacheDir: cache?.dir, cacheKey: cache?.key },
    );
    if (res.ok) {
      const got = (JSON.parse(res.json) as { "@setness"?: Record<string, unknown> })["@setness"] ??
        {};
      asked.forEach((a, i) => {
        const v = got[String(i)];
        if (Array.isArray(v)) out.set(a, new Set(v.map(String)));
      });
      break;
    }
    const failed = /"@setness"\."(\d+)"/.exec(res.message)?.[1];
    if (failed === undefined || Number(failed) >= asked.length) break;
    asked = asked.filter((_, i) => i !== Number(failed));
  }
  settled.set(key, out);
  return out;
}

/** The module's packages and path, as buildProgram takes them. */
function modulePackages(sources: Sources): Pick<ProgramInput, "packages" | "modulePath"> {
  if (!sources.modulePath) return {};
  return {
    modulePath: sources.modulePath,
    packages: sources.packages.map((p) => ({
      path: p.path,
      files: p.files.map((f) => ({ parsed: f.parsed, src: f.src })),
    })),
  };
}

/** A value from the state as CUE sees it: a dynamic value's own value, not its `{value, type}` form. */
function cueView(v: unknown, a: TypeSchema["attributes"][string] | undefined): unknown {
  if (ctyOf(a) === "dynamic" && v && typeof v === "object" && "value" in v) {
    return (v as { value: unknown }).value;
  }
  return v;
}

/**
 * The provider instance a node's type comes from, as the sources say it:
 * `b: $aws2.#Resource.aws_s3_bucket & {...}` comes from `$aws2`.
 */
function instanceOf(sources: Sources, path: string[]): string[] | undefined {
  for (const site of sources.index.sites.get(pathKey(path)) ?? []) {
    for (const r of site.refs) {
      const i = r.selectors.findIndex((x) =>
        x === "#Resource" || x === "#Data" || x === "#Ephemeral" || x === "#Call"
      );
      if (i < 0) continue;
      for (const d of resolve(r) ?? []) {
        if (d.path) return [...d.path, ...r.selectors.slice(0, i)];
      }
    }
  }
  return undefined;
}

/** Evaluates the sources with cue-wasm and returns the nodes. */
export async function evaluateRoot(
  sources: Sources,
  opts: EvaluateOptions = {},
): Promise<Result<Spec>> {
  const tagged = tagDeclarations(sources, opts.tags ?? {});
  if (!tagged.ok) return tagged;
  const known = opts.known ?? new Map();
  const secrets = opts.secrets ?? new Map<string, AttrPath[]>();
  const packages = await providerPackages(sources);
  if (!packages.ok) return packages;
  const { main: providerBodies, imports } = packages.value;
  const files = sources.files.map((f) => ({ parsed: f.parsed, src: f.src }));
  const index: SourceIndex = { ...sources.index };
  const cache = rootCache(sources.root);
  const trace = opts.trace !== false;
  // Which optional and computed attributes of plugin nodes the configuration
  // sets (see plugin_cue.ts): those it leaves unset take their value from
  // the state, or are unknown until apply.
  const setness = new Map<string, Set<string>>();
  const pluginKinds = new Map<string, TypeSchema>();
  /** The type of each node of `known`, when `knownKinds` says it. */
  const knownTypes = new Map<string, TypeSchema>();
  for (const [a, k] of opts.knownKinds ?? []) {
    const t = findType(k.provider, k.mode, k.type);
    if (t) knownTypes.set(a, t);
    if (t && tracksSetness(t)) pluginKinds.set(a, t);
  }
  /** The type of a node of `known`: its kind's, else the one the sources declare it with. */
  const typeOfKnown = (address: string, path: string[]) =>
    knownTypes.get(address)?.attributes ?? index.attributesOf?.(path)?.attributes;
  /** Declarations of the "unknown" default for the computed-only attributes not in `given`. */
  const completion = (address: string, given: readonly string[]): string[] => {
    const path = addressPath(address);
    const attrs = typeOfKnown(address, path);
    if (!attrs) return [];
    const computedOnly = Object.entries(attrs).filter(([, a]) => !a.required && !a.optional);
    if (!computedOnly.some(([k]) => given.includes(k))) return [];
    return computedOnly.filter(([k]) => !given.includes(k)).map(([k, a]) => {
      const cty = ctyOf(a);
      return computedValue(
        nested(path, ""),
        k,
        cty !== undefined ? ctyDefault(cty) : unknownDefault(a.type),
      );
    });
  };
  /** A declaration of a known value: a computed-only attribute's goes into its holder. */
  const knownValue = (address: string, path: string[], k: string, cue: string): string => {
    // Without its kind, the type the sources declare the node with.
    const a = typeOfKnown(address, path)?.[k];
    return a && !a.required && !a.optional
      ? computedValue(nested(path, ""), k, cue)
      : nested([...path, k], cue);
  };
  if (packages.value.tracked && (trace || pluginKinds.size)) {
    const candidates = new Set([...staticNodePaths(sources), ...pluginKinds.keys()]);
    for (
      const [a, set] of await setnessOf(sources, tagged.value, packages.value, [...candidates])
    ) {
      setness.set(a, set);
    }
  }
  /** Whether a known value of a node's attribute is unified in: not where the configuration sets it. */
  const injected = (address: string, name: string): boolean => {
    const t = pluginKinds.get(address);
    const a = t?.attributes[name];
    if (!t || !a) return true;
    if (!a.required && !a.optional) return true;
    if (!isTracked(t, a)) return false;
    const set = setness.get(address);
    return set !== undefined && !set.has(name);
  };
  /**
   * The known values as declarations, each secret replaced by `f` of it when
   * given. With `complete`, a node given some of its computed-only values
   * gets the "unknown" default for the others: its holder's second struct
   * has no defaults of its own (provider_cue.ts). The traced evaluation puts
   * sentinels in those instead.
   */
  const knownDeclarations = (f?: (v: unknown) => unknown, complete = true): string[] => {
    const out: string[] = [];
    for (const [address, attrs] of known) {
      if (complete) out.push(...completion(address, Object.keys(attrs)));
      const paths = secrets.get(address) ?? [];
      const given = f && paths.length ? replaceAt(attrs, paths, f) : attrs;
      const path = addressPath(address);
      const t = pluginKinds.get(address);
      for (const [k, v] of Object.entries(given)) {
        if (t) {
          if (!injected(address, k)) continue;
          const a = t.attributes[k];
          // An optional and computed attribute admits no null: a null stays unknown.
          if (v === null && a && (a.required || a.optional)) continue;
          out.push(knownValue(address, path, k, JSON.stringify(cueView(v, a))));
          continue;
        }
        out.push(knownValue(address, path, k, JSON.stringify(v)));
      }
    }
    return out;
  };
  const reveal = opts.reveal === true;
  /** How a secret of `known` is given: as itself at apply; at plan time, as a neutral stand-in. */
  const given = reveal ? undefined : neutral;
  const knownDecls = knownDeclarations(given);
  /**
   * What an evaluation of which fields nodes set is given: the known values
   * with each secret replaced by a neutral value (which fields a node writes
   * is not to depend on what a secret holds), and the values pinned so far.
   */
  let neutralDecls: string[] | undefined;
  const setnessDecls = () => [
    ...tagged.value,
    ...(neutralDecls ??= knownDeclarations(neutral)),
    ...pins,
    ...defaultPins,
  ];
  /** Asks which fields these nodes set, with the values known and pinned so far. */
  const learnSetness = async (addresses: string[]) => {
    for (const [a, set] of await setnessOf(sources, setnessDecls(), packages.value, addresses)) {
      setness.set(a, set);
    }
  };
  /** The type of a node whose setness is asked, from its kind or from where the sources declare it. */
  const trackedTypeAt = (address: string, path: string[]): TypeSchema | undefined => {
    const t = pluginKinds.get(address);
    if (t) return t;
    const declared = index.attributesOf?.(path);
    // Of the mode it is declared with: a data source's type often shares its
    // name with a resource's (aws_vpc, aws_ami), whose attributes differ.
    return declared
      ? findTypes(declared.type).find((x) =>
        tracksSetness(x.type) && (declared.mode === undefined || x.type.mode === declared.mode)
      )?.type
      : undefined;
  };
  /**
   * The "unknown" default of each optional and computed attribute of a
   * node that the configuration leaves unset and the state does not give
   * (provider_cue.ts `isTracked`): the node's own value, so that references
   * to it evaluate. The traced evaluation puts sentinels there instead.
   */
  const defaultPins: string[] = [];
  const pinDefault = (path: string[], name: string, t: TypeSchema): string => {
    const a = t.attributes[name];
    const cty = ctyOf(a);
    return nested([...path, name], cty !== undefined ? ctyDefault(cty) : unknownDefault(a.type));
  };
  for (const [address, set] of setness) {
    const path = addressPath(address);
    const t = trackedTypeAt(address, path);
    if (!t) continue;
    for (const [name, a] of Object.entries(t.attributes)) {
      if (!isTracked(t, a) || a.required || set.has(name)) continue;
      const v = known.get(address)?.[name];
      if (v !== undefined && v !== null && injected(address, name)) continue;
      defaultPins.push(pinDefault(path, name, t));
    }
  }
  const knownSecrets = [...known].some(([a, attrs]) => holdsSecret(attrs, secrets.get(a) ?? []));
  /** Defaults put in where a reference reads an unset attribute (see below). */
  const pins: string[] = [];
  /**
   * An evaluation; `defaults`: with the "unknown" defaults of plugin nodes
   * and the packages' defaults of computed values; without, the traced
   * evaluation's, which gives every one of them.
   */
  const evaluateWith = (extra: string[], bodies: Map<string, string>, withPins: boolean) =>
    evaluate(
      buildProgram({
        files,
        ...modulePackages(sources),
        providers: bodies,
        imports,
        extra: [...tagged.value, ...pins, ...(withPins ? defaultPins : []), ...extra],
      }).source,
      { cacheDir: cache?.dir, cacheKey: cache?.key },
    );
  const run = async (extra: string[], defaults = true): Promise<EvalResult> => {
    if (defaults) return await evaluateWith(extra, providerBodies, true);
    // A node the other evaluation did not have (its existence depends on a
    // sentinel or a stand-in) has no value to give: the packages' defaults then.
    const r = await evaluateWith(extra, packages.value.traced, false);
    return r.ok ? r : await evaluateWith(extra, providerBodies, false);
  };
  // Messages come from an evaluation without the secrets: with neutral
  // values in their place (see secrets.ts), made when first needed.
  let neutralRun: Promise<EvalResult> | undefined;
  const neutralEvaluation = () => neutralRun ??= run(knownDeclarations(neutral));

  /**
   * CUE's message for a value that an optional attribute's `T | null`
   * refuses is "N errors in empty disjunction": the same evaluation without
   * `null` says what is wrong (`keepers.a: conflicting values 1 and
   * string`), when it fails at that place.
   */
  const sharpened = async (message: string): Promise<string> => {
    const m = /^(?:cue: marshal error: )?(\S+): \d+ errors in empty disjunction/.exec(message);
    if (!m) return message;
    const strict = await evaluateWith(knownDecls, packages.value.strict, true);
    if (strict.ok) return message;
    const at = /^(?:cue: marshal error: )?(\S+):/.exec(strict.message)?.[1];
    return at && (at === m[1] || at.startsWith(m[1] + ".")) ? strict.message : message;
  };
  let res = await run(knownDecls);
  // A reference to an attribute left unset whose default is the provider's
  // (`two: {length: pet.length}`): the default is put in where it is read,
  // as the node's own value, and the evaluation runs again.
  // Likewise an optional and computed attribute of a plugin node that the
  // sources declare where the setness evaluation did not look (made by a
  // comprehension): it gets the "unknown" default, or the state's value.
  let aliasing: Deps | undefined;
  for (let i = 0; !res.ok && i < 50; i++) {
    const pin = unsetDefault(res.message, index)?.pin;
    if (pin && !pins.includes(pin)) {
      pins.push(pin);
    } else {
      const reads = optionalReads(res.message, aliasing ??= new Deps(sources, []));
      // Which of them the configuration sets: only an unset one gets a value.
      const unknownSetness = reads.map((r) => formatPath(r.node)).filter((a) => !setness.has(a));
      if (unknownSetness.length) await learnSetness(unknownSetness);
      const read = reads.find((r) => setness.get(formatPath(r.node))?.has(r.name) === false);
      if (!read) break;
      const address = formatPath(read.node);
      // A secret is not put in as it is (the evaluations with stand-ins
      // would not see it): it stays unknown here.
      const secret = read.type.attributes[read.name]?.sensitive ||
        (secrets.get(address) ?? []).some((p) => p.length === 1 && String(p[0]) === read.name);
      const v = secret ? undefined : known.get(address)?.[read.name];
      const decl = v !== undefined && v !== null
        ? nested(
          [...read.node, read.name],
          JSON.stringify(cueView(v, read.type.attributes[read.name])),
        )
        : pinDefault(read.node, read.name, read.type);
      if (defaultPins.includes(decl) || pins.includes(decl)) break;
      (v !== undefined && v !== null ? pins : defaultPins).push(decl);
    }
    res = await run(knownDecls);
  }
  if (!res.ok) {
    // A field that names itself fails whatever CUE says about it: say so.
    const traps = selfReferences(sources.files.map((f) => f.parsed));
    if (traps.length) return { ok: false, diagnostics: traps };
    const computed = computedSet(res.message, index) ??
      unsetDefault(res.message, index)?.diagnostic;
    if (computed) return { ok: false, diagnostics: [computed] };
    if (knownSecrets && !reveal) {
      // The neutral stand-in fails where the other would not: what the
      // configuration requires of a secret, which cannot be checked before apply.
      const other = await run(knownDeclarations(alternate));
      if (other.ok) return { ok: false, diagnostics: [failsForStandIn(res.message, index)] };
    }
    if (!reveal) {
      // A function of a value known only after apply, which fails on the
      // value that stands for it at plan time (`json.Unmarshal(q.policy)`).
      const at = await sharpened(res.message);
      // CUE's word on a failed call is in the evaluation without `null`.
      const strict = /errors in empty disjunction/.test(at)
        ? await evaluateWith(knownDecls, packages.value.strict, true)
        : undefined;
      const said = strict && !strict.ok && /error in call to /.test(strict.message)
        ? strict.message
        : at;
      const fn = functionOfUnknown(at, said, aliasing ??= new Deps(sources, []), index, sources, {
        known,
        setness,
      });
      if (fn) return { ok: false, diagnostics: [fn] };
    }
    if (!knownSecrets || !reveal) {
      // At plan time no secret is in it: the message quotes none.
      const message = await sharpened(res.message);
      return { ok: false, diagnostics: [incompleteOrError(message, sources, index)] };
    }
    const n = await neutralEvaluation();
    return {
      ok: false,
      diagnostics: [
        n.ok ? failsForSecret(res.message, index) : incompleteOrError(n.message, sources, index),
      ],
    };
  }
  const tree = (JSON.parse(res.json) as Record<string, Record<string, Value>>)[WRAP] ?? {};
  const found: Found = { nodes: [], providers: [], inLists: [] };
  walk(tree, [], found);
  const diags: Diagnostic[] = [];
  for (const p of found.inLists) {
    diags.push(
      error(
        "Node inside a list",
        `${
          formatPath(p)
        } is a node inside a list, which has no stable address. Put nodes in structs, keyed by name.`,
        { range: locate(index, p)?.pos },
      ),
    );
  }

  const schemaOf = (v: Record<string, Value>) => {
    const m = v[NODE_MARKER] as { mode: Mode; type: string; provider: string };
    const provider = findProvider(m.provider)!;
    const type = findType(m.provider, m.mode, m.type)!;
    return { m, provider, type };
  };
  // Nodes whose setness is asked (plugin ones, time_rotating) that the sources do not declare where the setness
  // evaluation looked (made by a definition instantiated with inputs, or
  // by a comprehension), on their first plan: which attributes their
  // configuration sets, now that their addresses are known. Without it a
  // value equal to the "unknown" default (`false`) passed in through a
  // definition would be taken for unset.
  if (packages.value.tracked) {
    const pluginMore = found.nodes
      .filter((n) => tracksSetness(schemaOf(n.value).type))
      .map((n) => formatPath(n.path))
      .filter((a) => !setness.has(a));
    if (pluginMore.length) await learnSetness(pluginMore);
  }
  /** Whether a plugin node's optional and computed attribute is set by the configuration. */
  const isSet = (address: string, name: string, v: Value | undefined, t: TypeSchema): boolean => {
    const set = setness.get(address);
    if (set) return set.has(name);
    // Not known (the node was not found where the sources declare nodes):
    // set unless it holds the default that stands for unknown.
    const a = t.attributes[name];
    const cty = ctyOf(a);
    return v !== undefined &&
      !(cty !== undefined ? isCtyDefault(v, cty) : isUnknownDefault(v, a.type));
  };

  // Where computed values are not known yet, evaluate again with a distinct
  // sentinel in each: what differs depends on them (see unknowns.ts).
  const sentinels: SentinelRef[] = [];
  /** The sentinels of the evaluation with secrets replaced: sensitive ones differ. */
  const standInHolders: string[] = [];
  /** Nodes with a sensitive attribute known only after apply. */
  const unknownSecrets = new Set<string>();
  let traced: Record<string, Value> | undefined;

  if (trace && hasUnknownDefault(tree)) {
    const holders: string[] = [];
    for (const n of found.nodes) {
      const { type } = schemaOf(n.value);
      const addr = formatPath(n.path);
      for (const [name, a] of Object.entries(type.attributes)) {
        if (type.plugin || isTracked(type, a)) {
          // Computed, and not set by the configuration: unknown until apply.
          if (!a.computed) continue;
          if ((a.required || a.optional) && isSet(addr, name, n.value[name], type)) continue;
          const kv = known.get(addr)?.[name];
          if (kv !== undefined && kv !== null && injected(addr, name)) continue;
        } else {
          if (a.required || a.optional) continue;
          if (known.get(addr)?.[name] !== undefined) continue;
        }
        const cty = ctyOf(a);
        const sentinel = cty !== undefined
          ? ctySentinel(cty, sentinels.length)
          : sentinelFor(a.type, sentinels.length);
        // A computed-only attribute's value goes into its holder (provider_cue.ts).
        const put = (cue: string) =>
          a.required || a.optional
            ? nested([...n.path, name], cue)
            : computedValue(nested(n.path, ""), name, cue);
        holders.push(put(sentinel));
        standInHolders.push(
          put(a.sensitive ? JSON.stringify(standIn(JSON.parse(sentinel))) : sentinel),
        );
        if (a.sensitive) unknownSecrets.add(addr);
        sentinels.push({ address: addr, attr: name });
      }
    }
    const resU = await run([...knownDeclarations(given, false), ...holders], false);
    if (resU.ok) traced = (JSON.parse(resU.json) as Record<string, Record<string, Value>>)[WRAP];
  }

  // Where a secret is in play, evaluate again with a stand-in for each: what
  // differs from the evaluation it mirrors depends on a secret.
  let dependence: SecretDependence | undefined;
  // At plan time the other is a second stand-in of the secrets' types and
  // formats, made as independently of them as the first.
  let resS: EvalResult | undefined;
  let stood: Record<string, Value> | undefined;
  if (trace && (knownSecrets || (traced && unknownSecrets.size))) {
    resS = await run(
      [
        ...knownDeclarations(reveal ? standIn : alternate, !traced),
        ...(traced ? standInHolders : []),
      ],
      !traced,
    );
    if (!resS.ok && !reveal) {
      return { ok: false, diagnostics: [failsForStandIn(resS.message, index)] };
    }
    if (!resS.ok) {
      // As when the real values fail: which of the two fails depends on the
      // secret, so the answer must not tell them apart.
      const n = await neutralEvaluation();
      return {
        ok: false,
        diagnostics: [
          n.ok ? failsForSecret(resS.message, index) : incompleteOrError(n.message, sources, index),
        ],
      };
    }
    stood = (JSON.parse(resS.json) as Record<string, Record<string, Value>>)[WRAP] ?? {};
    dependence = secretDependence(traced ?? tree, stood, index);
  }
  const at = (v: Value | undefined, path: string[]): Value | undefined => {
    for (const k of path) v = isObject(v) ? v[k] : undefined;
    return v;
  };

  /**
   * The package whose file declares a node's type (through the aliases of
   * definitions): the root's files, a package of the module, or one of a
   * vendored dependency module with the version module.cue gives it.
   */
  const depVersions = dependencyVersions(
    sources.given.find((f) => f.name === MODULE_FILE)?.src ?? "",
  );
  let originDeps: Deps | undefined;
  let locked: [string, LockedModule][] | undefined;
  const lockedModules = () => {
    if (locked) return locked;
    try {
      locked = Object.entries(rootLockFile(sources.root)?.modules ?? {});
    } catch {
      locked = []; // a malformed lock was refused when the sources were read
    }
    return locked;
  };
  const originOf = (path: string[]): NodeOrigin | undefined => {
    originDeps ??= new Deps(sources, []);
    const file = originDeps.sitesFor(path).find(({ site }) =>
      site.refs.some((r) => r.selectors.some((x) => x in TYPE_MODES))
    )?.site.file;
    if (!sources.modulePath) return undefined; // the root's files, and nothing else
    // Not found: said as unknown, which no policy's allowed origin matches.
    if (file === undefined) return { package: "", module: "" };
    const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : undefined;
    if (dir === undefined) return { package: sources.modulePath, module: sources.modulePath };
    const pkg = packagePathOf(sources.modulePath, dir);
    if (!dir.startsWith(VENDOR_DIR + "/")) return { package: pkg, module: sources.modulePath };
    const dep = dependencyOf(pkg, depVersions);
    if (!dep) return { package: pkg };
    // Fetched from a registry, and checked against the lock's digest when read.
    const pin = lockedModules().find(([k]) => k.replace(/@v\d+$/, "") === dep.module)?.[1];
    return pin
      ? { package: pkg, module: dep.module, version: pin.version, digest: pin.digest }
      : { package: pkg, module: dep.module, version: dep.version };
  };
  const nodes: Node[] = [];
  for (const n of found.nodes) {
    const { m, provider, type } = schemaOf(n.value);
    const address = formatPath(n.path);
    const range = locate(index, n.path)?.pos;
    const u = traced ? at(traced, n.path) : undefined;
    const config: Record<string, Value> = {};
    const nodeTemplates: Record<string, unknown> = {};
    const needsEvaluation: string[] = [];
    for (const [k, v] of Object.entries(n.value)) {
      if (k === NODE_MARKER || k === LIFECYCLE) continue;
      if (k === DEPENDS_ON) {
        diags.push(...dependsOnErrors(v, address, locate(index, [...n.path, k])?.pos ?? range));
        continue;
      }
      // null is unset, as in Terraform: the attribute's default, or no value.
      const na = type.attributes[k];
      if (v === null && na && !na.required && (na.optional || !type.plugin)) {
        if (na.optional && na.default !== undefined) config[k] = na.default as Value;
        continue;
      }
      // An optional and computed attribute that the configuration leaves
      // unset is no input: the provider computes it.
      if (na && isTracked(type, na) && !isSet(address, k, v, type)) continue;
      const uv = isObject(u) ? u[k] : undefined;
      const marked = markUnknown(v, traced ? uv : undefined);
      config[k] = marked;
      const a = type.attributes[k];
      if (!a || !(a.required || a.optional) || !hasUnknown(marked)) continue;
      if (traced && explains(marked, uv, sentinels, v)) nodeTemplates[k] = uv;
      else needsEvaluation.push(k);
    }
    // A built-in attribute's default, where the configuration leaves it
    // unset (provider_cue.ts: not a CUE default, which a module's own would
    // conflict with).
    if (!type.plugin) {
      for (const [name, a] of Object.entries(type.attributes)) {
        if (a.optional && a.default !== undefined && !(name in config)) {
          config[name] = a.default as Value;
        }
      }
    }
    for (const [name, a] of Object.entries(type.attributes)) {
      const v = n.value[name];
      if (a.required || a.optional || v === undefined) continue;
      if (known.get(address)?.[name] !== undefined) continue;
      const cty = ctyOf(a);
      if (cty !== undefined ? v === null || isCtyDefault(v, cty) : isUnknownDefault(v, a.type)) {
        continue;
      }
      diags.push(
        error(
          `Computed attribute "${name}" is set`,
          `${type.name}.${name} is computed by the provider and cannot be set in the configuration. Remove it from ${address}.`,
          { address, range: locate(index, [...n.path, name])?.pos ?? range },
        ),
      );
    }
    const instancePath = instanceOf(sources, n.path);
    const instance = (instancePath
      ? found.providers.find((p) =>
        p.value[PROVIDER_MARKER] === provider.source && pathKey(p.path) === pathKey(instancePath)
      )
      : undefined) ??
      found.providers.find((p) =>
        p.value[PROVIDER_MARKER] === provider.source
      );
    nodes.push({
      address,
      path: n.path,
      secretForms: {},
      templates: nodeTemplates,
      needsEvaluation,
      sensitiveInputs: [...(dependence?.attributes.get(address) ?? [])].filter((k) => {
        const a = type.attributes[k];
        return a !== undefined && (a.required || a.optional);
      }).sort(),
      mode: m.mode,
      type: type.name,
      name: n.path[n.path.length - 1],
      provider: provider.source,
      providerInstance: instance ? formatPath(instance.path) : undefined,
      config,
      lifecycle: (n.value[LIFECYCLE] as LifecycleSettings | undefined) ?? {},
      dependencies: [],
      range,
      attributeRanges: Object.fromEntries(
        Object.keys(config).flatMap((k) => {
          const loc = locate(index, [...n.path, k]);
          return loc?.exact ? [[k, loc.pos]] : [];
        }),
      ),
      schema: type,
      origin: originOf(n.path),
    });
  }

  // Dependencies, from the references in the sources.
  const byAddress = new Map(nodes.map((n) => [n.address, n]));
  const deps = dependencies(sources, nodes);
  for (const n of nodes) {
    n.dependencies = [...(deps.get(n.address) ?? [])].filter((d) => byAddress.has(d)).sort();
    // A template waits only for the nodes it depends on: one whose sentinel
    // came through another node's input (`pw.length - 10`, where pw's
    // length is size.result) is evaluated again at apply instead, once the
    // node it depends on is applied.
    const own = new Set(n.dependencies);
    for (const [k, t] of Object.entries(n.templates)) {
      if (sentinelRefs(t, sentinels).every((r) => own.has(r.address))) continue;
      delete n.templates[k];
      n.needsEvaluation.push(k);
    }
  }
  for (const n of nodes) {
    if (n.mode === "ephemeral") continue;
    for (const d of n.dependencies) {
      const dep = byAddress.get(d)!;
      if (dep.mode !== "ephemeral") continue;
      diags.push(
        error(
          "Ephemeral value would be stored",
          `${n.address} refers to ${d}, an ephemeral ${dep.type} whose values are opened for one run and never stored; ${
            n.mode === "managed" ? "a resource's attributes are" : "a data source's attributes are"
          } kept in the state. Remove the reference, or use a managed ${dep.type} if the value must persist.`,
          { address: n.address, range: n.range },
        ),
      );
    }
  }
  // What the references say is computed from a secret, whatever its value
  // (taint.ts); the evaluation with stand-ins added what it found above.
  const tainted = taint({
    files: [...sources.files, ...sources.packages.flatMap((p) => p.files)].map((f) => f.parsed),
    nodes,
    secretAttrs: new Map(
      [...secrets].map(([a, paths]) => [a, new Set(paths.map((p) => String(p[0])))]),
    ),
  });
  // Structure decided by a secret: as the references say it, else as the
  // evaluations differ.
  diags.push(...(tainted.diagnostics.length ? tainted.diagnostics : dependence?.diagnostics ?? []));
  if (diags.length) return { ok: false, diagnostics: diags };
  // Structure decided by a value known only after apply, as the references
  // say it: a comprehension or a dynamic label that refers to one, outside
  // the value of an attribute or an output (`if base.result > 5 {extra:
  // ...}`), whatever the values that stand for it give.
  if (trace && sentinels.length) {
    const unknownAttrs = new Map<string, Set<string>>();
    for (const s of sentinels) {
      if (!unknownAttrs.has(s.address)) unknownAttrs.set(s.address, new Set());
      unknownAttrs.get(s.address)!.add(s.attr);
    }
    const decided = taint({
      files: [...sources.files, ...sources.packages.flatMap((p) => p.files)].map((f) => f.parsed),
      nodes,
      secretAttrs: unknownAttrs,
      schemaSensitive: false,
    }).diagnostics;
    if (decided.length) {
      return {
        ok: false,
        diagnostics: [
          error(
            "Nodes decided by a value known only after apply",
            `A comprehension or a dynamic field name here decides which nodes or fields exist from a value that is known only after apply (a computed attribute of a node not applied yet), so pravo cannot tell at plan time what it creates. As with Terraform's for_each and count, the keys and conditions must be known at plan time: decide them from a tag or a value the configuration gives, and use the computed values inside the nodes; or create the node they come from first (apply the configuration without the comprehension, then add it).`,
            { range: decided[0].range },
          ),
        ],
      };
    }
  }
  // Which nodes exist must be known at plan time, as Terraform's for_each
  // and count: a node whose label holds what stands for an unknown value,
  // or that exists in one of the two evaluations and not in the other, was
  // made by a comprehension over a value known only after apply.
  // (validate reads no state, so it cannot tell: only plans refuse.)
  if (trace) {
    const tracedNodes: Found = { nodes: [], providers: [], inLists: [] };
    if (traced) walk(traced, [], tracedNodes);
    const plain = new Set(found.nodes.map((n) => pathKey(n.path)));
    const other = new Set(tracedNodes.nodes.map((n) => pathKey(n.path)));
    const odd = [
      ...found.nodes.filter((n) =>
        n.path.some(isUnknownLabel) || (traced && !other.has(pathKey(n.path)))
      ),
      ...tracedNodes.nodes.filter((n) => !plain.has(pathKey(n.path))),
    ];
    if (odd.length) {
      const path = odd[0].path;
      // The struct that holds the comprehension: the longest prefix the sources declare.
      let at = path.slice(0, -1);
      while (at.length > 1 && !locate(index, at)?.exact) at = at.slice(0, -1);
      return {
        ok: false as const,
        diagnostics: [
          error(
            "Nodes decided by a value known only after apply",
            `Which nodes ${
              formatPath(at)
            } holds depends on a value that is known only after apply (a computed attribute of a node not applied yet), so pravo cannot tell at plan time which nodes it creates. As with Terraform's for_each and count, the keys and conditions must be known at plan time: iterate over a list or struct of values the configuration gives (or a tag), and use the computed values inside the nodes.`,
            { address: formatPath(at), range: locate(index, at)?.pos },
          ),
        ],
      };
    }
  }
  for (const n of nodes) {
    const more = tainted.inputs.get(n.address);
    if (more) n.sensitiveInputs = [...new Set([...n.sensitiveInputs, ...more])].sort();
  }
  // At plan time an input computed from a secret is unknown: what the
  // evaluation gave it comes from a stand-in. What it is made of (its value
  // with each of the two stand-ins) is kept for the planner; apply, which
  // evaluates with the secrets, makes the same forms with the stand-ins for
  // the record it writes.
  if (trace && nodes.some((n) => n.sensitiveInputs.length)) {
    let forms: [Record<string, Value>, Record<string, Value> | undefined] | undefined;
    if (!reveal) {
      forms = [tree, stood];
    } else {
      const [a, b] = [await neutralEvaluation(), await run(knownDeclarations(alternate))];
      const treeOf = (r: EvalResult) =>
        r.ok ? (JSON.parse(r.json) as Record<string, Record<string, Value>>)[WRAP] : undefined;
      const [ta, tb] = [treeOf(a), treeOf(b)];
      if (ta) forms = [ta, tb];
    }
    for (const n of nodes) {
      for (const k of n.sensitiveInputs) {
        const f = (t: Record<string, Value> | undefined) => {
          const v = t ? at(t, n.path) : undefined;
          return isObject(v) ? v[k] ?? null : null;
        };
        if (n.config[k] === undefined) continue; // unset: nothing to compute
        n.secretForms[k] = forms ? [f(forms[0]), f(forms[1])] : [null, null];
        if (reveal || hasUnknown(n.config[k])) continue;
        n.config[k] = UNKNOWN;
        if (!(k in n.templates) && !n.needsEvaluation.includes(k)) n.needsEvaluation.push(k);
      }
    }
  }
  const cycle = findCycle(nodes);
  if (cycle) {
    const first = byAddress.get(cycle[0])!;
    diags.push(
      error(
        "Dependency cycle",
        `These nodes refer to each other in a cycle: ${
          [...cycle, cycle[0]].join(" -> ")
        }. pravo cannot tell which to create first; remove one of the references.`,
        { address: first.address, range: first.range },
      ),
    );
  }

  // Renamed nodes (moved.ts): checked against the nodes declared.
  const movedRead = readMoved(tree[MOVED], nodes, index);
  diags.push(...movedRead.diagnostics);

  const outputsValue = tree["outputs"];
  const outputs: Record<string, Value> = isObject(outputsValue)
    ? markUnknown(outputsValue, traced ? traced["outputs"] : undefined) as Record<string, Value>
    : {};
  if (outputsValue !== undefined && !isObject(outputsValue)) {
    diags.push(
      error(
        "outputs is not a struct",
        `The top-level field "outputs" holds the root's outputs, one field each. Make it a struct: outputs: {name: value}.`,
        { range: locate(index, ["outputs"])?.pos },
      ),
    );
  }
  if (diags.length) return { ok: false, diagnostics: diags };
  const configDigest = specDigest(sources.digest, opts.tags ?? {});
  return {
    ok: true,
    value: {
      root: sources.root,
      packageName: sources.packageName,
      nodes: nodes.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0)),
      providers: found.providers.map((p) => ({
        address: formatPath(p.path),
        source: p.value[PROVIDER_MARKER] as string,
        config: Object.fromEntries(Object.entries(p.value).filter(([k]) => k !== PROVIDER_MARKER)),
        sensitive: [...(dependence?.attributes.get(formatPath(p.path)) ?? [])].sort(),
      })),
      outputs,
      outputsSensitive: Object.keys(outputs).filter((k) =>
        tainted.allOutputs || tainted.outputs.has(k) || dependence?.outputs.has(k)
      ).sort(),
      configDigest,
      sentinels,
      moved: movedRead.moved,
    },
    diagnostics: [],
  };
}

/**
 * The diagnostic for a configuration that sets a computed-only attribute:
 * CUE reports it as a conflict with the value its holder gives
 * (provider_cue.ts), which may be the state's, a secret's: it is not quoted.
 */
function computedSet(message: string, index: SourceIndex): Diagnostic | undefined {
  const m = /^(?:cue: marshal error: )?(\S+): conflicting values /.exec(message);
  if (!m) return undefined;
  let path = splitPath(m[1]);
  if (path[0] === WRAP) path = path.slice(1);
  if (path.length < 2) return undefined;
  const owner = index.attributesOf?.(path.slice(0, -1));
  const name = path[path.length - 1];
  const a = owner?.attributes?.[name];
  if (!owner || !a || a.required || a.optional) return undefined;
  const address = formatPath(path.slice(0, -1));
  return error(
    `Computed attribute "${name}" is set`,
    `${owner.type}.${name} is computed by the provider and cannot be set in the configuration. Remove it from ${address}.`,
    { address, range: locate(index, path)?.pos },
  );
}

/**
 * The diagnostic for a reference to an attribute that the configuration
 * leaves unset and whose default is the provider's (`two: {length:
 * pet.length}` where `pet` sets no length): that default is filled in by
 * pravo, not by CUE (provider_cue.ts), so the reference has no value.
 */
function unsetDefault(
  message: string,
  index: SourceIndex,
): { diagnostic: Diagnostic; pin: string } | undefined {
  const m =
    /^(?:cue: marshal error: )?(\S+?):? (?:incomplete|cannot convert incomplete value|cannot reference optional field)/
      .exec(message);
  if (!m) return undefined;
  let path = splitPath(m[1]);
  if (path[0] === WRAP) path = path.slice(1);
  for (const site of index.sites.get(pathKey(path)) ?? []) {
    for (const r of site.refs) {
      for (const d of resolve(r) ?? []) {
        if (!d.path || r.selectors.length === 0) continue;
        const target = [...d.path, ...r.selectors];
        const owner = index.attributesOf?.(target.slice(0, -1));
        const name = target[target.length - 1];
        const a = owner?.attributes?.[name];
        if (!owner || !a?.optional || a.default === undefined) continue;
        const node = formatPath(target.slice(0, -1));
        const pin = nested(target, JSON.stringify(a.default));
        const diagnostic = error(
          `${node}.${name} is not set`,
          `${
            formatPath(path)
          } refers to ${node}.${name}, which the configuration of ${node} leaves unset; its default (${
            JSON.stringify(a.default)
          }) is the provider's and has no value in CUE. Set ${name}: ${
            JSON.stringify(a.default)
          } in ${node} to refer to it.`,
          {
            address: formatPath(path),
            range: { file: site.file, line: r.line, column: r.column },
          },
        );
        return { diagnostic, pin };
      }
    }
  }
  return undefined;
}

/** The provider types a field refers to (`$aws.#Resource.aws_sqs_queue`), by mode. */
const TYPE_MODES: Record<string, Mode> = {
  "#Resource": "managed",
  "#Data": "data",
  "#Ephemeral": "ephemeral",
};

/**
 * What a failed evaluation's "cannot reference optional field: NAME" read
 * (or what was "incomplete", or a "cycle error", which CUE reports for a
 * comprehension whose condition reads such a field): the nodes whose
 * optional and computed attribute the configuration leaves unset, found
 * through the sources (with the aliases of definitions and comprehensions,
 * {@link Deps}).
 */
function optionalReads(
  message: string,
  deps: Deps,
): { node: string[]; name: string; type: TypeSchema }[] {
  const m =
    /^(?:cue: marshal error: )?(\S+): (?:(?:invalid interpolation: )?cannot reference optional field: (\S+)(?: \(and \d+ more errors?\))?$|incomplete|cycle error)/
      .exec(message);
  if (!m) return [];
  let path = splitPath(m[1]);
  if (path[0] === WRAP) path = path.slice(1);
  const name = m[2]?.replace(/^"|"$/g, "");
  // A node named in a depends_on list is evaluated there too: the read is
  // then the named node's (`acl.depends_on."0".bucket` is `ownership.bucket`).
  const paths = [path];
  const d = path.indexOf(DEPENDS_ON);
  if (d > 0 && d + 1 < path.length) {
    for (const { site, subst } of deps.sitesFor(path.slice(0, d + 1))) {
      for (const target of deps.targetsOf(site, subst)) {
        paths.push([...target, ...path.slice(d + 2)]);
      }
    }
  }
  const out: { node: string[]; name: string; type: TypeSchema }[] = [];
  // A cycle error is reported at the struct whose comprehension failed:
  // what it reads is declared anywhere under it.
  const cycle = m[0].endsWith("cycle error");
  for (const p of paths) {
    for (let k = p.length; k > 0 && out.length === 0; k--) {
      const sites = cycle && k === p.length ? deps.sitesUnder(p) : deps.sitesFor(p.slice(0, k));
      for (const { site, subst } of sites) {
        for (const target of deps.targetsOf(site, subst)) {
          const last = target[target.length - 1];
          if (name !== undefined && last !== name) continue;
          const node = target.slice(0, -1);
          const type = deps.typeOf(node);
          const a = type?.attributes[last];
          if (type && a?.optional && !a.required && isTracked(type, a)) {
            out.push({ node, name: last, type });
          }
        }
      }
    }
  }
  return out;
}

/**
 * The diagnostic for an evaluation at plan time that fails at a field whose
 * value is computed from an attribute known only after apply (a computed
 * attribute of a node not applied yet, which the configuration leaves
 * unset): a function of it (`json.Unmarshal`, `strconv.Atoi`, a division)
 * that fails on the value pravo evaluates it with before apply. Terraform's
 * functions of an unknown value are unknown; CUE's are evaluated, so pravo
 * refuses and says what to write. Undefined when the failing field refers to
 * no such attribute (directly, or through a field or let it refers to).
 */
function functionOfUnknown(
  message: string,
  said: string,
  deps: Deps,
  index: SourceIndex,
  sources: Sources,
  state: {
    known: ReadonlyMap<string, Record<string, Value>>;
    setness: ReadonlyMap<string, ReadonlySet<string>>;
  },
): Diagnostic | undefined {
  const path = declaredPath(message, index);
  const unknownAt = (target: string[]): boolean => {
    if (target.length < 2) return false;
    const node = target.slice(0, -1);
    const name = target[target.length - 1];
    const a = deps.typeOf(node)?.attributes[name];
    if (!a?.computed || a.required) return false;
    const address = formatPath(node);
    const v = state.known.get(address)?.[name];
    if (v !== undefined && v !== null) return false;
    if (a.optional) {
      const set = state.setness.get(address);
      if (!set || set.has(name)) return false;
    }
    return true;
  };
  const cue = said.replace(/^cue: marshal error: /, "").replace(/ \(and \d+ more errors?\)$/, "")
    .replaceAll(`${WRAP}.`, "");
  const fix = (what: string, names: string[]) =>
    `Where Terraform makes a function of an unknown value unknown, CUE evaluates it, so pravo cannot plan this before the value exists. Compute ${what} from values the configuration gives (the inputs the provider computes ${
      names.length === 1 ? "it" : "them"
    } from), or apply the node ${
      names.length === 1 ? "it comes" : "they come"
    } from first and add this afterwards.`;
  const unknowns = (names: string[]) =>
    `${names.join(", ")}, which ${
      names.length === 1 ? "is" : "are"
    } known only after apply (computed by the provider, and not applied yet)`;
  /**
   * The declaration that calls the function CUE names with an argument
   * known only after apply: where CUE names no field (a failed call in a let
   * or a hidden field), or names a field that reads the call through a let.
   */
  const calling = (): Diagnostic | undefined => {
    const call = /^(?:cue: marshal error: )?error in call to (?:[\w./-]+\.)?(\w+):/.exec(said);
    if (!call) return undefined;
    for (const f of sources.files) {
      for (const site of [...f.parsed.sites, ...f.parsed.lets]) {
        const fn = site.refs.find((r) => r.selectors[0] === call[1] && !resolve(r)?.length);
        if (!fn) continue;
        const names = [
          ...new Set(deps.targetsOf(site, []).filter(unknownAt).map(formatPath)),
        ].sort();
        if (!names.length) continue;
        return error(
          "A function of a value known only after apply",
          `${site.kind === "let" ? "The let " : ""}${site.label} calls ${fn.name}.${call[1]} on ${
            unknowns(names)
          }, and the call fails with the value that stands for ${
            names.length === 1 ? "it" : "them"
          } at plan time (CUE says: ${cue}). ${fix(site.label, names)}`,
          { range: { file: site.file, line: site.line, column: site.column } },
        );
      }
    }
    return undefined;
  };
  if (!path) return calling();
  // What the failing field's declarations refer to, and what the fields
  // and lets they refer to do, a few steps deep.
  const found: string[][] = [];
  const seen = new Set<string>();
  let frontier = [...deps.sitesFor(path), ...deps.sitesUnder(path)];
  for (let depth = 0; depth < 4 && frontier.length && !found.length; depth++) {
    const next: typeof frontier = [];
    for (const { site, subst } of frontier) {
      for (const t of deps.targetsOf(site, subst)) {
        const k = pathKey(t);
        if (seen.has(k)) continue;
        seen.add(k);
        if (unknownAt(t)) found.push(t);
        else next.push(...deps.sitesFor(t));
      }
    }
    frontier = next;
  }
  if (!found.length) return calling();
  const names = [...new Set(found.map(formatPath))].sort();
  return error(
    "A function of a value known only after apply",
    `${formatPath(path)} is computed from ${
      unknowns(names)
    }, and it does not evaluate with the value that stands for ${
      names.length === 1 ? "it" : "them"
    } at plan time (CUE says: ${cue}). ${fix(formatPath(path), names)}`,
    { address: formatPath(path), range: locate(index, path)?.pos },
  );
}

/**
 * The diagnostics of a node's `depends_on`: `null`, or a list whose every
 * element is a node or a struct that holds nodes (the references give the
 * edges, as for any other value).
 */
function dependsOnErrors(v: Value, address: string, range?: SourcePos): Diagnostic[] {
  if (v === null) return [];
  const fix =
    "Write depends_on: [node, ...], each element a reference to a node (such as base) or to a struct of nodes.";
  if (!Array.isArray(v)) {
    return [error(`depends_on of ${address} is not a list`, `It is ${JSON.stringify(v)}. ${fix}`, {
      address,
      range,
    })];
  }
  const out: Diagnostic[] = [];
  v.forEach((e, i) => {
    const found: Found = { nodes: [], providers: [], inLists: [] };
    walk(e, [], found);
    if (isObject(e) && found.nodes.length && !found.providers.length) return;
    out.push(
      error(
        `depends_on[${i}] of ${address} is not a node`,
        `Element ${i} holds ${
          isObject(e) ? "a struct with no node in it" : JSON.stringify(e)
        }, and depends_on names nodes. ${fix}`,
        { address, range },
      ),
    );
  });
  return out;
}

/** What depends on a secret, found by comparing two evaluations. */
interface SecretDependence {
  /** By node or provider address: the attributes whose values differ. */
  attributes: Map<string, Set<string>>;
  /** The outputs whose values differ. */
  outputs: Set<string>;
  /** Structure that differs: it cannot be hidden, so the plan is refused. */
  diagnostics: Diagnostic[];
}

/**
 * Compares the evaluation with the secrets (`base`) with the one with
 * stand-ins (`stood`). A value that differs is sensitive. A node, an
 * attribute, a lifecycle setting or an output that exists in one and not in
 * the other depends on a secret in a way that no redaction hides (its
 * presence tells something of the secret): that is a diagnostic.
 */
function secretDependence(
  base: Record<string, Value>,
  stood: Record<string, Value>,
  index: SourceIndex,
): SecretDependence {
  const out: SecretDependence = { attributes: new Map(), outputs: new Set(), diagnostics: [] };
  const structure = (path: string[], what: string) => {
    out.diagnostics.push(
      error(
        `${what} depends on a sensitive value`,
        `${formatPath(path)} ${
          what.startsWith("Whether") ? "is there" : "differs"
        } for some values of a secret (a password, a sensitive file's content, or a value computed from one), so the plan would reveal part of the secret. Make it independent of sensitive values: decide it from a tag or a plain field instead.`,
        { address: formatPath(path), range: locate(index, path)?.pos },
      ),
    );
  };
  const fb: Found = { nodes: [], providers: [], inLists: [] };
  const fs: Found = { nodes: [], providers: [], inLists: [] };
  walk(base, [], fb);
  walk(stood, [], fs);
  const compare = (
    mine: Found["nodes"],
    theirs: Found["nodes"],
    marker: string,
    kind: string,
  ) => {
    const other = new Map(theirs.map((n) => [pathKey(n.path), n]));
    for (const n of mine) {
      const key = pathKey(n.path);
      const m = other.get(key);
      other.delete(key);
      if (!m || !isDeepStrictEqual(m.value[marker], n.value[marker])) {
        structure(n.path, `Whether the ${kind} ${formatPath(n.path)} exists`);
        continue;
      }
      const differing = new Set<string>();
      for (const k of new Set([...Object.keys(n.value), ...Object.keys(m.value)])) {
        if (k === marker || isDeepStrictEqual(n.value[k], m.value[k])) continue;
        if (!(k in n.value) || !(k in m.value)) {
          structure([...n.path, k], `Whether ${formatPath([...n.path, k])} is set`);
        } else if (k === DEPENDS_ON) {
          // Copies of the nodes named, secrets included: only its references count.
          continue;
        } else if (k === LIFECYCLE) {
          structure([...n.path, k], `The lifecycle of ${formatPath(n.path)}`);
        } else differing.add(k);
      }
      if (differing.size) out.attributes.set(formatPath(n.path), differing);
    }
    for (const m of other.values()) {
      structure(m.path, `Whether the ${kind} ${formatPath(m.path)} exists`);
    }
  };
  compare(fb.nodes, fs.nodes, NODE_MARKER, "node");
  compare(fb.providers, fs.providers, PROVIDER_MARKER, "provider");
  const ob = isObject(base.outputs) ? base.outputs : {};
  const os = isObject(stood.outputs) ? stood.outputs : {};
  for (const k of new Set([...Object.keys(ob), ...Object.keys(os)])) {
    if (!(k in ob) || !(k in os)) structure(["outputs", k], `Whether the output ${k} exists`);
    else if (!isDeepStrictEqual(ob[k], os[k])) out.outputs.add(k);
  }
  return out;
}

/** The field path a CUE message starts with, when it names a declaration of the sources. */
function declaredPath(message: string, index: SourceIndex): string[] | undefined {
  const m =
    /^(?:cue: marshal error: )?((?:[A-Za-z_$#][\w$#]*|"(?:[^"\\]|\\.)*")(?:\.(?:[A-Za-z_$#][\w$#]*|"(?:[^"\\]|\\.)*"|\d+))*): /
      .exec(message);
  if (!m) return undefined;
  let path = splitPath(m[1]);
  if (path[0] !== WRAP) return undefined;
  path = path.slice(1);
  // Only a path the sources declare: a label computed from a secret is not shown.
  return path.length && locate(index, path)?.exact ? path : undefined;
}

/**
 * The diagnostic for an evaluation that fails with the secrets, or with the
 * stand-ins made from them, and not with neutral values in their place.
 * CUE's message would quote the secret or a stand-in (which tells of it), so
 * it is not shown; only where it is, when the sources declare that place.
 * The two cases give the same diagnostic: which one happens depends on the
 * secret.
 */
function failsForSecret(message: string, index: SourceIndex): Diagnostic {
  const path = declaredPath(message, index);
  return error(
    "The configuration does not evaluate for some values of a secret",
    `${
      path ? formatPath(path) : "A value"
    } fails to evaluate with the real value of a secret (a password, a sensitive file's content, or a value computed from one), or with the stand-in pravo puts in its place to find what depends on it, while it evaluates with a neutral value. The configuration constrains a secret (its length, its characters, a format it decodes), and what follows from that would reveal part of it; CUE's message would quote it, so pravo does not show it. Remove or correct what the configuration requires of the sensitive value here.`,
    {
      address: path ? formatPath(path) : undefined,
      range: path ? locate(index, path)?.pos : undefined,
    },
  );
}

/**
 * The diagnostic for an evaluation at plan time that fails with the second
 * stand-in pravo gives the secrets and not with the first: both are made
 * from the secrets' types and formats alone, so this tells nothing of them;
 * the message (which may quote a stand-in) is not shown, only where.
 */
function failsForStandIn(message: string, index: SourceIndex): Diagnostic {
  const path = declaredPath(message, index);
  return error(
    "The configuration requires something of a secret",
    `${
      path ? formatPath(path) : "A value"
    } evaluates with one of the two values pravo gives a secret at plan time (a password, a sensitive file's content, or a value computed from one) and fails with the other. At plan time a secret is unknown: pravo evaluates the configuration with stand-ins of its type and format, never with its value, so that no plan tells of it, and a check of its characters, its length or its content cannot be made before apply. Remove what the configuration requires of the sensitive value here (let the provider check it), or make the check hold for any value of its type.`,
    {
      address: path ? formatPath(path) : undefined,
      range: path ? locate(index, path)?.pos : undefined,
    },
  );
}

/**
 * The diagnostic for a failed evaluation. An incomplete value (an attribute
 * never given a concrete value) gets the message of a missing attribute,
 * with the tags that would fill it; anything else is mapped as CUE said it.
 */
function incompleteOrError(message: string, sources: Sources, index: SourceIndex): Diagnostic {
  const m = /^cue: marshal error: (\S+): cannot convert incomplete value "([^"]*)" to JSON$/.exec(
    message,
  );
  if (!m) return cueErrorDiagnostic(message, index);
  let path = splitPath(m[1]);
  if (path[0] === WRAP) path = path.slice(1);
  const address = formatPath(path);
  const loc = locate(index, path);
  const tag = sources.tags.find((t) => pathKey(t.path) === pathKey(path));
  if (tag) {
    return error(
      `Tag "${tag.name}" has no value`,
      `${address} is filled by @tag(${tag.name}), and no -t ${tag.name}=VALUE was given. Pass -t ${tag.name}=VALUE, or give the field a default (such as *"dev" | string).`,
      { address, range: tag.pos },
    );
  }
  const tags = tagsFeeding(sources, path);
  const fromTag = tags.length
    ? ` It comes from a field filled by a tag: pass ${
      tags.map((t) => `-t ${t}=VALUE`).join(" and ")
    }.`
    : "";
  const owner = index.attributesOf?.(path.slice(0, -1));
  const attr = path[path.length - 1];
  const schema = owner
    ? (owner.attributes ??
      findTypes(owner.type).find((x) => owner.mode === undefined || x.type.mode === owner.mode)
        ?.type.attributes)?.[attr]
    : undefined;
  if (owner && schema?.required) {
    return error(
      `Missing required attribute "${attr}"`,
      `${owner.type} needs "${attr}" (${
        typeString(schema.type)
      }): ${schema.description}${fromTag} Set it in the value of ${
        formatPath(path.slice(0, -1))
      }; run \`pravo schema ${owner.type}\` for every attribute.`,
      { address: formatPath(path.slice(0, -1)), range: loc?.pos },
    );
  }
  return error(
    `${address} has no concrete value`,
    `${address} is ${
      m[2]
    } but never given a value, and it does not depend on a value known only after apply.${fromTag} Give it a value${
      owner && schema ? ", or remove it to leave it unset" : ""
    }.`,
    { address, range: loc?.pos },
  );
}

/** The tags whose fields the declarations at `path` refer to. */
function tagsFeeding(sources: Sources, path: string[]): string[] {
  const names = new Set<string>();
  for (const site of sources.index.sites.get(pathKey(path)) ?? []) {
    for (const r of site.refs) {
      for (const d of resolve(r) ?? []) {
        if (!d.path) continue;
        for (const t of sources.tags) if (pathKey(t.path) === pathKey(d.path)) names.add(t.name);
      }
    }
  }
  return [...names].sort();
}

/**
 * The nodes each node refers to, read from where values flow in the sources.
 *
 * A reference counts when it names a node, a field inside a node, or a
 * struct holding nodes; a reference to any other declaration (a definition,
 * a let, a hidden field, a plain field) counts for what that declaration's
 * value refers to, followed transitively.
 *
 * A field that embeds or unifies another value (`q: #Queue & {...}`, `m: #M
 * & {#in: n: base.result}`) is, for this reading, also every field of that
 * value: `m.first` is declared at `m.first` and at `#M.first` (its aliases,
 * {@link Deps.aliases}). A reference written inside `#M` to one of `#M`'s
 * own fields (`#in.n`, `first.id`) is read, for the instance `m`, as a
 * reference to `m`'s field (`m.#in.n`, `m.first.id`): so the input given
 * at `m.#in.n` and the sibling node `m.first` are found, as values flow, and
 * not the definition's own declarations. The structs around a node count
 * with the clauses of their comprehensions (which decide whether the node
 * exists) and with what their comprehensions' bodies declare.
 */
function dependencies(sources: Sources, nodes: Node[]): Map<string, Set<string>> {
  const deps = new Deps(sources, nodes);
  const result = new Map<string, Set<string>>();
  for (const n of nodes) {
    const out = deps.ofNode(n.path);
    out.delete(n.address);
    result.set(n.address, out);
  }
  return result;
}

/**
 * The labels from the nearest field with a static path down to a field
 * declared without one: a label as written, or null where it is computed
 * (a dynamic or pattern label). Undefined for what is no field (a let).
 */
function looseLabels(s: Site): (string | null)[] | undefined {
  const out: (string | null)[] = [];
  for (let x: Site | null = s; x && !x.path; x = x.owner) {
    if (x.kind === "let" || x.kind === "alias" || x.kind === "for") return undefined;
    out.unshift(x.kind === "dynamic" || x.kind === "pattern" || x.quoted ? null : x.label);
  }
  return out;
}

/** The dependencies of what refers to nothing: one set for all. */
const NO_DEPS: ReadonlySet<string> = new Set();

/** A rewriting of paths: each `[from, to]` in turn replaces a leading `from` by `to`. */
type Subst = readonly (readonly [string[], string[]])[];

/** A declaration read for an instance: the site, and how its paths map onto the instance. */
interface Item {
  site: Site;
  subst: Subst;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((l, i) => path[i] === l);
}

function rebase(path: string[], subst: Subst): string[] {
  let out = path;
  for (const [from, to] of subst) {
    if (startsWith(out, from)) out = [...to, ...out.slice(from.length)];
  }
  return out;
}

/** The dependency reading of {@link dependencies}, with its indexes and memos. */
class Deps {
  /** Sites by path; one without a static path counts for the field its value is written in. */
  #byKey = new Map<string, Site[]>();
  /** Child labels by parent path. */
  #children = new Map<string, Set<string>>();
  #nodeKeys: Map<string, string>;
  #nodesUnder = new Map<string, string[]>();
  /** Whether `r` is a clause of a comprehension written in a field's value. */
  #generatorRef(r: Ref): boolean {
    return this.#ownedClauses.has(r);
  }
  /** The clause references of comprehensions that have an owning field. */
  #ownedClauses = new Set<Ref>();

  /** The references that are comprehension clauses: they decide which fields exist. */
  #clauses = new Set<Ref>();
  #aliasMemo = new Map<string, { path: string[]; subst: Subst }[]>();
  #aliasBusy = new Set<string>();
  #underMemo = new Map<string, Item[]>();
  /** Whether anything is declared at a path or under it, through its aliases. */
  #fruitfulMemo = new Map<string, boolean>();
  /** {@link Deps.#refDeps} without a mapping, by site: most of them. */
  #refMemo0 = new Map<Site, ReadonlySet<string>>();
  #underBusy = new Set<string>();
  #refMemo = new Map<Site, Map<string, ReadonlySet<string>>>();
  /**
   * Fields declared without a static path (in a comprehension's body, or
   * under a dynamic or pattern label), by the path of the field that holds
   * them, with the labels between: null for a label not known statically.
   */
  #loose = new Map<string, { site: Site; rel: (string | null)[] }[]>();
  /** The comprehensions written in each field's value, by that field's declaration. */
  #generatorsOf = new Map<Site, Generator[]>();

  constructor(sources: Sources, nodes: Node[]) {
    this.#nodeKeys = new Map(nodes.map((n) => [pathKey(n.path), n.address]));
    for (const f of [...sources.files, ...sources.packages.flatMap((p) => p.files)]) {
      for (const g of f.parsed.generators) {
        g.clauseRefs.forEach((r) => this.#clauses.add(r));
        if (g.owner) {
          this.#generatorsOf.set(g.owner, [...(this.#generatorsOf.get(g.owner) ?? []), g]);
          g.clauseRefs.forEach((r) => this.#ownedClauses.add(r));
        }
      }
      for (const s of f.parsed.sites) {
        let at = s.path;
        if (!at) {
          let o = s.owner;
          while (o && !o.path) o = o.owner;
          // A pattern or dynamic label written as a chain (`pets: [string]: x`)
          // has no owner: the struct of its scope holds what it declares.
          at = o?.path ?? null;
          for (let sc: Site["scope"] | null = s.scope; !at && sc; sc = sc.parent) at = sc.path;
          if (!at) continue;
          const rel = looseLabels(s);
          if (rel) {
            const lk = pathKey(at);
            if (!this.#loose.has(lk)) this.#loose.set(lk, []);
            this.#loose.get(lk)!.push({ site: s, rel });
          }
        }
        const k = pathKey(at);
        if (!this.#byKey.has(k)) this.#byKey.set(k, []);
        this.#byKey.get(k)!.push(s);
        if (!s.path) continue;
        for (let i = 1; i <= s.path.length; i++) {
          const parent = pathKey(s.path.slice(0, i - 1));
          if (!this.#children.has(parent)) this.#children.set(parent, new Set());
          this.#children.get(parent)!.add(s.path[i - 1]);
        }
      }
    }
    for (const n of nodes) {
      for (let i = 1; i < n.path.length; i++) {
        const k = pathKey(n.path.slice(0, i));
        if (!this.#nodesUnder.has(k)) this.#nodesUnder.set(k, []);
        this.#nodesUnder.get(k)!.push(n.address);
      }
    }
  }

  /** The nodes a reference to `path` names: the node it is in, or the nodes under it. */
  #nodesAt(path: string[]): string[] {
    for (let k = path.length; k > 0; k--) {
      const a = this.#nodeKeys.get(pathKey(path.slice(0, k)));
      if (a) return [a];
    }
    return this.#nodesUnder.get(pathKey(path)) ?? [];
  }

  /** Where the values of a site's references come from, with the site's paths mapped. */
  #targets(site: Site, subst: Subst, only?: (r: Ref) => boolean): string[][] {
    const out: string[][] = [];
    for (const ref of site.refs) {
      if (only && !only(ref)) continue;
      for (const d of resolve(ref) ?? []) {
        if (d.path) out.push(rebase([...d.path, ...ref.selectors], subst));
      }
    }
    return out;
  }

  /**
   * The paths whose declarations count for `path`: itself, and for each
   * struct around it (or itself) that embeds or unifies a value, that value's
   * field at the same place, with the mapping of its paths onto `path`.
   */
  aliases(path: string[]): { path: string[]; subst: Subst }[] {
    const key = pathKey(path);
    const memo = this.#aliasMemo.get(key);
    if (memo) return memo;
    const out: { path: string[]; subst: Subst }[] = [{ path, subst: [] }];
    if (this.#aliasBusy.has(key)) return out;
    this.#aliasBusy.add(key);
    const seen = new Set([key + "\u0001[]"]);
    /** The aliases that what `site` (declared at `at`) embeds gives the fields under it. */
    const embed = (site: Site, at: string[], rest: string[]) => {
      for (const t of this.#targets(site, [], (r) => !this.#clauses.has(r))) {
        if (startsWith(at, t) || this.#nodesAt(t).length || !this.#fruitful(t)) continue;
        for (const a of this.aliases([...t, ...rest])) {
          const subst: Subst = [...a.subst, [t, at]];
          const k = pathKey(a.path) + "\u0001" + JSON.stringify(subst);
          if (seen.has(k)) continue;
          seen.add(k);
          out.push({ path: a.path, subst });
        }
      }
    };
    for (let i = 1; i <= path.length; i++) {
      const at = path.slice(0, i);
      const rest = path.slice(i);
      for (const site of this.#byKey.get(pathKey(at)) ?? []) {
        // A field's own declaration embeds what it refers to; what its
        // comprehensions' clauses refer to decides which fields exist.
        if (!site.path) continue;
        embed(site, at, rest);
      }
      // A field a comprehension declares (`(k): #Queue & {...}`) stands for
      // the fields whose labels its own match.
      for (const { site, rel } of this.#loose.get(pathKey(at)) ?? []) {
        if (rel.length > rest.length || !rel.every((l, j) => l === null || l === rest[j])) continue;
        embed(site, [...at, ...rest.slice(0, rel.length)], rest.slice(rel.length));
      }
    }
    this.#aliasBusy.delete(key);
    // Most paths have no alias but themselves: not worth keeping.
    if (out.length > 1) this.#aliasMemo.set(key, out);
    return out;
  }

  /**
   * Whether the sources declare anything at `t` or under it, through its
   * aliases: a provider's type (`$random.#Resource.random_pet`) is not
   * among the sources, and embedding it adds nothing to read.
   */
  #fruitful(t: string[]): boolean {
    const key = pathKey(t);
    let got = this.#fruitfulMemo.get(key);
    if (got === undefined) {
      this.#fruitfulMemo.set(key, false); // while it is being found: a cycle adds nothing
      got = this.aliases(t).some((a) => {
        const k = pathKey(a.path);
        return this.#byKey.has(k) || this.#children.has(k) || this.#loose.has(k);
      });
      this.#fruitfulMemo.set(key, got);
    }
    return got;
  }

  /** The declarations at `path`, through its aliases, with their mappings onto it. */
  sitesFor(path: string[]): Item[] {
    const out: Item[] = [];
    for (const a of this.aliases(path)) {
      for (const site of this.#byKey.get(pathKey(a.path)) ?? []) {
        out.push({ site, subst: a.subst });
      }
      // A field declared in a comprehension whose labels are those of the path.
      for (let i = 0; i < a.path.length; i++) {
        const rest = a.path.slice(i);
        for (const { site, rel } of this.#loose.get(pathKey(a.path.slice(0, i))) ?? []) {
          if (rel.length === rest.length && rel.every((l, j) => l === null || l === rest[j])) {
            out.push({ site, subst: a.subst });
          }
        }
      }
    }
    return out;
  }

  /** Every declaration at `path` and under it, through its aliases. */
  sitesUnder(path: string[]): Item[] {
    return this.#under(path);
  }

  /** Where a declaration's references lead, mapped onto the instance. */
  targetsOf(site: Site, subst: Subst): string[][] {
    return this.#targets(site, subst);
  }

  /** The plugin type a node at `path` is declared with, through its aliases. */
  pluginTypeOf(path: string[]): TypeSchema | undefined {
    const t = this.typeOf(path);
    return t?.plugin ? t : undefined;
  }

  /** The type, built-in or plugin, a node at `path` is declared with, through its aliases. */
  typeOf(path: string[]): TypeSchema | undefined {
    for (const { site } of this.sitesFor(path)) {
      for (const r of site.refs) {
        const i = r.selectors.findIndex((x) => x in TYPE_MODES);
        if (i < 0 || i + 1 >= r.selectors.length) continue;
        const t = findTypes(r.selectors[i + 1]).find((x) =>
          x.type.mode === TYPE_MODES[r.selectors[i]]
        );
        if (t) return t.type;
      }
    }
    return undefined;
  }

  /** Every declaration at `path` and under it, through its aliases. */
  #under(path: string[], keep = true): Item[] {
    const key = pathKey(path);
    const memo = this.#underMemo.get(key);
    if (memo) return memo;
    if (this.#underBusy.has(key)) return [];
    this.#underBusy.add(key);
    const out: Item[] = [];
    for (const a of this.aliases(path)) {
      for (const site of this.#byKey.get(pathKey(a.path)) ?? []) out.push({ site, subst: a.subst });
      for (const c of this.#children.get(pathKey(a.path)) ?? []) {
        for (const it of this.#under([...a.path, c], keep)) {
          out.push(
            a.subst.length === 0 ? it : { site: it.site, subst: [...it.subst, ...a.subst] },
          );
        }
      }
    }
    this.#underBusy.delete(key);
    if (keep) this.#underMemo.set(key, out);
    return out;
  }

  /** The nodes a declaration's value refers to, read for an instance through `subst`. */
  #refDeps(site: Site, subst: Subst, stack: Set<unknown>): ReadonlySet<string> {
    if (site.refs.length === 0) return NO_DEPS;
    const plain = subst.length === 0;
    const skey = plain ? "" : JSON.stringify(subst);
    let bySubst = plain ? undefined : this.#refMemo.get(site);
    const cached = plain ? this.#refMemo0.get(site) : bySubst?.get(skey);
    if (cached) return cached;
    const out = new Set<string>();
    const me = plain ? site : `${site.file}:${site.line}:${site.column}:${site.label}\u0001${skey}`;
    if (stack.has(me)) return out;
    stack.add(me);
    for (const ref of site.refs) {
      for (const d of resolve(ref) ?? []) {
        if (!d.path) {
          // A let, an alias, a comprehension's variable: what its value refers to.
          this.#refDeps(d, subst, stack).forEach((a) => out.add(a));
          continue;
        }
        const path = rebase([...d.path, ...ref.selectors], subst);
        const hit = this.#nodesAt(path);
        if (hit.length) {
          hit.forEach((a) => out.add(a));
          continue;
        }
        for (const it of this.#under(path)) {
          this.#refDeps(it.site, it.subst, stack).forEach((a) => out.add(a));
        }
      }
    }
    stack.delete(me);
    const result = out.size ? out : NO_DEPS;
    if (plain) {
      this.#refMemo0.set(site, result);
    } else {
      if (!bySubst) this.#refMemo.set(site, bySubst = new Map());
      bySubst.set(skey, result);
    }
    return result;
  }

  /**
   * What the node at `path` depends on: what its declarations and those
   * under it refer to, and, of the structs around it, what their
   * comprehensions' clauses and bodies refer to.
   */
  ofNode(path: string[]): Set<string> {
    const out = new Set<string>();
    const stack = new Set<unknown>();
    // Read once for the node: not kept (references to it are hits, not reads).
    for (const it of this.#under(path, false)) {
      this.#refDeps(it.site, it.subst, stack).forEach((a) => out.add(a));
    }
    for (let i = 1; i < path.length; i++) {
      for (const a of this.aliases(path.slice(0, i))) {
        for (const site of this.#byKey.get(pathKey(a.path)) ?? []) {
          const own = site.path !== null;
          // Of a struct around the node, the clauses of the comprehensions
          // that declare the field toward it (or may: labels not all known).
          const deciding = new Set(
            (this.#generatorsOf.get(site) ?? [])
              .filter((g) => g.declares == null || g.declares.includes(path[i]))
              .flatMap((g) => g.clauseRefs),
          );
          const view: Site = own
            ? {
              ...site,
              refs: site.refs.filter((r) =>
                this.#clauses.has(r) && (deciding.has(r) || !this.#generatorRef(r))
              ),
            }
            : site;
          if (own && view.refs.length === 0) continue;
          this.#refDeps(view, a.subst, stack).forEach((x) => out.add(x));
        }
      }
    }
    return out;
  }
}

/** Reads and evaluates a root in one go. */
export async function loadRoot(root: string, opts: EvaluateOptions = {}): Promise<Result<Spec>> {
  const sources = readRoot(root);
  if (!sources.ok) return sources;
  return await evaluateRoot(sources.value, opts);
}
