/**
 * Judging a plan document against policies. Every rule of every policy is
 * evaluated and reported, not only the first that fails: cue-wasm stops at
 * the first conflict, so a policy that fails as a whole is evaluated again one
 * declaration at a time.
 *
 * @module
 */

import { evaluate } from "../lib/cue/engine.ts";
import { type Diagnostic, error, warning } from "../lib/diag/diag.ts";
import { type Chunk, locate, type Policy } from "./load.ts";
import { deletesObject } from "../lib/plan/types.ts";
import { cleanMessage, program, RULES } from "./_program.ts";

export type Level = "mandatory" | "advisory";

/** The outcome of one rule. */
export interface RuleResult {
  /** The rule's name: `summary.destroy` for a constraint, the key under `rules`. */
  rule: string;
  level: Level;
  passed: boolean;
  message: string;
  /** The addresses of the nodes it failed for. */
  nodes: string[];
  /** Where the rule is declared in the policy file. */
  line: number;
}

/** What one policy said about a plan: recorded in the plan document. */
export interface PolicyReport {
  file: string;
  digest: string;
  results: RuleResult[];
}

export interface Judgement {
  policies: PolicyReport[];
  /** An error for each failed mandatory rule, a warning for each failed advisory one. */
  diagnostics: Diagnostic[];
  /** True when a mandatory rule failed. */
  refused: boolean;
}

type PlanDoc = Record<string, unknown>;
type Located = RuleResult & { column: number };

/** Summary counters and the node actions they count. */
const SUMMARY_ACTIONS: Record<string, (n: DocNode) => boolean> = {
  add: (n) => n.action === "create",
  change: (n) => n.action === "update",
  replace: (n) => n.action === "replace",
  destroy: (n) => n.action === "delete" && n.mode === "managed",
  delete: (n) => deletesObject(n),
  read: (n) => n.action === "read",
  unchanged: (n) => n.action === "no-op",
};

interface DocNode {
  address: string;
  action: string;
  mode: string;
}

/** Judges the plan document against each policy, in order. */
export async function judge(policies: readonly Policy[], doc: PlanDoc): Promise<Judgement> {
  const out: Judgement = { policies: [], diagnostics: [], refused: false };
  for (const p of policies) {
    const results = await judgePolicy(p, doc);
    out.policies.push({
      file: p.file,
      digest: p.digest,
      results: results.map(({ column: _, ...r }) => r),
    });
    for (const r of results) {
      if (r.passed) continue;
      if (r.level === "mandatory") out.refused = true;
      out.diagnostics.push(diagnostic(p, r));
    }
  }
  return out;
}

function sentence(s: string): string {
  return /[.!?]$/.test(s) ? s : s + ".";
}

function diagnostic(p: Policy, r: Located): Diagnostic {
  const range = { file: p.path, line: r.line, column: r.column };
  let detail = `Rule "${r.rule}" failed: ${sentence(r.message)}`;
  if (r.nodes.length) detail += ` Nodes: ${r.nodes.join(", ")}.`;
  if (r.level === "mandatory") {
    detail +=
      " Change the configuration or the plan's flags so that the plan satisfies the rule; a policy is the operators' decision.";
    return error(`Policy "${p.name}" refuses the plan`, detail, { range });
  }
  detail += " The rule is advisory: the plan goes on.";
  return warning(`Policy "${p.name}" warns about the plan`, detail, { range });
}

