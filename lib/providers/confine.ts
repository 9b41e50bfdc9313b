/**
 * Keeping the built-in providers' files inside the root.
 *
 * Deno's permission checks look at the path a program names, not at where
 * its symbolic links lead: `shadow.txt -> /etc/shadow` in the root reads
 * /etc/shadow under `--allow-read=ROOT`. So every path a provider touches is
 * resolved here, one component at a time from the root's real path, the way
 * `openat2(RESOLVE_BENEATH)` does: `..` and each link are followed only
 * while they stay inside the root, and nothing outside it is ever looked at
 * (so a refusal does not tell whether something exists out there).
 *
 * Inside the root, pravo's own files are out of reach too: `.pravo/` (the
 * state, the cache, approvals) and pravo's key file, should it be there.
 *
 * Reads open the resolved path and check that what they opened is what was
 * resolved. Writes go to a temporary file in the resolved directory, which
 * is resolved again right before the rename.
 *
 * @module
 */

import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from "node:path";
import { type Diagnostic, error, type SourcePos } from "../diag/diag.ts";
import { keyFilePath } from "../keys/key.ts";

/** The folder in a root that holds pravo's own files. */
const PRAVO_DIR = ".pravo";
/** How many symbolic links one resolution follows at most, as Linux does. */
const MAX_LINKS = 40;

/** Why a path cannot be used. */
export class ConfinementError extends Error {
  constructor(
    readonly reason: "outside" | "protected" | "loop" | "changed",
    message: string,
  ) {
    super(message);
    this.name = "ConfinementError";
  }
}

/** Where a node's file attribute is, for messages. */
export interface FileAttr {
  /** The node's address. */
  address: string;
  /** The attribute that names the file: `filename`, `source`. */
  attr: string;
  /** The file name as configured. */
  name: string;
  range?: SourcePos;
}

function inside(dir: string, p: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** The root's real path. */
function realRoot(root: string): string {
  return Deno.realPathSync(root);
}

/** pravo's own files in the root, as real paths: `.pravo/` and the key file when inside. */
function protectedPaths(real: string): string[] {
  const out = [join(real, PRAVO_DIR)];
  const key = keyFilePath();
  if (key) {
    const rel = relative(real, resolve(key));
    if (!rel.startsWith("..") && !isAbsolute(rel)) out.push(join(real, rel));
  }
  return out;
}

/**
 * Resolves `name` (relative to the root, or absolute) beneath the root's
 * real path. Returns the real path of the longest part that exists and the
 * components after it that do not. Throws ConfinementError when a component
 * or a link leads outside the root.
 */
export function resolveBeneath(
  root: string,
  name: string,
): { real: string; existing: string; missing: string[]; root: string } {
  const base = realRoot(root);
  const abs = isAbsolute(name) ? normalize(name) : resolve(root, name);
  // The root as named may differ from its real path: start from either.
  const from = inside(resolve(root), abs)
    ? relative(resolve(root), abs)
    : inside(base, abs)
    ? relative(base, abs)
    : undefined;
  if (from === undefined) {
    throw new ConfinementError("outside", "it is outside the root");
  }
  const todo = from === "" ? [] : from.split(sep);
  let cur = base;
  let links = 0;
  while (todo.length) {
    const c = todo.shift()!;
    if (c === "" || c === ".") continue;
    if (c === "..") {
      cur = dirname(cur);
      if (!inside(base, cur)) throw new ConfinementError("outside", "it leads outside the root");
      continue;
    }
    const next = join(cur, c);
    let st: Deno.FileInfo;
    try {
      st = Deno.lstatSync(next);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) {
        return { real: join(next, ...todo), existing: cur, missing: [c, ...todo], root: base };
      }
      throw e;
    }
    if (st.isSymlink) {
      if (++links > MAX_LINKS) {
        throw new ConfinementError("loop", "it goes through too many symbolic links");
      }
      const target = Deno.readLinkSync(next);
      const to = isAbsolute(target) ? normalize(target) : resolve(cur, target);
      if (!inside(base, to)) {
        throw new ConfinementError("outside", "a symbolic link on the way leads outside the root");
      }
      todo.unshift(...relative(base, to).split(sep).filter((x) => x !== ""));
      cur = base;
      continue;
    }
    if (todo.length && !st.isDirectory) {
      // Not a question of confinement: the operation fails as it would anyway.
      throw new Error(`"${next}" exists and is not a directory`);
    }
    cur = next;
  }
  return { real: cur, existing: cur, missing: [], root: base };
}

/** Refuses pravo's own files. */
function refuseProtected(root: string, real: string): void {
  for (const p of protectedPaths(root)) {
    if (inside(p, real)) {
      throw new ConfinementError(
        "protected",
        inside(join(root, PRAVO_DIR), real)
          ? `it is in ${PRAVO_DIR}/, which holds pravo's own files (the state, the cache, approvals)`
          : "it is pravo's key file",
      );
    }
  }
}

