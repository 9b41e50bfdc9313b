/**
 * What depends on a secret, found by evaluating again with a stand-in for
 * each secret (secrets.ts) and comparing: a value that differs is
 * sensitive; structure that differs (a node, a field, an output there in
 * one and not in the other) would tell of the secret, and is refused.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { type Diagnostic, error } from "../../diag/diag.ts";
import { formatPath, locate, pathKey, type SourceIndex } from "../errors.ts";
import type { Value } from "../program.ts";
import { DEPENDS_ON, LIFECYCLE, NODE_MARKER, PROVIDER_MARKER } from "../provider_cue.ts";
import type { Result } from "../result.ts";
import { alternate, standIn } from "../secrets.ts";
import type { Evaluator } from "./evaluator.ts";
import { failsForSecret, failsForStandIn, incompleteOrError } from "./failures.ts";
import { type Found, structsOf } from "./find.ts";
import type { Traced } from "./trace.ts";
import { isObject, packageOf, type Tree } from "./values.ts";

/** What the evaluation with stand-ins gave, and what differs from the one it mirrors. */
export interface StoodIn {
  /** The evaluation with stand-ins: at plan time, the second stand-in of each secret. */
  stood?: Tree;
  dependence?: SecretDependence;
}

/**
 * Where a secret is in play (a secret among the known values, or a
 * sensitive value known only after apply), evaluates again with a stand-in
 * for each: what differs from the evaluation it mirrors (the traced one,
 * else `tree`) depends on a secret. At plan time the other is a second
 * stand-in of the secrets' types and formats, made as independently of them
 * as the first. A failure of that evaluation is a diagnostic that does not
 * tell which of the two failed.
 */
export async function compareStandIns(
  ev: Evaluator,
  evaluated: { tree: Tree; traced: Traced },
): Promise<Result<StoodIn>> {
  const { traced, standInHolders, unknownSecrets } = evaluated.traced;
  if (!ev.trace || !(ev.known.holdsSecrets || (traced && unknownSecrets.size))) {
    return { ok: true, value: {}, diagnostics: [] };
  }
  const res = await ev.run(
    [
      ...ev.known.declarations(ev.reveal ? standIn : alternate, !traced),
      ...(traced ? standInHolders : []),
    ],
    !traced,
  );
  if (!res.ok && !ev.reveal) {
    return { ok: false, diagnostics: [failsForStandIn(res.message, ev.index)] };
  }
  if (!res.ok) {
    // As when the real values fail: which of the two fails depends on the
    // secret, so the answer must not tell them apart.
    const n = await ev.neutralEvaluation();
    return {
      ok: false,
      diagnostics: [
        n.ok ? failsForSecret(res.message, ev.index) : incompleteOrError(n.message, ev.sources),
      ],
    };
  }
  const stood = packageOf(res.json) ?? {};
  const dependence = secretDependence(traced ?? evaluated.tree, stood, ev.index);
  return { ok: true, value: { stood, dependence }, diagnostics: [] };
}

/** What depends on a secret, found by comparing two evaluations. */
export interface SecretDependence {
  /** By node or provider address: the attributes whose values differ. */
  attributes: Map<string, Set<string>>;
  /** The outputs whose values differ. */
  outputs: Set<string>;
  /** Structure that differs: it cannot be hidden, so the plan is refused. */
  diagnostics: Diagnostic[];
}

/**
 * Compares the evaluation with the secrets (`base`) with the one with
 * stand-ins (`stood`). A value that differs is sensitive. A node, an
 * attribute, a lifecycle setting or an output that exists in one and not in
 * the other depends on a secret in a way that no redaction hides (its
 * presence tells something of the secret): that is a diagnostic.
 */
export function secretDependence(
  base: Record<string, Value>,
  stood: Record<string, Value>,
  index: SourceIndex,
): SecretDependence {
  const out: SecretDependence = { attributes: new Map(), outputs: new Set(), diagnostics: [] };
  const structure = (path: string[], what: string) => {
    out.diagnostics.push(
      error(
        `${what} depends on a sensitive value`,
        `${formatPath(path)} ${
          what.startsWith("Whether") ? "is there" : "differs"
        } for some values of a secret (a password, a sensitive file's content, or a value computed from one), so the plan would reveal part of the secret. Make it independent of sensitive values: decide it from a tag or a plain field instead.`,
        { address: formatPath(path), range: locate(index, path)?.pos },
      ),
    );
  };
  const fb = structsOf(base);
  const fs = structsOf(stood);
  const compare = (
    mine: Found["nodes"],
    theirs: Found["nodes"],
    marker: string,
    kind: string,
  ) => {
    const other = new Map(theirs.map((n) => [pathKey(n.path), n]));
    for (const n of mine) {
      const key = pathKey(n.path);
      const m = other.get(key);
      other.delete(key);
      if (!m || !isDeepStrictEqual(m.value[marker], n.value[marker])) {
        structure(n.path, `Whether the ${kind} ${formatPath(n.path)} exists`);
        continue;
      }
      const differing = new Set<string>();
      for (const k of new Set([...Object.keys(n.value), ...Object.keys(m.value)])) {
        if (k === marker || isDeepStrictEqual(n.value[k], m.value[k])) continue;
        if (!(k in n.value) || !(k in m.value)) {
          structure([...n.path, k], `Whether ${formatPath([...n.path, k])} is set`);
        } else if (k === DEPENDS_ON) {
          // Copies of the nodes named, secrets included: only its references count.
          continue;
        } else if (k === LIFECYCLE) {
          structure([...n.path, k], `The lifecycle of ${formatPath(n.path)}`);
        } else differing.add(k);
      }
      if (differing.size) out.attributes.set(formatPath(n.path), differing);
    }
    for (const m of other.values()) {
      structure(m.path, `Whether the ${kind} ${formatPath(m.path)} exists`);
    }
  };
  compare(fb.nodes, fs.nodes, NODE_MARKER, "node");
  compare(fb.providers, fs.providers, PROVIDER_MARKER, "provider");
  const ob = isObject(base.outputs) ? base.outputs : {};
  const os = isObject(stood.outputs) ? stood.outputs : {};
  for (const k of new Set([...Object.keys(ob), ...Object.keys(os)])) {
    if (!(k in ob) || !(k in os)) structure(["outputs", k], `Whether the output ${k} exists`);
    else if (!isDeepStrictEqual(ob[k], os[k])) out.outputs.add(k);
  }
  return out;
}
