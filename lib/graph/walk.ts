/**
 * Walking a dependency graph: the one scheduler of plan, apply and destroy.
 * Each node runs once everything it waits for has succeeded, at most
 * `parallelism` at once, in the order the nodes are given among those
 * ready. A node that does not succeed keeps every node that waits for it
 * from running (it is blocked, and so on down), and after the signal aborts
 * nothing new starts: the running nodes finish and the rest are not started.
 *
 * @module
 */

/** What a walk runs and how it tells its outcomes. */
export interface WalkOptions<O> {
  /** The nodes to run; among those ready, the earlier starts first. */
  nodes: readonly string[];
  /** What each node waits for: nodes of `nodes` (others are ignored). */
  waits: ReadonlyMap<string, ReadonlySet<string>>;
  /** The most nodes that run at once (at least 1). */
  parallelism: number;
  /** After it aborts, no node starts. */
  signal?: AbortSignal;
  /** Runs a node; its outcome, which never rejects (a failure is an outcome). */
  run(node: string): Promise<O>;
  /** Whether an outcome lets the nodes that wait for it run. */
  succeeded(outcome: O): boolean;
  /** The outcome of a node that will not run because `by`, which it waits for, did not succeed. */
  blocked(node: string, by: string): O;
  /** The outcome of a node that the signal kept from starting. */
  notStarted(node: string): O;
}

/** The outcome of every node, and the nodes that started. */
export interface WalkResult<O> {
  outcomes: Map<string, O>;
  started: Set<string>;
}

/**
 * Runs the nodes of a graph in dependency order (see the module's doc).
 * Throws when nodes are left that can never run: a cycle among `waits`.
 */
export async function walk<O>(opts: WalkOptions<O>): Promise<WalkResult<O>> {
  const member = new Set(opts.nodes);
  const waiters = new Map<string, string[]>();
  const remaining = new Map<string, number>();
  for (const n of opts.nodes) {
    const waits = [...(opts.waits.get(n) ?? [])].filter((d) => member.has(d));
    remaining.set(n, new Set(waits).size);
    for (const d of new Set(waits)) {
      if (!waiters.has(d)) waiters.set(d, []);
      waiters.get(d)!.push(n);
    }
  }
  const outcomes = new Map<string, O>();
  const started = new Set<string>();
  const ready = opts.nodes.filter((n) => remaining.get(n) === 0);
  const running = new Set<Promise<void>>();
  const parallelism = Math.max(1, opts.parallelism);
  const aborted = () => opts.signal?.aborted === true;
  const done = (node: string, o: O) => {
    outcomes.set(node, o);
    for (const w of waiters.get(node) ?? []) {
      if (outcomes.has(w)) continue;
      if (!opts.succeeded(o)) {
        done(w, aborted() ? opts.notStarted(w) : opts.blocked(w, node));
        continue;
      }
      const left = remaining.get(w)! - 1;
      remaining.set(w, left);
      if (left === 0) ready.push(w);
    }
  };
  while (ready.length || running.size) {
    while (ready.length && running.size < parallelism && !aborted()) {
      const node = ready.shift()!;
      if (outcomes.has(node)) continue;
      started.add(node);
      const p: Promise<void> = opts.run(node).then((o) => {
        running.delete(p);
        done(node, o);
      });
      running.add(p);
    }
    if (running.size) await Promise.race(running);
    else if (aborted()) break;
  }
  if (aborted()) {
    for (const n of opts.nodes) if (!outcomes.has(n)) done(n, opts.notStarted(n));
  }
  if (outcomes.size !== member.size) {
    const stuck = opts.nodes.filter((n) => !outcomes.has(n));
    throw new Error(`bug: the walk is stuck with ${stuck.join(", ")} pending (a cycle?)`);
  }
  return { outcomes, started };
}

/** Runs `tasks`, at most `n` at once, each as soon as a place is free. */
export async function bounded(tasks: readonly (() => Promise<void>)[], n: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, n), tasks.length) }, worker));
}
