/**
 * Test helpers for provider installation: zip archives and fake provider
 * packages. Not used by pravo itself.
 *
 * @module
 */

import { deflateRawSync } from "node:zlib";
import { dirname, join } from "node:path";

/** One entry of a test archive. */
export interface TestZipEntry {
  name: string;
  data?: string | Uint8Array;
  /** Unix permission bits (default 0o644, 0o755 for directories). */
  mode?: number;
  directory?: boolean;
  symlink?: boolean;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of data) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * The bytes of a zip archive holding these entries, deflated (or stored),
 * with Unix modes; `zip64` writes ZIP64 records as large archives have them.
 * The same entries always give the same bytes.
 */
export function zipBytes(
  entries: readonly TestZipEntry[],
  options: { zip64?: boolean; store?: boolean } = {},
): Uint8Array {
  const enc = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const raw = typeof e.data === "string" ? enc.encode(e.data) : e.data ?? new Uint8Array(0);
    const method = e.directory || options.store ? 0 : 8;
    const body = method === 8 ? new Uint8Array(deflateRawSync(raw)) : raw;
    const crc = crc32(raw);
    const type = e.directory ? 0o040000 : e.symlink ? 0o120000 : 0o100000;
    const mode = type | (e.mode ?? (e.directory ? 0o755 : 0o644));
    const z64 = options.zip64 === true;
    const extra = z64 ? new Uint8Array(4 + 24) : new Uint8Array(0);
    if (z64) {
      const xv = new DataView(extra.buffer);
      xv.setUint16(0, 0x0001, true);
      xv.setUint16(2, 24, true);
      xv.setBigUint64(4, BigInt(raw.length), true);
      xv.setBigUint64(12, BigInt(body.length), true);
      xv.setBigUint64(20, BigInt(offset), true);
    }
    const local = new Uint8Array(30 + name.length + body.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(6, 0x0800, true); // UTF-8 names
    lv.setUint16(8, method, true);
    lv.setUint16(10, 0, true);
    lv.setUint16(12, 0x21, true); // 1980-01-01
    lv.setUint32(14, crc, true);
    lv.setUint32(18, body.length, true);
    lv.setUint32(22, raw.length, true);
    lv.setUint16(26, name.length, true);
    lv.setUint16(28, 0, true);
    local.set(name, 30);
    local.set(body, 30 + name.length);
    const central = new Uint8Array(46 + name.length + extra.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, (3 << 8) | 45, true); // made by Unix
    cv.setUint16(6, 20, true);
    cv.setUint16(8, 0x0800, true);
    cv.setUint16(10, method, true);
    cv.setUint16(14, 0x21, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, z64 ? 0xffffffff : body.length, true);
    cv.setUint32(24, z64 ? 0xffffffff : raw.length, true);
    cv.setUint16(28, name.length, true);
    cv.setUint16(30, extra.length, true);
    cv.setUint32(38, (mode << 16) >>> 0, true);
    cv.setUint32(42, z64 ? 0xffffffff : offset, true);
    central.set(name, 46);
    central.set(extra, 46 + name.length);
    locals.push(local);
    centrals.push(central);
    offset += local.length;
  }
  const cdSize = centrals.reduce((n, c) => n + c.length, 0);
  const tail: Uint8Array[] = [];
  if (options.zip64) {
    const rec = new Uint8Array(56);
    const rv = new DataView(rec.buffer);
    rv.setUint32(0, 0x06064b50, true);
    rv.setBigUint64(4, 44n, true);
    rv.setUint16(12, 45, true);
    rv.setUint16(14, 45, true);
    rv.setBigUint64(24, BigInt(entries.length), true);
    rv.setBigUint64(32, BigInt(entries.length), true);
    rv.setBigUint64(40, BigInt(cdSize), true);
    rv.setBigUint64(48, BigInt(offset), true);
    const loc = new Uint8Array(20);
    const locv = new DataView(loc.buffer);
    locv.setUint32(0, 0x07064b50, true);
    locv.setBigUint64(8, BigInt(offset + cdSize), true);
    locv.setUint32(16, 1, true);
    tail.push(rec, loc);
  }
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, options.zip64 ? 0xffff : entries.length, true);
  ev.setUint16(10, options.zip64 ? 0xffff : entries.length, true);
  ev.setUint32(12, options.zip64 ? 0xffffffff : cdSize, true);
  ev.setUint32(16, options.zip64 ? 0xffffffff : offset, true);
  tail.push(end);
  const parts = [...locals, ...centrals, ...tail];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A fake provider's files: one executable shell script that exits at once. */
export function fakeProviderFiles(type: string, version: string): TestZipEntry[] {
  return [
    {
      name: `terraform-provider-${type}_v${version}`,
      data: `#!/bin/sh\n# a fake ${type} provider ${version}\nexit 1\n`,
      mode: 0o755,
    },
    { name: "LICENSE", data: "Not a real provider.\n" },
  ];
}

/** Writes files (and their folders) under `dir`. */
export async function writeTree(dir: string, files: readonly TestZipEntry[]): Promise<void> {
  for (const f of files) {
    const path = join(dir, f.name);
    if (f.directory) {
      await Deno.mkdir(path, { recursive: true });
      continue;
    }
    await Deno.mkdir(dirname(path), { recursive: true });
    const data = typeof f.data === "string" ? new TextEncoder().encode(f.data) : f.data;
    await Deno.writeFile(path, data ?? new Uint8Array(0), { mode: f.mode ?? 0o644 });
    await Deno.chmod(path, f.mode ?? 0o644);
  }
}
