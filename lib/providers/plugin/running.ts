/**
 * The plugin providers this process started, as things to close: the
 * command layer closes them all when a command ends (`main.ts`), and sends
 * Stop to them all on the first interrupt. Nothing heavy is imported here,
 * so that commands that start no provider pay nothing for it.
 *
 * @module
 */

/** What a running provider offers the command layer. */
export interface Closable {
  /** Asks it to stop what it is doing (Ctrl-C): calls in flight return early. */
  stop(): Promise<void>;
  /** Ends it. */
  close(): Promise<void>;
}

const running = new Set<Closable>();

/** Registers a started provider; returns the function that unregisters it. */
export function register(p: Closable): () => void {
  running.add(p);
  return () => running.delete(p);
}

/** How many providers run now. */
export function runningCount(): number {
  return running.size;
}

/** Sends Stop to every running provider. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop().catch(() => {})));
}

/** Closes every running provider. */
export async function closeAll(): Promise<void> {
  const all = [...running];
  running.clear();
  await Promise.all(all.map((p) => p.close().catch(() => {})));
}

/**
 * Removes the socket directory named by `$PRAVO_PLUGIN_SOCKET_DIR` when it
 * is empty (every provider closed): scripts/pravo made it for this run.
 */
export function removeSocketDir(): void {
  let dir: string | undefined;
  try {
    dir = Deno.env.get("PRAVO_PLUGIN_SOCKET_DIR");
  } catch {
    return;
  }
  if (!dir || !dir.startsWith("/")) return;
  try {
    Deno.removeSync(dir);
  } catch {
    // not empty, gone, or not ours to remove
  }
}
