import assert from "node:assert/strict";
import { evaluate } from "../cue/engine.ts";
import { convertExpression, type ExprContext, type Scope } from "./expr.ts";
import { defaultAlias, placeImports } from "./expr_base.ts";
import { LineIndex } from "./hcl_body.ts";

const TOP = await Deno.makeTempDir({ prefix: "pravo-expr-" });
await Deno.writeTextFile(`${TOP}/policy.json`, '{"a": 1}\n');
await Deno.writeTextFile(`${TOP}/hello.tpl`, "Hello ${name}!%{ for t in tags } #${t}%{ endfor }\n");
await Deno.mkdir(`${TOP}/modules/m`, { recursive: true });
await Deno.writeTextFile(`${TOP}/modules/m/m.txt`, "in m");

function rootScope(extra: Partial<Scope> = {}): Scope {
  return {
    module: false,
    resources: new Map([
      ["aws_s3_bucket.logs", "none"],
      ["aws_instance.web", "count"],
      ["aws_instance.each", "for_each"],
      ["data.aws_caller_identity.me", "none"],
    ]),
    modules: new Map([["vpc", "none"], ["many", "count"]]),
    vars: new Map(),
    iterators: new Map(),
    pathModule: ".",
    dir: TOP,
    top: TOP,
    ...extra,
  };
}

async function convert(src: string, scope = rootScope()) {
  const ctx: ExprContext = {
    file: {
      name: "main.tf",
      text: src,
      body: { attributes: [], blocks: [] },
      lines: new LineIndex(src),
    },
    diags: [],
    imports: new Set(),
    helpers: new Set(),
    reads: new Set(),
  };
  const out = await convertExpression(src, 0, scope, ctx);
  return { text: placeImports(out.text, defaultAlias), ctx };
}

