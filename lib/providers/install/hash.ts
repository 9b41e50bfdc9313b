/**
 * The hashes that lock a provider package, as Terraform and OpenTofu write
 * them in `.terraform.lock.hcl`:
 *
 * - `h1:` Go's dirhash "Hash1" of the unpacked package: for each file, in
 *   byte order of its slash-separated path, the line
 *   `<sha256 hex>  <path>\n`; the base64 of the SHA-256 of those lines. It
 *   is the same for a package unpacked on disk and for its zip archive (whose
 *   directory entries do not count, as Terraform hashes the installed
 *   directory);
 * - `zh:` the SHA-256 (hex) of the zip archive itself, as a registry's
 *   `SHA256SUMS` lists it for every platform.
 *
 * Hashing the 700 MB AWS provider takes about half a second; a
 * {@link FileHashCache} makes the next time a few `stat` calls.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import type { FileHashCache } from "./hash_cache.ts";

import type { Hash } from "./hash_scheme.ts";

export { type Hash, type HashScheme, hashScheme } from "./hash_scheme.ts";

/** `h1:` over files and the SHA-256 (hex) of their content, in any order. */
export function h1OfFiles(files: readonly { name: string; sha256: string }[]): Hash {
  const enc = new TextEncoder();
  const sorted = files.map((f) => ({ ...f, key: enc.encode(f.name) })).sort((a, b) =>
    compareBytes(a.key, b.key)
  );
  const summary = createHash("sha256");
  for (const f of sorted) {
    if (f.name.includes("\n")) throw new Error(`a file name holds a newline: "${f.name}"`);
    summary.update(`${f.sha256}  ${f.name}\n`);
  }
  return "h1:" + summary.digest("base64");
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** `zh:` of an archive: the SHA-256 (hex) of the file. */
export function zhOfSha256(hex: string): Hash {
  return `zh:${hex}`;
}

const BUFFER = 4 << 20;

/** The SHA-256 (hex) of a file's content, read in large synchronous chunks. */
export function sha256File(path: string): string {
  const h = createHash("sha256");
  const buf = new Uint8Array(BUFFER);
  const f = Deno.openSync(path, { read: true });
  try {
    for (;;) {
      const n = f.readSync(buf);
      if (n === null) break;
      h.update(buf.subarray(0, n));
    }
  } finally {
    f.close();
  }
  return h.digest("hex");
}

/** The files of a package directory, with slash-separated relative paths. */
export function packageFiles(dir: string): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = [];
  const walk = (abs: string, rel: string) => {
    for (const e of Deno.readDirSync(abs)) {
      const path = join(abs, e.name);
      const name = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory) {
        walk(path, name);
      } else if (e.isSymlink && Deno.statSync(path).isDirectory) {
        // Go's filepath.Walk does not follow it, and reading it then fails.
        throw new Error(`"${name}" is a symbolic link to a directory`);
      } else {
        out.push({ name, path });
      }
    }
  };
  walk(dir, "");
  return out;
}

/**
 * The `h1:` hash of an unpacked package directory (symbolic links followed,
 * as Terraform does). With a cache, a file whose identity and times did not
 * change is not read again.
 */
export function hashPackageDir(dir: string, cache?: FileHashCache): Hash {
  const files = packageFiles(dir).map((f) => ({
    name: f.name,
    sha256: cache ? cache.sha256(f.path) : sha256File(f.path),
  }));
  return h1OfFiles(files);
}
