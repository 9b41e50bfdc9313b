/**
 * `pravo completion bash|zsh|fish`: a shell completion script, generated
 * from the command registry (lib/commands/registry.ts) so that it never
 * drifts from the commands: the commands and the subcommands of `state`,
 * each command's flags and the global ones, the values of flags that take
 * only some (`--refresh age|expired|false|all`), directories for `-C`, file
 * names for PLANFILE, FILE and `--out`/`--policy`/`--plan`, and `.cue` files
 * for `fmt`.
 *
 * @module
 */

import type { CommandRun, CommandSpec, OptionSpec } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { UsageError } from "../diag/usage.ts";
import { COMMANDS, GLOBAL_OPTIONS, groups } from "../cli/commands.ts";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

export const run: CommandRun = (ctx, _opts, args) => {
  const shell = args[0];
  if (!(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(
      `"completion" takes a shell: bash, zsh or fish, and "${shell}" is none of them`,
      "completion",
    );
  }
  ctx.streams.stdout(completionScript(shell as Shell));
  return Promise.resolve(Exit.OK);
};

/** The completion script for `shell`. */
export function completionScript(shell: Shell): string {
  const m = model();
  switch (shell) {
    case "bash":
      return bash(m);
    case "zsh":
      return zsh(m);
    case "fish":
      return fish(m);
  }
}

/** What a word completes to: files, directories, `.cue` files, some words, or nothing. */
type Values =
  | { kind: "files" }
  | { kind: "dirs" }
  | { kind: "cue" }
  | { kind: "words"; words: string[] }
  | { kind: "none" };

interface Flag {
  /** `--out`, `-C`. */
  flag: string;
  description: string;
  /** For a flag that takes a value: what the value completes to. */
  value?: Values;
}

interface Model {
  /** The first words: commands and groups, with their summaries. */
  top: { word: string; summary: string }[];
  /** The subcommands of each group. */
  groups: Map<string, { word: string; summary: string }[]>;
  global: Flag[];
  /** By command name (`plan`, `state show`): its own flags and what its arguments complete to. */
  commands: Map<string, { flags: Flag[]; args: Values }>;
  /** Every flag that takes a value, and what it completes to. */
  valueFlags: Map<string, Values>;
}

function flagName(k: string): string {
  return k.length === 1 ? `-${k}` : `--${k}`;
}

function optionValues(o: OptionSpec): Values {
  if (o.choices) return { kind: "words", words: o.choices };
  if (o.valueName === "DIR") return { kind: "dirs" };
  if (o.valueName === "FILE" || o.valueName === "PLANFILE") return { kind: "files" };
  return { kind: "none" };
}

function flags(opts: Record<string, OptionSpec>): Flag[] {
  return Object.entries(opts).flatMap(([k, o]) => {
    const f: Flag = { flag: flagName(k), description: o.description };
    if (o.type === "string") f.value = optionValues(o);
    const out = [f];
    if (o.short) out.push({ ...f, flag: `-${o.short}` });
    return out;
  });
}

function argValues(c: CommandSpec): Values {
  if (c.name === "fmt") return { kind: "cue" };
  if (c.name === "help") {
    return { kind: "words", words: [...new Set(COMMANDS.map((x) => x.name.split(" ")[0]))] };
  }
  if (/\bPLANFILE\b|\bFILE\b/.test(c.args)) return { kind: "files" };
  if (/^\w+(\|\w+)+$/.test(c.args)) return { kind: "words", words: c.args.split("|") };
  return { kind: "none" };
}

function model(): Model {
  const grouped = groups();
  const top: Model["top"] = [];
  const groupMap: Model["groups"] = new Map();
  for (const c of COMMANDS) {
    const [first, second] = c.name.split(" ");
    if (second !== undefined) {
      if (!groupMap.has(first)) {
        groupMap.set(first, []);
        top.push({ word: first, summary: `The ${first} commands` });
      }
      groupMap.get(first)!.push({ word: second, summary: c.summary });
    } else if (!grouped.has(first)) {
      top.push({ word: first, summary: c.summary });
    }
  }
  const global = flags(GLOBAL_OPTIONS);
  global.push({ flag: "--version", description: "Print the version" });
  const commands: Model["commands"] = new Map();
  const valueFlags: Model["valueFlags"] = new Map();
  for (const f of global) if (f.value) valueFlags.set(f.flag, f.value);
  for (const c of COMMANDS) {
    const own = flags(c.options);
    for (const f of own) if (f.value) valueFlags.set(f.flag, f.value);
    commands.set(c.name, { flags: own, args: argValues(c) });
  }
  return { top, groups: groupMap, global, commands, valueFlags };
}

/** Words quoted for a shell's single quotes. */
const sq = (s: string) => "'" + s.replace(/'/g, `'\\''`) + "'";

/** Cases by what the values complete to, in a fixed order. */
function byValues(
  map: Map<string, Values>,
): { words: string[]; values: Values }[] {
  const out = new Map<string, { words: string[]; values: Values }>();
  for (const [word, v] of map) {
    const key = JSON.stringify(v);
    if (!out.has(key)) out.set(key, { words: [], values: v });
    out.get(key)!.words.push(word);
  }
  return [...out.values()];
}

function bashValues(v: Values): string {
  switch (v.kind) {
    case "files":
      return 'COMPREPLY=($(compgen -f -- "$cur"))';
    case "dirs":
      return 'COMPREPLY=($(compgen -d -- "$cur"))';
    case "cue":
      return `COMPREPLY=($(compgen -f -X '!*.cue' -- "$cur") $(compgen -d -- "$cur"))`;
    case "words":
      return `COMPREPLY=($(compgen -W ${sq(v.words.join(" "))} -- "$cur"))`;
    case "none":
      return "COMPREPLY=()";
  }
}

const HEADER = (shell: string, load: string) =>
  `# ${shell} completion for pravo, generated by \`pravo completion ${shell}\` from pravo's
# commands. ${load}
`;

/** How a shell's completion function walks the words before the cursor. */
export interface WordLoop {
  /** The index of the first word after `pravo`. */
  first: number;
  /** The variable that counts the words before the cursor's. */
  before: string;
  /** The variable that holds the words. */
  words: string;
  /** A case pattern of some words, in the shell's syntax: `a | b)`, `(a|b)`. */
  pattern: (words: string[]) => string;
}

/** bash's: `COMP_WORDS`, patterns `a | b)`. */
export const BASH_LOOP: WordLoop = {
  first: 1,
  before: "COMP_CWORD",
  words: "COMP_WORDS",
  pattern: (words) => `${words.join(" | ")})`,
};

/** zsh's: `words` (from 1, `pravo` first), patterns `(a|b)`. */
export const ZSH_LOOP: WordLoop = {
  first: 2,
  before: "CURRENT",
  words: "words",
  pattern: (words) => `(${words.join("|")})`,
};

/**
 * The loop of a bash or zsh completion function that finds the command
 * (`plan`, `state show`) in `$cmd`: the words before the cursor that are
 * not flags, nor the values of flags that take one, the second only after a
 * group (`state`); `--` ends it.
 */
export function commandWordLoop(
  m: { valueFlags: Map<string, unknown>; groups: Map<string, unknown> },
  loop: WordLoop,
): string[] {
  const p = loop.pattern;
  return [
    `  for ((i = ${loop.first}; i < ${loop.before}; i++)); do`,
    `    w="\${${loop.words}[i]}"`,
    '    case "$w" in',
    `      ${p(["--"])} break ;;`,
    `      ${p([...m.valueFlags.keys()])} ((i++)) ;;`,
    `      ${p(["-*"])} ;;`,
    `      ${p(["*"])}`,
    '        if [[ -z "$cmd" ]]; then',
    '          cmd="$w"',
    `        elif [[ " ${[...m.groups.keys()].join(" ")} " == *" $cmd "* ]]; then`,
    '          cmd="$cmd $w"',
    "        fi",
    "        ;;",
    "    esac",
    "  done",
  ];
}

function bash(m: Model): string {
  const globalFlags = m.global.map((f) => f.flag).join(" ");
  const lines = [
    HEADER("bash", "Load it with: source <(pravo completion bash)"),
    "_pravo_complete() {",
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmd="" i w',
    ...commandWordLoop(m, BASH_LOOP),
    '  case "$prev" in',
  ];
  for (const { words, values } of byValues(m.valueFlags)) {
    lines.push(
      `    ${words.join(" | ")})`,
      `      ${bashValues(values)}`,
      "      return",
      "      ;;",
    );
  }
  lines.push("  esac", '  if [[ "$cur" == -* ]]; then', '    case "$cmd" in');
  for (const [name, c] of m.commands) {
    if (c.flags.length === 0) continue;
    const words = [...c.flags.map((f) => f.flag), globalFlags].join(" ");
    lines.push(`      ${sq(name)}) COMPREPLY=($(compgen -W ${sq(words)} -- "$cur")) ;;`);
  }
  lines.push(
    `      *) COMPREPLY=($(compgen -W ${sq(globalFlags)} -- "$cur")) ;;`,
    "    esac",
    "    return",
    "  fi",
    '  case "$cmd" in',
    `    "") COMPREPLY=($(compgen -W ${sq(m.top.map((t) => t.word).join(" "))} -- "$cur")) ;;`,
  );
  for (const [g, subs] of m.groups) {
    lines.push(
      `    ${sq(g)}) COMPREPLY=($(compgen -W ${
        sq(subs.map((s) => s.word).join(" "))
      } -- "$cur")) ;;`,
    );
  }
  for (const [name, c] of m.commands) {
    if (c.args.kind === "none") continue;
    lines.push(`    ${sq(name)}) ${bashValues(c.args)} ;;`);
  }
  lines.push(
    "    *) COMPREPLY=() ;;",
    "  esac",
    "}",
    "complete -o filenames -F _pravo_complete pravo",
    "",
  );
  return lines.join("\n");
}

/** Text for zsh's `_describe`: `word:description`, colons in the description escaped. */
const described = (word: string, d: string) => sq(`${word}:${d.replace(/:/g, "\\:")}`);

function zshValues(v: Values): string {
  switch (v.kind) {
    case "files":
      return "_files";
    case "dirs":
      return "_files -/";
    case "cue":
      return "_files -g '*.cue'";
    case "words":
      return `compadd -- ${v.words.map(sq).join(" ")}`;
    case "none":
      return ":";
  }
}

function zsh(m: Model): string {
  const globalFlags = m.global.map((f) => described(f.flag, f.description));
  const lines = [
    "#compdef pravo",
    HEADER(
      "zsh",
      "Load it with: source <(pravo completion zsh), after compinit;\n# or save it as _pravo in a folder of $fpath.",
    ),
    "_pravo() {",
    '  local cur="${words[CURRENT]}" prev="${words[CURRENT-1]}" cmd="" i w',
    "  local -a items",
    ...commandWordLoop(m, ZSH_LOOP),
    '  case "$prev" in',
  ];
  for (const { words, values } of byValues(m.valueFlags)) {
    lines.push(`    (${words.join("|")}) ${zshValues(values)}; return ;;`);
  }
  lines.push("  esac", '  if [[ "$cur" == -* ]]; then', '    case "$cmd" in');
  for (const [name, c] of m.commands) {
    if (c.flags.length === 0) continue;
    lines.push(
      `      (${sq(name)}) items=(${
        [...c.flags.map((f) => described(f.flag, f.description)), ...globalFlags].join(" ")
      }) ;;`,
    );
  }
  lines.push(
    `      (*) items=(${globalFlags.join(" ")}) ;;`,
    "    esac",
    "    _describe -t flags 'flag' items",
    "    return",
    "  fi",
    '  case "$cmd" in',
    `    ("") items=(${m.top.map((t) => described(t.word, t.summary)).join(" ")})`,
    "      _describe -t commands 'pravo command' items ;;",
  );
  for (const [g, subs] of m.groups) {
    lines.push(
      `    (${sq(g)}) items=(${subs.map((s) => described(s.word, s.summary)).join(" ")})`,
      `      _describe -t commands 'pravo ${g} command' items ;;`,
    );
  }
  for (const [name, c] of m.commands) {
    if (c.args.kind === "none") continue;
    lines.push(`    (${sq(name)}) ${zshValues(c.args)} ;;`);
  }
  lines.push(
    "  esac",
    "}",
    'if [[ "${funcstack[1]}" == "_pravo" ]]; then',
    '  _pravo "$@"',
    "else",
    "  compdef _pravo pravo",
    "fi",
    "",
  );
  return lines.join("\n");
}

/** Words quoted for fish's single quotes. */
const fq = (s: string) => "'" + s.replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'";

function fishValues(v: Values): string {
  switch (v.kind) {
    case "files":
      return "-r -F";
    case "dirs":
      return "-x -a '(__fish_complete_directories)'";
    case "cue":
      return "-x -a '(__fish_complete_suffix .cue)'";
    case "words":
      return `-x -a ${fq(v.words.join(" "))}`;
    case "none":
      return "-x";
  }
}

/** A command's arguments: like a flag's value, without the flag. */
function fishArgs(v: Values): string {
  return v.kind === "files" ? "-F" : fishValues(v).replace(/^-[rx] /, "");
}

function fishFlag(f: Flag, condition: string): string {
  const spec = f.flag.startsWith("--") ? `-l ${f.flag.slice(2)}` : `-s ${f.flag.slice(1)}`;
  const value = f.value ? " " + fishValues(f.value) : "";
  return `complete -c pravo${condition}${spec}${value} -d ${fq(f.description)}`;
}

function fish(m: Model): string {
  const valueWords = [...m.valueFlags.keys()];
  const lines = [
    HEADER(
      "fish",
      "Load it with: pravo completion fish | source\n# or save it as ~/.config/fish/completions/pravo.fish.",
    ),
    "# The command words typed so far: `plan`, `state show`, or nothing.",
    "function __pravo_command",
    "    set -l words (commandline -opc)",
    "    set -e words[1]",
    "    set -l cmd",
    "    set -l skip 0",
    "    for w in $words",
    "        if test $skip = 1",
    "            set skip 0",
    "            continue",
    "        end",
    "        switch $w",
    "            case --",
    "                break",
    `            case ${valueWords.map(fq).join(" ")}`,
    "                set skip 1",
    "            case '-*'",
    "            case '*'",
    '                if test -z "$cmd"',
    "                    set cmd $w",
    `                else if contains -- $cmd ${[...m.groups.keys()].join(" ")}`,
    '                    set cmd "$cmd $w"',
    "                end",
    "        end",
    "    end",
    '    echo "$cmd"',
    "end",
    "",
    "function __pravo_using",
    "    set -l c (__pravo_command)",
    '    test "$c" = "$argv"',
    "end",
    "",
    "complete -c pravo -f",
  ];
  for (const f of m.global) lines.push(fishFlag(f, " "));
  for (const t of m.top) {
    lines.push(`complete -c pravo -n '__pravo_using' -a ${fq(t.word)} -d ${fq(t.summary)}`);
  }
  for (const [g, subs] of m.groups) {
    for (const s of subs) {
      lines.push(
        `complete -c pravo -n '__pravo_using ${g}' -a ${fq(s.word)} -d ${fq(s.summary)}`,
      );
    }
  }
  for (const [name, c] of m.commands) {
    const cond = ` -n '__pravo_using ${name}' `;
    for (const f of c.flags) lines.push(fishFlag(f, cond));
    if (c.args.kind !== "none") {
      lines.push(`complete -c pravo${cond}${fishArgs(c.args)}`);
    }
  }
  lines.push("");
  return lines.join("\n");
}
