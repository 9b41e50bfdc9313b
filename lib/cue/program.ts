/**
 * Assembling one CUE source from a root's files for cue-wasm, which takes one
 * string and knows no packages: provider packages go in hidden fields, the
 * files' bodies are wrapped in one field, and import names are renamed to
 * what they stand for.
 *
 * @module
 */

import type { ParsedFile } from "./syntax/mod.ts";
import { packageDirectory, packageField } from "./modules.ts";
import type { Token } from "./syntax/scanner.ts";

/** The field that holds the user's package; what is exported as JSON. */
export const WRAP = "pravo_package";

/** The hidden field name that holds a provider package. */
export function providerField(source: string): string {
  return "_pkg_" + source.replace(/[^A-Za-z0-9]/g, "_");
}

/** The name a builtin import is renamed to, the same in every file. */
export function builtinName(path: string): string {
  return "pravo_builtin_" + path.replace(/[^A-Za-z0-9]/g, "_");
}

export interface Segment {
  file: string;
  /** First line of this file's body in the program. */
  programLine: number;
  /** The line in the file where its body starts. */
  fileLine: number;
  lines: number;
}

export interface Program {
  source: string;
  segments: Segment[];
}

/** Renames, in one file, every reference to an import name. */
function renamedBody(pf: ParsedFile, src: string, renames: Map<string, string>): string {
  const edits: { offset: number; length: number; text: string }[] = [];
  const visit = (toks: Token[]) => {
    for (let i = 0; i < toks.length; i++) {
      const t = toks[i];
      if (t.interpolations) t.interpolations.forEach(visit);
      if (t.kind !== "ident" || !renames.has(t.text)) continue;
      if (t.offset < pf.bodyOffset) continue;
      const prev = toks[i - 1];
      if (prev && prev.kind === "punct" && prev.text === ".") continue;
      const next = toks[i + 1];
      const isLabel = next && next.kind === "punct" &&
        (next.text === ":" ||
          ((next.text === "?" || next.text === "!") && toks[i + 2]?.text === ":"));
      if (isLabel) continue;
      edits.push({ offset: t.offset, length: t.text.length, text: renames.get(t.text)! });
    }
  };
  visit(pf.tokens);
  edits.sort((a, b) => a.offset - b.offset);
  let out = "";
  let at = pf.bodyOffset;
  for (const e of edits) {
    out += src.slice(at, e.offset) + e.text;
    at = e.offset + e.length;
  }
  return out + src.slice(at);
}

export interface ProgramInput {
  files: { parsed: ParsedFile; src: string }[];
  /**
   * The packages of the root's CUE module that the files import
   * (modules.ts), each in a hidden field of its own, and the module's path.
   */
  packages?: { path: string; files: { parsed: ParsedFile; src: string }[] }[];
  modulePath?: string;
  /** Provider packages by source: the package body text. */
  providers: Map<string, string>;
  /** Extra declarations unified into the package (tags, known values). */
  extra: string[];
  /** Builtin packages the provider packages use (`list`), imported once. */
  imports?: string[];
  /**
   * Wrap the package in a hidden field (`_pravo_package`) and export only
   * `tail` (top-level declarations that refer to it): a projection of a
   * package that may not be concrete everywhere.
   */
  projection?: string;
}

/** The hidden field that holds the package in a projection. */
export const HIDDEN_WRAP = "_" + WRAP;

/** Builds the program: imports, provider packages, the wrapped package. */
export function buildProgram(input: ProgramInput): Program {
  const builtins = new Set<string>();
  const head: string[] = [];
  const bodies: { file: string; text: string; fileLine: number }[] = [];
  const renamesOf = (parsed: ParsedFile): Map<string, string> => {
    const renames = new Map<string, string>();
    for (const imp of parsed.imports) {
      const bare = imp.path.replace(/:[A-Za-z_][A-Za-z0-9_]*$/, "");
      if (imp.path.startsWith("pravo.dev/providers/")) {
        renames.set(imp.name, providerField(imp.path.slice("pravo.dev/providers/".length)));
      } else if (input.modulePath && packageDirectory(input.modulePath, imp.path) !== undefined) {
        // A package of the module, or of a vendored dependency module.
        renames.set(imp.name, packageField(bare));
      } else {
        builtins.add(imp.path);
        renames.set(imp.name, builtinName(imp.path));
      }
    }
    return renames;
  };
  for (const { parsed, src } of input.files) {
    const bodyLine = src.slice(0, parsed.bodyOffset).split("\n").length;
    bodies.push({
      file: parsed.file,
      text: renamedBody(parsed, src, renamesOf(parsed)),
      fileLine: bodyLine,
    });
  }
  // The module's packages, before the user's package: a hidden field each.
  const packageText: string[] = [];
  for (const pkg of input.packages ?? []) {
    packageText.push(`${packageField(pkg.path)}: {`);
    for (const { parsed, src } of pkg.files) {
      packageText.push(renamedBody(parsed, src, renamesOf(parsed)));
    }
    packageText.push("}");
  }
  for (const path of input.imports ?? []) builtins.add(path);
  for (const path of [...builtins].sort()) {
    head.push(`import ${builtinName(path)} ${JSON.stringify(path)}`);
  }
  for (const [source, body] of [...input.providers].sort()) {
    head.push(`${providerField(source)}: close({\n${body}\n})`);
  }
  head.push(...packageText);
  head.push(`${input.projection !== undefined ? HIDDEN_WRAP : WRAP}: {`);
  let text = head.join("\n") + "\n";
  let line = text.split("\n").length;
  const segments: Segment[] = [];
  for (const b of bodies) {
    const n = b.text.split("\n").length;
    segments.push({ file: b.file, programLine: line, fileLine: b.fileLine, lines: n });
    text += b.text + "\n";
    line += n;
  }
  text += input.extra.join("\n") + "\n}\n";
  if (input.projection !== undefined) text += input.projection + "\n";
  return { source: text, segments };
}

/** A value the evaluation could not make concrete: known only after apply, or unset. */
export const UNKNOWN: unique symbol = Symbol.for("pravo.unknown");
export type Unknown = typeof UNKNOWN;

/** A JSON value in which some leaves may be unknown. */
export type Value =
  | string
  | number
  | boolean
  | null
  | Unknown
  | Value[]
  | { [k: string]: Value };

/** Maps a line of the program back to a file and line, when it is in a file's body. */
export function mapLine(
  program: Program,
  line: number,
): { file: string; line: number } | undefined {
  for (const s of program.segments) {
    if (line >= s.programLine && line < s.programLine + s.lines) {
      return { file: s.file, line: s.fileLine + (line - s.programLine) };
    }
  }
  return undefined;
}
