import assert from "node:assert/strict";
import {
  ArgumentRefusal,
  checkArguments,
  checkPositional,
  checkSizes,
  checkTags,
  MAX_VALUE_BYTES,
  shown,
  tools,
} from "./tools.ts";

const byName = (readOnly = false) => new Map(tools({ readOnly }).map((t) => [t.name, t]));

/** The argument list a tool builds for these arguments, after the schema check. */
function argv(name: string, args: Record<string, unknown>): string[] {
  const tool = byName().get(name)!;
  checkArguments(tool, args);
  return tool.argv(args);
}

Deno.test("tools() lists the seed page's thirteen tools; read-only leaves out pravo_apply_plan", () => {
  assert.equal(tools({ readOnly: false }).length, 13);
  const ro = tools({ readOnly: true });
  assert.equal(ro.length, 12);
  assert.ok(ro.every((t) => t.annotations.readOnlyHint && !t.writes));
  const plan = ro.find((t) => t.name === "pravo_plan")!;
  assert.deepEqual(
    Object.keys(plan.inputSchema.properties as object).sort(),
    ["destroy", "full", "include_skipped", "refresh", "replace", "tags"],
  );
});

Deno.test("argv() builds each command's fixed words, an agent's value only where the command reads one", () => {
  assert.deepEqual(argv("pravo_validate", { tags: ["env=prod"] }), ["-t", "env=prod", "validate"]);
  assert.deepEqual(
    argv("pravo_plan", {
      out: "x.plan",
      refresh: "false",
      full: true,
      include_skipped: true,
      reserve: true,
      destroy: true,
      replace: ["a", "b"],
    }),
    [
      "plan",
      "--out=x.plan",
      "--refresh=false",
      "--full",
      "--include-skipped",
      "--reserve",
      "--destroy",
      "--replace=a",
      "--replace=b",
    ],
  );
  assert.deepEqual(argv("pravo_plan", { full: false }), ["plan"]);
  assert.deepEqual(argv("pravo_show_plan", { planfile: "x.plan" }), ["show", "x.plan"]);
  assert.deepEqual(argv("pravo_apply_plan", { planfile: "x.plan", only: ["a", "b"] }), [
    "apply",
    "x.plan",
    "--only=a,b",
  ]);
  assert.deepEqual(argv("pravo_schema", { types: ["random_integer"], required: true }), [
    "schema",
    "random_integer",
    "--required",
  ]);
  assert.deepEqual(argv("pravo_why", { addrs: ["a", "b"] }), ["why", "a", "b"]);
  assert.deepEqual(argv("pravo_state_query", { expression: "x; sh" }), ["state", "query", "x; sh"]);
  assert.deepEqual(argv("pravo_state_show", { addr: "base" }), ["state", "show", "base"]);
  assert.deepEqual(argv("pravo_dependents", { addr: "base" }), ["state", "dependents", "base"]);
  assert.deepEqual(argv("pravo_state_log", {}), ["state", "log"]);
  assert.deepEqual(argv("pravo_locks", {}), ["state", "locks"]);
  assert.deepEqual(argv("pravo_drift", { due: true, limit: 3 }), ["drift", "--due", "--limit=3"]);
  assert.deepEqual(argv("pravo_providers", {}), ["providers"]);
});

Deno.test("checkPositional() refuses an empty value or one that begins with -, with the seed's message", () => {
  const positional = new Set(tools({ readOnly: false }).flatMap((t) => t.positional ?? []));
  assert.deepEqual([...positional].sort(), ["addr", "addrs", "expression", "planfile", "types"]);
  for (const v of ["", "-", "-x", "--eval", "-auto-approve"]) {
    assert.throws(() => checkPositional("addr", v), {
      name: "ArgumentRefusal",
      message: `addr ${JSON.stringify(v)} is not a usable value: it is empty or begins with "-"`,
    });
  }
  assert.throws(() => checkPositional("addrs", ["a", "-b"]), ArgumentRefusal);
  checkPositional("addr", "a-b");
  checkPositional("expression", "x - 1");
});

