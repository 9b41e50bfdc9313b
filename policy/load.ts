/**
 * Loading a policy: read the file, digest it, split its top level into rules
 * with their lines, and check that it compiles (alone, and against an empty
 * plan document) before anything runs. A policy that cannot be used is
 * refused with exit 5 and a message naming the file and why.
 *
 * @module
 */

import { FileRefusal, readRegular } from "../lib/files/regular.ts";
import { createHash } from "node:crypto";
import { basename, isAbsolute, resolve } from "node:path";
import { newTopScope, type ParsedFile, parseFile, SyntaxError } from "../lib/cue/syntax/mod.ts";
import type { Token } from "../lib/cue/syntax/scanner.ts";
import { evaluate } from "../lib/cue/engine.ts";
import { type Diagnostic, DiagnosticsError, didYouMean, error } from "../lib/diag/diag.ts";
import { planDocument } from "../lib/plan/document.ts";
import { emptyPlan } from "../lib/plan/types.ts";
import { cleanMessage, program, RULES } from "./_program.ts";
import { type Pinned, pinnedPolicyBytes } from "../lib/workspace/pinned.ts";

/** One top-level declaration of a policy file. */
export interface Chunk {
  /**
   * `constraint`: a field of the plan document (`summary: destroy: 0`), one
   * rule; `rules`: a part of the explicit rule list; `helper`: a hidden
   * field, a definition or a `let`, included in every evaluation.
   */
  kind: "constraint" | "rules" | "helper";
  /** The source text of the declaration. */
  text: string;
  /** The first label: `summary`, `rules`, `_limit`. */
  label: string;
  /** The label chain at its start: `summary.destroy`. */
  name: string;
  line: number;
  column: number;
  /** For a `let`: its name, which every evaluation must refer to. */
  letName?: string;
}

/** A rule of a policy and where it is declared. */
export interface RuleSite {
  rule: string;
  kind: "constraint" | "rule";
  line: number;
  column: number;
}

/** A policy, read and checked. */
export interface Policy {
  /** The path as given on the command line. */
  path: string;
  /** The absolute path. */
  file: string;
  /** The file's name, for messages: `keep.cue`. */
  name: string;
  /** SHA-256 of the file's bytes, hex. */
  digest: string;
  /** `import` lines, rewritten without the package clause. */
  imports: string;
  chunks: Chunk[];
  /** The rules declared statically, with their lines. */
  rules: RuleSite[];
  parsed: ParsedFile;
}

function refuse(path: string, why: string, detail: string, line?: number, column = 1): never {
  const range = line === undefined ? undefined : { file: path, line, column };
  throw new DiagnosticsError([error(`--policy "${path}": ${why}`, detail, { range })], "policy");
}

/**
 * The check that the MCP server makes on each `--policy`: its path must be
 * absolute. Returns the diagnostic to report, or undefined when it is.
 */
export function checkAbsolutePolicyPath(path: string): Diagnostic | undefined {
  if (isAbsolute(path)) return undefined;
  return error(`--policy "${path}": the server needs an absolute path`, "");
}

/** A plan with nothing in it, for checking that a policy compiles. */
export function emptyPlanDocument(): Record<string, unknown> {
  return planDocument(emptyPlan());
}

