/**
 * End-to-end tests of `pravo validate`: the real program, run as a process on
 * the fixture roots in `tests/fixtures/<case>/`, with its exit code and its
 * exact output.
 *
 * @module
 */

import { strict as assert } from "node:assert";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run, type RunResult } from "./_pravo.ts";

const PROJECT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(PROJECT, "tests", "fixtures");

type Run = RunResult;

/** Runs `pravo --no-color -C tests/fixtures/<fixture> validate ARGS...`. */
function validate(fixture: string, ...args: string[]): Promise<Run> {
  return run(
    Deno.execPath(),
    [
      "run",
      "-A",
      "--config",
      join(PROJECT, "deno.json"),
      join(PROJECT, "main.ts"),
      "--no-color",
      "-C",
      join(FIXTURES, fixture),
      "validate",
      ...args,
    ],
    { cwd: PROJECT },
  );
}

/** The human and the `--json` runs of one case, side by side. */
function both(fixture: string, ...args: string[]): Promise<[Run, Run]> {
  return Promise.all([validate(fixture, ...args), validate(fixture, "--json", ...args)]);
}

/** A run that succeeded: exit 0, nothing on stderr; its stdout. */
function ok(run: Run): string {
  assert.equal(run.stderr, "", "nothing on stderr");
  assert.equal(run.code, 0, `exit code 0 (stdout: ${run.stdout})`);
  return run.stdout;
}

/** A human run that found the spec invalid: exit 3, nothing on stdout; its stderr. */
function invalid(run: Run): string {
  assert.equal(run.stdout, "", "nothing on stdout");
  assert.equal(run.code, 3, `exit code 3 (stderr: ${run.stderr})`);
  return run.stderr;
}

interface JsonDiagnostic {
  severity: string;
  summary: string;
  detail: string;
  address?: string;
  range?: { file: string; line: number; column: number };
}

/** A `--json` run that found the spec invalid: exit 3; the diagnostics of its document. */
function invalidJson(run: Run): JsonDiagnostic[] {
  assert.equal(run.stderr, "", "nothing on stderr");
  assert.equal(run.code, 3, `exit code 3 (stdout: ${run.stdout})`);
  assert.ok(run.stdout.endsWith("}\n"), "one JSON document and a new line");
  const doc = JSON.parse(run.stdout);
  assert.deepEqual(Object.keys(doc), ["diagnostics", "valid"]);
  assert.equal(doc.valid, false);
  assert.ok(doc.diagnostics.length > 0);
  return doc.diagnostics;
}

/** The human rendering of one error, as `validate` prints it without colour. */
function rendered(summary: string, where: string | undefined, detail: string): string {
  return `Error: ${summary}\n${where ? `\n  ${where}:\n` : ""}\n${detail}\n`;
}

/** The human rendering of an error at a node and a place. */
function renderedAt(d: Required<JsonDiagnostic>): string {
  const { file, line, column } = d.range;
  return rendered(
    d.summary,
    `on ${file} line ${line}, column ${column}, in ${d.address}`,
    d.detail,
  );
}

function counts(c: Partial<Record<string, number>>): string {
  return JSON.stringify(
    {
      calls: 0,
      data_sources: 0,
      ephemeral: 0,
      outputs: 0,
      providers: 0,
      resources: 0,
      ...c,
      valid: true,
    },
    null,
    2,
  ) + "\n";
}

Deno.test("validate --json on the seed root prints the seed's counts document exactly", async () => {
  const [human, json] = await both("seed");
  assert.equal(
    ok(json),
    '{\n  "calls": 0,\n  "data_sources": 0,\n  "ephemeral": 0,\n  "outputs": 0,\n  "providers": 1,\n  "resources": 1,\n  "valid": true\n}\n',
  );
  assert.equal(
    ok(human),
    "The specification is valid: 1 provider, 1 resource, 0 data sources, 0 ephemeral, 0 calls, 0 outputs.\n",
  );
});

Deno.test("validate counts nodes of two files: nested, a computed reference, data, ephemeral, outputs", async () => {
  const [human, json] = await both("two_files");
  assert.equal(
    ok(json),
    counts({ data_sources: 1, ephemeral: 1, outputs: 1, providers: 2, resources: 2 }),
  );
  assert.equal(
    ok(human),
    "The specification is valid: 2 providers, 2 resources, 1 data source, 1 ephemeral, 0 calls, 1 output.\n",
  );
});

// Three files, errors in the second and the third. cue-wasm reports one error
// at a time; each must come out at its own file, line and column.