Deno.test("checkArguments() refuses unknown and mistyped arguments, saying what is expected", () => {
  const t = byName();
  const refuses = (name: string, args: Record<string, unknown>, message: string) =>
    assert.throws(() => checkArguments(t.get(name)!, args), { name: "ArgumentRefusal", message });
  refuses(
    "pravo_validate",
    { eval: 1 },
    'pravo_validate has no argument "eval"; its arguments are: tags',
  );
  refuses(
    "pravo_providers",
    { x: 1 },
    'pravo_providers has no argument "x"; its arguments are: none',
  );
  refuses("pravo_show_plan", {}, 'pravo_show_plan needs the argument "planfile"');
  refuses("pravo_plan", { full: "yes" }, "full must be true or false");
  refuses("pravo_plan", { refresh: "never" }, "refresh must be one of age, expired, false, all");
  refuses("pravo_drift", { limit: 0 }, "limit must be a whole number of at least 1");
  refuses("pravo_drift", { limit: 1.5 }, "limit must be a whole number of at least 1");
  refuses("pravo_schema", { types: [] }, "types must be a list of at least one string");
  refuses("pravo_why", { addrs: [1] }, "addrs must be a list of strings");
  refuses("pravo_state_show", { addr: 7 }, "addr must be a string");
  assert.throws(() => argv("pravo_validate", { tags: ["novalue"] }), /is not key=value/);
});

Deno.test("checkArguments() counts own properties only: __proto__, constructor, toString are unknown names", () => {
  const t = byName();
  for (const key of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) {
    const args = JSON.parse(`{"${key}": {"out": "x.plan"}}`);
    assert.throws(() => checkArguments(t.get("pravo_plan")!, args), {
      name: "ArgumentRefusal",
      message:
        `pravo_plan has no argument "${key}"; its arguments are: tags, out, refresh, full, include_skipped, reserve, destroy, replace`,
    });
  }
  // A required argument is an own property too.
  const inherited = Object.create({ planfile: "x.plan" });
  assert.throws(
    () => checkArguments(t.get("pravo_show_plan")!, inherited),
    /needs the argument "planfile"/,
  );
});

Deno.test("shown() repeats at most 200 characters of a value, with the size of the whole", () => {
  assert.equal(shown("abc"), '"abc"');
  const long = shown("é".repeat(1000));
  assert.equal(long, `"${"é".repeat(199)}... (2002 bytes)`);
  let deep: unknown = [];
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.ok(shown(deep).length < 240);
});

Deno.test("checkSizes() refuses a value over 64 KiB and a call over 256 KiB, naming the value", () => {
  checkSizes({ expression: "x".repeat(MAX_VALUE_BYTES) });
  assert.throws(() => checkSizes({ tags: ["a=1", "b=" + "x".repeat(MAX_VALUE_BYTES)] }), {
    message: `tags[1] is ${
      MAX_VALUE_BYTES + 2
    } bytes: this server passes at most 65536 bytes in one value. Shorten it`,
  });
  const many = Array.from({ length: 5 }, () => "k=" + "x".repeat(60_000));
  assert.throws(() => checkSizes({ tags: many }), /the arguments are 300010 bytes together/);
});

Deno.test("checkTags() lets an agent add tags and repeat the operator's, not change them", () => {
  const operator = { env: "prod" };
  checkTags({ tags: ["region=eu", "env=prod"] }, operator);
  checkTags({}, operator);
  assert.throws(() => checkTags({ tags: ["env=dev"] }, operator), {
    message:
      'tag "env" is set by the operator for this server (env=prod), and the operator\'s tags win: leave "env" out of tags',
  });
  // An inherited name is no operator tag.
  checkTags({ tags: ["constructor=x", "toString=y"] }, operator);
});

Deno.test("every tool's arguments are drawn from its command's flags: what a flag is, the tool's schema says", async () => {
  const { findCommand } = await import("../lib/cli/commands.ts");
  const { fromFlags } = await import("./from_flags.ts");
  // A flag the command does not take, or a positional value it does not read, is a bug found at once.
  assert.throws(
    () => fromFlags({ command: "plan", flags: { x: { flag: "nope", description: "" } } }, () => []),
    /--nope/,
  );
  assert.throws(
    () => fromFlags({ command: "plan", positional: { name: "p", description: "" } }, () => []),
    /no positional/,
  );
  assert.throws(() => fromFlags({ command: "no such", flags: {} }, () => []), /no command/);
  // The schema follows the spec: choices become an enum, a repeatable flag a list.
  const plan = byName().get("pravo_plan")!;
  const props = plan.inputSchema.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(props.refresh.enum, findCommand("plan")!.options.refresh.choices);
  assert.equal(props.replace.type, "array");
  assert.equal(props.full.type, "boolean");
  assert.deepEqual(plan.argv({ replace: ["a", "b"], full: false }), [
    "plan",
    "--replace=a",
    "--replace=b",
  ]);
});
