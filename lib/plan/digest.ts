/**
 * A node's configuration digest: what apply records with a node, and what a
 * later plan compares to leave a node unchanged since then without running
 * it. Inputs computed from a secret enter it as what they are computed of,
 * and sensitive values only as an HMAC under pravo's key.
 *
 * @module
 */

import { createHash, createHmac } from "node:crypto";
import { loadKey } from "../keys/key.ts";
import { UNKNOWN } from "../cue/program.ts";
import { sortKeys } from "../json.ts";
import type { Attrs } from "./types.ts";

/**
 * The digest of a node's configuration: its inputs (keys sorted; unknowns
 * marked) and its lifecycle settings. Apply records it with the inputs as
 * resolved, so that a later plan whose inputs are the same can skip the node.
 *
 * `sensitive` names the node's sensitive attributes. They are part of the
 * digest, so that an input that becomes computed from a secret is not
 * skipped as unchanged; and the value of a sensitive input enters it only as
 * an HMAC under pravo's key: the digest is shown (`pravo state show`), and a
 * plain hash of a value computed from a secret could be guessed offline
 * (`seed: strings.HasPrefix(pw.result, "a")` has two possible digests).
 */
export function nodeDigest(
  inputs: Record<string, unknown>,
  lifecycle: unknown,
  sensitive: readonly string[] = [],
): string {
  const marked = (_k: string, x: unknown) => (x === UNKNOWN ? { $unknown: true } : x);
  let values = inputs;
  const secret = sensitive.filter((k) => inputs[k] !== undefined && inputs[k] !== null);
  if (secret.length) {
    const key = digestKey();
    values = { ...inputs };
    for (const k of secret) {
      values[k] = {
        $hmac: createHmac("sha256", key).update(JSON.stringify(inputs[k], marked)).digest("hex"),
      };
    }
  }
  return createHash("sha256").update(
    JSON.stringify(
      sortKeys(
        sensitive.length
          ? { inputs: values, lifecycle, sensitive: [...new Set(sensitive)].sort() }
          : { inputs: values, lifecycle },
      ),
      marked,
    ),
  ).digest("hex");
}

/**
 * The secrets a node's inputs may be computed from, as they are now: for
 * each node it depends on (sorted), the values of its sensitive attributes
 * (by top-level name). Part of the node's digest, under pravo's key, where
 * an input is computed from a secret: the digest changes when a secret it
 * reads does (a data source that now reads another password), and not with
 * anything the configuration computes from the secret.
 */
export function secretSources(
  dependencies: readonly string[],
  of: (address: string) => { attributes: Attrs; sensitive: readonly string[] } | undefined,
): unknown[] {
  const out: unknown[] = [];
  for (const d of [...new Set(dependencies)].sort()) {
    const s = of(d);
    if (!s) continue;
    const names = [...new Set(s.sensitive)].sort().filter((k) =>
      s.attributes[k] !== undefined && s.attributes[k] !== null
    );
    if (names.length) out.push([d, names.map((k) => [k, s.attributes[k]])]);
  }
  return out;
}

/**
 * The inputs a node's digest is made of: those computed from a secret (at
 * plan time unknown) stand as what they are computed of (the configuration's
 * value with each of pravo's two stand-ins: lib/cue/loader.ts `secretForms`)
 * and the secrets they may read ({@linkcode secretSources}), never as their
 * value; the same at plan and at apply, so that a node applied with a value
 * computed from a secret is unchanged at the next plan while neither its
 * configuration nor the secret changed, and the plan never compares the value.
 */
export function digestInputs(
  inputs: Record<string, unknown>,
  forms: Readonly<Record<string, unknown>> | undefined,
  sources: () => unknown[],
): Record<string, unknown> {
  const names = Object.keys(forms ?? {}).filter((k) => k in inputs);
  if (names.length === 0) return inputs;
  const out = { ...inputs };
  const from = sources();
  for (const k of names) out[k] = { form: forms![k], secrets: from };
  return out;
}

/** The key of the digests' HMAC: derived from pravo's key, outside the root. */
function digestKey(): Uint8Array {
  try {
    const key = loadKey({ create: false });
    if (digestKeyFor?.fingerprint !== key.fingerprint) {
      digestKeyFor = {
        fingerprint: key.fingerprint,
        bytes: createHash("sha256").update("pravo node digest v1\u0000").update(
          key.derive("state"),
        ).digest(),
      };
    }
    return digestKeyFor.bytes;
  } catch {
    // No key anywhere yet: nothing is sealed either, and the first apply makes one.
    return new Uint8Array(32);
  }
}

let digestKeyFor: { fingerprint: string; bytes: Uint8Array } | undefined;
