/**
 * Generated roots for the benchmarks: random_integer chains, each node
 * referring to the previous one's `result`, and a wide fan-out, one base
 * that many nodes refer to. Half of a root's nodes are in chains of at most
 * {@link CHAIN_LENGTH}, half in the fan-out.
 *
 * @module
 */

/** The longest chain in a generated root. */
export const CHAIN_LENGTH = 100;

/** The seed root of the MCP page: one random_integer. */
export const SEED_CUE = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
`;

/** The address of the fan-out leaf that the "one node changed" plan edits. */
export const CHANGED_NODE = "f_1";

function node(name: string, min: string, max: number, seed = name): string {
  return `${name}: $random.#Resource.random_integer & {min: ${min}, max: ${max}, seed: "${seed}"}`;
}

/**
 * The main.cue of a root of `n` nodes (n >= 2). With `changedSeed`, the
 * fan-out leaf {@link CHANGED_NODE} gets that seed instead of its own.
 */
export function generatedCue(n: number, changedSeed?: string): string {
  const lines = [
    "package bench",
    "",
    'import rnd "pravo.dev/providers/hashicorp/random"',
    "",
    "$random: rnd.#Provider",
    "",
  ];
  const fan = Math.max(1, Math.floor(n / 2));
  lines.push(node("fan", "1", 9));
  for (let i = 1; i < fan; i++) {
    const name = `f_${i}`;
    lines.push(node(name, "fan.result", 100, name === CHANGED_NODE ? changedSeed ?? name : name));
  }
  let left = n - fan;
  for (let c = 0; left > 0; c++) {
    const len = Math.min(CHAIN_LENGTH, left);
    lines.push(node(`c${c}_0`, "1", 9));
    for (let i = 1; i < len; i++) lines.push(node(`c${c}_${i}`, `c${c}_${i - 1}.result`, 100));
    left -= len;
  }
  return lines.join("\n") + "\n";
}