/** The `--policy` values of a command's options, as a list. */
export function policyPaths(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/** Reads every `--policy` (in order); the first that cannot be used ends the command. */
export async function loadPolicies(
  paths: readonly string[],
  opts: { cwd?: string; pinned?: Pinned } = {},
): Promise<Policy[]> {
  const out: Policy[] = [];
  for (const p of paths) out.push(await loadPolicy(p, opts));
  return out;
}

/**
 * Reads, digests and checks one policy. A relative path is resolved against
 * `opts.cwd` (default: the current directory). Throws a DiagnosticsError with
 * exit 5 when the file is missing, unreadable, or does not compile. In a
 * child of `pravo mcp` the file is not read: its bytes are the ones the
 * server pinned when it started (lib/workspace/pinned.ts), and a policy the server
 * did not pin is refused.
 */
export async function loadPolicy(
  path: string,
  opts: { cwd?: string; pinned?: Pinned } = {},
): Promise<Policy> {
  const file = resolve(opts.cwd ?? Deno.cwd(), path);
  const pin = opts.pinned;
  if (pin) {
    const bytes = pinnedPolicyBytes(pin, file);
    if (!bytes) {
      refuse(
        path,
        "the server did not pin it",
        "A child of pravo mcp judges with the policies the server read at start, and this is not one of them. Name it in the server's --policy flags.",
      );
    }
    return await compilePolicy(path, file, bytes);
  }
  return await compilePolicy(path, file, await readPolicyBytes(path, file));
}

/** The bytes of the policy file `file` (`path` as given, for messages); refuses with exit 5. */
export function readPolicyBytes(path: string, file: string): Promise<Uint8Array> {
  try {
    // Never a FIFO or a device, which would stall the start; never more than a policy is.
    return Promise.resolve(readRegular(file, { maxBytes: MAX_POLICY_BYTES }));
  } catch (e) {
    if (!(e instanceof FileRefusal)) throw e;
    if (e.reason === "missing") {
      refuse(path, "the file does not exist", `There is no file at ${file}. Check the path.`);
    }
    if (e.message === "it is a directory") {
      refuse(path, "it is a directory", `${file} is a directory. Name a .cue file.`);
    }
    if (e.reason === "not-regular" || e.reason === "too-large") {
      refuse(path, `${e.message}`, `${file} is not a policy file. Name a .cue file.`);
    }
    refuse(path, "the file cannot be read", `${e.message}. Check its permissions.`);
  }
}

/** The most bytes of a policy file pravo reads. */
export const MAX_POLICY_BYTES = 16 * 1024 * 1024;

/** Digests and checks a policy from its bytes, read once; refuses with exit 5. */
export async function compilePolicy(
  path: string,
  file: string,
  bytes: Uint8Array,
): Promise<Policy> {
  let source: string;
  try {
    source = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    refuse(path, "it is not UTF-8 text", `${file} is not a CUE file. Name a .cue file.`);
  }
  const digest = createHash("sha256").update(bytes).digest("hex");
  let parsed: ParsedFile;
  try {
    parsed = parseFile(path, source, newTopScope());
  } catch (e) {
    if (e instanceof SyntaxError) {
      refuse(path, "it does not compile", `${e.message}. Fix the policy file.`, e.line, e.column);
    }
    throw e;
  }
  for (const imp of parsed.imports) {
    if (imp.path.split("/")[0].includes(".")) {
      refuse(
        path,
        "it does not compile",
        `The import "${imp.path}" is not a CUE builtin package; a policy may import only builtins such as "strings" or "list". Remove the import.`,
        imp.line,
        imp.column,
      );
    }
  }
  const imports = parsed.imports.map((i) =>
    i.explicitAlias
      ? `import ${i.name} ${JSON.stringify(i.path)}\n`
      : `import ${JSON.stringify(i.path)}\n`
  ).join("");
  const fields = Object.keys(emptyPlanDocument());
  const chunks = splitChunks(path, source, parsed.tokens, parsed.bodyOffset);
  for (const c of chunks) {
    if (c.kind !== "constraint") continue;
    if (c.label === "plan") {
      refuse(
        path,
        "it does not compile",
        'The name "plan" stands for the plan document in a policy; it cannot be declared. Rename the field.',
        c.line,
        c.column,
      );
    }
    if (!fields.includes(c.label)) {
      const hint = didYouMean(c.label, [...fields, RULES]);
      refuse(
        path,
        "it does not compile",
        `"${c.label}" is not a field of the plan document (${fields.join(", ")}), nor "rules".` +
          (hint ? ` ${hint[0].toUpperCase()}${hint.slice(1)}` : "") +
          " Name a field of the plan document, or make a helper hidden (_name).",
        c.line,
        c.column,
      );
    }
  }
  const rules: RuleSite[] = [];
  for (const c of chunks) {
    if (c.kind === "constraint") {
      rules.push({ rule: c.name, kind: "constraint", line: c.line, column: c.column });
    }
  }
  for (const s of parsed.sites) {
    if (s.path?.length === 2 && s.path[0] === RULES && !rules.some((r) => r.rule === s.path![1])) {
      rules.push({ rule: s.path[1], kind: "rule", line: s.line, column: s.column });
    }
  }
  rules.sort((a, b) => a.line - b.line || a.column - b.column);
  const policy: Policy = {
    path,
    file,
    name: basename(path),
    digest,
    imports,
    chunks,
    rules,
    parsed,
  };
  await checkCompiles(policy);
  return policy;
}

/**
 * Evaluates the policy alone against an empty plan document: its own
 * conflicts, unknown references, unused lets and malformed rules show here.
 * A constraint that an empty plan fails is not an error: it is a rule.
 */
async function checkCompiles(p: Policy): Promise<void> {
  const hasRules = p.chunks.some((c) => c.kind === "rules");
  const src = program(p, {
    doc: JSON.stringify(emptyPlanDocument()),
    chunks: p.chunks,
    unify: [],
    out: hasRules ? [RULES] : [],
  });
  const r = await evaluate(src);
  if (r.ok) return;
  const m = cleanMessage(r.message);
  const where = locate(p, m.path);
  refuse(
    p.path,
    "it does not compile",
    `${m.text}. Fix the policy file; a rule must evaluate on an empty plan too.`,
    where.line,
    where.column,
  );
}

/** The declaration that a CUE error path (`rules.x.deny`) points at. */
export function locate(p: Policy, path: string[] | null): { line: number; column: number } {
  if (path && path.length) {
    let best: { line: number; column: number; depth: number } | undefined;
    for (const s of p.parsed.sites) {
      if (!s.path || s.path.length > path.length) continue;
      if (!s.path.every((x, i) => x === path[i])) continue;
      if (!best || s.path.length > best.depth) {
        best = { line: s.line, column: s.column, depth: s.path.length };
      }
    }
    if (best) return best;
  }
  const first = p.chunks[0];
  return first ? { line: first.line, column: first.column } : { line: 1, column: 1 };
}

/** Splits the body into top-level declarations at commas outside brackets. */
export function splitChunks(
  path: string,
  source: string,
  tokens: Token[],
  bodyOffset: number,
): Chunk[] {
  const chunks: Chunk[] = [];
  let depth = 0;
  let start: number | undefined;
  const flush = (endTok: Token) => {
    if (start === undefined) return;
    const toks = tokens.slice(start, tokens.indexOf(endTok));
    start = undefined;
    if (toks.length === 0) return;
    const from = toks[0].offset;
    const last = toks[toks.length - 1];
    chunks.push(classify(path, toks, source.slice(from, last.offset + last.text.length)));
  };
  for (const t of tokens) {
    if (t.offset < bodyOffset && t.kind !== "eof") continue;
    if (t.kind === "eof") {
      flush(t);
      break;
    }
    if (depth === 0 && t.kind === "comma") {
      flush(t);
      continue;
    }
    if (start === undefined) start = tokens.indexOf(t);
    if (t.kind === "punct" && (t.text === "{" || t.text === "[" || t.text === "(")) depth++;
    if (t.kind === "punct" && (t.text === "}" || t.text === "]" || t.text === ")")) depth--;
  }
  return chunks;
}

function labelText(t: Token): string | undefined {
  if (t.kind === "ident") return t.text;
  if (t.kind === "string" && t.value !== undefined) return t.value;
  return undefined;
}

function isColon(toks: Token[], i: number): number {
  const t = toks[i];
  if (!t || t.kind !== "punct") return 0;
  if (t.text === ":") return 1;
  if ((t.text === "?" || t.text === "!") && toks[i + 1]?.text === ":") return 2;
  return 0;
}

function classify(path: string, toks: Token[], text: string): Chunk {
  const first = toks[0];
  const base = { text, line: first.line, column: first.column };
  if (first.kind === "ident" && first.text === "let" && toks[1]?.kind === "ident") {
    return {
      ...base,
      kind: "helper",
      label: toks[1].text,
      name: toks[1].text,
      letName: toks[1].text,
    };
  }
  if (first.kind === "attr") return { ...base, kind: "helper", label: "", name: "" };
  const label = labelText(first);
  const colon = isColon(toks, 1);
  if (label === undefined || colon === 0 || (first.kind === "ident" && /^(for|if)$/.test(label))) {
    refuse(
      path,
      "it does not compile",
      `"${
        text.split("\n")[0]
      }" is not a field: a policy's top level holds fields only. Write constraints as fields of the plan document (summary: destroy: 0) or rules under "rules", and put a comprehension inside a field.`,
      first.line,
      first.column,
    );
  }
  const names = [label];
  let i = 1 + colon;
  for (;;) {
    const l = toks[i] && labelText(toks[i]);
    const c = isColon(toks, i + 1);
    if (l === undefined || c === 0) break;
    names.push(l);
    i += 1 + c;
  }
  if (first.kind === "ident" && (label.startsWith("_") || label.startsWith("#"))) {
    return { ...base, kind: "helper", label, name: label };
  }
  if (label === RULES) return { ...base, kind: "rules", label, name: names.join(".") };
  return { ...base, kind: "constraint", label, name: names.join(".") };
}
