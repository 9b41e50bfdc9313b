/**
 * Helpers for the tests of the commands that read the state: running pravo
 * with buffer streams, and a root whose state holds a few records written
 * through the store API (a secret among them).
 *
 * @module
 */

import { run } from "../../main.ts";
import { openStore } from "../state/open.ts";
import type { RecordInput, StateStore, TxMeta } from "../state/store.ts";
import { put, record as storeRecord } from "../state/store_testing.ts";

export { put };

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs pravo with `argv`; stdout is a terminal when `terminal` says so. */
export async function pravo(
  argv: string[],
  opts: { terminal?: boolean; env?: Record<string, string> } = {},
): Promise<Ran> {
  let stdout = "";
  let stderr = "";
  const code = await run(argv, {
    stdout: (t) => stdout += t,
    stderr: (t) => stderr += t,
    isTerminal: opts.terminal ?? false,
  }, (name) => opts.env?.[name]);
  return { code, stdout, stderr };
}

/** The sensitive value the seeded state holds. */
export const SECRET = "s3cr3t-Pa55word!";

/** A record of a `random_integer` with no attributes, as `r` changes it. */
export function record(r: Partial<RecordInput> & Pick<RecordInput, "address">): RecordInput {
  return storeRecord(r.address, { attributes: {}, configDigest: "digest-" + r.address, ...r });
}

export const META: TxMeta = {
  actor: "alice",
  reason: "first rollout",
  command: "apply",
  planId: "11111111-2222-3333-4444-555555555555",
};

/** The record `base` with `attributes`, refreshed on 2030-01-02, fresh for a day. */
function base(attributes: Record<string, unknown>): RecordInput {
  return record({
    address: "base",
    attributes,
    refreshAge: "24h",
    refreshedAt: "2030-01-02T03:04:05.000Z",
  });
}

/**
 * A temporary root with `pravo init` done and four records, each depending
 * on the one before: base (random_integer) <- pw (random_password, result
 * SECRET) <- file (local_file whose content holds SECRET) <- pet
 * (random_pet). Two log entries: the four creates, then an update of base.
 */
export async function seededRoot(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "pravo-state-" });
  const store = await openStore({ root }, { create: true });
  try {
    await store.transaction(META, async (tx) => {
      await put(tx, base({ min: 1, max: 9, seed: "base", result: 7, id: "7" }));
      await put(
        tx,
        record({
          address: "pw",
          type: "random_password",
          attributes: { length: 16, result: SECRET, bcrypt_hash: "$2a$10$hash", id: "none" },
          sensitivePaths: [["result"], ["bcrypt_hash"]],
          dependencies: ["base"],
        }),
      );
      await put(
        tx,
        record({
          address: "file",
          type: "local_file",
          provider: "hashicorp/local",
          attributes: { filename: "out.txt", content: `password: ${SECRET}` },
          dependencies: ["pw"],
        }),
      );
      await put(
        tx,
        record({
          address: "pet",
          type: "random_pet",
          attributes: { length: 2, separator: "-", id: "happy-cat" },
          dependencies: ["file"],
        }),
      );
    });
    await store.transaction({ actor: "bob", reason: "widen", command: "apply" }, async (tx) => {
      await put(tx, base({ min: 1, max: 20, seed: "base", result: 12, id: "12" }));
    });
  } finally {
    await store.close();
  }
  return root;
}

/** Opens the root's store for a test to write more. */
export async function storeOf(root: string): Promise<StateStore> {
  return await openStore({ root });
}
