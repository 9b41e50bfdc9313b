/**
 * Terraform's addresses and pravo's, both ways.
 *
 * A root converted from Terraform (`pravo convert --from terraform`) keeps
 * Terraform's addresses by nesting: `aws_s3_bucket.logs` is the node
 * `aws_s3_bucket.logs`, `data.aws_iam_policy_document.p` the node
 * `data.aws_iam_policy_document.p`, the instance `aws_instance.web[0]` of a
 * `count` the node `aws_instance.web."0"`, the instance `["a"]` of a
 * `for_each` the node `aws_instance.web.a`, and the nodes of a module call
 * `module.vpc["a"].aws_subnet.this` the node `module.vpc.a.aws_subnet.this`.
 *
 * From pravo to Terraform, a node's path is read that way when it ends in
 * its type and name (`TYPE.NAME`, `TYPE.NAME.KEY`, after `data` for a data
 * source) behind module calls (`module.NAME`, `module.NAME.KEY`); a label
 * that reads as a whole number is an index (`[0]`), any other a string key
 * (`["a"]`). Any other path (a root written by hand) is read as
 * `docs/reference/show.md` says: each label before the last is a module
 * (`module.LABEL`), and the last is the name; a label that is not a
 * Terraform name is the key of the label before it (`servers."0"` is
 * `aws_instance.servers[0]`, `sites."my site".cert` is
 * `module.sites["my site"].tls_self_signed_cert.cert`). This is the one
 * mapping: `pravo show --format terraform` prints it, and convert's tests
 * hold it to Terraform's own addresses.
 *
 * @module
 */

import { addressLabels, formatAddress } from "../addr/address.ts";

/** A node's mode, as pravo's plan and state name it. */
export type NodeMode = "managed" | "data" | "ephemeral" | "call";

/** One step of a Terraform address. */
export type TerraformStep =
  | { module: string; key?: string | number }
  | { mode: "managed" | "data" | "ephemeral"; type: string; name: string; key?: string | number };

/** A key as Terraform writes it: `[0]` for a whole number, `["a"]` otherwise. */
export function keyText(label: string): string {
  return /^(0|[1-9][0-9]{0,15})$/.test(label) ? `[${label}]` : `[${JSON.stringify(label)}]`;
}

/** The module calls at the start of `labels`, or undefined when they are not all calls. */
function moduleCalls(labels: readonly string[]): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  while (i < labels.length) {
    if (labels[i] !== "module" || i + 1 >= labels.length) return undefined;
    let step = `module.${labels[i + 1]}`;
    i += 2;
    if (i < labels.length && labels[i] !== "module") {
      step += keyText(labels[i]);
      i++;
    }
    out.push(step);
  }
  return out;
}

/**
 * The Terraform address of a node: its path's labels, its type and mode.
 *
 * @example
 * ```ts
 * import { terraformAddress } from "./address.ts";
 * const a = terraformAddress(["module", "vpc", "a", "aws_subnet", "this", "0"], "aws_subnet", "managed");
 * if (a !== 'module.vpc["a"].aws_subnet.this[0]') throw new Error(a);
 * ```
 */
export function terraformAddress(
  labels: readonly string[],
  type: string,
  mode: NodeMode,
): string {
  const prefix = mode === "data" ? "data." : mode === "ephemeral" ? "ephemeral." : "";
  const converted = convertedAddress(labels, type, prefix);
  if (converted !== undefined && isTerraformAddress(converted)) return converted;
  return handWrittenAddress(labels, type, prefix);
}