/** The error of a random_integer `node` whose max is `given`, at column 2 of a line of a file. */
function wrongMax(
  node: string,
  given: string,
  at: { file: string; line: number },
): Required<JsonDiagnostic> {
  return {
    address: `${node}.max`,
    detail:
      `random_integer.max is an int, and ${node}.max is ${given}. Give a whole number such as 3.`,
    range: { column: 2, ...at },
    severity: "error",
    summary: "Wrong type for max",
  };
}

const THIRD = wrongMax("c", '"nine" (a string)', { file: "c.cue", line: 5 });
const SECOND = wrongMax("b", "true (a bool)", { file: "b.cue", line: 6 });

/** Cases with one error at a node: its human rendering and its `--json` diagnostic. */
const ONE_ERROR: { name: string; fixture: string; diagnostic: Required<JsonDiagnostic> }[] = [
  {
    name: "validate reports a type error at its file, line and column",
    fixture: "type_error",
    diagnostic: wrongMax("base", '"nine" (a string)', { file: "main.cue", line: 9 }),
  },
  {
    name: "validate reports a cycle between two nodes, naming both",
    fixture: "cycle",
    diagnostic: {
      address: "a",
      detail:
        "These nodes refer to each other in a cycle: a -> b -> a. pravo cannot tell which to create first; remove one of the references.",
      range: { column: 1, file: "main.cue", line: 7 },
      severity: "error",
      summary: "Dependency cycle",
    },
  },
  {
    name: "validate reports an error in the third of three files at c.cue line 5, column 2",
    fixture: "three_files_third",
    diagnostic: THIRD,
  },
  {
    name: "validate reports an error in the second of three files at b.cue line 6, column 2",
    fixture: "three_files_second",
    diagnostic: SECOND,
  },
];

for (const c of ONE_ERROR) {
  Deno.test(c.name, async () => {
    const [human, json] = await both(c.fixture);
    assert.equal(invalid(human), renderedAt(c.diagnostic));
    assert.deepEqual(invalidJson(json), [c.diagnostic]);
  });
}

/** A run refused with one error, and that error as the human run prints it. */
interface HumanError {
  /** The fixture and the arguments of the run. */
  run: string[];
  summary: string;
  where?: string;
  detail: string;
}

/** Tests of runs refused with one error each; a test's runs go side by side. */
const HUMAN_ERROR: { name: string; runs: HumanError[] }[] = [
  {
    name: "validate names an unknown attribute and the nearest one",
    runs: [{
      run: ["unknown_attribute"],
      summary: 'Unsupported attribute "sede"',
      where: "on main.cue line 7, column 59, in base.sede",
      detail:
        'random_integer has no attribute "sede"; did you mean "seed"? Remove it or correct its name; run `pravo schema random_integer` for the attributes of the type.',
    }],
  },
  {
    name: "validate reports an undeclared tag with did-you-mean, and a tag of the wrong type",
    runs: [{
      run: ["tags", "-t", "envv=prod"],
      summary: 'No field declares the tag "envv"',
      detail:
        '-t envv=prod names a tag that no field declares with @tag(envv) (did you mean "env"?). The tags declared are: env, n. Correct the name, or add @tag(envv) to the field it should fill.',
    }, {
      run: ["tags", "-t", "env=prod", "-t", "n=x"],
      summary: 'Tag "n" needs a value of type int',
      where: "on main.cue line 8, column 15",
      detail: '-t n=x gives "x", which is not an int. Pass a value such as 3.',
    }],
  },
  {
    name: "validate refuses an unknown non-builtin import and an unused import",
    runs: [{
      run: ["unknown_import"],
      summary: "Unknown import",
      where: "on main.cue line 3, column 8",
      detail:
        '"example.com/things" is neither one of CUE\'s builtin packages nor a pravo provider, and the root is no CUE module (cue.mod/module.cue). Import a builtin package (such as "strings"), a provider as "pravo.dev/providers/<namespace>/<name>", or a package of the root\'s module by its path.',
    }, {
      run: ["unused_import"],
      summary: 'Import "strings" is not used',
      where: "on main.cue line 4, column 2",
      detail:
        'CUE refuses an import that nothing refers to. Use "strings" in main.cue, or remove the import.',
    }],
  },
  {
    name: "validate reports a root without .cue files",
    runs: [{
      run: ["no_cue_files"],
      summary: "No .cue files in the root",
      detail: `"${
        join(FIXTURES, "no_cue_files")
      }" holds no .cue file. Write the specification in a file such as main.cue that starts with a package clause, or give the root with -C DIR.`,
    }],
  },
  {
    name: "validate reports a syntax error at its line and column",
    runs: [{
      run: ["syntax_error"],
      summary: "Syntax error",
      where: "on main.cue line 9, column 9",
      detail: `missing ',' or new line before "seed". Correct the syntax at this place.`,
    }],
  },
];

