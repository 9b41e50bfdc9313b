/**
 * `pravo fmt`: CUE's canonical formatting of the root's `.cue` files, as
 * `cue fmt` of CUE v0.4.3 writes it (lib/cue/format/). It evaluates nothing
 * and loads no cue-wasm.
 *
 * Without arguments it formats the root's `.cue` files (as `validate` reads
 * them: the root directory, not its subdirectories); a FILE argument is a
 * file or a directory, relative to the root. A file is rewritten atomically
 * (a temporary file beside it, synced, renamed over it, its mode kept); a
 * file that does not parse is reported with its line and column and left
 * as it is. A symbolic link is refused: formatting it would copy what it
 * points to into the root.
 *
 * @module
 */

import { lstatSync, readdirSync, readFileSync, renameSync, unlinkSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { type CommandRun, emit, fail } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { type Diagnostic, DiagnosticsError, error } from "../diag/diag.ts";
import { writeNewFile } from "../files/new_file.ts";
import { formatSource, FormatSyntaxError } from "../cue/format/mod.ts";
import { unifiedDiff } from "../cue/format/diff.ts";

/** One file as `--json` prints it. */
export interface FmtFileDoc {
  /** The path as given, or relative to the root. */
  file: string;
  /** Formatting changes it. */
  changed: boolean;
  /** With `--diff`: the unified diff of the change. */
  diff?: string;
}

/** The document that `pravo fmt --json` prints. */
export interface FmtDoc {
  format_version: "1.0";
  /** `--check`: nothing was written. */
  check: boolean;
  files: FmtFileDoc[];
}

export const run: CommandRun = (ctx, opts, args) => {
  const check = Boolean(opts.check);
  const showDiff = Boolean(opts.diff);
  const diags: Diagnostic[] = [];
  /** A file could not be read or written: exit 1 rather than 3. */
  let ioFailed = false;
  const targets = collect(ctx.root, args, diags);
  const files: FmtFileDoc[] = [];
  for (const t of targets) {
    let src: string;
    try {
      src = readFileSync(t.path, "utf8");
    } catch (e) {
      ioFailed = true;
      diags.push(fileFailure("read", t.name, e));
      continue;
    }
    let out: string;
    try {
      out = formatSource(src);
    } catch (e) {
      if (!(e instanceof FormatSyntaxError)) throw e;
      diags.push(
        error(
          "Syntax error",
          `${e.message}. Correct the syntax at this place; pravo fmt leaves the file as it is.`,
          { range: { file: t.name, line: e.line, column: e.column } },
        ),
      );
      continue;
    }
    const changed = out !== src;
    const doc: FmtFileDoc = { file: t.name, changed };
    if (changed && showDiff) doc.diff = unifiedDiff(t.name, src, out);
    if (changed && !check) {
      try {
        writeAtomically(t.path, out);
      } catch (e) {
        ioFailed = true;
        diags.push(fileFailure("write", t.name, e));
        continue;
      }
    }
    files.push(doc);
  }
  const changed = files.filter((f) => f.changed);
  const doc: FmtDoc = { format_version: "1.0", check, files };
  emit(
    ctx,
    doc,
    () => changed.map((f) => showDiff ? f.diff! : f.file + "\n").join("").replace(/\n$/, ""),
  );
  // The files that could be formatted were; the others are errors, exit 3.
  if (diags.length) {
    const kind = ioFailed ? "error" : "invalid";
    return Promise.resolve(fail(ctx, new DiagnosticsError(diags, kind)));
  }
  return Promise.resolve(check && changed.length > 0 ? Exit.INVALID : Exit.OK);
};

interface Target {
  /** As shown: the argument, or the path relative to the root. */
  name: string;
  path: string;
}

/** The files to format: the root's `.cue` files, or those the arguments name. */
function collect(root: string, args: string[], diags: Diagnostic[]): Target[] {
  const out: Target[] = [];
  const seen = new Set<string>();
  const add = (name: string, path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    out.push({ name, path });
  };
  const dir = (name: string, path: string, explicit: boolean) => {
    let names: string[];
    try {
      names = readdirSync(path).filter((n) => n.endsWith(".cue")).sort();
    } catch (e) {
      diags.push(fileFailure("readDir", name, e));
      return;
    }
    for (const n of names) {
      const p = join(path, n);
      const shown = explicit ? join(name, n) : n;
      if (regular(shown, p, diags, false)) add(shown, p);
    }
  };
  if (args.length === 0) {
    dir(".", root, false);
    return out;
  }
  for (const a of args) {
    const path = isAbsolute(a) ? resolve(a) : resolve(root, a);
    let st;
    try {
      st = lstatSync(path);
    } catch {
      diags.push(
        error(
          "No such file",
          `"${a}" does not exist (paths are relative to the root, ${
            relative(Deno.cwd(), root) || "."
          }). Give a .cue file or a directory.`,
        ),
      );
      continue;
    }
    if (st.isDirectory()) dir(a, path, true);
    else if (regular(a, path, diags, true)) add(a, path);
  }
  return out;
}

/** True for a regular file; a symbolic link or anything else is a diagnostic. */
function regular(name: string, path: string, diags: Diagnostic[], explicit: boolean): boolean {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) {
    diags.push(
      error(
        "A symbolic link is not formatted",
        `"${name}" is a symbolic link. Formatting it would write what it points to into this directory; format the file it points to where it is.`,
      ),
    );
    return false;
  }
  if (!st.isFile()) {
    if (explicit) {
      diags.push(
        error("Not a file", `"${name}" is not a regular file. Give a .cue file or a directory.`),
      );
    }
    return false;
  }
  return true;
}

/** What a failure to read a directory, or to read or write a file, says. */
const IO_FAILURES = {
  readDir: {
    summary: "Cannot read the directory",
    doing: "Reading",
    fix: "Give a directory that exists, or run pravo in the root.",
  },
  read: {
    summary: "Cannot read the file",
    doing: "Reading",
    fix: "Check the path and its permissions.",
  },
  write: {
    summary: "Cannot write the file",
    doing: "Writing",
    fix: "Check that the file and its directory are writable.",
  },
};

/** The error of a file (or a directory) that could not be read or written. */
export function fileFailure(what: keyof typeof IO_FAILURES, name: string, e: unknown): Diagnostic {
  const f = IO_FAILURES[what];
  return error(f.summary, `${f.doing} "${name}" failed: ${(e as Error).message}. ${f.fix}`);
}

/** Writes `text` to `path` through a temporary file beside it, keeping the file's mode. */
function writeAtomically(path: string, text: string): void {
  const mode = lstatSync(path).mode & 0o7777;
  const tmp = join(dirname(path), `.${basename(path)}.${Deno.pid}.fmt.tmp`);
  try {
    writeNewFile(tmp, text, mode);
    Deno.chmodSync(tmp, mode);
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing left behind
    }
    throw e;
  }
}
