/**
 * OpenPGP's outer layers (RFC 9580): ASCII armor with its CRC-24, the
 * packets inside, and a reader of their fields. openpgp.ts reads keys and
 * signatures from them.
 *
 * @module
 */

import { concat } from "../../bytes.ts";

/** A malformed key or signature, or a signature that does not verify. */
export class OpenPgpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OpenPgpError";
  }
}

// ---------------------------------------------------------------- armor

/** The CRC-24 of OpenPGP's armor checksum (RFC 4880, 6.1). */
export function crc24(data: Uint8Array): number {
  let crc = 0xb704ce;
  for (const b of data) {
    crc ^= b << 16;
    for (let i = 0; i < 8; i++) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= 0x1864cfb;
    }
  }
  return crc & 0xffffff;
}

/** The binary content of every armored block of `kind` (`PUBLIC KEY BLOCK`, `SIGNATURE`). */
export function dearmor(text: string, kind: string): Uint8Array[] {
  const lines = text.replace(/\r/g, "").split("\n");
  const out: Uint8Array[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== `-----BEGIN PGP ${kind}-----`) continue;
    let j = i + 1;
    // Armor headers ("Version: ...") end at the first blank line.
    while (j < lines.length && lines[j].trim() !== "" && lines[j].includes(":")) j++;
    if (j < lines.length && lines[j].trim() === "") j++;
    let body = "";
    let checksum: string | undefined;
    for (; j < lines.length; j++) {
      const line = lines[j].trim();
      if (line === `-----END PGP ${kind}-----`) break;
      if (/^=[A-Za-z0-9+/]{4}$/.test(line)) checksum = line.slice(1);
      else body += line;
    }
    if (j >= lines.length) throw new OpenPgpError(`the armored ${kind.toLowerCase()} has no end`);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body)) {
      throw new OpenPgpError(`the armored ${kind.toLowerCase()} is not base64`);
    }
    const data = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
    if (checksum !== undefined) {
      const want = Uint8Array.from(atob(checksum), (c) => c.charCodeAt(0));
      const got = crc24(data);
      if (((want[0] << 16) | (want[1] << 8) | want[2]) !== got) {
        throw new OpenPgpError(`the armored ${kind.toLowerCase()} is damaged (CRC-24 mismatch)`);
      }
    }
    out.push(data);
    i = j;
  }
  return out;
}

// ---------------------------------------------------------------- packets

export interface Packet {
  tag: number;
  body: Uint8Array;
}

/** Splits binary OpenPGP data into packets. */
export function parsePackets(data: Uint8Array): Packet[] {
  const packets: Packet[] = [];
  let p = 0;
  while (p < data.length) {
    const ctb = data[p++];
    if ((ctb & 0x80) === 0) throw new OpenPgpError("not an OpenPGP packet");
    let tag: number;
    const parts: Uint8Array[] = [];
    if (ctb & 0x40) {
      tag = ctb & 0x3f;
      for (;;) {
        if (p >= data.length) throw new OpenPgpError("a packet is truncated");
        const o = data[p++];
        let len: number;
        let partial = false;
        if (o < 192) len = o;
        else if (o < 224) len = ((o - 192) << 8) + data[p++] + 192;
        else if (o === 255) {
          len = ((data[p] << 24) | (data[p + 1] << 16) | (data[p + 2] << 8) | data[p + 3]) >>> 0;
          p += 4;
        } else {
          len = 1 << (o & 0x1f);
          partial = true;
        }
        if (p + len > data.length) throw new OpenPgpError("a packet is truncated");
        parts.push(data.subarray(p, p + len));
        p += len;
        if (!partial) break;
      }
    } else {
      tag = (ctb >> 2) & 0x0f;
      const lt = ctb & 3;
      let len: number;
      if (lt === 0) len = data[p++];
      else if (lt === 1) {
        len = (data[p] << 8) | data[p + 1];
        p += 2;
      } else if (lt === 2) {
        len = ((data[p] << 24) | (data[p + 1] << 16) | (data[p + 2] << 8) | data[p + 3]) >>> 0;
        p += 4;
      } else len = data.length - p;
      if (p + len > data.length) throw new OpenPgpError("a packet is truncated");
      parts.push(data.subarray(p, p + len));
      p += len;
    }
    packets.push({ tag, body: parts.length === 1 ? parts[0] : concat(parts) });
  }
  return packets;
}

export class Reader {
  #d: Uint8Array;
  p = 0;
  constructor(d: Uint8Array) {
    this.#d = d;
  }
  need(n: number): void {
    if (this.p + n > this.#d.length) throw new OpenPgpError("a packet is shorter than it says");
  }
  byte(): number {
    this.need(1);
    return this.#d[this.p++];
  }
  u16(): number {
    this.need(2);
    const v = (this.#d[this.p] << 8) | this.#d[this.p + 1];
    this.p += 2;
    return v;
  }
  u32(): number {
    this.need(4);
    const d = this.#d;
    const v = ((d[this.p] << 24) | (d[this.p + 1] << 16) | (d[this.p + 2] << 8) | d[this.p + 3]) >>>
      0;
    this.p += 4;
    return v;
  }
  bytes(n: number): Uint8Array {
    this.need(n);
    const v = this.#d.subarray(this.p, this.p + n);
    this.p += n;
    return v;
  }
  mpi(): Uint8Array {
    const bits = this.u16();
    return this.bytes((bits + 7) >> 3);
  }
  get done(): boolean {
    return this.p >= this.#d.length;
  }
}
