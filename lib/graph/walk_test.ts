import assert from "node:assert/strict";
import { bounded, walk } from "./walk.ts";

type Out = { node: string; ok: boolean; why?: string };

function graph(edges: Record<string, string[]>): Map<string, Set<string>> {
  return new Map(Object.entries(edges).map(([n, d]) => [n, new Set(d)]));
}

function base(nodes: string[], waits: Map<string, Set<string>>, run: (n: string) => Promise<Out>) {
  return {
    nodes,
    waits,
    parallelism: 10,
    run,
    succeeded: (o: Out) => o.ok,
    blocked: (node: string, by: string): Out => ({ node, ok: false, why: `blocked by ${by}` }),
    notStarted: (node: string): Out => ({ node, ok: false, why: "not started" }),
  };
}

Deno.test("walk() runs each node after what it waits for, and never more than parallelism at once", async () => {
  const order: string[] = [];
  let now = 0, most = 0;
  const run = async (n: string): Promise<Out> => {
    most = Math.max(most, ++now);
    await new Promise((r) => setTimeout(r, 5));
    order.push(n);
    now--;
    return { node: n, ok: true };
  };
  const waits = graph({ a: [], b: [], c: [], d: ["a", "b"], e: ["d"], f: ["outside"] });
  const r = await walk({ ...base(["a", "b", "c", "d", "e", "f"], waits, run), parallelism: 2 });
  assert.equal(most, 2);
  assert.ok(order.indexOf("d") > order.indexOf("a") && order.indexOf("d") > order.indexOf("b"));
  assert.ok(order.indexOf("e") > order.indexOf("d"));
  assert.equal(r.outcomes.size, 6, "a wait on a node outside the walk is ignored");
  assert.deepEqual([...r.started].sort(), ["a", "b", "c", "d", "e", "f"]);
});

Deno.test("walk() blocks every node below one that fails, and runs the others", async () => {
  const ran: string[] = [];
  const run = (n: string) => {
    ran.push(n);
    return Promise.resolve({ node: n, ok: n !== "a" });
  };
  const r = await walk(base(["a", "b", "c", "d"], graph({ b: ["a"], c: ["b"], d: [] }), run));
  assert.deepEqual(ran.sort(), ["a", "d"]);
  assert.equal(r.outcomes.get("b")!.why, "blocked by a");
  assert.equal(r.outcomes.get("c")!.why, "blocked by b");
  assert.ok(r.outcomes.get("d")!.ok);
});

Deno.test("walk() starts nothing once the signal aborts: the running node finishes, the rest are not started", async () => {
  const ac = new AbortController();
  const run = (n: string) => {
    if (n === "a") ac.abort("SIGINT");
    return Promise.resolve({ node: n, ok: true });
  };
  const r = await walk({
    ...base(["a", "b", "c"], graph({ b: ["a"] }), run),
    parallelism: 1,
    signal: ac.signal,
  });
  assert.deepEqual([...r.started], ["a"]);
  assert.ok(r.outcomes.get("a")!.ok);
  assert.equal(r.outcomes.get("b")!.why, "not started");
  assert.equal(r.outcomes.get("c")!.why, "not started");
});

Deno.test("walk() refuses to hang on a cycle", async () => {
  const run = (n: string) => Promise.resolve({ node: n, ok: true });
  await assert.rejects(
    walk(base(["a", "b"], graph({ a: ["b"], b: ["a"] }), run)),
    /stuck with a, b/,
  );
});

Deno.test("bounded() runs every task, at most n at once", async () => {
  let now = 0, most = 0, ran = 0;
  const task = async () => {
    most = Math.max(most, ++now);
    await new Promise((r) => setTimeout(r, 2));
    now--;
    ran++;
  };
  await bounded(Array.from({ length: 7 }, () => task), 3);
  assert.equal(ran, 7);
  assert.equal(most, 3);
  await bounded([], 3);
});
