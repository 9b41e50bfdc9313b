/**
 * The examples of the reference pages in `docs/`: reading them out of the
 * markdown, and running them. `docs_test.ts` runs every page; this module
 * has no tests of its own so that `docs_parse_test.ts` can import it.
 *
 * What a page may contain, in order:
 *
 * - "Work in an empty directory named `demo`." anywhere in the prose: the
 *   examples run in a fresh temporary directory of that name (else in a
 *   fresh temporary directory).
 * - ```` ```cue file=main.cue ```` (any language): writes the block to that
 *   path, relative to the directory, creating parent directories.
 * - ```` ```sh run ```` (or `bash`, `shell`): runs the block with bash, stdout
 *   and stderr merged, no standard input, `pravo` on PATH. It must exit 0, or
 *   N with ```` ```sh run exit=N ````. `timeout=SECONDS` changes the limit of
 *   120 s.
 * - ```` ```text out ````, as the next code block after a run block: the
 *   output it must print, exactly (one trailing newline is ignored on each
 *   side).
 * - `<!-- docs-env NAME=VALUE -->` on a line of its own: sets a variable for
 *   the run blocks after it (the defaults are `PRAVO_ACTOR=docs` and
 *   `PRAVO_KEY` set to {@link DOCS_KEY}, so that key fingerprints in the
 *   pages are the same on every run).
 *
 * Other code blocks are text for the reader and are not run.
 *
 * @module
 */

import { dirname, isAbsolute, join, normalize, relative } from "node:path";

/** A block that writes a file. */
export interface FileExample {
  kind: "file";
  /** The line of the opening fence, 1-based. */
  line: number;
  path: string;
  content: string;
}

/** A block that runs, with the output it must print if the page says so. */
export interface RunExample {
  kind: "run";
  line: number;
  script: string;
  exit: number;
  timeoutSeconds: number;
  /** The expected output, and the line of its block. */
  expected?: { text: string; line: number };
  /** Variables the page set before this block. */
  env: Record<string, string>;
}

export type Example = FileExample | RunExample;

/** A page's examples and where they run. */
export interface DocPage {
  /** The directory named by "Work in an empty directory named `X`". */
  dir?: string;
  examples: Example[];
}

/** A page whose examples cannot be read: the line and what to fix. */
export class DocsSyntaxError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = "DocsSyntaxError";
    this.line = line;
  }
}

const SHELLS = new Set(["sh", "bash", "shell"]);
const DEFAULT_TIMEOUT = 120;

/** Splits an info string into its language, bare words and key=value pairs. */
export function parseInfo(info: string): {
  lang: string;
  words: Set<string>;
  attrs: Record<string, string>;
} {
  const tokens = [...info.matchAll(/([^\s=]+)(?:=(?:"([^"]*)"|'([^']*)'|(\S*)))?/g)];
  const words = new Set<string>();
  const attrs: Record<string, string> = {};
  let lang = "";
  tokens.forEach((m, i) => {
    const value = m[2] ?? m[3] ?? m[4];
    if (value !== undefined) attrs[m[1]] = value;
    else if (i === 0) lang = m[1];
    else words.add(m[1]);
  });
  return { lang, words, attrs };
}

interface Fence {
  line: number;
  info: string;
  body: string;
}

/** The fenced code blocks of a markdown text, and the prose lines between. */
function scan(markdown: string): { fences: Fence[]; prose: { line: number; text: string }[] } {
  const lines = markdown.split(/\r?\n/);
  const fences: Fence[] = [];
  const prose: { line: number; text: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (!open || (open[2][0] === "`" && open[3].includes("`"))) {
      prose.push({ line: i + 1, text: lines[i] });
      continue;
    }
    const [, indent, marker, info] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[j]);
      if (close && close[1][0] === marker[0] && close[1].length >= marker.length) break;
      // Remove the opening fence's indentation from each line, as CommonMark does.
      let l = lines[j];
      for (let k = 0; k < indent.length && l.startsWith(" "); k++) l = l.slice(1);
      body.push(l);
    }
    if (j >= lines.length) {
      throw new DocsSyntaxError(i + 1, `the code block opened here is never closed with ${marker}`);
    }
    fences.push({ line: i + 1, info: info.trim(), body: body.join("\n") });
    i = j;
  }
  return { fences, prose };
}

