import assert from "node:assert/strict";
import { parse, parseTags } from "./args.ts";
import { UsageError } from "../diag/usage.ts";
import { rewriteSingleDash } from "./single_dash.ts";

Deno.test("parse() finds the command among global flags, wherever they stand", () => {
  const p = parse(["-C", "/r", "--json", "plan", "--out", "x.plan", "-t", "a=1", "-t", "b=2"]);
  assert.equal(p.command?.name, "plan");
  assert.equal(p.options.C, "/r");
  assert.equal(p.options.out, "x.plan");
  assert.deepEqual(p.options.t, ["a=1", "b=2"]);
});

Deno.test("parse() reads -C=DIR as -C DIR, and -auto-approve as Terraform writes it", () => {
  assert.equal(parse(["-C=/some/dir", "validate"]).options.C, "/some/dir");
  assert.equal(parse(["apply", "-auto-approve"]).options["auto-approve"], true);
});

Deno.test("parse() refuses a flag given twice that takes one value", () => {
  assert.throws(() => parse(["-C", "/a", "-C", "/b", "validate"]), /-C may be given once/);
  assert.throws(() => parse(["plan", "--out", "a", "--out=b"]), /--out may be given once/);
});

Deno.test("parse() names a flag that lacks its value, with its placeholder", () => {
  assert.throws(() => parse(["validate", "-C"]), /flag -C needs a value: -C DIR/);
  assert.throws(() => parse(["plan", "--out"]), /flag --out needs a value: --out FILE/);
});

Deno.test("parse() suggests the nearest command and flag", () => {
  assert.throws(
    () => parse(["valdate"]),
    /unknown command "valdate" \(did you mean "validate"\?\)/,
  );
  assert.throws(
    () => parse(["plan", "--outt", "x"]),
    /unknown flag --outt for "plan" \(did you mean "--out"\?\)/,
  );
  assert.throws(
    () => parse(["nothing-like-it"]),
    (e: Error) => e instanceof UsageError && !/did you mean/.test(e.message),
  );
});

Deno.test("parse() counts positional arguments", () => {
  assert.throws(() => parse(["show"]), /"show" needs PLANFILE/);
  assert.throws(
    () => parse(["validate", "extra"]),
    /takes no arguments, and "extra" is one too many/,
  );
});

Deno.test("parseTags() splits KEY=VALUE and refuses the rest", () => {
  assert.deepEqual(parseTags(["a=1", "b=x=y"]), { a: "1", b: "x=y" });
  assert.throws(() => parseTags(["novalue"]), /tag "novalue" is not KEY=VALUE/);
  assert.throws(() => parseTags(["=v"]), /not KEY=VALUE/);
});

Deno.test("parse() reads Terraform's single-dash spellings that have one meaning in pravo", () => {
  const p = parse(["plan", "-out=x.plan", "-destroy", "-no-color", "-replace=base", "-json"]);
  assert.equal(p.options.out, "x.plan");
  assert.equal(p.options.destroy, true);
  assert.equal(p.options["no-color"], true);
  assert.deepEqual(p.options.replace, ["base"]);
  assert.equal(p.options.json, true);
  assert.equal(parse(["plan", "-out", "y.plan"]).options.out, "y.plan");
  assert.equal(parse(["plan", "-refresh=false"]).options.refresh, "false");
  assert.equal(parse(["apply", "-auto-approve=true"]).options["auto-approve"], true);
  assert.equal(parse(["apply", "-auto-approve=false"]).options["auto-approve"], undefined);
  assert.equal(parse(["plan", "-detailed-exitcode"]).command?.name, "plan");
  assert.equal(parse(["init", "-upgrade"]).options.upgrade, true);
  assert.equal(parse(["-version"]).options.version, true);
});

Deno.test("parse() refuses Terraform's flags that pravo has no twin for, naming pravo's", () => {
  assert.throws(
    () => parse(["apply", "-target=base"]),
    /unknown flag -target=base: pravo has no -target: .*--only base/,
  );
  assert.throws(() => parse(["plan", "-var", "x=1"]), /pravo has no input variables: .*-t x=1/);
  assert.throws(() => parse(["plan", "-var=x=1"]), /-t x=1/);
  assert.throws(() => parse(["plan", "-var-file=a.tfvars"]), /-t NAME=VALUE/);
  assert.throws(() => parse(["plan", "-chdir=dir"]), /write -C dir/);
  assert.throws(() => parse(["plan", "-refresh=true"]), /--refresh all/);
  assert.throws(() => parse(["plan", "-lock=false"]), /always locks the state/);
  assert.throws(
    () => parse(["plan", "-generate-config-out=gen.tf"]),
    /pravo import ADDR ID --generate-config FILE\.cue/,
  );
  assert.throws(
    () => parse(["plan", "-generate-config-out=gen.cue"]),
    /--generate-config gen\.cue/,
  );
  assert.throws(() => parse(["plan", "-destroy=yes"]), /-destroy is a switch/);
  assert.throws(
    () => parse(["plan", "-detroy"]),
    /unknown flag -detroy \(did you mean "--destroy"\?\)/,
  );
});

Deno.test("parse() keeps -tNAME=VALUE and -CDIR, and refuses a word that reads both ways", () => {
  assert.deepEqual(parse(["validate", "-tenv=dev"]).options.t, ["env=dev"]);
  assert.equal(parse(["validate", "-C/some/dir"]).options.C, "/some/dir");
  assert.equal(parse(["validate", "-Cdir"]).options.C, "dir");
  assert.throws(
    () => parse(["mcp", "-timeout=5m"]),
    /-timeout=5m reads two ways: write --timeout 5m for the flag, or -t imeout=5m for a tag/,
  );
});

Deno.test("rewriteSingleDash() leaves the values of flags alone, also when they begin with a dash", () => {
  const flags = new Map([["reason", { type: "string" as const }]]);
  const argv = ["plan", "--reason", "-target=base", "-t", "-var=1", "--", "-out=x"];
  assert.deepEqual(rewriteSingleDash(argv, flags), { argv });
  assert.equal(parse(["plan", "--reason=-target=base"]).options.reason, "-target=base");
});

Deno.test("parse() never reads the value of -t as a flag: a tag cannot smuggle -out= or -C", () => {
  // pravo mcp passes tags as `-t VALUE`; an agent's value that looks like a flag stays a value,
  // and node's parser refuses a value that begins with "-".
  for (const v of ["-out=/tmp/x.plan", "-C=/etc", "-destroy", "-target=base"]) {
    assert.throws(() => parse(["-t", v, "plan"]), UsageError);
  }
});

Deno.test("parse() reads `state --help` as `help state`, and `state` alone as a mistake", () => {
  for (const flag of ["--help", "-h"]) {
    const p = parse(["state", flag]);
    assert.equal(p.command?.name, "help");
    assert.deepEqual(p.args, ["state"]);
  }
  assert.throws(() => parse(["state"]), (e: UsageError) => /needs a subcommand/.test(e.message));
});
