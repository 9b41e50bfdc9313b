/**
 * The page `docs/reference/feature-matrix.md`, made from the matrix's
 * declarations (cells.ts): `deno task matrix` writes it, and
 * `tests/matrix/table_test.ts` fails when the page and the declarations
 * differ.
 *
 * @module
 */

import { cell, COLUMNS, ROWS, WORLDS } from "./cells.ts";

export const PAGE = "docs/reference/feature-matrix.md";

/** The test file that runs each world. */
const FILES: Record<string, string> = {
  "builtin-sqlite": "tests/matrix/builtin_test.ts",
  "builtin-postgres": "tests/matrix/builtin_test.ts",
  "fake-sqlite": "tests/matrix/fake_test.ts",
  "aws-sqlite": "tests/matrix/aws_test.ts",
  "bundle-sqlite": "tests/matrix/bundle_test.ts",
};

export function worldFile(id: string): string | undefined {
  return FILES[id];
}

function pad(cells: string[], widths: number[]): string {
  return `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
}

/** The page's text. */
export function renderMatrix(): string {
  const notes: string[] = [];
  const header = ["Row", ...COLUMNS.map((c) => c.title)];
  const body = ROWS.map((r) => [
    r.title,
    ...COLUMNS.map((c) => {
      const { worlds, na } = cell(r, c.id);
      if (worlds.length) return worlds.map((w) => `\`${w.id}\``).join(", ");
      if (na) {
        notes.push(na);
        return `n/a [${notes.length}]`;
      }
      return "not yet";
    }),
  ]);
  const widths = header.map((_, i) =>
    Math.max(3, ...[header, ...body].map((row) => row[i].length))
  );
  const table = [
    pad(header, widths),
    `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`,
    ...body.map((row) => pad(row, widths)),
  ];
  const covered = ROWS.flatMap((r) => COLUMNS.map((c) => cell(r, c.id)));
  const run = covered.filter((c) => c.worlds.length).length;
  const na = covered.filter((c) => !c.worlds.length && c.na).length;
  const open = covered.length - run - na;
  return [
    "# Feature matrix",
    "",
    "Every command, MCP tool and governance feature of pravo (the rows) against the providers, the",
    "state stores and the single-file bundle (the columns). A cell names the worlds whose tests run",
    "that row end to end: a root on those providers and that store, through `scripts/pravo` (the",
    "narrow permissions a user runs with) and the MCP server through the MCP SDK's client, each row a",
    "step of the world's test that asserts what a user sees (exit codes, the plan, the state). A cell",
    "that does not apply says why below the table.",
    "",
    "This page is generated from `tests/matrix/cells.ts` by `deno task matrix`; the test suite fails",
    "when the two differ.",
    "",
    `${run} of ${covered.length} cells are run, ${na} do not apply, ${open} are not yet covered.`,
    "",
    ...table,
    "",
    ...(notes.length ? [...notes.map((n, i) => `${i + 1}. ${n}`), ""] : []),
    "## Columns",
    "",
    ...COLUMNS.map((c) => `- **${c.title}**: ${c.detail}.`),
    "",
    "## Worlds",
    "",
    ...WORLDS.map((w) =>
      `- \`${w.id}\`: ${w.title} (${worldFile(w.id) ?? "no test file"}); columns ${
        w.columns.map((c) => COLUMNS.find((x) => x.id === c)!.title).join(", ")
      }${w.skips?.length ? `; does not run ${w.skips.join(", ")}` : ""}.`
    ),
    "",
    "## See also",
    "",
    "- [Exit codes](exit-codes.md): what each step checks.",
    "- [pravo mcp](mcp.md): the tools of the rows `pravo_*`.",
    "",
  ].join("\n");
}

/** The page's text as `deno fmt` writes it (the docs are formatted). */
export async function formattedMatrix(): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext", "md", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(renderMatrix()));
  await w.close();
  const out = await child.output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}
