/**
 * Test helpers for provider installation: zip archives, fake provider
 * packages written into mirrors and caches, a signing key and a provider
 * registry. Not used by pravo itself.
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
  options: { zip64?: boolean; store?: boolean; dos?: boolean } = {},
): Uint8Array<ArrayBuffer> {
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
    cv.setUint16(4, options.dos ? 20 : (3 << 8) | 45, true); // made by DOS, or Unix
    cv.setUint16(6, 20, true);
    cv.setUint16(8, 0x0800, true);
    cv.setUint16(10, method, true);
    cv.setUint16(14, 0x21, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, z64 ? 0xffffffff : body.length, true);
    cv.setUint32(24, z64 ? 0xffffffff : raw.length, true);
    cv.setUint16(28, name.length, true);
    cv.setUint16(30, extra.length, true);
    cv.setUint32(38, options.dos ? (e.directory ? 0x10 : 0) : (mode << 16) >>> 0, true);
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
  return concat([...locals, ...centrals, ...tail]);
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

/** A provider's package as a mirror or a cache holds it. */
export interface FakePackage {
  /** `HOST/NAMESPACE/TYPE`, written as the folders are named (their case kept). */
  address: string;
  version: string;
  /** Default `linux_amd64`. */
  platform?: string;
  /** Default {@link fakeProviderFiles} of its type and version. */
  files?: readonly TestZipEntry[];
  /** A zip `terraform-provider-TYPE_VERSION_PLATFORM.zip` beside the versions, not a folder. */
  packed?: boolean;
}

/** The unpacked package of hashicorp/aws 5.100.0 for linux_amd64. */
export const AWS_PACKAGE: FakePackage = {
  address: "registry.terraform.io/hashicorp/aws",
  version: "5.100.0",
};

/**
 * Writes a fake provider's package into the mirror or cache `dir`, in the
 * layout Terraform reads: unpacked at `ADDRESS/VERSION/PLATFORM/`, or
 * packed at `ADDRESS/terraform-provider-TYPE_VERSION_PLATFORM.zip`; returns
 * the package's folder or zip.
 */
export async function writeFakePackage(dir: string, pkg: FakePackage): Promise<string> {
  const type = pkg.address.slice(pkg.address.lastIndexOf("/") + 1);
  const platform = pkg.platform ?? "linux_amd64";
  const files = pkg.files ?? fakeProviderFiles(type, pkg.version);
  if (!pkg.packed) {
    const path = join(dir, pkg.address, pkg.version, platform);
    await writeTree(path, files);
    return path;
  }
  const path = join(dir, pkg.address, `terraform-provider-${type}_${pkg.version}_${platform}.zip`);
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeFile(path, zipBytes(files));
  return path;
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

// ---------------------------------------------------------------- OpenPGP signing

import { createHash, generateKeyPairSync, type KeyObject, sign as cryptoSign } from "node:crypto";
import { concat } from "../../bytes.ts";
import { crc24 } from "./openpgp_packets.ts";

/** A throwaway OpenPGP key that signs, as a registry's provider author has. */
export interface TestSigningKey {
  /** The public key, ASCII-armored, as a registry's `signing_keys` carry it. */
  armored: string;
  /** The primary key's ID (16 upper-case hex digits). */
  keyId: string;
  /** A binary detached signature (type 0x00, SHA-256) of `document`. */
  sign(document: Uint8Array): Uint8Array;
}

function mpi(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  const b = bytes.subarray(i);
  const bits = b.length === 0 ? 0 : (b.length - 1) * 8 + (32 - Math.clz32(b[0]));
  return concat([new Uint8Array([bits >> 8, bits & 0xff]), b]);
}

function fromB64url(s: string): Uint8Array {
  const b = s.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(b + "=".repeat((4 - b.length % 4) % 4)), (c) => c.charCodeAt(0));
}

