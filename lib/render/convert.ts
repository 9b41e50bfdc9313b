/**
 * The human view of `pravo convert`, drawn from the document that `--json` prints.
 *
 * @module
 */

import type { Style } from "../diag/style.ts";

/** The document that `pravo convert --json` prints. */
export interface ConvertDoc {
  format_version: "1.0";
  /** `terraform`. */
  from: string;
  /** The directory converted, as given. */
  dir: string;
  /** The files written, relative to the root. */
  files: { path: string; action: "created" | "replaced" | "updated" }[];
  /** The files of the directory whose contents were written into the CUE (`file()`, `templatefile()`). */
  reads: string[];
  /** The `import` blocks: the objects to bring in with `pravo import` after `pravo init`. */
  imports: { address: string; id?: string; command?: string; file: string; line: number }[];
  /** The warnings: what was converted with a difference, or left out. */
  diagnostics: unknown[];
}

const MARK = { created: "+", replaced: "~", updated: "~" } as const;

/** The human view: the files written, the imports to run, what to do next. */
export function renderConvert(doc: ConvertDoc, style: Style): string {
  const lines = [
    `Converted ${doc.dir} from ${
      doc.from === "terraform" ? "Terraform" : doc.from
    }: ${doc.files.length} file${doc.files.length === 1 ? "" : "s"} written.`,
  ];
  for (const f of doc.files) {
    const mark = MARK[f.action];
    lines.push(
      `  ${f.action === "created" ? style.green(mark) : style.yellow(mark)} ${f.path}${
        f.action === "created" ? "" : ` (${f.action})`
      }`,
    );
  }
  if (doc.reads.length) {
    lines.push("", `Written into the CUE at convert time: ${doc.reads.join(", ")}.`);
  }
  const ready = doc.imports.filter((i) => i.command);
  if (doc.imports.length) {
    lines.push("", "The import blocks name objects to take over: after pravo init, run");
    for (const i of ready) lines.push(`  ${i.command}`);
    for (const i of doc.imports.filter((i) => !i.command)) {
      lines.push(`  pravo import ${i.address} ID   (${i.file} line ${i.line}: the id is computed)`);
    }
  }
  lines.push("", "Next: pravo init, then pravo validate.");
  return lines.join("\n");
}
