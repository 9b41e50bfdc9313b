/**
 * Sensitive values at rest: sealed in the state store with pravo's key for
 * the state (`loadKey().derive("state")`, lib/keys/key.ts), so that whoever
 * can read the store's file (an agent with an editor in the root, a
 * `local_file` data source) reads no secret.
 *
 * A record's value at each of its sensitive paths (those it names and those
 * its type's schema marks) is stored as `{"$sealed": "v1:FINGERPRINT:DATA"}`:
 * AES-256-GCM (lib/keys/seal.ts), its associated data the root's lineage,
 * the record's address and the attribute's path, so that a sealed value
 * copied to another record, attribute or state does not open. The key that
 * makes the transaction log's markers (redact.ts) is sealed the same way,
 * bound to the lineage. FINGERPRINT names the key that sealed it, so that a
 * state sealed under another key says which key it needs.
 *
 * @module
 */

import { DiagnosticsError, error } from "../diag/diag.ts";
import type { PravoKey } from "../keys/key.ts";
import { cryptoModules } from "../keys/lazy.ts";
import type { TypeLookup } from "../providers/registry.ts";
import { type AttrPath, type SecretRecord, sensitivePathsOf } from "./paths.ts";

/** A record as sealing sees it: its secrets, and its address, which each sealed value is bound to. */
export type SealedRecord = SecretRecord & { address: string };

/** A sealed value as a record's attributes hold it. */
export interface SealedValue {
  $sealed: string;
}

const VERSION = "v1";

/** True when `v` is a value sealed by {@linkcode Sealer}. */
export function isSealed(v: unknown): v is SealedValue {
  return v !== null && typeof v === "object" && !Array.isArray(v) &&
    Object.keys(v).length === 1 && typeof (v as SealedValue).$sealed === "string";
}

/** The key of a state: loaded when first needed, so that reads of no secret need none. */
export type KeySource = () => PravoKey;

/** The key from the environment (lib/keys/key.ts), checked to be outside `root`. */
export function defaultKeySource(root?: string): KeySource {
  return () => cryptoModules().key.loadKey(root === undefined ? {} : { root });
}

/**
 * Seals and opens the sensitive values of one state. Which values are
 * sensitive is given, not asked for: `types` (the workspace registry's
 * `findType`, handed to the store by the command that opens it) says which
 * attributes a type's schema marks.
 */
export class Sealer {
  readonly #source: KeySource;
  readonly #where: string;
  /** Looks up a record's type, for the attributes its schema marks sensitive. */
  readonly types: TypeLookup;
  #key: PravoKey | undefined;

  /** `where` names the store in messages: its file or URL. */
  constructor(source: KeySource, opts: { where: string; types: TypeLookup }) {
    this.#source = source;
    this.#where = opts.where;
    this.types = opts.types;
  }

  /** The sensitive paths of a record: those it names and those its type's schema marks. */
  sensitivePaths(rec: Pick<SecretRecord, "provider" | "type" | "mode" | "sensitivePaths">) {
    return sensitivePathsOf(rec, this.types);
  }

