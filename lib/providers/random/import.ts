/**
 * `pravo import` for `hashicorp/random`: the ID formats of Terraform's random
 * provider, for the types it can import (random_integer, random_string,
 * random_password, random_id, random_uuid, random_bytes). random_pet and
 * random_shuffle cannot be imported, in Terraform as here.
 *
 * What Terraform reads from the ID is read from it here too. Every other
 * input comes from the node's configuration, where Terraform leaves it unset
 * or at its default (so that its next plan often replaces what was just
 * imported): a plan after the import is then a no-op when the ID and the
 * configuration agree.
 *
 * @module
 */

import { type Diagnostic, warning } from "../../diag/diag.ts";
import { badId, ok, stateOf } from "../_util.ts";
import { fromBase64, toBase64, toBase64Url, toHex } from "../../bytes.ts";
import type { Attrs, ImportRequest, Response } from "../runtime.ts";

type Importer = (req: ImportRequest) => Promise<Response<Attrs | null>>;

const INTEGER = /^[+-]?\d+$/;

export const INTEGER_FORMAT = "RESULT,MIN,MAX[,SEED]";

/** random_integer: `RESULT,MIN,MAX[,SEED]`, as `terraform import random_integer.x 15390,1,50000`. */
export const importInteger: Importer = (req) => {
  const parts = req.id.split(",");
  if (parts.length < 3 || parts.length > 4 || !parts.slice(0, 3).every((p) => INTEGER.test(p))) {
    return badId(
      req,
      INTEGER_FORMAT,
      `"${req.id}" is not three whole numbers and an optional seed, separated by commas`,
      "15,1,50",
    );
  }
  const [result, min, max] = parts.slice(0, 3).map(Number);
  if (min > max || result < min || result > max) {
    return badId(
      req,
      INTEGER_FORMAT,
      `${result} is not between min ${min} and max ${max}`,
      `${Math.min(Math.max(result, min), max)},${Math.min(min, max)},${Math.max(min, max)}`,
    );
  }
  const config: Attrs = { ...req.config, min, max };
  if (parts.length === 4) config.seed = parts[3];
  return Promise.resolve(ok(stateOf(req.type, config, { result, id: String(result) })));
};

const CLASSES: [string, RegExp][] = [
  ["upper", /[A-Z]/],
  ["lower", /[a-z]/],
  ["numeric", /[0-9]/],
];

/**
 * The characters of an imported string that its configuration would not
 * have produced: a warning each, since the value stays as it is.
 */
function classWarnings(req: ImportRequest, value: string): Diagnostic[] {
  const on = (name: string) => req.config[name] !== false;
  const special = typeof req.config.override_special === "string" && req.config.override_special
    ? req.config.override_special
    : "!@#$%&*()-_=+[]{}<>:?";
  const off: string[] = [];
  for (const [name, re] of CLASSES) {
    if (!on(name) && [...value].some((c) => re.test(c))) off.push(name);
  }
  const others = [...value].filter((c) => !CLASSES.some(([, re]) => re.test(c)));
  if (others.length && (!on("special") || others.some((c) => !special.includes(c)))) {
    off.push("special");
  }
  if (off.length === 0) return [];
  return [warning(
    "The imported value does not match the configuration",
    `It holds ${off.join(", ")} characters, which the configuration of ${req.address} does ` +
      "not allow. The value is kept as it is; a new one is made only when an input changes. " +
      `Allow those characters in the configuration if the value is right.`,
    { address: req.address },
  )];
}

export const STRING_FORMAT = "VALUE";

/**
 * random_string and random_password: the value itself, as Terraform. A
 * password gets its bcrypt_hash from `hash`.
 */
export function importString(hash?: (value: string) => string): Importer {
  const password = hash !== undefined;
  return (req) => {
    if (req.id === "") {
      return badId(req, STRING_FORMAT, "The ID is empty", password ? "'s3cret-Value'" : "abc123");
    }
    const config: Attrs = { ...req.config, length: [...req.id].length };
    const computed: Attrs = { result: req.id, id: password ? "none" : req.id };
    if (hash) computed.bcrypt_hash = hash(req.id);
    return Promise.resolve(ok(stateOf(req.type, config, computed), classWarnings(req, req.id)));
  };
}

export const ID_FORMAT = "[PREFIX,]B64_URL";

/** random_id: `B64_URL` or `PREFIX,B64_URL`, as `terraform import random_id.x my-prefix-,p-9hUg`. */
export const importId: Importer = (req) => {
  const cut = req.id.lastIndexOf(",");
  const prefix = cut < 0 ? undefined : req.id.slice(0, cut);
  const b64 = cut < 0 ? req.id : req.id.slice(cut + 1);
  const std = b64.replace(/-/g, "+").replace(/_/g, "/");
  const bytes = /^[A-Za-z0-9_-]+$/.test(b64)
    ? fromBase64(std + "=".repeat((4 - std.length % 4) % 4))
    : undefined;
  if (!bytes || bytes.length === 0 || toBase64Url(bytes) !== b64) {
    return badId(
      req,
      ID_FORMAT,
      `"${b64}" is not URL-safe base64 without padding (the b64_url of a random_id without its prefix)`,
      "p-9hUg",
    );
  }
  const config: Attrs = { ...req.config, byte_length: bytes.length };
  if (prefix !== undefined) config.prefix = prefix;
  const p = prefix ?? (typeof req.config.prefix === "string" ? req.config.prefix : "");
  let dec = 0n;
  for (const b of bytes) dec = (dec << 8n) | BigInt(b);
  return Promise.resolve(ok(stateOf(req.type, config, {
    id: b64,
    b64_url: p + b64,
    b64_std: p + toBase64(bytes),
    hex: p + toHex(bytes),
    dec: p + dec.toString(),
  })));
};

export const UUID_FORMAT = "UUID";

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** random_uuid: the UUID. */
export const importUuid: Importer = (req) => {
  if (!UUID.test(req.id)) {
    return badId(
      req,
      UUID_FORMAT,
      `"${req.id}" is not a UUID`,
      "aabbccdd-eeff-0011-2233-445566778899",
    );
  }
  return Promise.resolve(ok(stateOf(req.type, req.config, { result: req.id, id: req.id })));
};

export const BYTES_FORMAT = "BASE64";

/** random_bytes: the bytes in standard base64, as `terraform import random_bytes.x 8/fu3q+2DcgSJ19i0jZ5Cw==`. */
export const importBytes: Importer = (req) => {
  const bytes = fromBase64(req.id);
  if (!bytes || bytes.length === 0) {
    return badId(
      req,
      BYTES_FORMAT,
      "The ID is not standard base64",
      "8/fu3q+2DcgSJ19i0jZ5Cw==",
    );
  }
  const config: Attrs = { ...req.config, length: bytes.length };
  return Promise.resolve(ok(stateOf(req.type, config, {
    base64: toBase64(bytes),
    hex: toHex(bytes),
    id: "none",
  })));
};
