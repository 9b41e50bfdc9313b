/**
 * Sizes of the product code (main.ts, lib/, mcp/, policy/; test code aside):
 * no file over 600 lines and no function over 120. The files and functions
 * that were over when this test was written are listed in tests/sizes.json
 * with their size then, as ceilings: one may shrink (and leaves the list once
 * it is under the limit: the test says so), none may grow, and nothing new
 * may go over. Functions are found by parsing (rolldown's oxc parser) and
 * named by where they are: `Class.method`, `function`, `outer/inner`.
 *
 *   deno test -A tests/sizes_test.ts      # PRAVO_SIZES=print lists the sizes
 *
 * @module
 */

import assert from "node:assert/strict";
import { parseSync } from "rolldown/utils";
import { productSources } from "./_product.ts";

export const MAX_FILE_LINES = 600;
export const MAX_FUNCTION_LINES = 120;

interface Ceilings {
  files: Record<string, number>;
  functions: Record<string, number>;
}

type AstNode = { type: string; start: number; end: number; [k: string]: unknown };

function isNode(v: unknown): v is AstNode {
  return typeof v === "object" && v !== null && typeof (v as AstNode).type === "string";
}

function nameOf(n: AstNode): string | undefined {
  const id = (n.id ?? n.key) as AstNode | undefined;
  if (id && typeof id.name === "string") return id.name as string;
  if (id && id.type === "PrivateIdentifier") return `#${id.name}`;
  return undefined;
}

/** The functions of a file longer than `limit` lines: `path:name` → lines. */
export function longFunctions(path: string, text: string, limit: number): Map<string, number> {
  const { program, errors } = parseSync(path, text, { lang: "ts" });
  if (errors.length) throw new Error(`${path} does not parse: ${errors[0].message}`);
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
  const lineOf = (offset: number) => {
    let lo = 0, hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const out = new Map<string, number>();
  const seen = new Map<string, number>();
  const visit = (n: AstNode, scope: string[], label?: string) => {
    let inner = scope;
    const fn = n.type === "FunctionDeclaration" || n.type === "FunctionExpression" ||
      n.type === "ArrowFunctionExpression";
    if (n.type === "ClassDeclaration" || n.type === "ClassExpression") {
      inner = [...scope, nameOf(n) ?? label ?? "class"];
    } else if (fn) {
      const base = nameOf(n) ?? label ?? "function";
      const key = [...scope, base].join("/");
      const nth = (seen.get(key) ?? 0) + 1;
      seen.set(key, nth);
      const name = nth === 1 ? key : `${key}#${nth}`;
      const lines = lineOf(n.end) - lineOf(n.start) + 1;
      if (lines > limit) out.set(`${path}:${name}`, lines);
      inner = [...scope, base];
    }
    for (const [k, v] of Object.entries(n)) {
      if (k === "type" || k === "start" || k === "end") continue;
      // A function's name comes from what holds it: a variable, a method, a property.
      const childLabel = (n.type === "VariableDeclarator" || n.type === "MethodDefinition" ||
              n.type === "Property" || n.type === "PropertyDefinition") && k === "value" ||
          (n.type === "VariableDeclarator" && k === "init")
        ? nameOf(n)
        : undefined;
      const sep = n.type === "MethodDefinition" || n.type === "PropertyDefinition" ? "." : "/";
      const named = childLabel && sep === "." && inner.length ? undefined : childLabel;
      if (Array.isArray(v)) {
        for (const c of v) if (isNode(c)) visit(c, inner);
      } else if (isNode(v)) {
        if (sep === "." && childLabel && inner.length) {
          visit(v, inner.slice(0, -1), `${inner[inner.length - 1]}.${childLabel}`);
        } else visit(v, inner, named);
      }
    }
  };
  visit(program as unknown as AstNode, []);
  return out;
}

/** What is over the limits now. */
export function measure(): Ceilings {
  const files: Record<string, number> = {};
  const functions: Record<string, number> = {};
  for (const s of productSources()) {
    const lines = s.text.split("\n").length - (s.text.endsWith("\n") ? 1 : 0);
    if (lines > MAX_FILE_LINES) files[s.path] = lines;
    for (const [k, n] of longFunctions(s.path, s.text, MAX_FUNCTION_LINES)) functions[k] = n;
  }
  return { files, functions };
}

/** Whether `now` keeps within `ceilings`: one line per problem. */
export function overCeilings(now: Ceilings, ceilings: Ceilings): string[] {
  const out: string[] = [];
  for (
    const [kind, limit] of [["files", MAX_FILE_LINES], ["functions", MAX_FUNCTION_LINES]] as const
  ) {
    for (const [name, n] of Object.entries(now[kind])) {
      const ceiling = ceilings[kind][name];
      if (ceiling === undefined) out.push(`${name} is ${n} lines: over ${limit}; split it`);
      else if (n > ceiling) {
        out.push(`${name} grew to ${n} lines from ${ceiling}: it may only shrink`);
      }
    }
    for (const [name, ceiling] of Object.entries(ceilings[kind])) {
      if (now[kind][name] === undefined) {
        out.push(
          `${name} (${ceiling} lines when listed) is under ${limit} now, or gone: take it off tests/sizes.json`,
        );
      } else if (now[kind][name] < ceiling) {
        out.push(
          `${name} shrank to ${
            now[kind][name]
          } lines from ${ceiling}: lower its ceiling in tests/sizes.json`,
        );
      }
    }
  }
  return out;
}

Deno.test("no product file grows past 600 lines and no function past 120; those over when listed only shrink", async () => {
  const now = measure();
  if (Deno.env.get("PRAVO_SIZES") === "print") console.log(JSON.stringify(now, null, 2));
  const ceilings = JSON.parse(
    await Deno.readTextFile(new URL("./sizes.json", import.meta.url)),
  ) as Ceilings;
  assert.deepEqual(overCeilings(now, ceilings), []);
});

Deno.test("the size check finds a long function by its name, a file that grew, and one that left the list", () => {
  const body = Array.from({ length: 130 }, (_, i) => `    const v${i} = ${i};`).join("\n");
  const text = `class Store {\n  async take(): Promise<void> {\n${body}\n  }\n}\n` +
    `export function small() {\n  return 1;\n}\nconst big = () => {\n${body}\n};\n`;
  assert.deepEqual(
    [...longFunctions("x.ts", text, MAX_FUNCTION_LINES)],
    [["x.ts:Store.take", 132], ["x.ts:big", 132]],
  );
  assert.deepEqual(
    overCeilings(
      { files: { "a.ts": 700, "new.ts": 601 }, functions: {} },
      { files: { "a.ts": 650, "gone.ts": 900 }, functions: {} },
    ),
    [
      "a.ts grew to 700 lines from 650: it may only shrink",
      "new.ts is 601 lines: over 600; split it",
      "gone.ts (900 lines when listed) is under 600 now, or gone: take it off tests/sizes.json",
    ],
  );
});
