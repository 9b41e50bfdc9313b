/**
 * A node's place in Terraform's terms, for the JSON plan: its address, the
 * module calls it is in, its name and its key (`index`), by the rule of
 * address.ts. Where that rule gives what is not a Terraform address (a
 * root written by hand, whose labels are not all Terraform names:
 * `servers."0"`, `sites."my site".cert`), a label that is not a name is the
 * key of the label before it: `aws_instance.servers[0]`,
 * `module.sites["my site"].tls_cert.cert` (docs/reference/show.md).
 *
 * @module
 */

import { addressLabels } from "../addr/address.ts";
import type { Mode } from "../providers/schema.ts";
import { keyText, parseTerraformAddress, terraformAddress } from "./address.ts";

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

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** The Terraform address of a node's path: address.ts's rule, keys for labels that are not names. */
export function terraformAddressFor(labels: readonly string[], type: string, mode: Mode): string {
  const m = mode === "data" ? "data" : "managed";
  const tf = terraformAddress(labels, type, m);
  try {
    parseTerraformAddress(tf);
    return tf;
  } catch {
    // A label that is not a Terraform name: below.
  }
  const steps: { name: string; key?: string }[] = [];
  for (const l of labels) {
    const last = steps[steps.length - 1];
    if (!NAME.test(l) && last && last.key === undefined) last.key = l;
    else steps.push({ name: NAME.test(l) ? l : `_${l.replace(/[^A-Za-z0-9_-]/g, "_")}` });
  }
  const text = (s: { name: string; key?: string }) =>
    s.name + (s.key === undefined ? "" : keyText(s.key));
  const res = steps.pop()!;
  return [
    ...steps.map((s) => `module.${text(s)}`),
    `${m === "data" ? "data." : ""}${type}.${text(res)}`,
  ].join(".");
}

/** A pravo address, its type and mode, in Terraform's terms. */
export function tfIdentity(address: string, type: string, mode: Mode): TfIdentity {
  const m = mode === "data" ? "data" : "managed";
  const tf = terraformAddressFor(addressLabels(address) ?? [address], type, m);
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
