import assert from "node:assert/strict";
import { jsonDocument, refusal } from "./_testing.ts";
import { pravo, SECRET, seededRoot } from "./state_testing.ts";

Deno.test("state show prints a record with its sensitive values redacted", async () => {
  const root = await seededRoot();
  const { code, stdout, stderr } = await pravo(["-C", root, "state", "show", "pw"]);
  assert.equal(stderr, "");
  assert.equal(code, 0);
  assert.ok(!stdout.includes(SECRET), stdout);
  assert.ok(!stdout.includes("$2a$10$hash"), stdout);
  assert.match(stdout, /^pw: managed random_password \(hashicorp\/random\)\n/);
  assert.match(stdout, /\n {2}result += \(sensitive value\)\n/);
  assert.match(stdout, /\n {2}length += 16\n/);
  assert.match(stdout, /\nSensitive: +bcrypt_hash, result\n/);
  assert.match(stdout, /\nDependencies: +base\n/);
  await Deno.remove(root, { recursive: true });
});

Deno.test("state show --json prints {format_version, record} with times and refresh age", async () => {
  const root = await seededRoot();
  const doc = jsonDocument(await pravo(["-C", root, "state", "show", "base", "--json"]));
  assert.deepEqual(doc.record.attributes, { id: "12", max: 20, min: 1, result: 12, seed: "base" });
  assert.equal(doc.record.mode, "managed");
  assert.equal(doc.record.type, "random_integer");
  assert.equal(doc.record.provider, "hashicorp/random");
  assert.deepEqual(doc.record.dependencies, []);
  assert.equal(doc.record.refresh_age, "24h");
  assert.equal(doc.record.refreshed_at, "2030-01-02T03:04:05.000Z");
  assert.equal(doc.record.refresh_due, "2030-01-03T03:04:05.000Z");
  assert.equal(doc.record.config_digest, "digest-base");
  assert.ok(Date.parse(doc.record.created_at) <= Date.parse(doc.record.updated_at));
  await Deno.remove(root, { recursive: true });
});

Deno.test("state show redacts a string that holds a sensitive value of another record", async () => {
  const root = await seededRoot();
  for (const json of [[], ["--json"]]) {
    const { code, stdout } = await pravo(["-C", root, "state", "show", "file", ...json]);
    assert.equal(code, 0);
    assert.ok(!stdout.includes(SECRET), stdout);
    // The JSON document carries "(sensitive)"; the human view says "(sensitive value)".
    assert.ok(stdout.includes(json.length ? '"(sensitive)"' : "= (sensitive value)"), stdout);
    assert.ok(stdout.includes("out.txt"), stdout);
  }
  await Deno.remove(root, { recursive: true });
});

Deno.test("state show --show-sensitive is refused when stdout is not a terminal", async () => {
  const root = await seededRoot();
  const args = ["-C", root, "state", "show", "pw", "--show-sensitive"];
  const stderr = refusal(await pravo(args), 64);
  assert.ok(!stderr.includes(SECRET));
  assert.match(stderr, /--show-sensitive needs a terminal/);
  await Deno.remove(root, { recursive: true });
});

Deno.test("state show --show-sensitive shows the values on a terminal", async () => {
  const root = await seededRoot();
  const shown = await pravo(["-C", root, "state", "show", "pw", "--show-sensitive"], {
    terminal: true,
  });
  assert.equal(shown.code, 0);
  assert.ok(shown.stdout.includes(SECRET));
  const hidden = await pravo(["-C", root, "--no-color", "state", "show", "pw"], { terminal: true });
  assert.ok(!hidden.stdout.includes(SECRET));
  await Deno.remove(root, { recursive: true });
});

Deno.test("state show of an unknown address says did you mean, exit 1", async () => {
  const root = await seededRoot();
  const stderr = refusal(await pravo(["-C", root, "state", "show", "bsae"]), 1);
  assert.match(stderr, /Error: No record for "bsae"/);
  assert.match(stderr, /did you mean "base"\?/);
  const json = await pravo(["-C", root, "state", "show", "nothing-like-it", "--json"]);
  assert.equal(json.code, 1);
  const err = JSON.parse(json.stderr);
  assert.equal(err.exit_code, 1);
  assert.doesNotMatch(err.diagnostics[0].detail, /did you mean/);
  await Deno.remove(root, { recursive: true });
});

Deno.test("state show in a root that was never initialised says to run pravo init", async () => {
  const root = await Deno.makeTempDir({ prefix: "pravo-state-" });
  const { code, stderr } = await pravo(["-C", root, "state", "show", "base"]);
  assert.equal(code, 1);
  assert.match(stderr, /The root is not initialised/);
  await Deno.remove(root, { recursive: true });
});

Deno.test("state show, dependents, log and locks import nothing that evaluates CUE", async () => {
  for (const name of ["state_show", "state_dependents", "state_log", "state_locks"]) {
    const url = new URL(`./${name}.ts`, import.meta.url);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", url.href],
      stdout: "piped",
      stderr: "null",
    }).output();
    const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules: { specifier: string }[];
    };
    assert.ok(graph.modules.length > 3, name);
    const cue = graph.modules.map((m) => m.specifier).filter((s) =>
      s.includes("/lib/cue/") || s.includes("cue-wasm")
    );
    assert.deepEqual(cue, [], name);
  }
});