/** The address of a path in the shape convert writes (module calls, then TYPE.NAME[.KEY]); undefined for another shape. */
function convertedAddress(
  labels: readonly string[],
  type: string,
  prefix: string,
): string | undefined {
  const n = labels.length;
  for (const keyed of [false, true]) {
    const tail = keyed ? 3 : 2;
    if (n < tail || labels[n - tail] !== type) continue;
    let start = n - tail;
    if (prefix) {
      const word = prefix.slice(0, -1);
      if (labels[start - 1] !== word) continue;
      start--;
    }
    const calls = moduleCalls(labels.slice(0, start));
    if (!calls) continue;
    const name = labels[n - tail + 1] + (keyed ? keyText(labels[n - 1]) : "");
    return [...calls, `${prefix}${type}.${name}`].join(".");
  }
  return undefined;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * The address of any other path (a root written by hand): each label before
 * the last is a module call and the last is the name, but a label that is
 * not a Terraform name is the key of the label before it (`servers."0"` is
 * `servers[0]`); a first label that is not a name becomes one (`_` and its
 * characters, others as `_`).
 */
function handWrittenAddress(labels: readonly string[], type: string, prefix: string): string {
  const steps: { name: string; key?: string }[] = [];
  for (const l of labels) {
    const last = steps[steps.length - 1];
    if (!NAME.test(l) && last && last.key === undefined) last.key = l;
    else steps.push({ name: NAME.test(l) ? l : `_${l.replace(/[^A-Za-z0-9_-]/g, "_")}` });
  }
  const text = (s: { name: string; key?: string }) =>
    s.name + (s.key === undefined ? "" : keyText(s.key));
  const res = steps.pop()!;
  return [...steps.map((s) => `module.${text(s)}`), `${prefix}${type}.${text(res)}`].join(".");
}

/** Whether `address` reads as a Terraform address. */
function isTerraformAddress(address: string): boolean {
  try {
    parseTerraformAddress(address);
    return true;
  } catch (e) {
    if (e instanceof TerraformAddressError) return false;
    throw e;
  }
}

/** A Terraform address that could not be read. */
export class TerraformAddressError extends Error {
  constructor(readonly address: string, reason: string) {
    super(`"${address}" is not a Terraform address: ${reason}`);
    this.name = "TerraformAddressError";
  }
}

/**
 * The steps of a Terraform address: module calls, then a resource (which may
 * be missing, for a module's address, or have no key, for all instances).
 */
export function parseTerraformAddress(address: string): TerraformStep[] {
  const re = /\s*(?:\.\s*)?([A-Za-z_][A-Za-z0-9_-]*)|\s*\[\s*(?:(\d+)|"((?:[^"\\]|\\.)*)")\s*\]/y;
  const tokens: ({ name: string } | { key: string | number })[] = [];
  let at = 0;
  while (at < address.trim().length) {
    re.lastIndex = at;
    const m = re.exec(address);
    if (!m) throw new TerraformAddressError(address, `unexpected text at "${address.slice(at)}"`);
    if (m[1] !== undefined) tokens.push({ name: m[1] });
    else if (m[2] !== undefined) tokens.push({ key: Number(m[2]) });
    else tokens.push({ key: JSON.parse(`"${m[3]}"`) });
    at = re.lastIndex;
  }
  const steps: TerraformStep[] = [];
  let i = 0;
  const name = (j: number) => {
    const t = tokens[j];
    if (!t || !("name" in t)) throw new TerraformAddressError(address, "a name is missing");
    return t.name;
  };
  const key = (j: number) => {
    const t = tokens[j];
    return t && "key" in t ? t.key : undefined;
  };
  while (i < tokens.length) {
    const word = name(i);
    if (word === "module") {
      const k = key(i + 2);
      steps.push(k === undefined ? { module: name(i + 1) } : { module: name(i + 1), key: k });
      i += k === undefined ? 2 : 3;
      continue;
    }
    const mode = word === "data" ? "data" : word === "ephemeral" ? "ephemeral" : "managed";
    if (mode !== "managed") i++;
    const type = name(i), resourceName = name(i + 1);
    const k = key(i + 2);
    steps.push({ mode, type, name: resourceName, ...(k === undefined ? {} : { key: k }) });
    i += k === undefined ? 2 : 3;
    if (i < tokens.length) {
      throw new TerraformAddressError(address, "nothing may follow a resource's name and key");
    }
  }
  return steps;
}

/**
 * The labels of the pravo path for a Terraform address, as a converted root
 * declares it.
 *
 * @example
 * ```ts
 * import { pravoPath } from "./address.ts";
 * const p = pravoPath('module.vpc["a"].aws_subnet.this[0]').join(" ");
 * if (p !== "module vpc a aws_subnet this 0") throw new Error(p);
 * ```
 */
export function pravoPath(address: string): string[] {
  const out: string[] = [];
  for (const s of parseTerraformAddress(address)) {
    if ("module" in s) out.push("module", s.module);
    else {
      if (s.mode !== "managed") out.push(s.mode);
      out.push(s.type, s.name);
    }
    if (s.key !== undefined) out.push(String(s.key));
  }
  return out;
}

/** The pravo address (`aws_instance.web."0"`) for a Terraform address. */
export function pravoAddress(address: string): string {
  return formatAddress(pravoPath(address));
}

/** The Terraform address of a pravo address (`net.web."a b"`), its type and mode. */
export function terraformAddressOf(pravo: string, type: string, mode: NodeMode): string {
  return terraformAddress(addressLabels(pravo) ?? [pravo], type, mode);
}