  #load(): PravoKey {
    return this.#key ??= this.#source();
  }

  /** Seals `value`, bound to the lineage, the address and the path. */
  seal(lineage: string, address: string, path: AttrPath, value: unknown): SealedValue {
    const key = this.#load();
    const data = cryptoModules().seal.sealText(
      key.derive("state"),
      JSON.stringify(value),
      associated(lineage, address, path),
    );
    return { $sealed: `${VERSION}:${key.fingerprint}:${data}` };
  }

  /** Opens a value sealed by {@linkcode seal}; a DiagnosticsError says what to do when it cannot. */
  unseal(lineage: string, address: string, path: AttrPath, sealed: SealedValue): unknown {
    const text = this.#open(
      sealed.$sealed,
      associated(lineage, address, path),
      () => `${address}.${path.map(String).join(".")}`,
    );
    return JSON.parse(text);
  }

  /** Seals the key of the log's markers, bound to the lineage. */
  sealText(lineage: string, purpose: string, text: string): string {
    const key = this.#load();
    const data = cryptoModules().seal.sealText(
      key.derive("state"),
      text,
      associated(lineage, purpose, []),
    );
    return `sealed:${VERSION}:${key.fingerprint}:${data}`;
  }

  /** Opens what {@linkcode sealText} made; text that was never sealed is given back as it is. */
  unsealText(lineage: string, purpose: string, stored: string): string {
    if (!stored.startsWith("sealed:")) return stored;
    return this.#open(
      stored.slice("sealed:".length),
      associated(lineage, purpose, []),
      () => `the ${purpose}`,
    );
  }

  #open(stored: string, aad: string, what: () => string): string {
    const [version, fingerprint, data] = stored.split(":");
    const key = this.#load();
    if (version !== VERSION || data === undefined) {
      throw new DiagnosticsError([
        error(
          `A sealed value of the state cannot be read: ${what()}`,
          `${this.#where} holds it in a form this pravo does not know ("${version}"). Upgrade pravo to the version that wrote the state, then run the command again.`,
        ),
      ], "error");
    }
    if (fingerprint !== key.fingerprint) {
      throw new DiagnosticsError([
        error(
          `The state was sealed with another key (fingerprint ${fingerprint})`,
          `The sensitive values in ${this.#where} (${what()} first) were sealed with pravo's key ${fingerprint}, and the key in use, from ${key.source}, is ${key.fingerprint}. Give pravo the key with fingerprint ${fingerprint}: point $PRAVO_KEY_FILE at its file, or put its content in $PRAVO_KEY, then run the command again.`,
        ),
      ], "error");
    }
    const text = cryptoModules().seal.unsealText(key.derive("state"), data, aad);
    if (text === undefined) {
      throw new DiagnosticsError([
        error(
          `A sealed value of the state does not open: ${what()}`,
          `In ${this.#where}, the value was changed, or copied from another record, attribute or state: a sealed value is bound to its root's lineage, its address and its attribute. Restore the state from a backup, or remove the record and apply again.`,
        ),
      ], "error");
    }
    return text;
  }
}

function associated(lineage: string, address: string, path: AttrPath): string {
  return `pravo state ${VERSION}\u0000${lineage}\u0000${address}\u0000${JSON.stringify(path)}`;
}

function at(
  v: unknown,
  path: AttrPath,
): { parent: Record<string | number, unknown>; last: string | number } | undefined {
  let cur = v;
  for (const k of path.slice(0, -1)) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string | number, unknown>)[k];
  }
  if (cur === null || typeof cur !== "object") return undefined;
  return { parent: cur as Record<string | number, unknown>, last: path[path.length - 1] };
}

/**
 * The paths whose values are sealed: the record's and those of its type's
 * schema; the empty path (every attribute) as each attribute's.
 */
export function sealedPaths(
  sealer: Pick<Sealer, "sensitivePaths">,
  rec: SecretRecord,
): AttrPath[] {
  const paths = sealer.sensitivePaths(rec);
  if (!paths.some((p) => p.length === 0)) return paths;
  const keys = Object.keys(rec.attributes ?? {}).map((k) => [k]);
  return [...keys, ...paths.filter((p) => p.length > 1)];
}

/**
 * A copy of a record's attributes with the value at each sensitive path
 * sealed; null and absent values, and values already sealed, stay.
 */
export function sealAttributes(
  sealer: Sealer,
  lineage: string,
  rec: SealedRecord,
): Record<string, unknown> {
  const paths = sealedPaths(sealer, rec);
  if (paths.length === 0) return rec.attributes;
  const copy = structuredClone(rec.attributes);
  for (const path of paths) {
    const p = at(copy, path);
    if (!p || !(p.last in p.parent)) continue;
    const v = p.parent[p.last];
    if (v === null || v === undefined || isSealed(v)) continue;
    p.parent[p.last] = sealer.seal(lineage, rec.address, path, v);
  }
  return copy;
}

/** A copy of a record's attributes with every sealed value opened. */
export function unsealAttributes(
  sealer: Sealer,
  lineage: string,
  rec: SealedRecord,
): Record<string, unknown> {
  const paths = sealedPaths(sealer, rec);
  let copy: Record<string, unknown> | undefined;
  for (const path of paths) {
    const p0 = at(rec.attributes, path);
    if (!p0 || !isSealed(p0.parent[p0.last])) continue;
    copy ??= structuredClone(rec.attributes);
    const p = at(copy, path)!;
    p.parent[p.last] = sealer.unseal(lineage, rec.address, path, p.parent[p.last] as SealedValue);
  }
  return copy ?? rec.attributes;
}