/** [Terraform, CUE]: one case per construct and function. */
const CASES: [string, string][] = [
  // literals and references
  ["42", "42"],
  ["1.5", "1.5"],
  ["true", "true"],
  ["null", "null"],
  ['"plain"', '"plain"'],
  ['"a\\n\\"q\\" $${x} %%{y} \\u00e9"', '"a\\n\\"q\\" ${x} %{y} é"'],
  ["var.region", "var.region"],
  ["local.name", "local.name"],
  ["aws_s3_bucket.logs.arn", "aws_s3_bucket.logs.arn"],
  ["aws_instance.web[0].id", 'aws_instance.web."0".id'],
  ['aws_instance.each["a b"].id', 'aws_instance.each."a b".id'],
  ["aws_instance.web[var.i].id", 'aws_instance.web["\\(var.i)"].id'],
  ["data.aws_caller_identity.me.account_id", "data.aws_caller_identity.me.account_id"],
  ["module.vpc.vpc_id", "module.vpc.vpc_id"],
  ["module.many[1].id", 'module.many."1".id'],
  ["path.module", '"."'],
  ["var.list[0]", "var.list[0]"],
  ['var.map["k"]', 'var.map["k"]'],
  ["var.map[local.k]", "var.map[local.k]"],
  // templates
  ['"logs-${var.env}"', '"logs-\\(var.env)"'],
  ['"${var.n}"', "var.n"],
  ['"%{if var.on}on%{else}off%{endif}"', '"\\([if var.on {"on"}, "off"][0])"'],
  [
    '"%{for s in var.xs}${s},%{endfor}"',
    '"\\(strings.Join([for s in var.xs {"\\(s),"}], ""))"',
  ],
  ['"a ${~ var.x ~} b"', '"a\\(var.x)b"'],
  ["<<EOT\nhello ${var.x}\nEOT", '"hello \\(var.x)\\n"'],
  ["<<-EOT\n    a\n      b\n    EOT", '"a\\n  b\\n"'],
  // operators
  ["1 + 2 * 3", "1 + 2 * 3"],
  ["(1 + 2) * 3", "(1 + 2) * 3"],
  ["var.a - (var.b - var.c)", "var.a - (var.b - var.c)"],
  ['!var.on && var.n >= 2 || var.x == "y"', '!var.on && var.n >= 2 || var.x == "y"'],
  ["-var.n", "-var.n"],
  ["var.n % 2", "rem(var.n, 2)"],
  ["var.on ? 1 : 0", "[if var.on {1}, 0][0]"],
  // collections
  ['[1, "a", var.x]', '[1, "a", var.x]'],
  ['{ a = 1, "b c" = var.x, (local.k) = 2 }', '{a: 1, "b c": var.x, (local.k): 2}'],
  ['[for s in var.xs : upper(s) if s != ""]', '[for s in var.xs if s != "" {strings.ToUpper(s)}]'],
  ["{for k, v in var.m : k => v.id}", "{for k, v in var.m {(k): v.id}}"],
  ["[for name in var.names : { name = name }]", "[for name_ in var.names {{name: name_}}]"],
  ["aws_instance.web[*].id", "[for x in aws_instance.web {x.id}]"],
  ["aws_s3_bucket.logs[*].arn", "[aws_s3_bucket.logs.arn]"],
  ["var.objs[*].name", "[for x in var.objs {x.name}]"],
  // functions
  ["length(var.xs)", "len(var.xs)"],
  ['join(",", var.xs)', 'strings.Join(var.xs, ",")'],
  ['split(",", var.s)', 'strings.Split(var.s, ",")'],
  ['replace(var.s, "-", "_")', 'strings.Replace(var.s, "-", "_", -1)'],
  ['replace(var.s, "/[0-9]+/", "N")', 'regexp.ReplaceAll("[0-9]+", var.s, "N")'],
  ["lower(var.s)", "strings.ToLower(var.s)"],
  ["upper(var.s)", "strings.ToUpper(var.s)"],
  ['format("%s-%d%%", var.s, var.n)', '"\\(var.s)-\\(var.n)%"'],
  ["jsonencode({ a = 1 })", "json.Marshal({a: 1})"],
  ["jsondecode(var.s)", "json.Unmarshal(var.s)"],
  ["concat(var.a, [1])", "list.Concat([var.a, [1]])"],
  ["keys(var.m)", "list.SortStrings([for k, _ in var.m {k}])"],
  ["values(var.m)", "[for k in list.SortStrings([for k, _ in var.m {k}]) {(var.m)[k]}]"],
  ["element(var.xs, 3)", "(var.xs)[mod(3, len(var.xs))]"],
  ["tolist(var.xs)", "var.xs"],
  ["toset(var.xs)", "var.xs"],
  ["tomap(var.m)", "var.m"],
  ["basename(var.p)", "path.Base(var.p)"],
  ['lookup(var.m, "k", "d")', '[if (var.m)["k"] != _|_ {(var.m)["k"]}, "d"][0]'],
  ['coalesce(var.a, "d")', '[for x in [var.a, "d"] if x != null && x != "" {x}][0]'],
  ["try(var.m.k, null)", "[if (var.m.k) != _|_ {var.m.k}, null][0]"],
  [
    "merge(var.a, { b = 1 })",
    "{{b: 1}, for k, v in var.a if ({b: 1})[k] == _|_ {(k): v}}",
  ],
  [
    'cidrsubnet("10.0.0.0/16", 8, 2)',
    '(tf.#cidrsubnet & {prefix: "10.0.0.0/16", newbits: 8, netnum: 2}).out',
  ],
  ['file("${path.module}/policy.json")', '"{\\"a\\": 1}\\n"'],
  [
    'templatefile("hello.tpl", { name = var.n, tags = ["a"] })',
    '"Hello \\(var.n)!\\(strings.Join([for t in ["a"] {" #\\(t)"}], ""))\\n"',
  ],
  ["max(1, var.n)", "list.Max([1, var.n])"],
  ['contains(var.xs, "a")', 'list.Contains(var.xs, "a")'],
  ["range(3)", "list.Range(0, 3, 1)"],
  ["flatten(var.xs)", "list.FlattenN(var.xs, -1)"],
  ['trimprefix(var.s, "x")', 'strings.TrimPrefix(var.s, "x")'],
  ["tostring(var.n)", '"\\(var.n)"'],
  ["can(var.m.k)", "(var.m.k) != _|_"],
];

for (const [tf, cue] of CASES) {
  Deno.test(`convertExpression() writes ${tf.replace(/\n/g, "\\n")} as ${cue}`, async () => {
    const { text, ctx } = await convert(tf);
    assert.deepEqual(ctx.diags.filter((d) => d.severity === "error"), []);
    assert.equal(text, cue);
  });
}

Deno.test("convertExpression() reads path.module of a module and its files", async () => {
  const scope = rootScope({ module: true, pathModule: "modules/m", dir: `${TOP}/modules/m` });
  assert.equal((await convert("var.x", scope)).text, "#var.x");
  assert.equal((await convert("local.y", scope)).text, "#local.y");
  assert.equal((await convert('file("${path.module}/m.txt")', scope)).text, '"in m"');
});

