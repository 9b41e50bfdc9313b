/**
 * Flags written with one dash, as Terraform writes them (`-out=x.plan`,
 * `-auto-approve`, `-target=base`, `-var 'x=1'`).
 *
 * A spelling that has one meaning in pravo is read as the pravo flag:
 * `-out=F` is `--out F`, `-destroy` is `--destroy`, `-refresh=false` is
 * `--refresh false`, and `-X=true` / `-X=false` of a switch turn it on or
 * leave it off. A Terraform flag that pravo has no twin for is refused with
 * the pravo way to say it. pravo's own short flags keep their attached forms
 * (`-tenv=dev` is the tag `env=dev`, `-Cdir` the root `dir`); a word that
 * reads both ways (`-timeout=5m`: `--timeout 5m` or the tag `imeout=5m`) is
 * refused with both spellings.
 *
 * The table is documented in docs/reference/global-flags.md.
 *
 * @module
 */

import { didYouMean } from "../diag/diag.ts";
import type { OptionSpec } from "./command.ts";

/** What a Terraform flag becomes: refused with a message, or dropped. */
type Rule =
  | { refuse: (value: string | undefined) => string }
  | { drop: string }
  | { map: (value: string | undefined) => string[] | string };

/** Terraform's flags that are not pravo flags of the same name. */
export const TERRAFORM_FLAGS: Record<string, Rule> = {
  target: {
    refuse: (v) =>
      `pravo has no -target: apply only some nodes of a saved plan with --only ${
        v ?? "ADDR"
      } --with-dependencies (pravo apply PLANFILE --only A,B --with-dependencies; --only alone applies exactly the nodes named)`,
  },
  var: {
    refuse: (v) =>
      `pravo has no input variables: a field marked @tag(NAME) is filled with -t ${
        v ?? "NAME=VALUE"
      }`,
  },
  "var-file": {
    refuse: () => "pravo has no variable files: give each tag with -t NAME=VALUE",
  },
  chdir: {
    refuse: (v) => `write -C ${v ?? "DIR"}; pravo's -C may stand anywhere on the line`,
  },
  lock: {
    refuse: () =>
      'pravo always locks the state; a lock held by someone else is exit 4, and "pravo state locks" shows who holds it',
  },
  "lock-timeout": {
    refuse: () =>
      'pravo does not wait for a lock; a lock held by someone else is exit 4, and "pravo state locks" shows who holds it',
  },
  input: {
    refuse: () =>
      "pravo asks only on a terminal: apply a saved plan, or give -auto-approve, to apply without a question",
  },
  state: {
    refuse: (v) =>
      `pravo's state is not a file to name: --state URL says where it lives (sqlite:PATH or postgres://...)${
        v ? `, as in --state sqlite:${v}` : ""
      }`,
  },
  "state-out": {
    refuse: () => "pravo writes the state where it reads it: --state URL names both",
  },
  backup: {
    refuse: () =>
      "pravo keeps no backup file: every change is a transaction in the state's log (pravo state log)",
  },
  "generate-config-out": {
    refuse: (v) =>
      `pravo writes a node's configuration as it imports it: pravo import ADDR ID --generate-config ${
        v?.endsWith(".cue") ? v : "FILE.cue"
      }`,
  },
  "refresh-only": {
    refuse: () =>
      "pravo drift reads the real world and reports how it differs from the state (exit 2 on drift)",
  },
  refresh: {
    map: (v) => {
      if (v === "false") return ["--refresh=false"];
      return `-refresh${
        v === undefined ? "" : "=" + v
      } has no twin in pravo: it reads the records past their refresh age by default, --refresh all reads every record (as Terraform does by default), --refresh false reads none`;
    },
  },
  "detailed-exitcode": {
    drop: "pravo plan always exits 2 when there are changes",
  },
};

/** Long flags by name: what a single-dash word may stand for. */
export type LongFlags = ReadonlyMap<string, Pick<OptionSpec, "type">>;

/**
 * Rewrites Terraform-style single-dash flags into pravo's; returns the new
 * argument list, or the message of a usage error.
 */
export function rewriteSingleDash(
  argv: string[],
  flags: LongFlags,
): { argv: string[] } | { error: string } {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      out.push(...argv.slice(i));
      break;
    }
    // A flag's value stands as it is, also when it begins with "-".
    const long = /^--([^=]+)$/.exec(a);
    if ((long && flags.get(long[1])?.type === "string") || a === "-t" || a === "-C") {
      out.push(a);
      if (i + 1 < argv.length) out.push(argv[++i]);
      continue;
    }
    const m = /^-([A-Za-z][A-Za-z0-9-]+)(?:=(.*))?$/s.exec(a);
    if (!m) {
      out.push(a);
      continue;
    }
    const [, name, inline] = m;
    const rule = TERRAFORM_FLAGS[name];
    if (rule) {
      // `-var x=1` and `-target base`: the value may be the next word.
      let value = inline;
      const takesNext = name !== "detailed-exitcode" && name !== "refresh-only";
      if (
        value === undefined && takesNext && "refuse" in rule && i + 1 < argv.length &&
        !argv[i + 1].startsWith("-")
      ) {
        value = argv[i + 1];
      }
      if ("refuse" in rule) return { error: `unknown flag ${a}: ${rule.refuse(value)}` };
      if ("drop" in rule) continue;
      const mapped = rule.map(value);
      if (typeof mapped === "string") return { error: `unknown flag ${a}: ${mapped}` };
      out.push(...mapped);
      continue;
    }
    const spec = flags.get(name);
    const short = name[0] === "t" || name[0] === "C";
    if (spec && short) {
      const rest = name.slice(1) + (inline === undefined ? "" : "=" + inline);
      return {
        error: `${a} reads two ways: write --${name}${
          inline === undefined ? "" : " " + inline
        } for the flag, or -${name[0]} ${rest} for ${name[0] === "t" ? "a tag" : "the root"}`,
      };
    }
    if (spec) {
      if (spec.type === "boolean") {
        if (inline === undefined || inline === "true") out.push(`--${name}`);
        else if (inline !== "false") {
          return { error: `flag ${a}: -${name} is a switch: write -${name}, or leave it out` };
        }
      } else {
        out.push(inline === undefined ? `--${name}` : `--${name}=${inline}`);
      }
      continue;
    }
    if (short) {
      // pravo's own -tNAME=VALUE and -CDIR.
      out.push(a);
      continue;
    }
    const hint = didYouMean(`--${name}`, [...flags.keys()].map((k) => `--${k}`));
    return {
      error: `unknown flag ${a}${hint ? ` (${hint})` : ""}; pravo's flags take two dashes`,
    };
  }
  return { argv: out };
}
