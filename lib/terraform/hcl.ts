/**
 * Parsing Terraform's `.tf` files with HashiCorp's own HCL parser,
 * `@cdktf/hcl2json` (HCL v2 compiled to WebAssembly, from the npm package):
 * it checks each file's syntax, with HCL's own messages and positions, and
 * gives each expression's syntax tree (`getExpressionAst`). The blocks and
 * attributes, with their positions, come from `hcl_body.ts`.
 *
 * The parser is loaded on first use, by `pravo convert` only (~0.3 s): its
 * Go runtime is started here with the package's own glue
 * (`wasm/wasm_exec.js`). The module comes from the package's
 * `main.wasm.gz` in node_modules; the single-file bundle has no
 * node_modules, so `scripts/bundle.ts` puts the same file inside it, in
 * base64, set as a global before pravo starts. (A bytes import, which
 * `deno bundle` can inline, was measured: its decoder took 12.6 s here.)
 *
 * @module
 */

import { gunzipSync } from "node:zlib";
import { fromBase64 } from "../bytes.ts";
import { type HclBody, HclScanError, LineIndex, scanBody } from "./hcl_body.ts";

/** A position in an expression's syntax tree: the byte offset counts. */
export interface AstPos {
  byte: number;
  line: number;
  column: number;
}

/** A node of an expression's syntax tree, as the parser gives it. */
export interface AstNode {
  /** `scopeTraversal`, `function`, `template`, ...; absent for the parser's helper nodes. */
  type?: string;
  children: AstNode[];
  // deno-lint-ignore no-explicit-any
  meta?: Record<string, any>;
  range: { start: AstPos; end: AstPos };
}

/** A file of Terraform's native syntax, read and parsed. */
export interface HclFile {
  /** As shown in diagnostics: relative to the directory converted. */
  name: string;
  text: string;
  body: HclBody;
  lines: LineIndex;
}

/** A syntax error, where HCL found it. */
export class HclSyntaxError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly summary: string,
    readonly detail: string,
  ) {
    super(`${file}:${line},${column}: ${summary}; ${detail}`);
    this.name = "HclSyntaxError";
  }
}

type Callback = (err: string | null, result: string | null) => void;
interface Bridge {
  parse(file: string, text: string, cb: Callback): void;
  getExpressionAst(file: string, text: string, cb: Callback): void;
}

let bridge: Promise<Bridge> | undefined;

/**
 * Where the single-file bundle carries the package's module (gzip, in
 * base64): `scripts/bundle.ts` sets it before pravo starts.
 */
export const BUNDLED_MODULE_GLOBAL = "__pravoHclWasmGzBase64";

/** The package's WebAssembly module, gzipped. */
async function moduleBytes(): Promise<Uint8Array> {
  const url = new URL("../../node_modules/@cdktf/hcl2json/main.wasm.gz", import.meta.url);
  if (url.protocol === "file:") {
    try {
      return await Deno.readFile(url);
    } catch {
      // not beside the sources: the bundle's copy
    }
  }
  const inline = (globalThis as Record<string, unknown>)[BUNDLED_MODULE_GLOBAL];
  const bytes = typeof inline === "string" ? fromBase64(inline) : undefined;
  if (!bytes) {
    throw new Error(
      "the HCL parser's WebAssembly is missing: node_modules/@cdktf/hcl2json is not beside the sources, and this is not a bundle that carries it. Run `npm ci`, or `deno task bundle` again",
    );
  }
  return bytes;
}

interface GoRuntime {
  importObject: WebAssembly.Imports;
  run(instance: WebAssembly.Instance): Promise<void>;
}

