/**
 * The terminal's question: after a command has written what it asks, one
 * answer is read, and only `yes` says yes. An interrupt while it waits is a
 * no, at once.
 *
 * @module
 */

/** Where the answer is read from: the terminal (`Deno.stdin`), or a test's. */
export interface AnswerInput {
  read(p: Uint8Array): Promise<number | null>;
}

/**
 * Reads one answer (up to 1 KiB, trimmed) and tells whether it is `yes`.
 * Once `signal` aborts, before or while it waits, the answer is no.
 */
export async function answerIsYes(
  opts: { signal?: AbortSignal; input?: AnswerInput } = {},
): Promise<boolean> {
  const { signal, input = Deno.stdin } = opts;
  const buf = new Uint8Array(1024);
  if (!signal) return _yes(buf, await input.read(buf));
  let onAbort = () => {};
  const aborted = new Promise<null>((resolve) => {
    onAbort = () => resolve(null);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const n = signal.aborted ? null : await Promise.race([input.read(buf), aborted]);
    return !signal.aborted && _yes(buf, n);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

function _yes(buf: Uint8Array, n: number | null): boolean {
  return n !== null && new TextDecoder().decode(buf.subarray(0, n)).trim() === "yes";
}
