import { strict as assert } from "node:assert";
import { RANDOM, sourcesOf } from "./evaluate_testing.ts";
import {
  computedSet,
  declaredPath,
  failsForSecret,
  failsForStandIn,
  incompleteOrError,
} from "./failures.ts";

const SOURCES = sourcesOf(
  RANDOM + 'env: string @tag(env)\nname: "x-" + env\n' +
    "base: $random.#Resource.random_integer & {min: 1, result: 3}\n",
);

Deno.test("incompleteOrError() says which tag has no value, or which attribute is missing", () => {
  const tag = incompleteOrError(
    'cue: marshal error: pravo_package.env: cannot convert incomplete value "string" to JSON',
    SOURCES,
  );
  assert.equal(tag.summary, 'Tag "env" has no value');
  assert.equal(tag.range?.line, 6);
  const missing = incompleteOrError(
    'cue: marshal error: pravo_package.base.max: cannot convert incomplete value "int" to JSON',
    SOURCES,
  );
  assert.equal(missing.summary, 'Missing required attribute "max"');
  assert.equal(missing.address, "base");
});

Deno.test("computedSet() says a computed attribute is set, without quoting the value it met", () => {
  const d = computedSet(
    "cue: marshal error: pravo_package.base.result: conflicting values 3 and 12345",
    SOURCES.index,
  );
  assert.equal(d?.summary, 'Computed attribute "result" is set');
  assert.ok(!d?.detail.includes("12345"));
  assert.equal(
    computedSet("pravo_package.base.min: conflicting values 1 and 2", SOURCES.index),
    undefined,
  );
});

Deno.test("declaredPath() gives the path a message names only where the sources declare it", () => {
  assert.deepEqual(declaredPath("pravo_package.name: invalid", SOURCES.index), ["name"]);
  assert.equal(declaredPath('pravo_package."s3cret": invalid', SOURCES.index), undefined);
  assert.equal(declaredPath("name: invalid", SOURCES.index), undefined);
});

Deno.test("failsForSecret() and failsForStandIn() place the failure and never quote CUE", () => {
  const message = 'pravo_package.name: invalid value "x-s3cret"';
  for (
    const d of [failsForSecret(message, SOURCES.index), failsForStandIn(message, SOURCES.index)]
  ) {
    assert.equal(d.address, "name");
    assert.equal(d.range?.line, 7);
    assert.ok(!JSON.stringify(d).includes("s3cret"));
  }
});
