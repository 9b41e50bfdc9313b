/**
 * The time of a 1,000-node apply (random_integer nodes) on PostgreSQL
 * against SQLite, through the real pravo (`deno run -A main.ts`):
 *
 *   PRAVO_TEST_PG=postgres://USER:PASSWORD@HOST:PORT/DB deno run -A tests/pg_bench.ts [N]
 *
 * Prints one line per store: init, the apply, and a plan afterwards
 * (nothing to do). Not a test: it is run by hand, and its figures go into
 * the notes.
 */

import { makeRoot, pravo } from "./_pravo.ts";

const PG = Deno.env.get("PRAVO_TEST_PG") ?? "";
const N = Number(Deno.args[0] ?? 1000);

function spec(n: number): string {
  const lines = ["package bench", "", 'import rnd "pravo.dev/providers/hashicorp/random"', ""];
  lines.push("$random: rnd.#Provider", "");
  for (let i = 0; i < n; i++) {
    lines.push(`n${i}: $random.#Resource.random_integer & {min: 1, max: 1000000}`);
  }
  return lines.join("\n") + "\n";
}

async function timed(root: string, args: string[], env: Record<string, string>) {
  const t = performance.now();
  const r = await pravo(root, args, { env });
  if (r.code !== 0) throw new Error(`${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return (performance.now() - t) / 1000;
}

if (import.meta.main) {
  const stores: [string, Record<string, string>][] = [["sqlite", {}]];
  if (PG) stores.push(["postgres", { PRAVO_STATE: `${PG}?root=bench/${crypto.randomUUID()}` }]);
  else console.log("PRAVO_TEST_PG is not set: SQLite only");
  for (const [name, env] of stores) {
    const root = await makeRoot({ "main.cue": spec(N) });
    try {
      const init = await timed(root, ["init"], env);
      const apply = await timed(root, ["apply", "-auto-approve", "--json"], env);
      const plan = await timed(root, ["plan"], env);
      console.log(
        `${name.padEnd(8)} ${N} nodes: init ${init.toFixed(2)} s, apply ${apply.toFixed(2)} s, ` +
          `plan after ${plan.toFixed(2)} s`,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }
}
