import assert from "node:assert/strict";
import { BUILTIN_REGISTRY } from "../providers/registry.ts";
const { findType } = BUILTIN_REGISTRY;
import type { TypeSchema } from "../providers/schema.ts";
import { builtinObject, builtinSchemaVersion } from "./tfstate_builtin.ts";
import { randomPassword } from "./tfstate_testing.ts";

function type(name: string): TypeSchema {
  const t = findType("hashicorp/random", "managed", name);
  if (!t) throw new Error(name);
  return t;
}

const WHERE = {
  address: "random_password.db",
  terraformAddress: "random_password.db",
  provider: "hashicorp/random",
};

/** random_password as Terraform's random provider 3.6 writes it (schema version 3). */
const PASSWORD = randomPassword("Xk3mPq9Rt2Vw7Ya1", "$2a$10$abcdefghijklmnopqrstuv");

Deno.test("builtinSchemaVersion() gives the versions of Terraform's random provider 3.4 and later", () => {
  assert.equal(builtinSchemaVersion("random_password"), 3);
  assert.equal(builtinSchemaVersion("random_string"), 2);
  assert.equal(builtinSchemaVersion("random_integer"), 0);
  assert.equal(builtinSchemaVersion("null_resource"), 0);
});

Deno.test("builtinObject() takes an object of Terraform's random provider as it is", () => {
  const r = builtinObject(
    type("random_password"),
    { attributes: PASSWORD, schemaVersion: 3 },
    WHERE,
  );
  assert.deepEqual(r, { attributes: PASSWORD });
});

Deno.test("builtinObject() refuses another schema version, saying what to do, without a value", () => {
  const r = builtinObject(
    type("random_password"),
    { attributes: PASSWORD, schemaVersion: 2 },
    WHERE,
  );
  assert.ok("diagnostic" in r);
  assert.equal(
    r.diagnostic.summary,
    "Cannot take over random_password.db: written with schema version 2 of random_password",
  );
  assert.match(r.diagnostic.detail, /older release .*`terraform apply -refresh-only`/);
  const newer = builtinObject(type("random_string"), { attributes: {}, schemaVersion: 3 }, WHERE);
  assert.ok("diagnostic" in newer);
  assert.match(newer.diagnostic.detail, /a newer release .*terraform state rm random_password.db/);
});

Deno.test("builtinObject() refuses an attribute pravo's type lacks, or of another kind, without its value", () => {
  const extra = builtinObject(
    type("random_password"),
    { attributes: { ...PASSWORD, shiny: 1 }, schemaVersion: 3 },
    WHERE,
  );
  assert.ok("diagnostic" in extra);
  assert.match(extra.diagnostic.detail, /has no attribute shiny\. Remove it/);
  const kind = builtinObject(
    type("random_password"),
    { attributes: { ...PASSWORD, result: 42 }, schemaVersion: 3 },
    WHERE,
  );
  assert.ok("diagnostic" in kind);
  assert.match(kind.diagnostic.detail, /holds result as string, and the state holds a number/);
  assert.ok(!kind.diagnostic.detail.includes("42"));
});
