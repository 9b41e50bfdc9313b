import { strict as assert } from "node:assert";
import { join } from "node:path";
import { BASH_LOOP, commandWordLoop, completionScript, ZSH_LOOP } from "./completion.ts";
import { COMMANDS, GLOBAL_OPTIONS } from "../cli/commands.ts";

async function has(shell: string): Promise<boolean> {
  try {
    const out = await new Deno.Command(shell, {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    })
      .output();
    return out.success;
  } catch {
    return false;
  }
}

/**
 * Whether a test that needs `shell` can run it. A missing shell fails the
 * test under CI (`$CI` set: `.ci/run` installs zsh and fish from Debian) and
 * is said on stderr elsewhere, where only the script's structure is checked.
 */
async function need(shell: string): Promise<boolean> {
  if (await has(shell)) return true;
  if (Deno.env.get("CI")) {
    assert.fail(
      `${shell} is not installed, so its completion script cannot be run: ` +
        `install it (apt-get install -y ${shell}); .ci/run does`,
    );
  }
  console.error(
    `${shell} is not installed: only the structure of its script is checked ` +
      `(apt-get install -y ${shell} runs it)`,
  );
  return false;
}

/**
 * The shell words of `script` outside quotes and comments, so that a keyword
 * inside a description ("exit 3 if any") is not taken for one.
 */
function bareWords(script: string): string[] {
  let out = "";
  for (let i = 0; i < script.length; i++) {
    const c = script[i];
    if (c === "'") {
      i = script.indexOf("'", i + 1);
      if (i < 0) break;
      out += " ";
    } else if (c === '"') {
      for (i++; i < script.length && script[i] !== '"'; i++) if (script[i] === "\\") i++;
      out += " ";
    } else if (c === "\\") {
      i++;
    } else if (c === "#" && (i === 0 || /\s/.test(script[i - 1]))) {
      const eol = script.indexOf("\n", i);
      if (eol < 0) break;
      i = eol - 1;
    } else out += c;
  }
  return out.split(/[\s;()|&]+/).filter((w) => w !== "");
}

Deno.test("bareWords() leaves out quoted text and comments", () => {
  assert.deepEqual(bareWords(`# pravo's\nif [[ "$x" ]]; then a 'exit 3 if any'\\''s'; fi # if`), [
    "if",
    "[[",
    "]]",
    "then",
    "a",
    "fi",
  ]);
});

