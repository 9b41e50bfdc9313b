/**
 * A write transaction of the PostgreSQL store, inside `sql.begin` with the
 * root's row locked: records written and removed, refresh times and outputs
 * set, every statement naming the root; the changes to log are kept until
 * commit (tx_base.ts).
 *
 * @module
 */

import type { Row } from "../rows.ts";
import type { RecordInput, StateRecord } from "../store.ts";
import { type Sealing, TxBase } from "../tx_base.ts";
import type { TxSql } from "./connect.ts";
import {
  deleteRecord,
  markRefreshed,
  recordAt,
  type RootSql,
  storedPaths,
  upsertRecord,
  writeOutputs,
} from "./records.ts";

/** What a transaction wrote, kept until commit. */
export class PostgresTx extends TxBase {
  readonly #root: RootSql;

  constructor(q: TxSql, opts: Sealing & { rootId: string }) {
    super(opts);
    this.#root = { q, rootId: opts.rootId };
  }

  protected storedPaths(address: string): Promise<Row | undefined> {
    return storedPaths(this.#root, address);
  }

  async getRecord(address: string): Promise<StateRecord | undefined> {
    this.live();
    const rec = await recordAt(this.#root, address);
    return rec ? this.unsealed(rec) : undefined;
  }

  async putRecord(r: RecordInput): Promise<void> {
    this.live();
    const old = await upsertRecord(this.#root, { record: r, columns: this.columnsOf(r) });
    this.seedFrom(r.address, old);
    this.addPaths(r);
    this.wrote = true;
  }

  async deleteRecord(address: string): Promise<boolean> {
    this.live();
    await this.seed(address);
    const deleted = await deleteRecord(this.#root, address);
    this.wrote = true;
    return deleted;
  }

  async markRefreshed(addresses: string[], at?: string): Promise<void> {
    this.live();
    await markRefreshed(this.#root, { addresses, at: at ?? this.now().toISOString() });
    // Refresh times are bookkeeping, not a change: they neither move the
    // serial (a saved plan stays fresh) nor make a log entry of their own.
  }

  async setOutputs(outputs: Record<string, unknown>): Promise<void> {
    this.live();
    await writeOutputs(this.#root, outputs);
  }
}
