/**
 * Cycles in a dependency graph.
 *
 * @module
 */

/** A node and what it depends on. */
export interface GraphNode {
  address: string;
  dependencies: readonly string[];
}

/**
 * A cycle among the nodes' dependencies, as the list of addresses around
 * it (the first found, visiting nodes in sorted order), or undefined.
 */
export function findCycle(nodes: readonly GraphNode[]): string[] | undefined {
  const deps = new Map(nodes.map((n) => [n.address, n.dependencies]));
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (a: string): string[] | undefined => {
    state.set(a, 1);
    stack.push(a);
    for (const d of deps.get(a) ?? []) {
      if (state.get(d) === 1) return stack.slice(stack.indexOf(d));
      if (!state.has(d)) {
        const c = visit(d);
        if (c) return c;
      }
    }
    stack.pop();
    state.set(a, 2);
    return undefined;
  };
  for (const n of [...deps.keys()].sort()) {
    if (!state.has(n)) {
      const c = visit(n);
      if (c) return c;
    }
  }
  return undefined;
}