async function run(shell: string, args: string[], cwd?: string): Promise<string> {
  const out = await new Deno.Command(shell, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout);
  assert.ok(out.success, `${shell} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return text;
}

/** A directory with a script and a few files to complete. */
async function scratch(shell: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "pravo-completion-" });
  await Deno.writeTextFile(join(dir, `pravo.${shell}`), completionScript(shell as "bash"));
  await Deno.writeTextFile(join(dir, "x.plan"), "");
  await Deno.writeTextFile(join(dir, "main.cue"), "");
  await Deno.mkdir(join(dir, "sub"));
  return dir;
}

const topWords = [...new Set(COMMANDS.map((c) => c.name.split(" ")[0]))];

/** The command lines both the bash and the zsh script are asked to complete, through `t`. */
const PROBES = [
  "pl",
  "state s",
  "plan --o",
  'plan --refresh ""',
  'show ""',
  '-C ""',
  'fmt ""',
].map((words) => `t pravo ${words}\n`).join("");

Deno.test("completionScript() names every command, subcommand and flag of the registry", () => {
  for (const shell of ["bash", "zsh", "fish"] as const) {
    const s = completionScript(shell);
    for (const c of COMMANDS) {
      for (const w of c.name.split(" ")) assert.ok(s.includes(w), `${shell}: ${c.name}`);
      for (const k of Object.keys(c.options)) {
        assert.ok(s.includes(k.length === 1 ? `-${k}` : k), `${shell}: ${c.name} ${k}`);
      }
    }
    for (const k of Object.keys(GLOBAL_OPTIONS)) assert.ok(s.includes(k), `${shell}: ${k}`);
  }
});

Deno.test("the bash script registers with complete and completes commands, flags, values and files", async () => {
  const dir = await scratch("bash");
  const script = `source ./pravo.bash
complete -p pravo
t() { COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _pravo_complete; echo "$*|$(printf '%s\\n' "\${COMPREPLY[@]}" | sort | tr '\\n' ' ')"; }
t pravo ""
${PROBES}t pravo completion ""
t pravo -C sub -t a=b state show --show
t pravo why --replace ""
`;
  const out = (await run("bash", ["-c", script], dir)).trimEnd().split("\n");
  assert.equal(out[0], "complete -o filenames -F _pravo_complete pravo");
  assert.deepEqual(out[1].split("|")[1].trim().split(" ").sort(), topWords.sort());
  assert.deepEqual(out.slice(2), [
    "pravo pl|plan ",
    "pravo state s|show ",
    "pravo plan --o|--out ",
    "pravo plan --refresh |age all expired false ",
    "pravo show |main.cue pravo.bash sub x.plan ",
    "pravo -C |sub ",
    "pravo fmt |main.cue sub ",
    "pravo completion |bash fish zsh ",
    "pravo -C sub -t a=b state show --show|--show-sensitive ",
    "pravo why --replace |",
  ]);
});

Deno.test("the zsh script is valid zsh and completes through _describe, compadd and _files", async () => {
  const script = completionScript("zsh");
  assert.match(script, /^#compdef pravo\n/);
  if (!await need("zsh")) {
    // No zsh here: at least the blocks close.
    const words = bareWords(script);
    const count = (w: string) => words.filter((x) => x === w).length;
    assert.ok(count("if") > 0 && count("case") > 0, "the script has if and case blocks");
    assert.equal(count("case"), count("esac"));
    assert.equal(count("if"), count("fi"));
    return;
  }
  const dir = await scratch("zsh");
  await run("zsh", ["-n", "pravo.zsh"], dir);
  // Stand-ins for the completion system's functions print what they are given.
  const harness = `compdef() { print "compdef $*"; }
_describe() { local -a arr; arr=("\${(@P)4}"); print -r -- "\${(j: :)\${arr[@]%%:*}}"; }
compadd() { shift; print -r -- "$*"; }
_files() { print -r -- "files $*"; }
source ./pravo.zsh
t() { words=("$@"); CURRENT=$#; _pravo; }
${PROBES}`;
  const out = (await run("zsh", ["-f", "-c", harness], dir)).trimEnd().split("\n");
  assert.equal(out[0], "compdef _pravo pravo");
  assert.deepEqual(out[1].split(" ").sort(), topWords.sort());
  assert.ok(out[2].split(" ").includes("show"));
  assert.ok(out[3].split(" ").includes("--out"));
  assert.deepEqual(out.slice(4), ["age expired false all", "files ", "files -/", "files -g *.cue"]);
});

Deno.test("the fish script is valid fish and completes commands, values and files", async () => {
  const script = completionScript("fish");
  if (!await need("fish")) {
    const opens = script.match(/^\s*(function|if|for|switch)\b/gm)?.length ?? 0;
    assert.equal(opens, script.match(/^\s*end$/gm)?.length);
    return;
  }
  const dir = await scratch("fish");
  await run("fish", ["--no-execute", "pravo.fish"], dir);
  const out = await run("fish", [
    "-c",
    `source pravo.fish
complete -C "pravo pl"
complete -C "pravo state s"
complete -C "pravo plan --refresh "
complete -C "pravo completion "
complete -C "pravo show x"`,
  ], dir);
  const words = out.trimEnd().split("\n").map((l) => l.split("\t")[0]);
  assert.deepEqual(words, [
    "plan",
    "show",
    "age",
    "all",
    "expired",
    "false",
    "bash",
    "fish",
    "zsh",
    "x.plan",
  ]);
});

Deno.test("commandWordLoop() skips flags and their values, and takes a second word after a group", () => {
  const m = { valueFlags: new Map([["--out", 0], ["-C", 0]]), groups: new Map([["state", 0]]) };
  const bash = commandWordLoop(m, BASH_LOOP);
  assert.equal(bash[0], "  for ((i = 1; i < COMP_CWORD; i++)); do");
  assert.equal(bash[1], '    w="${COMP_WORDS[i]}"');
  assert.ok(bash.includes("      --out | -C) ((i++)) ;;"));
  assert.ok(bash.includes('        elif [[ " state " == *" $cmd "* ]]; then'));
  const zsh = commandWordLoop(m, ZSH_LOOP);
  assert.equal(zsh[0], "  for ((i = 2; i < CURRENT; i++)); do");
  assert.equal(zsh[1], '    w="${words[i]}"');
  assert.ok(zsh.includes("      (--out|-C) ((i++)) ;;"));
  assert.ok(zsh.includes("      (--) break ;;"));
  assert.equal(zsh.at(-1), "  done");
});
