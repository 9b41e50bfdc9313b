/**
 * One Terraform module (a directory of `.tf` files) read for conversion:
 * its files parsed, its declarations gathered by kind (variables, locals,
 * outputs, resources, data sources, module calls, providers, `terraform`,
 * `moved`, `import`, ...), how each resource and call expands (`count`,
 * `for_each`), and the scope its expressions are read in.
 *
 * @module
 */

import { join, relative } from "node:path";
import { type Diagnostic, error } from "../diag/diag.ts";
import { HclSyntaxError, parseHclFile } from "./hcl.ts";
import type { HclFile } from "./hcl.ts";
import type { HclAttribute, HclBlock } from "./hcl_body.ts";
import type { Expansion, Scope } from "./expr.ts";

/** A block and the file it is in. */
export interface Located {
  file: HclFile;
  block: HclBlock;
}

/** What one module directory declares. */
export interface ModuleDecl {
  /** Absolute. */
  dir: string;
  /** Relative to the directory converted: `.` for the root module. */
  rel: string;
  files: HclFile[];
  variables: Located[];
  locals: Located[];
  outputs: Located[];
  resources: Located[];
  data: Located[];
  modules: Located[];
  providers: Located[];
  terraform: Located[];
  moved: Located[];
  imports: Located[];
  /** Blocks with nothing to convert to, by kind: `check`, `removed`, ... */
  other: Located[];
}

/** A position for diagnostics: `file`'s `offset`. */
export function at(file: HclFile, offset: number) {
  const p = file.lines.at(offset);
  return { range: { file: file.name, line: p.line, column: p.column } };
}

/** The attribute `name` of a block's body. */
export function attr(block: HclBlock, name: string): HclAttribute | undefined {
  return block.body.attributes.find((a) => a.name === name);
}

/** How a resource or module call expands: `count`, `for_each`, or not at all. */
export function expansionOf(block: HclBlock): Expansion {
  if (attr(block, "count")) return "count";
  if (attr(block, "for_each")) return "for_each";
  return "none";
}

/** Reads the `.tf` files of `dir` (sorted by name); syntax errors are diagnostics. */
export async function readModule(
  dir: string,
  top: string,
  diags: Diagnostic[],
): Promise<ModuleDecl | undefined> {
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].filter((e) => e.isFile).map((e) => e.name).sort();
  } catch (e) {
    diags.push(
      error(
        "Cannot read the directory",
        `Reading "${dir}" failed: ${(e as Error).message}. Give a directory of .tf files.`,
      ),
    );
    return undefined;
  }
  const m: ModuleDecl = {
    dir,
    rel: relative(top, dir) || ".",
    files: [],
    variables: [],
    locals: [],
    outputs: [],
    resources: [],
    data: [],
    modules: [],
    providers: [],
    terraform: [],
    moved: [],
    imports: [],
    other: [],
  };
  for (const name of names) {
    const shown = relative(top, join(dir, name));
    if (name.endsWith(".tf.json")) {
      diags.push(
        error(
          "A .tf.json file is not converted",
          `"${shown}" is Terraform's JSON syntax, which pravo convert does not read. Write its blocks in a .tf file (or in CUE by hand), then convert again.`,
          { range: { file: shown, line: 1, column: 1 } },
        ),
      );
      continue;
    }
    if (!name.endsWith(".tf")) continue;
    let file: HclFile;
    try {
      file = await parseHclFile(shown, Deno.readTextFileSync(join(dir, name)));
    } catch (e) {
      if (!(e instanceof HclSyntaxError)) throw e;
      diags.push(
        error(e.summary, `${e.detail} Correct the .tf file, then convert again.`, {
          range: { file: e.file, line: e.line, column: e.column },
        }),
      );
      continue;
    }
    m.files.push(file);
    gather(m, file, diags);
  }
  return m;
}

const KINDS: Record<string, keyof ModuleDecl> = {
  variable: "variables",
  locals: "locals",
  output: "outputs",
  resource: "resources",
  data: "data",
  module: "modules",
  provider: "providers",
  terraform: "terraform",
  moved: "moved",
  import: "imports",
  check: "other",
  removed: "other",
  ephemeral: "other",
};

function gather(m: ModuleDecl, file: HclFile, diags: Diagnostic[]): void {
  for (const a of file.body.attributes) {
    diags.push(
      error(
        `Unexpected attribute "${a.name}"`,
        "Terraform accepts no attribute outside a block. Remove it, then convert again.",
        at(file, a.offset),
      ),
    );
  }
  for (const block of file.body.blocks) {
    const kind = KINDS[block.type];
    if (!kind) {
      diags.push(
        error(
          `Unknown block type "${block.type}"`,
          `Terraform has no top-level block "${block.type}". Remove it, then convert again.`,
          at(file, block.offset),
        ),
      );
      continue;
    }
    (m[kind] as Located[]).push({ file, block });
  }
}

/** The scope a module's expressions are read in. */
export function moduleScope(m: ModuleDecl, top: string, module: boolean): Scope {
  const resources = new Map<string, Expansion>();
  for (const { block } of m.resources) {
    resources.set(`${block.labels[0]}.${block.labels[1]}`, expansionOf(block));
  }
  for (const { block } of m.data) {
    resources.set(`data.${block.labels[0]}.${block.labels[1]}`, expansionOf(block));
  }
  const modules = new Map<string, Expansion>();
  for (const { block } of m.modules) modules.set(block.labels[0], expansionOf(block));
  return {
    module,
    resources,
    modules,
    vars: new Map(),
    iterators: new Map(),
    pathModule: m.rel,
    dir: m.dir,
    top,
  };
}
