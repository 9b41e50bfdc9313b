/**
 * Reading provider packages: zip archives, as registries and packed mirrors
 * hold them. Only what packages need: stored and deflated entries, ZIP64,
 * Unix file modes. Entries are streamed to disk, so a 700 MB provider never
 * sits in memory, and hashed on the way (for the `h1:` hash).
 *
 * An archive is refused, before anything is written, when an entry's name
 * would leave the target directory (absolute, `..`, backslashes), when two
 * entries share a name, when an entry is a symbolic link, encrypted or
 * compressed with another method; and while writing, when an entry inflates
 * to another size than its header says.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { inflateRawSync } from "node:zlib";

/** One file or directory of an archive, from its central directory. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  size: number;
  /** Where its local header starts. */
  localOffset: number;
  /** Permission bits from the Unix attributes, when the archive has them. */
  mode?: number;
  isDirectory: boolean;
  isSymlink: boolean;
  encrypted: boolean;
}

/** A damaged or unsafe archive. */
export class ZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ZipError";
  }
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Reads `length` bytes at `offset` of an archive, or throws {@link ZipError}. */
type ReadAt = (offset: number, length: number) => Uint8Array;

function readAt(file: Deno.FsFile, offset: number, length: number): Uint8Array {
  const buf = new Uint8Array(length);
  file.seekSync(offset, Deno.SeekMode.Start);
  let got = 0;
  while (got < length) {
    const n = file.readSync(buf.subarray(got));
    if (n === null) throw new ZipError("the archive is truncated");
    got += n;
  }
  return buf;
}

/** Lists an archive's entries, checking that every one is safe to extract. */
export function readZipEntries(path: string): ZipEntry[] {
  const file = Deno.openSync(path, { read: true });
  try {
    return entriesOf((o, n) => readAt(file, o, n), file.statSync().size);
  } finally {
    file.close();
  }
}

function entriesOf(read: ReadAt, size: number): ZipEntry[] {
  const tailLength = Math.min(size, 22 + 65535);
  const tail = read(size - tailLength, tailLength);
  const tv = new DataView(tail.buffer);
  let at = -1;
  for (let i = tailLength - 22; i >= 0; i--) {
    if (tv.getUint32(i, true) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new ZipError("it is not a zip archive (no end of central directory)");
  let count = tv.getUint16(at + 10, true);
  let cdSize = tv.getUint32(at + 12, true);
  let cdOffset = tv.getUint32(at + 16, true);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const locAt = at - 20;
    if (locAt < 0 || tv.getUint32(locAt, true) !== EOCD64_LOCATOR) {
      throw new ZipError("the ZIP64 end of central directory is missing");
    }
    const eocd64Offset = Number(tv.getBigUint64(locAt + 8, true));
    const e = new DataView(read(eocd64Offset, 56).buffer);
    if (e.getUint32(0, true) !== EOCD64) throw new ZipError("the ZIP64 record is damaged");
    count = Number(e.getBigUint64(32, true));
    cdSize = Number(e.getBigUint64(40, true));
    cdOffset = Number(e.getBigUint64(48, true));
  }
  if (cdOffset + cdSize > size) throw new ZipError("the central directory is truncated");
  const cd = read(cdOffset, cdSize);
  const v = new DataView(cd.buffer);
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cd.length || v.getUint32(p, true) !== CENTRAL) {
      throw new ZipError("the central directory is damaged");
    }
    const madeBy = v.getUint16(p + 4, true);
    const flags = v.getUint16(p + 8, true);
    const method = v.getUint16(p + 10, true);
    let compressedSize = v.getUint32(p + 20, true);
    let uncompressed = v.getUint32(p + 24, true);
    const nameLength = v.getUint16(p + 28, true);
    const extraLength = v.getUint16(p + 30, true);
    const commentLength = v.getUint16(p + 32, true);
    const external = v.getUint32(p + 38, true);
    let localOffset = v.getUint32(p + 42, true);
    const nameBytes = cd.subarray(p + 46, p + 46 + nameLength);
    const name = new TextDecoder("utf-8", { fatal: false }).decode(nameBytes);
    // ZIP64 sizes and offset, in that order, for the fields that overflowed.
    let x = p + 46 + nameLength;
    const xEnd = x + extraLength;
    while (x + 4 <= xEnd) {
      const id = v.getUint16(x, true);
      const len = v.getUint16(x + 2, true);
      if (id === 0x0001) {
        let q = x + 4;
        const next = () => {
          const n = Number(v.getBigUint64(q, true));
          q += 8;
          return n;
        };
        if (uncompressed === 0xffffffff) uncompressed = next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (localOffset === 0xffffffff) localOffset = next();
      }
      x += 4 + len;
    }
    p = xEnd + commentLength;
    const unixMode = (madeBy >> 8) === 3 ? external >>> 16 : undefined;
    const fileType = unixMode === undefined ? 0 : unixMode & 0o170000;
    const entry: ZipEntry = {
      name,
      method,
      compressedSize,
      size: uncompressed,
      localOffset,
      mode: unixMode === undefined ? undefined : unixMode & 0o777,
      isDirectory: name.endsWith("/") || fileType === 0o040000,
      isSymlink: fileType === 0o120000,
      encrypted: (flags & 1) === 1,
    };
    checkEntry(entry, names);
    entries.push(entry);
  }
  return entries;
}