for (const c of HUMAN_ERROR) {
  Deno.test(c.name, async () => {
    const runs = await Promise.all(c.runs.map((r) => validate(r.run[0], ...r.run.slice(1))));
    for (const [i, r] of c.runs.entries()) {
      assert.equal(invalid(runs[i]), rendered(r.summary, r.where, r.detail), r.run.join(" "));
    }
  });
}

Deno.test("validate reports a missing required attribute at its node", async () => {
  const diags = invalidJson(await validate("missing_required", "--json"));
  assert.equal(diags.length, 1);
  assert.equal(diags[0].summary, 'Missing required attribute "max"');
  assert.equal(diags[0].address, "base");
  assert.deepEqual(diags[0].range, { file: "main.cue", line: 7, column: 1 });
  assert.match(diags[0].detail, /^random_integer needs "max" \(int\): /);
});

Deno.test("validate fills @tag fields from -t; a tag value makes the spec valid", async () => {
  // Without -t env, the tagged field has no value; the diagnostic names the tag.
  const unset = invalidJson(await validate("tags", "--json"));
  assert.equal(unset.length, 1);
  assert.equal(unset[0].summary, 'Tag "env" has no value');
  assert.match(unset[0].detail, /Pass -t env=VALUE/);
  assert.deepEqual(unset[0].range, { file: "main.cue", line: 7, column: 13 });

  assert.equal(
    ok(await validate("tags", "--json", "-t", "env=prod")),
    counts({
      providers: 1,
      resources: 1,
    }),
  );
  // n=4 is an int below 10; n=20 is an int but fails `max: n & <10`, so the
  // value of the tag is really unified in.
  ok(await validate("tags", "-t", "env=prod", "-t", "n=4"));
  const tooBig = invalidJson(await validate("tags", "--json", "-t", "env=prod", "-t", "n=20"));
  assert.equal(tooBig[0].summary, "No alternative matches");
  assert.equal(tooBig[0].address, "base.max");
  assert.deepEqual(tooBig[0].range, { file: "main.cue", line: 10, column: 51 });
});

Deno.test("validate names the providers that exist for an unknown provider import", async () => {
  const diags = invalidJson(await validate("unknown_provider", "--json"));
  assert.deepEqual(diags, [{
    detail:
      'No provider is imported as "pravo.dev/providers/hashicorp/randomm" (did you mean "pravo.dev/providers/hashicorp/random"?). The providers are: pravo.dev/providers/hashicorp/local, pravo.dev/providers/hashicorp/null, pravo.dev/providers/hashicorp/random, pravo.dev/providers/hashicorp/time. Import one of them (run `pravo providers` for their types), or require a Terraform provider in pravo.jsonc ("providers") and run `pravo init`.',
    range: { column: 8, file: "main.cue", line: 3 },
    severity: "error",
    summary: "Unknown provider",
  }]);
});

Deno.test("validate names a file of another package", async () => {
  const diags = invalidJson(await validate("other_package", "--json"));
  assert.deepEqual(diags.map((d) => [d.summary, d.range]), [
    ["File of another package", { file: "scratch.cue", line: 2, column: 1 }],
  ]);
  assert.match(
    diags[0].detail,
    /^scratch\.cue is in package "scratch", but the root's files are in package "demo"\./,
  );
});

Deno.test("validate reports one of two errors in two files, at its own position", async () => {
  const [human, json] = await both("three_files_both");
  const diags = invalidJson(json);
  assert.equal(diags.length, 1, "cue-wasm reports the first error only");
  const found = diags[0].address === "b.max" ? SECOND : THIRD;
  assert.deepEqual(diags, [found]);
  assert.equal(invalid(human), renderedAt(found));
});

Deno.test("validate checks a range computed from a value known only after apply at apply, not on a stand-in number", async () => {
  const diags = invalidJson(await validate("computed_range", "--json"));
  assert.deepEqual(diags.map((d) => [d.address, d.summary]), [
    ["bad", "Invalid range: min 30 is greater than max 20"],
  ]);
});