/** The diagnostic for a path that cannot be used. */
export function confinementDiagnostic(
  e: ConfinementError,
  verb: "read" | "write" | "delete",
  f: FileAttr,
): Diagnostic {
  const todo = e.reason === "protected"
    ? "Providers never touch pravo's own files; choose another file name."
    : e.reason === "outside"
    ? "pravo's providers touch files inside the root only: give a path inside the root, and replace a symbolic link that leads out by the file or directory itself."
    : e.reason === "changed"
    ? "Something changed the path while pravo used it; check the root's symbolic links and run the command again."
    : "Replace the symbolic links that point at each other.";
  return error(
    `Cannot ${verb} "${f.name}": ${e.message}`,
    `${f.attr} of ${f.address} names "${f.name}", and ${e.message}. ${todo}`,
    { address: f.address, range: f.range },
  );
}

/**
 * Checks, without touching the file, that `name` may be used: inside the
 * root by its real path, and not one of pravo's files. A diagnostic when not.
 */
export function checkPath(root: string, f: FileAttr, verb: "read" | "write"): Diagnostic[] {
  try {
    const r = resolveBeneath(root, f.name);
    refuseProtected(r.root, r.real);
    return [];
  } catch (e) {
    if (e instanceof ConfinementError) return [confinementDiagnostic(e, verb, f)];
    return [];
  }
}

/**
 * The real path of `name` (relative to the root, or absolute inside it),
 * resolved beneath the root; throws ConfinementError when it leads out of the
 * root or to pravo's own files. For pravo's own reads of the root's files
 * (the `.cue` files): a symbolic link there is an agent's to make.
 */
export function realInsideRoot(root: string, name: string): string {
  const r = resolveBeneath(root, name);
  refuseProtected(r.root, r.real);
  return r.real;
}

/**
 * Reads a file inside the root. Throws ConfinementError when the path leads
 * out of the root or to pravo's files, Deno.errors.NotFound when it does not
 * exist, and what reading throws.
 */
export async function readConfined(root: string, name: string): Promise<Uint8Array> {
  const r = resolveBeneath(root, name);
  refuseProtected(r.root, r.real);
  if (r.missing.length) throw new Deno.errors.NotFound(`"${name}" does not exist`);
  // Opening a FIFO blocks until a writer comes: only a regular file is opened.
  if (!Deno.lstatSync(r.real).isFile) throw new Error(`"${name}" is not a regular file`);
  const file = await Deno.open(r.real, { read: true });
  try {
    // What was opened must be what was resolved: no link swapped in meanwhile.
    const opened = await file.stat();
    const again = resolveBeneath(root, name);
    const st = Deno.lstatSync(again.real);
    if (again.real !== r.real || st.ino !== opened.ino || st.dev !== opened.dev) {
      throw new ConfinementError("changed", "the path changed while it was opened");
    }
    if (!opened.isFile) throw new Error(`"${name}" is not a regular file`);
    const chunks: Uint8Array[] = [];
    let size = 0;
    const buf = new Uint8Array(64 * 1024);
    for (;;) {
      const n = await file.read(buf);
      if (n === null) break;
      chunks.push(buf.slice(0, n));
      size += n;
    }
    const out = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  } finally {
    file.close();
  }
}

/**
 * The real directory a file named `name` goes in, its missing parents
 * created inside the root with `dirMode` (`mkdir` each, checked), and the
 * file's base name.
 */
export function directoryFor(
  root: string,
  name: string,
  dirMode: number,
  chmod: (path: string, mode: number) => void,
): { dir: string; base: string } {
  const r = resolveBeneath(root, name);
  refuseProtected(r.root, r.real);
  if (r.missing.length === 0) {
    // The file exists: its directory is the real parent of what resolved.
    // A link as the last component is replaced, never written through.
    const parent = resolveBeneath(root, dirname(isAbsolute(name) ? name : join(root, name)));
    refuseProtected(parent.root, join(parent.real, basename(name)));
    if (parent.missing.length) throw new Deno.errors.NotFound(`the directory of "${name}" is gone`);
    return { dir: parent.real, base: basename(name) };
  }
  let dir = r.existing;
  for (const c of r.missing.slice(0, -1)) {
    const next = join(dir, c);
    try {
      Deno.mkdirSync(next);
      chmod(next, dirMode);
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
    }
    const st = Deno.lstatSync(next);
    if (!st.isDirectory) {
      throw new ConfinementError("changed", "the path changed while it was made");
    }
    dir = next;
  }
  refuseProtected(r.root, join(dir, r.missing[r.missing.length - 1]));
  return { dir, base: r.missing[r.missing.length - 1] };
}

/** Checks that `dir` still resolves to itself beneath the root: right before a rename. */
export function recheckDirectory(root: string, dir: string): void {
  const r = resolveBeneath(root, dir);
  if (r.real !== dir || r.missing.length) {
    throw new ConfinementError("changed", "the directory changed while the file was written");
  }
  refuseProtected(r.root, dir);
}

/** The real path of a file to delete: its directory resolved, the last component as it is. */
export function deletionPath(root: string, name: string): string {
  const abs = isAbsolute(name) ? name : join(root, name);
  const parent = resolveBeneath(root, dirname(abs));
  if (parent.missing.length) throw new Deno.errors.NotFound(`"${name}" does not exist`);
  const target = join(parent.real, basename(abs));
  refuseProtected(parent.root, target);
  return target;
}
