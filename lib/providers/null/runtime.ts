/**
 * The runtime of `hashicorp/null`: null_resource exists only in the state.
 * Create chooses a random id (a non-negative 63-bit integer in decimal, as
 * Terraform's `rand.Int()` gives it); delete does nothing; `triggers` forces
 * replacement, so there is no update and nothing to read.
 *
 * @module
 */

import { cryptoBytes, forgetOnly, ok, stateOf } from "../_util.ts";
import type { ProviderRuntime, TypeHandler } from "../runtime.ts";

/** A random non-negative 63-bit integer, in decimal. */
export function randomDecimalId(): string {
  let v = 0n;
  for (const b of cryptoBytes(8)) v = (v << 8n) | BigInt(b);
  return (v & 0x7fff_ffff_ffff_ffffn).toString();
}

const nullResource: TypeHandler = {
  create: (req) => Promise.resolve(ok(stateOf(req.type, req.config, { id: randomDecimalId() }))),
  delete: forgetOnly,
};

export const NULL_RUNTIME: ProviderRuntime = {
  source: "hashicorp/null",
  handlers: { managed: { null_resource: nullResource } },
};