async function start(): Promise<Bridge> {
  const g = globalThis as unknown as {
    Go?: new () => GoRuntime;
    __parse_terraform_config_wasm__?: Bridge;
  };
  // The glue defines globalThis.Go; cue-wasm's glue defines its own: keep theirs.
  const before = g.Go;
  await import("@cdktf/hcl2json/wasm/wasm_exec.js");
  const Go = g.Go!;
  g.Go = before;
  const bytes = gunzipSync(await moduleBytes());
  const go = new Go();
  const root = {} as Bridge;
  g.__parse_terraform_config_wasm__ = root;
  const { instance } = await WebAssembly.instantiate(bytes as BufferSource, go.importObject);
  // Returns once Go's main blocks, its functions registered.
  void go.run(instance);
  if (typeof root.parse !== "function" || typeof root.getExpressionAst !== "function") {
    throw new Error("@cdktf/hcl2json registered no parser: the package changed");
  }
  return root;
}

/** The parser, started on first use. */
export function hclParser(): Promise<Bridge> {
  bridge ??= start();
  return bridge;
}

function call(
  b: Bridge,
  fn: "parse" | "getExpressionAst",
  file: string,
  text: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    b[fn](file, text, (err, result) => err ? reject(new Error(err)) : resolve(result ?? ""));
  });
}

/**
 * The first diagnostic of HCL's message:
 * `parse config: [main.tf:3,5-6: Summary; Detail. main.tf:...]`.
 */
export function syntaxError(message: string, file: string): HclSyntaxError {
  const body = message.replace(/^[^[]*\[/, "").replace(/\]\s*$/, "");
  const m = /^(.*?):(\d+),(\d+)(?:-\d+(?:,\d+)?)?: ([^;]*);?\s*/.exec(body);
  if (!m) return new HclSyntaxError(file, 1, 1, "Invalid HCL", message);
  const rest = body.slice(m[0].length);
  const next = rest.search(/ \S+:\d+,\d+(?:-\d+(?:,\d+)?)?: /);
  const detail = (next < 0 ? rest : rest.slice(0, next)).replace(
    /, and \d+ other diagnostic\(s\)\s*$/,
    "",
  );
  return new HclSyntaxError(m[1] || file, Number(m[2]), Number(m[3]), m[4], detail.trim());
}

/**
 * Reads one `.tf` file: HCL checks its syntax (an `HclSyntaxError` with its
 * line and column), then its blocks and attributes are found.
 */
export async function parseHclFile(name: string, text: string): Promise<HclFile> {
  const b = await hclParser();
  try {
    await call(b, "parse", name, text);
  } catch (e) {
    throw syntaxError((e as Error).message, name);
  }
  const lines = new LineIndex(text);
  try {
    return { name, text, body: scanBody(text), lines };
  } catch (e) {
    if (!(e instanceof HclScanError)) throw e;
    const at = lines.at(e.offset);
    throw new HclSyntaxError(
      name,
      at.line,
      at.column,
      "Unsupported syntax",
      `HCL accepts this file, but pravo convert cannot read its structure here (${e.message}). Write this part in the ordinary layout (one attribute or block a line), then convert again.`,
    );
  }
}

/**
 * The syntax tree of an expression's source text. Its positions count
 * bytes of the UTF-8 of `expr` (`range.start.byte`).
 */
export async function expressionAst(file: string, expr: string): Promise<AstNode> {
  const b = await hclParser();
  let out: string;
  try {
    out = await call(b, "getExpressionAst", file, expr);
  } catch (e) {
    throw syntaxError((e as Error).message, file);
  }
  const ast = JSON.parse(out) as AstNode | null;
  if (!ast) throw new HclSyntaxError(file, 1, 1, "Empty expression", "Write a value here.");
  return ast;
}

/** HCL's own JSON of a file (`.terraform.lock.hcl`): values as JSON, expressions as `${...}`. */
export async function parseHclJson(name: string, text: string): Promise<unknown> {
  const b = await hclParser();
  try {
    return JSON.parse(await call(b, "parse", name, text));
  } catch (e) {
    if (e instanceof SyntaxError) throw e;
    throw syntaxError((e as Error).message, name);
  }
}
