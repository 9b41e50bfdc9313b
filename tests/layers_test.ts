/**
 * The floors of the product code (main.ts, lib/, mcp/, policy/), kept by a
 * test: a room (a folder of lib/, a file at the top of lib/, mcp/, policy/,
 * main.ts) imports only rooms on floors below its own. That leaves no cycle
 * between folders, keeps lib/cli and lib/commands out of the engine, and
 * makes each floor usable and testable without those above it.
 *
 * Every import counts: static, dynamic (`import("...")`), type-only and
 * re-exports. Test code (`*_test.ts`, `*_testing.ts`) may import anything.
 * docs/architecture.md draws the same floors; a test keeps the two in step.
 *
 * @module
 */

import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { isTestCode, productSources, ROOT, type Source } from "./_product.ts";

/** The floors, bottom first. A new room needs a floor here and in docs/architecture.md. */
export const FLOORS: readonly (readonly string[])[] = [
  ["lib/diag"],
  [
    "lib/json.ts",
    "lib/bytes.ts",
    "lib/version.ts",
    "lib/files",
    "lib/permissions",
    "lib/graph",
    "lib/addr",
  ],
  ["lib/keys", "lib/plugin"],
  ["lib/providers"],
  ["lib/config"],
  ["lib/workspace"],
  ["lib/secrets"],
  ["lib/cue"],
  ["lib/state"],
  ["lib/plan"],
  ["lib/apply", "lib/drift", "lib/import"],
  ["lib/terraform"],
  ["policy"],
  ["lib/render"],
  ["lib/cli"],
  ["mcp"],
  ["lib/commands"],
  ["main.ts"],
];

/** The rooms below the commands that must never import the CLI's. */
const ENGINE = FLOORS.slice(0, FLOORS.findIndex((f) => f.includes("lib/render"))).flat();

/** One import: who, what (a path from the repository's root), and where. */
export interface Edge {
  from: string;
  to: string;
  line: number;
}

/** The room of a product file. */
export function roomOf(path: string): string {
  const parts = path.split("/");
  if (parts[0] !== "lib") return parts[0];
  return parts.length === 2 ? path : `lib/${parts[1]}`;
}

/**
 * The code of a TypeScript file with comments and template literals blanked
 * (kept as spaces and newlines, so that positions stay), so that an import
 * in a comment or in a script held in a template does not count, and one in
 * code always does.
 */
export function codeOnly(text: string): string {
  let out = "";
  let i = 0;
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== "`") j += text[j] === "\\" ? 2 : 1;
      out += "`" + blank(text.slice(i + 1, j)) + "`";
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const IMPORT = new RegExp(
  [
    // import x from "..."; import { a } from "..."; import type { T } from "..."; export { a } from "..."; export * from "..."
    String.raw`\b(?:import|export)\s+(?:type\s+)?[\w*{}\s,$]*?\bfrom\s*(["'])([^"'\n]+)\1`,
    // import "..." (for its effects)
    String.raw`\bimport\s*(["'])([^"'\n]+)\3`,
    // import("...") and import(`...`) with a literal
    String.raw`\bimport\s*\(\s*(["'])([^"'\n]+)\5\s*[,)]`,
  ].join("|"),
  "g",
);

/** The relative imports of a file, as paths from the repository's root. */
export function importsOf(src: Source): Edge[] {
  const code = codeOnly(src.text);
  const out: Edge[] = [];
  for (const m of code.matchAll(IMPORT)) {
    const spec = m[2] ?? m[4] ?? m[6];
    if (!spec.startsWith(".")) continue; // npm:, node:, jsr:, bare names: not ours
    const to = relative(ROOT, resolve(ROOT, dirname(src.path), spec));
    const line = code.slice(0, m.index).split("\n").length;
    out.push({ from: src.path, to, line });
  }
  return out;
}