/** Every rule of one policy, in the order of the file. */
async function judgePolicy(p: Policy, doc: PlanDoc): Promise<Located[]> {
  const json = JSON.stringify(doc);
  const keys = Object.keys(doc);
  const constraints = p.chunks.filter((c) => c.kind === "constraint");
  const ruleChunks = p.chunks.filter((c) => c.kind === "rules");
  const fieldsOf = (cs: Chunk[]) =>
    [...new Set(cs.map((c) => c.label))].filter((l) => keys.includes(l));
  const results: Located[] = [];

  // Everything at once: when it passes, every constraint passed.
  const all = await evaluate(program(p, {
    doc: json,
    chunks: p.chunks,
    unify: fieldsOf(constraints),
    out: [...fieldsOf(constraints), ...(ruleChunks.length ? [RULES] : [])],
  }));
  if (all.ok) {
    for (const c of constraints) results.push(passed(c));
    if (ruleChunks.length) {
      results.push(...explicitRules(p, JSON.parse(all.json).out[RULES]));
    }
    return sorted(results);
  }

  for (const c of constraints) {
    const fields = fieldsOf([c]);
    const r = await evaluate(program(p, { doc: json, chunks: [c], unify: fields, out: fields }));
    if (r.ok) {
      results.push(passed(c));
      continue;
    }
    const m = cleanMessage(r.message);
    results.push({
      rule: c.name,
      level: "mandatory",
      passed: false,
      message: m.text,
      nodes: await constraintNodes(p, c, m.path, doc, json),
      line: c.line,
      column: c.column,
    });
  }

  if (ruleChunks.length) {
    const r = await evaluate(
      program(p, { doc: json, chunks: ruleChunks, unify: [], out: [RULES] }),
    );
    if (r.ok) results.push(...explicitRules(p, JSON.parse(r.json).out[RULES]));
    else {
      for (const c of ruleChunks) {
        const one = await evaluate(program(p, { doc: json, chunks: [c], unify: [], out: [RULES] }));
        if (one.ok) {
          results.push(...explicitRules(p, JSON.parse(one.json).out[RULES]));
          continue;
        }
        const m = cleanMessage(one.message);
        const rule = m.path?.[0] === RULES && m.path[1] ? m.path[1] : c.name;
        const where = m.path?.[0] === RULES && m.path[1] ? locate(p, m.path.slice(0, 2)) : c;
        results.push({
          rule,
          level: "mandatory",
          passed: false,
          message: `the rule could not be evaluated: ${m.text}`,
          nodes: [],
          line: where.line,
          column: where.column,
        });
      }
    }
  }
  return sorted(results);
}

function sorted(results: Located[]): Located[] {
  return results.sort((a, b) => a.line - b.line || a.column - b.column);
}

function passed(c: Chunk): Located {
  return {
    rule: c.name,
    level: "mandatory",
    passed: true,
    message: "",
    nodes: [],
    line: c.line,
    column: c.column,
  };
}

interface RuleValue {
  level: Level;
  message: string;
  deny: boolean;
  nodes: string[];
}

function explicitRules(p: Policy, rules: Record<string, RuleValue> | undefined): Located[] {
  return Object.entries(rules ?? {}).map(([name, v]) => {
    const where = locate(p, [RULES, name]);
    return {
      rule: name,
      level: v.level,
      passed: !v.deny,
      message: v.message || (v.deny ? `rule "${name}" denies the plan` : ""),
      nodes: v.deny ? v.nodes : [],
      line: where.line,
      column: where.column,
    };
  });
}

/**
 * The nodes a failed constraint concerns: when the failing path points into
 * `nodes[i]`, every node that fails the constraint on its own (or node i);
 * when it points at a summary counter, the nodes that counter counts.
 */
async function constraintNodes(
  p: Policy,
  c: Chunk,
  path: string[] | null,
  doc: PlanDoc,
  json: string,
): Promise<string[]> {
  if (!path) return [];
  const nodes = (Array.isArray(doc.nodes) ? doc.nodes : []) as DocNode[];
  if (path[0] === "nodes" && /^\d+$/.test(path[1] ?? "")) {
    const r = await evaluate(program(p, { doc: json, chunks: [], unify: [], out: [], perNode: c }));
    if (r.ok) {
      const bad = JSON.parse(r.json).bad as string[];
      if (bad.length) return bad;
    }
    const n = nodes[Number(path[1])];
    return n ? [n.address] : [];
  }
  if (path[0] === "summary" && path[1] && SUMMARY_ACTIONS[path[1]]) {
    return nodes.filter(SUMMARY_ACTIONS[path[1]]).map((n) => n.address);
  }
  return [];
}
