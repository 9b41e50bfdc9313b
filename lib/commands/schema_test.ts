import { strict as assert } from "node:assert";
import { loadedModules } from "../_testing.ts";
import { jsonDocument, refusal } from "./_testing.ts";
import { pravo } from "./state_testing.ts";

/** The attribute rows of the human view: the lines under a type's column header. */
function rows(text: string): string[][] {
  const blocks = text.split(/\n(?=\S+ \()/);
  return blocks.map((b) => {
    const lines = b.split("\n");
    const header = lines.findIndex((l) => l.startsWith("  ATTRIBUTE "));
    return header < 0 ? [] : lines.slice(header + 1).filter((l) => l.startsWith("  "));
  });
}

Deno.test("schema TYPE prints a heading, the description and one aligned row per attribute", async () => {
  const { code, stdout, stderr } = await pravo(["schema", "random_integer"]);
  assert.equal(code, 0);
  assert.equal(stderr, "");
  const lines = stdout.split("\n");
  assert.equal(lines[0], "random_integer (managed, hashicorp/random)");
  assert.match(lines[1], /^A random integer between min and max/);
  const [attrs] = rows(stdout);
  const names = attrs.map((l) => l.trim().split(/\s+/)[0]);
  assert.deepEqual(names, ["id", "keepers", "max", "min", "result", "seed"]);
  // Columns line up: the type column starts at the same place on every row.
  const header = lines.find((l) => l.startsWith("  ATTRIBUTE"))!;
  const typeCol = header.indexOf("TYPE");
  const flagsCol = header.indexOf("FLAGS");
  const descCol = header.indexOf("DESCRIPTION");
  for (const row of attrs) {
    for (const col of [typeCol, flagsCol, descCol]) assert.equal(row[col - 1], " ", row);
    assert.notEqual(row[typeCol], " ", row);
    assert.notEqual(row[flagsCol], " ", row);
    assert.notEqual(row[descCol], " ", row);
  }
  const min = attrs.find((l) => l.trim().startsWith("min "))!;
  assert.match(min, /^ {2}min +int +required, forces replacement +The least value/);
  const keepers = attrs.find((l) => l.trim().startsWith("keepers "))!;
  assert.match(keepers, /map\(string\) +optional, forces replacement/);
  const result = attrs.find((l) => l.trim().startsWith("result "))!;
  assert.match(result, /^ {2}result +int +computed +The random integer\.$/);
});

Deno.test("schema shows defaults, sensitivity and the refresh age", async () => {
  const pw = await pravo(["schema", "managed.random_password"]);
  assert.equal(pw.code, 0);
  assert.match(pw.stdout, /\n {2}special +bool +optional, forces replacement, default true +/);
  assert.match(pw.stdout, /\n {2}result +string +computed, sensitive +The generated password\./);
  assert.doesNotMatch(pw.stdout, /Refresh/);
  const lf = await pravo(["schema", "managed.local_file"]);
  assert.match(lf.stdout, /file_permission +string +optional, forces replacement, default "0777"/);
  // Reading a local file costs nothing: every plan reads it.
  assert.match(lf.stdout, /\nRefresh: read on every plan\.\n/);
  const data = await pravo(["schema", "data.local_file"]);
  assert.match(data.stdout, /\nRefresh: read on every plan\.\n/);
});

Deno.test("schema without a mode prefix shows every mode of the name, with one: that mode", async () => {
  const both = await pravo(["schema", "local_file"]);
  assert.equal(both.code, 0);
  const headings = both.stdout.split("\n").filter((l) => /^\S+ \(/.test(l));
  assert.deepEqual(headings, [
    "local_file (managed, hashicorp/local)",
    "local_file (data, hashicorp/local)",
  ]);
  const data = await pravo(["schema", "data.local_file"]);
  assert.deepEqual(data.stdout.split("\n").filter((l) => /^\S+ \(/.test(l)), [
    "local_file (data, hashicorp/local)",
  ]);
  const eph = await pravo(["schema", "ephemeral.random_password"]);
  assert.equal(eph.code, 0);
  assert.ok(eph.stdout.startsWith("random_password (ephemeral, hashicorp/random)\n"));
  const names = rows(eph.stdout)[0].map((l) => l.trim().split(/\s+/)[0]);
  assert.ok(names.includes("result"));
  assert.ok(!names.includes("id"));
  assert.ok(!names.includes("bcrypt_hash"));
});

Deno.test("schema with several types prints them in order, each once", async () => {
  const { code, stdout } = await pravo([
    "schema",
    "time_sleep",
    "null_resource",
    "managed.time_sleep",
  ]);
  assert.equal(code, 0);
  assert.deepEqual(stdout.split("\n").filter((l) => /^\S+ \(/.test(l)), [
    "time_sleep (managed, hashicorp/time)",
    "null_resource (managed, hashicorp/null)",
  ]);
});

Deno.test("schema --required keeps only the required attributes", async () => {
  const { code, stdout } = await pravo(["schema", "--required", "random_integer"]);
  assert.equal(code, 0);
  const names = rows(stdout)[0].map((l) => l.trim().split(/\s+/)[0]);
  assert.deepEqual(names, ["max", "min"]);
  const none = await pravo(["schema", "random_uuid", "--required"]);
  assert.equal(none.code, 0);
  assert.match(none.stdout, /\n {2}\(no required attributes\)\n$/);
});

Deno.test("schema --json prints the document with every flag of every attribute", async () => {
  const ran = await pravo(["--json", "schema", "local_file", "random_pet"]);
  assert.equal(ran.stderr, "");
  const doc = jsonDocument(ran);
  assert.deepEqual(
    doc.types.map((t: { name: string; mode: string }) => `${t.mode}.${t.name}`),
    ["managed.local_file", "data.local_file", "managed.random_pet"],
  );
  const [managed, data, pet] = doc.types;
  assert.equal(managed.provider, "hashicorp/local");
  assert.equal(managed.refresh_age, "0s");
  assert.equal(data.refresh_age, "0s");
  assert.ok(!("refresh_age" in pet));
  assert.equal(typeof managed.description, "string");
  assert.deepEqual(managed.attributes.filename, {
    computed: false,
    description: managed.attributes.filename.description,
    force_new: true,
    optional: false,
    required: true,
    sensitive: false,
    type: "string",
  });
  assert.equal(managed.attributes.file_permission.default, "0777");
  assert.ok(!("default" in managed.attributes.content));
  assert.equal(data.attributes.content.computed, true);
  assert.equal(data.attributes.content.force_new, false);
  assert.equal(pet.attributes.length.type, "int");
  assert.equal(pet.attributes.length.default, 2);
  assert.equal(pet.attributes.keepers.type, "map(string)");
  // Keys are sorted, as in every --json document.
  assert.deepEqual(Object.keys(managed.attributes), Object.keys(managed.attributes).sort());
});

Deno.test("schema --json --required filters the attributes too", async () => {
  const { code, stdout } = await pravo(["schema", "--json", "--required", "random_shuffle"]);
  assert.equal(code, 0);
  const doc = JSON.parse(stdout);
  assert.deepEqual(Object.keys(doc.types[0].attributes), ["input"]);
  assert.equal(doc.types[0].attributes.input.type, "list(string)");
});

Deno.test("schema with an unknown type exits 64 and suggests the nearest name", async () => {
  const stderr = refusal(await pravo(["schema", "random_integr"]), 64);
  assert.equal(
    stderr,
    'Error: Unknown type "random_integr"\n\n' +
      'No provider offers a type named "random_integr"; did you mean "random_integer"? ' +
      "Run `pravo providers` to list every type.\n",
  );
});

Deno.test("schema reports every unknown type at once and prints nothing else", async () => {
  const types = ["lcoal_file", "nothing_like_it", "ephemeral.local_file", "data.local_fil"];
  const stderr = refusal(await pravo(["schema", "random_integer", ...types]), 64);
  const summaries = [...stderr.matchAll(/^Error: (.*)$/gm)].map((m) => m[1]);
  assert.deepEqual(summaries, [
    'Unknown type "lcoal_file"',
    'Unknown type "nothing_like_it"',
    'Unknown type "ephemeral.local_file"',
    'Unknown type "data.local_fil"',
  ]);
  assert.match(stderr, /did you mean "local_file"\?/);
  assert.match(stderr, /type named "nothing_like_it"\. Run `pravo providers`/);
  assert.match(
    stderr,
    /"local_file" in mode ephemeral; it exists as "managed\.local_file" and "data\.local_file"\./,
  );
  assert.match(stderr, /did you mean "data\.local_file"\?/);
});

Deno.test("schema --json with an unknown type prints the error object on stderr", async () => {
  const stderr = refusal(await pravo(["--json", "schema", "random_pett", "x"]), 64);
  const err = JSON.parse(stderr);
  assert.equal(err.error, true);
  assert.equal(err.exit_code, 64);
  assert.equal(err.diagnostics.length, 2);
  assert.equal(err.diagnostics[0].summary, 'Unknown type "random_pett"');
  assert.match(err.diagnostics[0].detail, /did you mean "random_pet"\?/);
});

Deno.test("schema without a type is a usage error", async () => {
  const { code, stderr } = await pravo(["schema"]);
  assert.equal(code, 64);
  assert.match(stderr, /"schema" needs TYPE\.\.\./);
});

Deno.test("schema headings are bold on a terminal and plain with NO_COLOR", async () => {
  const tty = await pravo(["schema", "null_resource"], { terminal: true });
  assert.ok(tty.stdout.startsWith("\x1b[1mnull_resource\x1b[0m (managed, hashicorp/null)\n"));
  const off = await pravo(["schema", "null_resource"], { terminal: true, env: { NO_COLOR: "1" } });
  assert.ok(!off.stdout.includes("\x1b["));
  const flag = await pravo(["--no-color", "schema", "null_resource"], { terminal: true });
  assert.ok(!flag.stdout.includes("\x1b["));
});

Deno.test("the schema and providers commands load no CUE and no MCP SDK", async () => {
  for (const file of ["./schema.ts", "./providers.ts"]) {
    const lib = new URL("../", import.meta.url).href;
    // Type-only imports are erased at run time; dynamic imports load only on
    // the path that needs them (starting a provider).
    for (const s of await loadedModules(new URL(file, import.meta.url), { dynamic: false })) {
      // Deno's own node: modules are part of the runtime, not a dependency.
      if (s.startsWith("node:")) continue;
      assert.ok(s.startsWith(lib), `${file} loads ${s}`);
      assert.ok(!s.startsWith(lib + "cue/"), `${file} loads ${s}`);
    }
  }
});