/** True when a record holds a sensitive value that is not sealed. */
export function holdsPlainSecret(
  sealer: Pick<Sealer, "sensitivePaths">,
  rec: SecretRecord,
): boolean {
  return sealedPaths(sealer, rec).some((path) => {
    const p = at(rec.attributes, path);
    if (!p || !(p.last in p.parent)) return false;
    const v = p.parent[p.last];
    return v !== null && v !== undefined && !isSealed(v);
  });
}

/** The path a record's private data is sealed under (no attribute has this name). */
const PRIVATE_PATH: AttrPath = ["@private"];
/** How a record read from a row carries its private data before it is opened. */
const SEALED_PRIVATE = "sealed-private:";

/**
 * The `provider_data` column of a record: its type's schema version, the
 * provider's private data, sealed (bound to the lineage and the address, as
 * sensitive values are), and the provider configuration that made the
 * object (`$aws_west`); null when it has none of them. Private data still
 * sealed (a record copied as stored) stays as it is.
 */
export function providerDataColumn(
  sealer: Sealer | undefined,
  lineage: string,
  rec: { address: string; schemaVersion?: number; private?: string; providerInstance?: string },
): string | null {
  if (rec.schemaVersion === undefined && !rec.private && !rec.providerInstance) return null;
  const out: { schema_version?: number; private?: SealedValue; provider_instance?: string } = {};
  if (rec.schemaVersion !== undefined) out.schema_version = rec.schemaVersion;
  if (rec.private) {
    if (rec.private.startsWith(SEALED_PRIVATE)) {
      out.private = JSON.parse(rec.private.slice(SEALED_PRIVATE.length)) as SealedValue;
    } else if (sealer) out.private = sealer.seal(lineage, rec.address, PRIVATE_PATH, rec.private);
    else throw new Error("bug: private data to copy as stored is not sealed");
  }
  if (rec.providerInstance) out.provider_instance = rec.providerInstance;
  return JSON.stringify(out);
}

/**
 * The fields of a record that the `provider_data` column holds, the private
 * data still sealed. A column written before pravo kept the provider
 * configuration has none: the record's is then unknown.
 */
export function providerDataFields(
  column: unknown,
): { schemaVersion?: number; private?: string; providerInstance?: string } {
  if (typeof column !== "string" || column === "") return {};
  const d = JSON.parse(column) as {
    schema_version?: number;
    private?: SealedValue;
    provider_instance?: string;
  };
  const out: { schemaVersion?: number; private?: string; providerInstance?: string } = {};
  if (typeof d.schema_version === "number") out.schemaVersion = d.schema_version;
  if (isSealed(d.private)) out.private = SEALED_PRIVATE + JSON.stringify(d.private);
  if (typeof d.provider_instance === "string") out.providerInstance = d.provider_instance;
  return out;
}

/**
 * True when opening `rec` ({@linkcode unsealRecord}) needs the key: it holds
 * a sealed value at one of its sensitive paths, or sealed private data.
 */
export function holdsSealed(
  sealer: Pick<Sealer, "sensitivePaths">,
  rec: SealedRecord & { private?: string },
): boolean {
  if (rec.private?.startsWith(SEALED_PRIVATE)) return true;
  return sealedPaths(sealer, rec).some((path) => {
    const p = at(rec.attributes, path);
    return p !== undefined && isSealed(p.parent[p.last]);
  });
}

/** A record read from a row with its sensitive values and its private data opened. */
export function unsealRecord<R extends SealedRecord & { private?: string }>(
  sealer: Sealer,
  lineage: string,
  rec: R,
): R {
  const out = { ...rec, attributes: unsealAttributes(sealer, lineage, rec) };
  if (rec.private?.startsWith(SEALED_PRIVATE)) {
    const sealed = JSON.parse(rec.private.slice(SEALED_PRIVATE.length)) as SealedValue;
    out.private = String(sealer.unseal(lineage, rec.address, PRIVATE_PATH, sealed));
  }
  return out;
}
