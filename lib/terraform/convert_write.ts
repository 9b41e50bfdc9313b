/**
 * Writing a conversion into the root: the CUE files (each written whole,
 * through a temporary file renamed over it), `pravo.jsonc` (its `providers`
 * set, every other setting and comment kept) and `pravo.lock.json` (the
 * plugin providers of `.terraform.lock.hcl` set, the rest kept).
 *
 * `.cue` files already in the root are not overwritten, nor joined by the
 * converted ones (they would be one package), unless `force`: then the
 * files of the conversion replace theirs, and the others stay.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { type Diagnostic, DiagnosticsError, error, warning } from "../diag/diag.ts";
import type { Conversion } from "./convert.ts";
import { configText, lockText, packageName } from "./convert_files.ts";

/** A file written, as the document lists it. */
export interface WrittenFile {
  path: string;
  /** `created`, `replaced` (a file of the same name was there), `updated` (settings merged). */
  action: "created" | "replaced" | "updated";
}

/** The CUE module path and package name a root gets. */
export function rootNames(root: string): { modulePath: string; packageName: string } {
  const pkg = packageName(basename(root));
  let modulePath = `terraform.local/${pkg}`;
  try {
    const text = Deno.readTextFileSync(join(root, "cue.mod", "module.cue"));
    const m = /^\s*module:\s*"([^"@]+)(?:@v\d+)?"/m.exec(text);
    if (m) modulePath = m[1];
  } catch {
    // none yet
  }
  return { modulePath, packageName: pkg };
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The `.cue` files at the top of the root. */
function cueFilesOf(root: string): string[] {
  try {
    return [...Deno.readDirSync(root)].filter((e) => e.isFile && e.name.endsWith(".cue"))
      .map((e) => e.name).sort();
  } catch {
    return [];
  }
}

/** Writes `text` at `path` through a temporary file beside it. */
function writeWhole(path: string, text: string): void {
  Deno.mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${Deno.pid}.convert.tmp`);
  try {
    Deno.writeTextFileSync(tmp, text);
    Deno.renameSync(tmp, path);
  } catch (e) {
    try {
      Deno.removeSync(tmp);
    } catch {
      // nothing left behind
    }
    throw e;
  }
}

/**
 * Writes `conv` into `root`; returns the files written and the warnings of
 * the writing. Refuses (a `DiagnosticsError`, nothing written) what it
 * would overwrite without `force`.
 */
export function writeConversion(
  root: string,
  conv: Conversion,
  opts: { force: boolean },
): { files: WrittenFile[]; diagnostics: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const targets = new Set(conv.files.map((f) => f.path));
  const clash = conv.files.map((f) => f.path).filter((p) => exists(join(root, p)));
  const others = cueFilesOf(root).filter((n) => !targets.has(n));
  if (!opts.force && (clash.length || others.length)) {
    const names = [...new Set([...clash, ...others])].sort();
    throw new DiagnosticsError([
      error(
        "The root holds CUE files already",
        `${names.map((n) => `"${n}"`).join(", ")} ${
          names.length === 1 ? "is" : "are"
        } in the root, and pravo convert writes a package of its own there. Convert into an empty directory (-C DIR), or pass --force to write over the files of the same name (the others stay, in the same package).`,
      ),
    ], "error");
  }
  if (others.length) {
    diags.push(
      warning(
        "Other CUE files stay in the root",
        `${
          others.map((n) => `"${n}"`).join(", ")
        } are not from this conversion and stay: they are part of the same package. Remove them if they are not meant to be.`,
      ),
    );
  }
  const files: WrittenFile[] = [];
  Deno.mkdirSync(root, { recursive: true });
  for (const f of conv.files) {
    const path = join(root, f.path);
    const action = exists(path) ? "replaced" : "created";
    writeWhole(path, f.text);
    files.push({ path: f.path, action });
  }
  const read = (name: string) => {
    try {
      return Deno.readTextFileSync(join(root, name));
    } catch {
      return undefined;
    }
  };
  if (Object.keys(conv.providers).length) {
    const before = read("pravo.jsonc");
    writeWhole(join(root, "pravo.jsonc"), configText(before, conv.providers));
    files.push({ path: "pravo.jsonc", action: before === undefined ? "created" : "updated" });
  }
  if (Object.keys(conv.lock).length) {
    const before = read("pravo.lock.json");
    writeWhole(
      join(root, "pravo.lock.json"),
      lockText(before, conv.lock, join(root, "pravo.lock.json")),
    );
    files.push({ path: "pravo.lock.json", action: before === undefined ? "created" : "updated" });
  }
  return { files, diagnostics: diags };
}