function checkEntry(e: ZipEntry, names: Set<string>): void {
  const n = e.name.replace(/\/$/, "");
  const bad = n === "" || n.startsWith("/") || n.includes("\\") || n.includes("\0") ||
    n.split("/").some((part) => part === ".." || part === "." || part === "") ||
    /^[A-Za-z]:/.test(n) || n.includes("\n");
  if (bad) throw new ZipError(`the entry "${e.name}" would be written outside the package`);
  if (names.has(n)) throw new ZipError(`the entry "${e.name}" appears twice`);
  names.add(n);
  if (e.isSymlink) throw new ZipError(`the entry "${e.name}" is a symbolic link`);
  if (e.encrypted) throw new ZipError(`the entry "${e.name}" is encrypted`);
  if (!e.isDirectory && e.method !== 0 && e.method !== 8) {
    throw new ZipError(`the entry "${e.name}" uses compression method ${e.method}`);
  }
}

/** A file written out of an archive, and the SHA-256 of its content (hex). */
export interface ExtractedFile {
  name: string;
  sha256: string;
}

/**
 * Extracts every entry of the archive into `dest` (which must exist and be
 * empty), keeping Unix permission bits, and returns each file's SHA-256. An
 * archive made without Unix modes (on Windows) gives 0644, and 0755 to a
 * provider's executable (`terraform-provider-*`).
 */
export async function extractZip(path: string, dest: string): Promise<ExtractedFile[]> {
  const file = await Deno.open(path, { read: true });
  try {
    const entries = entriesOf((o, n) => readAt(file, o, n), (await file.stat()).size);
    const out: ExtractedFile[] = [];
    for (const e of entries) {
      const target = join(dest, e.name);
      if (e.isDirectory) {
        await Deno.mkdir(target, { recursive: true, mode: 0o755 });
        continue;
      }
      await Deno.mkdir(dirname(target), { recursive: true, mode: 0o755 });
      const sha256 = await writeEntry(file, e, target);
      out.push({ name: e.name, sha256 });
    }
    return out;
  } finally {
    file.close();
  }
}

/** The SHA-256 (hex) of each file of the archive, without writing anything. */
export async function hashZipEntries(path: string): Promise<ExtractedFile[]> {
  const file = await Deno.open(path, { read: true });
  try {
    const entries = entriesOf((o, n) => readAt(file, o, n), (await file.stat()).size);
    const out: ExtractedFile[] = [];
    for (const e of entries) {
      if (!e.isDirectory) out.push({ name: e.name, sha256: await writeEntry(file, e) });
    }
    return out;
  } finally {
    file.close();
  }
}

/**
 * The files of an archive held in memory (a CUE module's zip: kilobytes),
 * by name, inflated; checked as {@link readZipEntries} checks them, and
 * each file against the size its header declares.
 */
export function zipFilesOf(bytes: Uint8Array): Map<string, Uint8Array> {
  const read: ReadAt = (offset, length) => {
    if (offset < 0 || offset + length > bytes.length) {
      throw new ZipError("the archive is truncated");
    }
    return bytes.slice(offset, offset + length);
  };
  const out = new Map<string, Uint8Array>();
  for (const e of entriesOf(read, bytes.length)) {
    if (e.isDirectory) continue;
    const hv = new DataView(read(e.localOffset, 30).buffer);
    if (hv.getUint32(0, true) !== LOCAL) throw new ZipError(`the entry "${e.name}" is damaged`);
    const dataOffset = e.localOffset + 30 + hv.getUint16(26, true) + hv.getUint16(28, true);
    const raw = read(dataOffset, e.compressedSize);
    let content: Uint8Array;
    try {
      content = e.method === 8 ? inflateRawSync(raw, { maxOutputLength: e.size + 1 }) : raw;
    } catch (err) {
      throw new ZipError(`the entry "${e.name}" cannot be inflated: ${(err as Error).message}`);
    }
    if (content.length !== e.size) {
      throw new ZipError(
        `the entry "${e.name}" holds ${content.length} bytes, not the ${e.size} it declares`,
      );
    }
    out.set(e.name, content);
  }
  return out;
}

const CHUNK = 1 << 20;

function modeOf(e: ZipEntry): number {
  if (e.mode !== undefined) return e.mode;
  return e.name.split("/").pop()!.startsWith("terraform-provider-") ? 0o755 : 0o644;
}

async function writeEntry(file: Deno.FsFile, e: ZipEntry, target?: string): Promise<string> {
  const header = readAt(file, e.localOffset, 30);
  const hv = new DataView(header.buffer);
  if (hv.getUint32(0, true) !== LOCAL) throw new ZipError(`the entry "${e.name}" is damaged`);
  const dataOffset = e.localOffset + 30 + hv.getUint16(26, true) + hv.getUint16(28, true);
  let remaining = e.compressedSize;
  let position = dataOffset;
  const raw = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (remaining === 0) {
        controller.close();
        return;
      }
      const n = Math.min(CHUNK, remaining);
      const chunk = readAt(file, position, n);
      position += n;
      remaining -= n;
      controller.enqueue(chunk);
    },
  });
  const content = e.method === 8
    ? raw.pipeThrough(
      new DecompressionStream("deflate-raw") as TransformStream<Uint8Array, Uint8Array>,
    )
    : raw;
  const hash = createHash("sha256");
  const out = target === undefined ? undefined : await Deno.open(target, {
    write: true,
    createNew: true,
    mode: modeOf(e),
  });
  let written = 0;
  try {
    for await (const chunk of content) {
      written += chunk.length;
      if (written > e.size) break;
      hash.update(chunk);
      if (out) {
        let off = 0;
        while (off < chunk.length) off += await out.write(chunk.subarray(off));
      }
    }
  } catch (err) {
    throw new ZipError(`the entry "${e.name}" cannot be inflated: ${(err as Error).message}`);
  } finally {
    out?.close();
  }
  if (written !== e.size) {
    throw new ZipError(
      `the entry "${e.name}" holds ${written} bytes, not the ${e.size} it declares`,
    );
  }
  if (target !== undefined) await Deno.chmod(target, modeOf(e));
  return hash.digest("hex");
}