/** The cycles between rooms: strongly connected components of more than one room. */
export function roomCycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    const a = roomOf(e.from), b = roomOf(e.to);
    if (a === b) continue;
    if (!next.has(a)) next.set(a, new Set());
    next.get(a)!.add(b);
  }
  // Tarjan's algorithm.
  const index = new Map<string, number>(), low = new Map<string, number>();
  const stack: string[] = [], on = new Set<string>(), out: string[][] = [];
  let n = 0;
  const visit = (v: string) => {
    index.set(v, n);
    low.set(v, n++);
    stack.push(v);
    on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

/** What breaks the floors: one line per problem, empty when none does. */
export function violations(
  sources: readonly Source[],
  floors: readonly (readonly string[])[] = FLOORS,
): string[] {
  const floorOf = new Map<string, number>();
  floors.forEach((rooms, i) => rooms.forEach((r) => floorOf.set(r, i)));
  const known = new Set(sources.map((s) => s.path));
  const out: string[] = [];
  for (const room of new Set(sources.map((s) => roomOf(s.path)))) {
    if (!floorOf.has(room)) {
      out.push(
        `${room} is on no floor: give it one in tests/layers_test.ts and docs/architecture.md`,
      );
    }
  }
  const edges = sources.flatMap(importsOf);
  for (const e of edges) {
    const at = `${e.from}:${e.line}`;
    if (isTestCode(e.to)) {
      out.push(`${at} imports test code (${e.to})`);
      continue;
    }
    if (!known.has(e.to)) {
      out.push(`${at} imports ${e.to}, which is not a product source file`);
      continue;
    }
    const a = roomOf(e.from), b = roomOf(e.to);
    if (a === b) continue;
    const fa = floorOf.get(a), fb = floorOf.get(b);
    if (fa === undefined || fb === undefined) continue;
    if (fb >= fa) {
      const where = fb === fa ? "the same floor" : "a higher floor";
      out.push(`${at} imports ${e.to}: ${b} is on ${where} than ${a}`);
    }
    if (ENGINE.includes(a) && (b === "lib/cli" || b === "lib/commands")) {
      out.push(`${at} imports ${e.to}: the engine never imports the CLI's rooms`);
    }
  }
  for (const c of roomCycles(edges)) out.push(`a cycle between folders: ${c.join(" -> ")}`);
  for (const s of sources) {
    if (s.path === "main.ts") continue;
    const code = codeOnly(s.text);
    const m = /\bDeno\.exit\s*\(/.exec(code);
    if (m) {
      const line = code.slice(0, m.index).split("\n").length;
      out.push(
        `${s.path}:${line} ends the process: only main.ts exits (lib/diag/fatal.ts hands it the failure)`,
      );
    }
  }
  return out;
}

Deno.test("the product code keeps its floors: no import goes up or sideways, no cycle, only main.ts exits", () => {
  const sources = productSources();
  assert.ok(sources.length > 150, `only ${sources.length} product files were found`);
  assert.deepEqual(violations(sources), []);
});

Deno.test("the floors check finds an import that goes up, a cycle, a room without a floor and an exit", () => {
  const files: Source[] = [
    { path: "lib/diag/diag.ts", text: 'import { run } from "../cli/command.ts";\n' },
    { path: "lib/cli/command.ts", text: 'export const run = () => import("../diag/diag.ts");\n' },
    {
      path: "lib/state/sqlite.ts",
      text:
        '// import { x } from "../commands/apply.ts";\nconst s = `import "../commands/apply.ts"`;\n' +
        'import type { T } from "../commands/apply.ts";\nDeno.exit(1);\n',
    },
    { path: "lib/commands/apply.ts", text: 'export * from "../state/sqlite.ts";\n' },
    { path: "lib/nowhere/x.ts", text: 'import "../diag/missing.ts";\n' },
    { path: "main.ts", text: "Deno.exit(0);\n" },
  ];
  const found = violations(files);
  assert.deepEqual(found, [
    "lib/nowhere is on no floor: give it one in tests/layers_test.ts and docs/architecture.md",
    "lib/diag/diag.ts:1 imports lib/cli/command.ts: lib/cli is on a higher floor than lib/diag",
    "lib/diag/diag.ts:1 imports lib/cli/command.ts: the engine never imports the CLI's rooms",
    "lib/state/sqlite.ts:3 imports lib/commands/apply.ts: lib/commands is on a higher floor than lib/state",
    "lib/state/sqlite.ts:3 imports lib/commands/apply.ts: the engine never imports the CLI's rooms",
    "lib/nowhere/x.ts:1 imports lib/diag/missing.ts, which is not a product source file",
    "a cycle between folders: lib/cli -> lib/diag",
    "a cycle between folders: lib/commands -> lib/state",
    "lib/state/sqlite.ts:4 ends the process: only main.ts exits (lib/diag/fatal.ts hands it the failure)",
  ]);
});

Deno.test("docs/architecture.md draws the floors of this test, bottom first", async () => {
  const page = await Deno.readTextFile(join(ROOT, "docs/architecture.md"));
  const table = page.slice(page.indexOf("<!-- floors -->"), page.indexOf("<!-- /floors -->"));
  const rows = [...table.matchAll(/^\|\s*(\d+)\s*\|([^|]+)\|/gm)].map((m) => ({
    floor: Number(m[1]),
    rooms: [...m[2].matchAll(/`([^`]+)`/g)].map((r) => r[1].replace(/\/$/, "")),
  }));
  assert.deepEqual(
    rows.sort((a, b) => a.floor - b.floor).map((r) => r.rooms),
    FLOORS.map((f) => [...f]),
  );
});