/** Reads the examples of one page. */
export function parsePage(markdown: string): DocPage {
  const { fences, prose } = scan(markdown);
  const page: DocPage = { examples: [] };
  for (const p of prose) {
    const m = /Work in an empty directory named `([^`]+)`/.exec(p.text);
    if (!m) continue;
    const name = m[1];
    if (name.includes("/") || name === "." || name === "..") {
      throw new DocsSyntaxError(p.line, `directory name "${name}" must be one plain name`);
    }
    if (page.dir !== undefined && page.dir !== name) {
      throw new DocsSyntaxError(
        p.line,
        `the page names two directories, "${page.dir}" and "${name}": name one`,
      );
    }
    page.dir = name;
  }
  // Env directives apply to the run blocks after them, so merge by line.
  const envAt: { line: number; name: string; value: string }[] = [];
  for (const p of prose) {
    const m = /^\s*<!--\s*docs-env\s+([A-Za-z_][A-Za-z0-9_]*)=(.*?)\s*-->\s*$/.exec(p.text);
    if (m) envAt.push({ line: p.line, name: m[1], value: m[2] });
  }
  const env: Record<string, string> = {};
  let nextEnv = 0;
  let lastWasRun: RunExample | undefined;
  for (const f of fences) {
    for (; nextEnv < envAt.length && envAt[nextEnv].line < f.line; nextEnv++) {
      env[envAt[nextEnv].name] = envAt[nextEnv].value;
    }
    const { lang, words, attrs } = parseInfo(f.info);
    if ("file" in attrs) {
      const path = attrs.file;
      if (path === "" || isAbsolute(path) || normalize(path).startsWith("..")) {
        throw new DocsSyntaxError(
          f.line,
          `file="${path}" must be a relative path inside the directory`,
        );
      }
      page.examples.push({ kind: "file", line: f.line, path, content: f.body + "\n" });
      lastWasRun = undefined;
      continue;
    }
    if (words.has("run")) {
      if (!SHELLS.has(lang)) {
        throw new DocsSyntaxError(f.line, `only sh, bash and shell blocks can run, not "${lang}"`);
      }
      const exit = attrs.exit === undefined ? 0 : Number(attrs.exit);
      if (!Number.isInteger(exit) || exit < 0 || exit > 255) {
        throw new DocsSyntaxError(f.line, `exit=${attrs.exit} is not an exit code (0 to 255)`);
      }
      const timeoutSeconds = attrs.timeout === undefined ? DEFAULT_TIMEOUT : Number(attrs.timeout);
      if (!(timeoutSeconds > 0)) {
        throw new DocsSyntaxError(f.line, `timeout=${attrs.timeout} is not a number of seconds`);
      }
      const run: RunExample = {
        kind: "run",
        line: f.line,
        script: f.body,
        exit,
        timeoutSeconds,
        env: { ...env },
      };
      page.examples.push(run);
      lastWasRun = run;
      continue;
    }
    if (words.has("out")) {
      if (!lastWasRun) {
        throw new DocsSyntaxError(
          f.line,
          "this output block does not follow a ```sh run block: put it right after the block it shows",
        );
      }
      lastWasRun.expected = { text: f.body, line: f.line };
      lastWasRun = undefined;
      continue;
    }
    lastWasRun = undefined; // a block for the reader breaks the run/out pair
  }
  return page;
}

/** Removes one trailing newline, as the comparison of outputs does. */
export function trimOneNewline(s: string): string {
  return s.endsWith("\n") ? s.slice(0, -1) : s;
}

/**
 * A line diff of `expected` and `actual`: unchanged lines with two spaces,
 * missing ones with `-`, extra ones with `+`.
 */
