/**
 * A root's sources, read and checked (no CUE evaluated yet), and the
 * digests of what an evaluation depends on.
 *
 * @module
 */

import { createHash } from "node:crypto";
import type { Registry } from "../../providers/registry.ts";
import type { Workspace } from "../../workspace/workspace.ts";
import type { SourcePos } from "../../diag/diag.ts";
import type { ParsedFile } from "../syntax/mod.ts";
import type { SourceIndex } from "../errors.ts";
import type { ModulePackage } from "../modules.ts";

/** A field filled by a tag: `@tag(env)`, `@tag(size,type=int)`. */
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
  /** The providers the imports were checked against: the workspace's registry. */
  registry: Registry;
  /** The workspace the sources were read in. */
  workspace: SourcesWorkspace;
}

/**
 * What the reading and the evaluation of a root's sources take of the
 * command's workspace: the registry the imports are checked against (and
 * why the root's plugin providers cannot be had, if so), `pravo.jsonc`, the
 * lock (its modules), what `pravo mcp` pinned, the plugin providers' inputs.
 */
export type SourcesWorkspace = Pick<
  Workspace,
  "registry" | "catalogDiagnostics" | "config" | "lock" | "pinned" | "inputs"
>;

/** A file's name and text, as read or as a plan carries it. */
export interface SourceText {
  name: string;
  src: string;
}

function sha256(s: string): string {
  return createHash("sha256").update(s).digest("hex");
}

/** A digest of the sources: every file's name and content. */
export function sourcesDigest(files: readonly SourceText[]): string {
  return sha256(files.map((f) => `${f.name}\u0000${f.src}`).join("\u0001"));
}

/** A digest of what an evaluation depends on: the sources' digest and the tags. */
export function specDigest(sourcesDigest: string, tags: Record<string, string>): string {
  return sha256(sourcesDigest + "\u0000" + JSON.stringify(Object.entries(tags).sort()));
}

/** A place in a file. */
export function pos(file: string, line: number, column: number): SourcePos {
  return { file, line, column };
}

/** Every file of the sources: the root's, then those of the module's packages. */
export function allFiles(
  sources: Pick<Sources, "files" | "packages">,
): { name: string; src: string; parsed: ParsedFile }[] {
  return [...sources.files, ...sources.packages.flatMap((p) => p.files)];
}