function packet(tag: number, body: Uint8Array): Uint8Array {
  const n = body.length;
  const len = n < 192
    ? [n]
    : n < 8384
    ? [((n - 192) >> 8) + 192, (n - 192) & 0xff]
    : [255, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  return concat([new Uint8Array([0xc0 | tag, ...len]), body]);
}

function subpacket(type: number, data: Uint8Array): Uint8Array {
  return concat([new Uint8Array([data.length + 1, type]), data]);
}

function armor(kind: string, data: Uint8Array): string {
  const crc = crc24(data);
  const body = btoa(String.fromCharCode(...data)).replace(/(.{64})/g, "$1\n").replace(/\n$/, "");
  const sum = btoa(String.fromCharCode((crc >> 16) & 0xff, (crc >> 8) & 0xff, crc & 0xff));
  return `-----BEGIN PGP ${kind}-----\n\n${body}\n=${sum}\n-----END PGP ${kind}-----\n`;
}

/**
 * Makes a key (RSA 2048, or Ed25519 as GnuPG writes it: EdDSA, algorithm
 * 22) with a user ID and its self-signature, so that GnuPG imports it too.
 */
export function makeSigningKey(
  kind: "rsa" | "ed25519",
  userId = "Test Provider Author <author@example.com>",
): TestSigningKey {
  const created = Math.floor(Date.now() / 1000) - 60;
  let material: Uint8Array;
  let algorithm: number;
  let privateKey: KeyObject;
  if (kind === "rsa") {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const jwk = pair.publicKey.export({ format: "jwk" });
    material = concat([mpi(fromB64url(jwk.n!)), mpi(fromB64url(jwk.e!))]);
    algorithm = 1;
    privateKey = pair.privateKey;
  } else {
    const pair = generateKeyPairSync("ed25519");
    const x = fromB64url(pair.publicKey.export({ format: "jwk" }).x!);
    const oid = new Uint8Array([0x2b, 0x06, 0x01, 0x04, 0x01, 0xda, 0x47, 0x0f, 0x01]);
    material = concat([
      new Uint8Array([oid.length]),
      oid,
      mpi(concat([new Uint8Array([0x40]), x])),
    ]);
    algorithm = 22;
    privateKey = pair.privateKey;
  }
  const body = concat([
    new Uint8Array([
      4,
      created >>> 24,
      (created >>> 16) & 0xff,
      (created >>> 8) & 0xff,
      created & 0xff,
    ]),
    new Uint8Array([algorithm]),
    material,
  ]);
  const keyPrefix = concat([new Uint8Array([0x99, body.length >> 8, body.length & 0xff]), body]);
  const fingerprint = new Uint8Array(createHash("sha1").update(keyPrefix).digest());
  const keyId = fingerprint.subarray(12);

  const signature = (type: number, prefix: Uint8Array, extra: Uint8Array[] = []) => {
    const now = Math.floor(Date.now() / 1000);
    const hashedSub = concat([
      subpacket(
        2,
        new Uint8Array([now >>> 24, (now >>> 16) & 0xff, (now >>> 8) & 0xff, now & 0xff]),
      ),
      subpacket(33, concat([new Uint8Array([4]), fingerprint])),
      ...extra,
    ]);
    const hashedPart = concat([
      new Uint8Array([4, type, algorithm, 8, hashedSub.length >> 8, hashedSub.length & 0xff]),
      hashedSub,
    ]);
    const n = hashedPart.length;
    const trailer = new Uint8Array([
      4,
      0xff,
      n >>> 24,
      (n >>> 16) & 0xff,
      (n >>> 8) & 0xff,
      n & 0xff,
    ]);
    const data = concat([prefix, hashedPart, trailer]);
    const digest = new Uint8Array(createHash("sha256").update(data).digest());
    let values: Uint8Array;
    if (kind === "rsa") {
      values = mpi(new Uint8Array(cryptoSign("sha256", data, privateKey)));
    } else {
      const raw = new Uint8Array(cryptoSign(null, digest, privateKey));
      values = concat([mpi(raw.subarray(0, 32)), mpi(raw.subarray(32))]);
    }
    const unhashed = subpacket(16, keyId);
    return packet(
      2,
      concat([
        hashedPart,
        new Uint8Array([unhashed.length >> 8, unhashed.length & 0xff]),
        unhashed,
        digest.subarray(0, 2),
        values,
      ]),
    );
  };

  const uid = new TextEncoder().encode(userId);
  const uidPrefix = concat([
    new Uint8Array([
      0xb4,
      uid.length >>> 24,
      (uid.length >>> 16) & 0xff,
      (uid.length >>> 8) & 0xff,
      uid.length & 0xff,
    ]),
    uid,
  ]);
  const selfSig = signature(0x13, concat([keyPrefix, uidPrefix]), [
    subpacket(27, new Uint8Array([0x03])),
  ]);
  const armored = armor("PUBLIC KEY BLOCK", concat([packet(6, body), packet(13, uid), selfSig]));
  return {
    armored,
    keyId: Array.from(keyId, (b) => b.toString(16).padStart(2, "0")).join("").toUpperCase(),
    sign: (document) => signature(0x00, document),
  };
}

// ---------------------------------------------------------------- a registry

/** One version of a provider that a {@link FakeRegistry} serves. */
export interface FakeVersion {
  namespace: string;
  type: string;
  version: string;
  /** Default `["5.0"]`. */
  protocols?: string[];
  /** Default `linux_amd64` only. */
  platforms?: string[];
}

/** A provider registry served on 127.0.0.1 for tests, speaking the registry protocol. */
export interface FakeRegistry {
  /** `http://127.0.0.1:PORT/`, or with TLS `https://localhost:PORT/` */
  url: string;
  /** `$PRAVO_TEST_REGISTRY_OVERRIDE` for these hosts. */
  override(...hosts: string[]): string;
  /** The paths asked for, in order. */
  requests: string[];
  /** The zip bytes of a package, as served. */
  zip(v: FakeVersion, platform: string): Uint8Array;
  key: TestSigningKey;
  close(): Promise<void>;
  /** As close(), for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Ways to make a {@link FakeRegistry} misbehave. */
export interface FakeRegistryFaults {
  /** Serve another archive than the one SHA256SUMS lists. */
  tamperZip?: boolean;
  /** Sign SHA256SUMS with a key the registry does not name. */
  foreignSignature?: boolean;
  /** Name no signing key. */
  noKeys?: boolean;
  /** Announce another `shasum` than SHA256SUMS lists. */
  wrongShasum?: boolean;
}

/** Serves these provider versions over the provider registry protocol. */
export function serveRegistry(
  versions: readonly FakeVersion[],
  faults: FakeRegistryFaults = {},
  key: TestSigningKey = makeSigningKey("ed25519"),
  tls?: { cert: string; key: string },
): FakeRegistry {
  const foreign = faults.foreignSignature
    ? makeSigningKey("rsa", "Someone Else <x@example.com>")
    : key;
  const requests: string[] = [];
  const platformsOf = (v: FakeVersion) => v.platforms ?? ["linux_amd64"];
  const zipCache = new Map<string, Uint8Array>();
  const zip = (v: FakeVersion, platform: string) => {
    const k = `${v.namespace}/${v.type}/${v.version}/${platform}`;
    let z = zipCache.get(k);
    if (!z) {
      z = zipBytes([
        ...fakeProviderFiles(v.type, v.version),
        { name: "PLATFORM", data: platform + "\n" },
      ]);
      zipCache.set(k, z);
    }
    return z;
  };
  const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
  const fileName = (v: FakeVersion, platform: string) =>
    `terraform-provider-${v.type}_${v.version}_${platform}.zip`;
  const shasums = (v: FakeVersion) =>
    new TextEncoder().encode(
      platformsOf(v).map((p) => `${sha(zip(v, p))}  ${fileName(v, p)}\n`).join(""),
    );
  const find = (ns: string, type: string, version?: string) =>
    versions.filter((v) =>
      v.namespace === ns && v.type === type && (version === undefined || v.version === version)
    );
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {}, ...tls }, (req) => {
    const path = new URL(req.url).pathname;
    requests.push(path);
    if (path === "/.well-known/terraform.json") return json({ "providers.v1": "/v1/providers/" });
    let m = /^\/v1\/providers\/([^/]+)\/([^/]+)\/versions$/.exec(path);
    if (m) {
      const list = find(m[1], m[2]);
      if (list.length === 0) return json({ errors: ["Not Found"] }, 404);
      return json({
        versions: list.map((v) => ({
          version: v.version,
          protocols: v.protocols ?? ["5.0"],
          platforms: platformsOf(v).map((p) => ({ os: p.split("_")[0], arch: p.split("_")[1] })),
        })),
        warnings: null,
      });
    }
    m = /^\/v1\/providers\/([^/]+)\/([^/]+)\/([^/]+)\/download\/([^/]+)\/([^/]+)$/.exec(path);
    if (m) {
      const [v] = find(m[1], m[2], m[3]);
      const platform = `${m[4]}_${m[5]}`;
      if (!v || !platformsOf(v).includes(platform)) return json({ errors: ["Not Found"] }, 404);
      const base = `/files/${v.namespace}/${v.type}/${v.version}`;
      return json({
        protocols: v.protocols ?? ["5.0"],
        os: m[4],
        arch: m[5],
        filename: fileName(v, platform),
        download_url: `${base}/${platform}.zip`,
        shasums_url: `${base}/SHA256SUMS`,
        shasums_signature_url: `${base}/SHA256SUMS.sig`,
        shasum: faults.wrongShasum ? "0".repeat(64) : sha(zip(v, platform)),
        signing_keys: {
          gpg_public_keys: faults.noKeys ? [] : [{ key_id: key.keyId, ascii_armor: key.armored }],
        },
      });
    }
    m = /^\/files\/([^/]+)\/([^/]+)\/([^/]+)\/(.+)$/.exec(path);
    if (m) {
      const [v] = find(m[1], m[2], m[3]);
      if (!v) return new Response("not found", { status: 404 });
      if (m[4] === "SHA256SUMS") return new Response(new Uint8Array(shasums(v)));
      if (m[4] === "SHA256SUMS.sig") return new Response(new Uint8Array(foreign.sign(shasums(v))));
      const platform = m[4].replace(/\.zip$/, "");
      if (!platformsOf(v).includes(platform)) return new Response("not found", { status: 404 });
      const body = faults.tamperZip
        ? zipBytes([{
          name: `terraform-provider-${v.type}_v${v.version}`,
          data: "evil",
          mode: 0o755,
        }])
        : zip(v, platform);
      return new Response(new Uint8Array(body));
    }
    return new Response("not found", { status: 404 });
  });
  const url = tls
    ? `https://localhost:${server.addr.port}/`
    : `http://127.0.0.1:${server.addr.port}/`;
  return {
    url,
    requests,
    zip,
    key,
    override: (...hosts) =>
      (hosts.length ? hosts : ["registry.terraform.io"]).map((h) => `${h}=${url}`).join(","),
    close: () => server.shutdown(),
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}
