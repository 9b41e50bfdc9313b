/**
 * A write transaction of the SQLite store, over its writing connection
 * inside `BEGIN IMMEDIATE`: records written and removed, refresh times and
 * outputs set; the changes to log are kept until commit (tx_base.ts).
 *
 * @module
 */

// The methods are async though SQLite is synchronous: an error then rejects
// the promise as it will for PostgreSQL, instead of throwing at the call.
// deno-lint-ignore-file require-await

import type { DatabaseSync } from "node:sqlite";
import type { Row } from "../rows.ts";
import type { RecordInput, StateRecord } from "../store.ts";
import { type Sealing, TxBase } from "../tx_base.ts";
import {
  deleteRecord,
  markRefreshed,
  recordAt,
  storedPaths,
  upsertRecord,
  writeOutputs,
} from "./records.ts";

/** What a transaction wrote, kept until commit. */
export class SqliteTx extends TxBase {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync, sealing: Sealing) {
    super(sealing);
    this.#db = db;
  }

  protected storedPaths(address: string): Row | undefined {
    return storedPaths(this.#db, address);
  }

  async getRecord(address: string): Promise<StateRecord | undefined> {
    this.live();
    const rec = recordAt(this.#db, address);
    return rec ? this.unsealed(rec) : undefined;
  }

  async putRecord(r: RecordInput): Promise<void> {
    this.live();
    await this.seed(r.address);
    this.addPaths(r);
    upsertRecord(this.#db, r, this.columnsOf(r));
    this.wrote = true;
  }

  async deleteRecord(address: string): Promise<boolean> {
    this.live();
    await this.seed(address);
    const deleted = deleteRecord(this.#db, address);
    this.wrote = true;
    return deleted;
  }

  async markRefreshed(addresses: string[], at?: string): Promise<void> {
    this.live();
    markRefreshed(this.#db, { addresses, at: at ?? this.now().toISOString() });
    // Refresh times are bookkeeping, not a change: they neither move the
    // serial (a saved plan stays fresh) nor make a log entry of their own.
  }

  async setOutputs(outputs: Record<string, unknown>): Promise<void> {
    this.live();
    writeOutputs(this.#db, outputs);
  }
}
