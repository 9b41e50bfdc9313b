import { strict as assert } from "node:assert";
import { Deps } from "./deps.ts";
import { sourcesOf } from "./evaluate_testing.ts";
import { functionOfUnknown } from "./function_of_unknown.ts";

const HEAD = 'package demo\n\nimport (\n\trnd "pravo.dev/providers/hashicorp/random"\n' +
  '\t"encoding/json"\n)\n\n$random: rnd.#Provider\n' +
  "base: $random.#Resource.random_integer & {min: 1, max: 9}\n";
const CALL =
  "cue: marshal error: pravo_package.n.prefix: error in call to encoding/json.Unmarshal: " +
  "json: invalid JSON";

function state(body: string, known = new Map<string, Record<string, unknown>>()) {
  const sources = sourcesOf(HEAD + body);
  return { said: CALL, deps: new Deps(sources, []), sources, known, setness: new Map() };
}

Deno.test("functionOfUnknown() places a failed function of a value known only after apply at its field", () => {
  const d = functionOfUnknown(
    CALL,
    state("n: $random.#Resource.random_pet & {prefix: (json.Unmarshal(base.id)).x}\n"),
  );
  assert.equal(d?.summary, "A function of a value known only after apply");
  assert.match(
    d?.detail ?? "",
    /^n\.prefix is computed from base\.id, which is known only after apply/,
  );
  assert.match(d?.detail ?? "", /CUE says: n\.prefix: error in call to encoding\/json\.Unmarshal/);
  assert.deepEqual(d?.range, { file: "main.cue", line: 10, column: 36 });
});

Deno.test("functionOfUnknown() says nothing when the value is known, or the field reads no unknown", () => {
  const body = "n: $random.#Resource.random_pet & {prefix: (json.Unmarshal(base.id)).x}\n";
  const known = new Map([["base", { id: "4", result: 4 }]]);
  assert.equal(functionOfUnknown(CALL, state(body, known)), undefined);
  const plain = 'n: $random.#Resource.random_pet & {prefix: (json.Unmarshal("x")).x}\n';
  assert.equal(functionOfUnknown(CALL, state(plain)), undefined);
});

Deno.test("functionOfUnknown() places a failed call that CUE names no field for at the let that makes it", () => {
  const said = "cue: marshal error: error in call to encoding/json.Unmarshal: json: invalid JSON";
  const s = state(
    "let d = json.Unmarshal(base.id)\n_h: d.x\nn: $random.#Resource.random_pet & {prefix: _h}\n",
  );
  const d = functionOfUnknown(said, { ...s, said });
  assert.match(
    d?.detail ?? "",
    /^The let d calls json\.Unmarshal on base\.id, which is known only after apply/,
  );
  assert.deepEqual(d?.range, { file: "main.cue", line: 10, column: 5 });
});
