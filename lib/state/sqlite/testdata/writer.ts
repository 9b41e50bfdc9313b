/**
 * A child process for the crash and lock tests of `../store_test.ts`.
 *
 *   writer.ts DB write N   writes records r000..r(N-1) that are missing, one
 *                          transaction each, printing "committed I" after
 *                          each commit, under the state lock
 *   writer.ts DB hold      takes the state lock, prints "locked", and waits
 *                          to be killed
 */

import { SqliteStore } from "../store.ts";

/** The attributes record `i` must have: big enough to span database pages. */
export function attrsFor(i: number): Record<string, unknown> {
  return {
    index: i,
    payload: `${i}:` + "abcdefghij".repeat(300) + `:${i}`,
    nested: { list: Array.from({ length: 20 }, (_, k) => k * i), name: `r${i}` },
  };
}

export function addressOf(i: number): string {
  return `r${String(i).padStart(3, "0")}`;
}

if (import.meta.main) {
  const [db, mode, n] = Deno.args;
  const out = (s: string) => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));
  const store = await SqliteStore.open(db, { create: true });
  const lock = await store.acquireLock({
    actor: `writer-${Deno.pid}`,
    reason: "crash test",
    command: mode,
    timeoutMs: 10_000,
  });
  if (lock.tookOver) out(`took over ${lock.tookOver.actor}: ${lock.tookOver.stale}`);
  if (mode === "hold") {
    out("locked");
    await new Promise(() => {}); // until killed
  }
  const meta = { actor: `writer-${Deno.pid}`, reason: "crash test", command: "apply" };
  for (let i = 0; i < Number(n); i++) {
    const address = addressOf(i);
    if (await store.getRecord(address)) continue;
    await store.transaction(meta, async (tx) => {
      const attributes = attrsFor(i);
      await tx.putRecord({
        address,
        mode: "managed",
        type: "random_integer",
        provider: "hashicorp/random",
        attributes,
        sensitivePaths: [],
        dependencies: i === 0 ? [] : [addressOf(i - 1)],
        configDigest: `sha256:${i}`,
        refreshAge: null,
      });
      // Most of the time goes here, inside the transaction, so that most
      // kills land between a record's write and its log entry.
      await new Promise((r) => setTimeout(r, 2));
      await tx.logChange({ address, action: "create", before: null, after: attributes });
    });
    out(`committed ${i}`);
  }
  await store.close();
  out("done");
}
