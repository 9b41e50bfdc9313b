/**
 * The CUE programs that judge a plan: the policy's declarations (all of them,
 * or one rule and the helpers) inside a hidden field beside `plan`, the plan
 * document, with each constraint's field unified with the document's.
 *
 * @module
 */

import type { Chunk, Policy } from "./load.ts";

/** The field that holds the explicit rule list. */
export const RULES = "rules";

/** The import name of encoding/json in our programs. */
export const JSON_ALIAS = "pravointernaljson";

/** Defaults and shape of an explicit rule. */
const RULE_SCHEMA = `#pravoRule: {
  level: *"mandatory" | "advisory"
  message: *"" | string
  deny: bool
  nodes: *[] | [...string]
}
${RULES}: [string]: #pravoRule`;

export interface ProgramOptions {
  /** The plan document as JSON. */
  doc: string;
  /** The declarations to include (helpers are always included). */
  chunks: Chunk[];
  /** Document fields to unify with the policy's: `summary: plan.summary`. */
  unify: string[];
  /** Fields of the result to export: `out: {summary: _pravo.summary}`. */
  out: string[];
  /** A constraint to test node by node: its nodes that fail it are exported as `bad`. */
  perNode?: Chunk;
}

/** Builds one program. */
export function program(p: Policy, o: ProgramOptions): string {
  const chunks = [
    ...p.chunks.filter((c) => c.kind === "helper"),
    ...o.chunks.filter((c) => c.kind !== "helper"),
  ];
  const lines: string[] = [p.imports];
  if (o.perNode) lines.push(`import ${JSON_ALIAS} "encoding/json"`);
  lines.push("_pravo: {");
  lines.push(`plan: ${o.doc}`);
  for (const f of o.unify) lines.push(`${f}: plan.${f}`);
  if (chunks.some((c) => c.kind === "rules")) lines.push(RULE_SCHEMA);
  for (const c of chunks) {
    if (c.letName) lines.push(`_pravoUse_${c.letName}: ${c.letName}`);
  }
  for (const c of chunks) lines.push(c.text);
  if (o.perNode) lines.push(`_pravoOne: {\n${o.perNode.text}\n}`);
  lines.push("}");
  lines.push(`out: {${o.out.map((f) => `${f}: _pravo.${f}`).join(", ")}}`);
  if (o.perNode) {
    lines.push(
      `bad: [for n in _pravo.plan.nodes if ${JSON_ALIAS}.Marshal(_pravo._pravoOne & {nodes: [n]}) == _|_ {n.address}]`,
    );
  }
  return lines.join("\n") + "\n";
}

/** A CUE error without our wrapping: the path it names and the message. */
export interface CleanMessage {
  path: string[] | null;
  text: string;
}

/** Strips our field names and CUE's prefixes from an error message. */
export function cleanMessage(message: string): CleanMessage {
  let m = message.trim().replace(/^cue: marshal error: /, "").replace(
    / \(and \d+ more errors?\)$/,
    "",
  );
  m = m.replace(/: \d+ errors in empty disjunction:?$/, ": the value is not one of those allowed");
  const match = /^([^\s:]+): ([\s\S]*)$/.exec(m);
  if (!match) return { path: null, text: m };
  const path = match[1].split(".");
  if (path[0] === "_pravo" || path[0] === "out") path.shift();
  if (path[0] === "_pravoOne") path.shift();
  if (path.length === 0) return { path: null, text: match[2] };
  if (path[0] === RULES && path[2] === "level" && /not one of those allowed/.test(match[2])) {
    return { path, text: `${path.join(".")}: must be "mandatory" or "advisory"` };
  }
  return { path, text: `${path.join(".")}: ${match[2]}` };
}
