/**
 * A node's place in Terraform's terms, for the JSON plan: its address, the
 * module calls it is in, its name and its key (`index`), by the one mapping
 * of pravo's addresses to Terraform's (address.ts, where the rule for a
 * root written by hand is too; docs/reference/show.md).
 *
 * @module
 */

import type { Mode } from "../providers/schema.ts";
import { keyText, parseTerraformAddress, terraformAddressOf } from "./address.ts";

/** Where a node is, in Terraform's terms. */
export interface TfIdentity {
  address: string;
  /** `module.vpc["a"]`; undefined in the root module. */
  moduleAddress?: string;
  /** The module calls it is in, outermost first: `[{name: "vpc", key: "a"}]`. */
  modules: { name: string; key?: string | number }[];
  /** Its address in its module, without its key: `aws_instance.web`, `data.x.y`. */
  resource: string;
  mode: "managed" | "data";
  type: string;
  name: string;
  index?: number | string;
}

/** A pravo address, its type and mode, in Terraform's terms. */
export function tfIdentity(address: string, type: string, mode: Mode): TfIdentity {
  const m = mode === "data" ? "data" : "managed";
  const tf = terraformAddressOf(address, type, m);
  const steps = parseTerraformAddress(tf);
  const res = steps[steps.length - 1];
  const modules = steps.flatMap((s) => "module" in s ? [{ name: s.module, key: s.key }] : []);
  const name = "name" in res ? res.name : type;
  const out: TfIdentity = {
    address: tf,
    mode: m,
    type,
    name,
    modules,
    resource: `${m === "data" ? "data." : ""}${type}.${name}`,
  };
  if (modules.length) {
    out.moduleAddress = modules.map((s) =>
      `module.${s.name}${s.key === undefined ? "" : keyText(String(s.key))}`
    ).join(".");
  }
  if ("name" in res && res.key !== undefined) out.index = res.key;
  return out;
}