export function lineDiff(expected: string, actual: string): string {
  const a = expected.split("\n");
  const b = actual.split("\n");
  // Longest common subsequence table, from the ends.
  const lcs: number[][] = Array.from(
    { length: a.length + 1 },
    () => new Array(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (i < a.length && (j >= b.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out.push(`- ${a[i]}`);
      i++;
    } else {
      out.push(`+ ${b[j]}`);
      j++;
    }
  }
  return out.join("\n");
}

/** Where and how the examples of a page run. */
export interface RunOptions {
  /** The directory the page's examples run in. */
  cwd: string;
  /** A folder holding the `pravo` wrapper, put first on PATH. */
  binDir: string;
}

/** What one run block did. */
export interface RunResult {
  code: number;
  output: string;
  timedOut: boolean;
}

/** pravo's key in the docs' examples: a fixed one, known to all, for docs only. */
export const DOCS_KEY = btoa("pravo docs key: never use it!!!!");

/** The environment of a run block: the test's, less what would change outputs. */
export function exampleEnv(
  binDir: string,
  pageEnv: Record<string, string>,
): Record<string, string> {
  const env = Deno.env.toObject();
  for (
    const name of [
      "NO_COLOR",
      "FORCE_COLOR",
      "PRAVO_ACTOR",
      "PRAVO_REASON",
      "PRAVO_STATE",
      "PRAVO_KEY_FILE",
    ]
  ) {
    delete env[name];
  }
  env.PATH = `${binDir}:${env.PATH ?? "/usr/bin:/bin"}`;
  env.PRAVO_ACTOR = "docs";
  env.PRAVO_KEY = DOCS_KEY;
  return { ...env, ...pageEnv };
}

/** Runs one block with bash, stdout and stderr merged, no stdin, no terminal. */
export async function runBlock(example: RunExample, options: RunOptions): Promise<RunResult> {
  // `timeout` runs bash in a process group of its own and ends all of it.
  const out = await new Deno.Command("timeout", {
    args: [
      "--kill-after=5",
      String(example.timeoutSeconds),
      "bash",
      "--noprofile",
      "--norc",
      "-c",
      `exec 2>&1\n${example.script}`,
    ],
    cwd: options.cwd,
    env: exampleEnv(options.binDir, example.env),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return {
    code: out.code,
    output: dec.decode(out.stdout) + dec.decode(out.stderr),
    timedOut: out.code === 124 || out.code === 137,
  };
}

/** Writes a file block under `cwd`. */
export async function writeExampleFile(example: FileExample, cwd: string): Promise<void> {
  const path = join(cwd, example.path);
  if (relative(cwd, path).startsWith("..")) {
    throw new Error(`file=${example.path} leaves the directory`);
  }
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, example.content);
}

/**
 * What is wrong with a run block's result, for a human; `undefined` when it
 * did what the page says.
 */
export function judge(page: string, example: RunExample, result: RunResult): string | undefined {
  const problems: string[] = [];
  const where = `${page}:${example.line}`;
  if (result.timedOut) {
    problems.push(
      `${where}: the block did not finish in ${example.timeoutSeconds} s (set timeout=SECONDS on the block if it needs longer)`,
    );
  } else if (result.code !== example.exit) {
    problems.push(
      `${where}: the block exited ${result.code}, and the page expects ${example.exit}` +
        (example.exit === 0
          ? ` (write \`exit=${result.code}\` on the block if that is right)`
          : ""),
    );
  }
  if (example.expected) {
    const want = trimOneNewline(example.expected.text);
    const got = trimOneNewline(result.output);
    if (want !== got) {
      const onlyBlank = want.replace(/\n+$/, "") === got.replace(/\n+$/, "");
      problems.push(
        `${where}: the output differs from the text out block on line ${example.expected.line}` +
          (onlyBlank ? ", only in blank lines at the end" : "") +
          ` (- expected, + actual):\n${lineDiff(want, got)}`,
      );
    }
  } else if (problems.length) {
    problems.push(`output:\n${result.output}`);
  }
  if (!problems.length) return undefined;
  return `${problems.join("\n")}\n\nthe block:\n${example.script}`;
}
