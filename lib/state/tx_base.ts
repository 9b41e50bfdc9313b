/**
 * What the SQLite and PostgreSQL transactions share apart from their SQL:
 * the clock, the sealer and the lineage they seal under, the changes kept
 * until commit, and the sensitive paths of every record they touch, before
 * and after (so that the log redacts a value even when the caller forgot to
 * say it was sensitive).
 *
 * The sensitive paths of a record are those it names and those its type's
 * schema marks (`Sealer.sensitivePaths`, lib/secrets/seal.ts, with the type
 * lookup the store was opened with): the store asks no registry.
 *
 * @module
 */

import { providerDataColumn, sealAttributes, type Sealer, unsealRecord } from "../secrets/seal.ts";
import { type AttrPath, sensitivePathsOf } from "../secrets/paths.ts";
import type { TypeLookup } from "../providers/registry.ts";
import { canonicalJson, unionPaths } from "../secrets/redact.ts";
import type { Row } from "./rows.ts";
import type { ChangeInput, Mode, RecordInput, StateRecord, StateTx } from "./store.ts";

/** What a record's row holds apart from its input's fields: its sealed values, and the time. */
export interface RecordColumns {
  /** The attributes, sensitive values sealed, as canonical JSON. */
  attributes: string;
  /** The provider's private data, sealed; null when there is none. */
  providerData: string | null;
  /** When it is written: its update time, and its creation and refresh times unless given. */
  now: string;
}

/** What a transaction writes with: the clock, and the sealer with the lineage it seals under. */
export interface Sealing {
  now: () => Date;
  sealer: Sealer;
  lineage: string;
}

/** What both stores' transactions share (see the module's doc). */
export abstract class TxBase implements StateTx {
  protected readonly now: () => Date;
  protected readonly sealer: Sealer;
  protected readonly lineage: string;
  readonly changes: ChangeInput[] = [];
  /** Every path that was sensitive in each record this transaction wrote, before or after. */
  protected readonly paths = new Map<string, AttrPath[]>();
  wrote = false;
  #done = false;

  protected constructor(sealing: Sealing) {
    this.now = sealing.now;
    this.sealer = sealing.sealer;
    this.lineage = sealing.lineage;
  }

  abstract getRecord(address: string): Promise<StateRecord | undefined>;
  abstract putRecord(record: RecordInput): Promise<void>;
  abstract deleteRecord(address: string): Promise<boolean>;
  abstract markRefreshed(addresses: string[], at?: string): Promise<void>;
  abstract setOutputs(outputs: Record<string, unknown>): Promise<void>;

  /**
   * The columns `sensitive_paths`, `provider`, `type` and `mode` of the
   * record at `address` as stored, or undefined when there is none.
   */
  protected abstract storedPaths(address: string): Row | undefined | Promise<Row | undefined>;

  async logChange(change: ChangeInput): Promise<void> {
    this.live();
    await this.seed(change.address);
    this.changes.push(structuredClone(change));
    this.wrote = true;
  }

  finish(): void {
    this.#done = true;
  }

  /** Refuses a transaction used after it ended: a bug in the caller. */
  protected live(): void {
    if (this.#done) throw new Error("bug: a state transaction was used after it ended");
  }

  /** Every path that was sensitive in the record, before or after. */
  sensitivePathsOf(address: string): AttrPath[] {
    return this.paths.get(address) ?? [];
  }

  /** Remembers the sensitive paths the record had before this transaction. */
  protected async seed(address: string): Promise<void> {
    if (this.paths.has(address)) return;
    const row = await this.storedPaths(address);
    this.seedFrom(address, row);
  }

  /** Remembers the sensitive paths of `row`, the record as it was, unless known already. */
  protected seedFrom(address: string, row: Row | undefined): void {
    if (!this.paths.has(address)) {
      this.paths.set(address, row ? pathsOfRow(row, this.sealer.types) : []);
    }
  }

  /** Adds the sensitive paths of the record this transaction writes. */
  protected addPaths(r: RecordInput): void {
    this.paths.set(r.address, unionPaths(this.paths.get(r.address), this.sealer.sensitivePaths(r)));
  }

  /** The columns of `r`'s row that are not its input's fields as they are. */
  protected columnsOf(r: RecordInput): RecordColumns {
    return {
      attributes: canonicalJson(sealAttributes(this.sealer, this.lineage, r)),
      providerData: providerDataColumn(this.sealer, this.lineage, r),
      now: this.now().toISOString(),
    };
  }

  /** A record read from a row, its sealed values opened. */
  protected unsealed(rec: StateRecord): StateRecord {
    return unsealRecord(this.sealer, this.lineage, rec);
  }
}

/** The sensitive paths of a record's row: those it names and its type's schema marks. */
export function pathsOfRow(row: Row, types: TypeLookup): AttrPath[] {
  return sensitivePathsOf({
    provider: String(row.provider),
    type: String(row.type),
    mode: String(row.mode) as Mode,
    sensitivePaths: JSON.parse(String(row.sensitive_paths)),
  }, types);
}