Deno.test("convertExpression() binds count.index and each.key/value where they are known", async () => {
  const scope = rootScope({ count: "count_index", each: { key: "each_key", value: "each_value" } });
  assert.equal((await convert('"web-${count.index}"', scope)).text, '"web-\\(count_index)"');
  assert.equal((await convert("each.value.name", scope)).text, "each_value.name");
});

const REFUSED: [string, RegExp][] = [
  ["uuid()", /uuid\(\) is not converted/],
  ["count.index", /count.index outside a count/],
  ["each.key", /each.key outside a for_each/],
  ["self.id", /self is not converted/],
  ["aws_nope.x.id", /Unknown reference/],
  ['file("/etc/passwd")', /reads outside the directory converted/],
  ["file(var.p)", /of a computed path/],
  ["{for k, v in var.m : v => k...}", /Grouping/],
  ['format("%.2f", var.n)', /verb %\. is not converted/],
  ["merge(var.maps...)", /expanded argument/],
];

for (const [tf, message] of REFUSED) {
  Deno.test(`convertExpression() refuses ${tf} with a diagnostic at its line and column`, async () => {
    const { text, ctx } = await convert(`\n  ${tf}`);
    assert.equal(text.includes("_|_"), true);
    const e = ctx.diags.find((d) => d.severity === "error");
    assert.ok(e, "an error");
    assert.match(e.summary, message);
    assert.equal(e.range?.file, "main.tf");
    assert.equal(e.range?.line, 2);
    assert.ok((e.range?.column ?? 0) >= 3);
  });
}

/** Evaluations in CUE v0.4.3: the converted expression gives Terraform's value. */
const EVALUATED: [string, unknown][] = [
  ['"%{if var.on}on%{else}off%{endif}"', "on"],
  ['"%{for s in var.xs}${s},%{endfor}"', "a,b,"],
  ["var.on ? var.n : 0", 3],
  ['[for s in var.xs : upper(s) if s != "b"]', ["A"]],
  ["{for k, v in var.m : k => v + 1}", { x: 2, y: 3 }],
  ["keys(var.m)", ["x", "y"]],
  ["values(var.m)", [1, 2]],
  ["element(var.xs, 3)", "b"],
  ['lookup(var.m, "z", 9)', 9],
  ['coalesce("", null, "c")', "c"],
  ["try(var.m.z, 7)", 7],
  ["merge({ a = 1, b = 2 }, { b = 3 })", { a: 1, b: 3 }],
  ["distinct([1, 2, 1])", [1, 2]],
  ["reverse([1, 2, 3])", [3, 2, 1]],
  ['replace("a1b22", "/[0-9]+/", "N")', "aNbN"],
  ['format("%s-%d", "x", 4)', "x-4"],
  ['zipmap(["a", "b"], [1, 2])', { a: 1, b: 2 }],
  ["one([5])", 5],
  ['substr("hello", 1, 3)', "ell"],
  ['basename("a/b/c.txt")', "c.txt"],
  ["jsonencode({ a = [1] })", '{"a":[1]}'],
  ['base64decode(base64encode("hi"))', "hi"],
  ['sha256("x")', "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"],
  ["var.n % 2", 1],
  ["alltrue([true, var.on])", true],
  ['compact(["a", "", "b"])', ["a", "b"]],
  ['index(["a", "b"], "b")', 1],
  ['indent(2, "a\\nb")', "a\n  b"],
  // Strip markers and <<- as Terraform 1.11.4 evaluates them (checked with terraform plan).
  [
    "<<-EOT\n    Welcome.\n    %{for s in var.xs~}\n    subnet ${s}\n    %{endfor~}\n  EOT",
    "Welcome.\n    subnet a\n    subnet b\n",
  ],
  ["<<EOT\na ${var.n}\n  %{~ if true ~}\n  yes\n  %{~ endif ~}\nb\nEOT", "a 3\n  yes\nb\n"],
  ['"  a ${~ var.n ~}  b  "', "  a3b  "],
];

for (const [tf, want] of EVALUATED) {
  Deno.test(`the CUE of ${tf} evaluates in CUE v0.4.3 to ${JSON.stringify(want)}`, async () => {
    const { text, ctx } = await convert(tf);
    assert.deepEqual(ctx.diags.filter((d) => d.severity === "error"), []);
    const imports = [...ctx.imports].map((p) => `import "${p}"\n`).join("");
    const src = `${imports}var: {on: true, n: 3, xs: ["a", "b"], m: {x: 1, y: 2}}\nout: ${text}\n`;
    const r = await evaluate(src);
    assert.ok(r.ok, `${src}\n${r.ok ? "" : r.message}`);
    assert.deepEqual(JSON.parse(r.json).out, want);
  });
}
