/**
 * `pravo output [NAME]`: the root's outputs, evaluated from the
 * configuration with the values known from the state unified in (the
 * computed attributes of the records, as the planner does), so that
 * `outputs: {x: base.result}` shows the applied value. An output that
 * depends on a value not applied yet is reported as unknown; one that holds
 * a sensitive value is redacted.
 *
 * `output NAME` prints the value alone for scripts: a string without quotes,
 * any other value as JSON.
 *
 * @module
 */

import { visibleOnTerminal } from "../diag/visible.ts";
import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { stableJson } from "../json.ts";
import { DiagnosticsError, didYouMean, error } from "../diag/diag.ts";
import { evaluateRoot, readRoot, type Sources, type Spec } from "../cue/loader.ts";
import { standInTags, tagFlags } from "../cue/missing_tags.ts";
import { isDeepStrictEqual } from "node:util";
import { UNKNOWN, type Value } from "../cue/program.ts";
import { knownValuesOf } from "../plan/known.ts";
import { openStore } from "../state/open.ts";
import type { StateRecord } from "../state/store.ts";
import { showSensitive, STATE_FORMAT_VERSION } from "../state/view.ts";
import { type OutputDoc, renderOutputs } from "../render/output.ts";
import { REDACTED, redactOutputs, sensitivePathsOf, sensitiveStrings } from "../secrets/paths.ts";
import type { AttrPath } from "../cue/secrets.ts";

function hasUnknown(v: Value): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(hasUnknown);
  if (v !== null && typeof v === "object") return Object.values(v).some(hasUnknown);
  return false;
}

/** Evaluates the root with the state's values; as the planner, drops values of nodes gone. */
async function evaluateWithState(
  sources: { value: Sources },
  tags: Record<string, string>,
  records: StateRecord[],
  reveal = false,
): Promise<Spec> {
  const known = new Map<string, Record<string, unknown>>();
  const secrets = new Map<string, AttrPath[]>();
  for (const rec of records) {
    if (rec.mode !== "managed" && rec.mode !== "data") continue;
    // The values of a record that the configuration cannot say itself (lib/plan/known.ts).
    const computed = knownValuesOf(rec, sources.value.registry);
    known.set(rec.address, computed);
    secrets.set(
      rec.address,
      sensitivePathsOf(rec, sources.value.registry.findType).filter((p) =>
        String(p[0]) in computed
      ),
    );
  }
  const knownKinds = new Map(records.map((r) => [r.address, r]));
  // The secrets' values enter only for an operator who asked to see them
  // (--show-sensitive, on a terminal); otherwise they are unknown, as at plan time.
  let res = await evaluateRoot(sources.value, { tags, known, secrets, knownKinds, reveal });
  if (!res.ok && known.size) {
    const bare = await evaluateRoot(sources.value, { tags });
    if (!bare.ok) throw new DiagnosticsError(bare.diagnostics, "invalid");
    const declared = new Set(bare.value.nodes.map((n) => n.address));
    res = await evaluateRoot(sources.value, {
      tags,
      known: new Map([...known].filter(([a]) => declared.has(a))),
      secrets,
      knownKinds,
      reveal,
    });
    if (!res.ok) res = bare; // values that no longer fit: show what the configuration knows
  }
  if (!res.ok) throw new DiagnosticsError(res.diagnostics, "invalid");
  return res.value;
}

/**
 * The outputs after an apply, as `pravo output` shows them: evaluated from
 * the given sources with the state's values, sensitive ones redacted; those
 * not known (a node not applied) are left out.
 */
export async function appliedOutputs(
  sources: Sources,
  tags: Record<string, string>,
  records: StateRecord[],
): Promise<Record<string, unknown>> {
  const spec = await evaluateWithState({ value: sources }, tags, records);
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(spec.outputs)) if (!hasUnknown(v)) values[k] = v;
  const redacted = redactOutputs(values, sensitiveStrings(records, sources.registry.findType));
  for (const k of spec.outputsSensitive) if (k in redacted) redacted[k] = REDACTED;
  return redacted;
}

export const run: CommandRun = async (ctx, opts, args) => {
  const name = args[0] as string | undefined;
  const reveal = showSensitive(opts["show-sensitive"], ctx.streams.isTerminal);
  const store = await openStore(ctx, { readOnly: true });
  let records: StateRecord[];
  try {
    records = await store.listRecords();
  } finally {
    await store.close();
  }
  const sources = readRoot(ctx.root, ctx.workspace);
  if (!sources.ok) throw new DiagnosticsError(sources.diagnostics, "invalid");
  // Tags left out are needed only by the outputs that depend on them.
  let spec: Spec;
  const needsTags = new Set<string>();
  let missing: string[] = [];
  try {
    spec = await evaluateWithState(sources, ctx.tags, records, reveal);
  } catch (e) {
    const stand = standInTags(sources.value, ctx.tags);
    if (!(e instanceof DiagnosticsError) || stand.missing.length === 0) throw e;
    let b: Spec;
    try {
      spec = await evaluateWithState(sources, stand.a, records, reveal);
      b = await evaluateWithState(sources, stand.b, records, reveal);
    } catch {
      throw e; // the stand-ins do not fit: the tags are needed after all
    }
    missing = stand.missing;
    for (const k of Object.keys(spec.outputs)) {
      if (!isDeepStrictEqual(spec.outputs[k], b.outputs[k])) needsTags.add(k);
    }
  }

  const values: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [k, v] of Object.entries(spec.outputs)) {
    if (needsTags.has(k)) continue;
    if (hasUnknown(v)) unknown.push(k);
    else values[k] = v;
  }
  const redacted = redactOutputs(
    values,
    sensitiveStrings(records, sources.value.registry.findType),
  );
  // Outputs computed from a secret, however (see lib/cue/secrets.ts).
  for (const k of spec.outputsSensitive) if (k in redacted) redacted[k] = REDACTED;
  const sensitive = Object.keys(values).filter((k) =>
    redacted[k] === REDACTED && values[k] !== REDACTED
  ).sort();
  const shown = reveal ? values : redacted;
  const all = [...Object.keys(values), ...unknown, ...needsTags].sort();

  if (name !== undefined && !all.includes(name)) {
    const hint = didYouMean(name, all);
    throw new DiagnosticsError([
      error(
        `No output named "${name}"`,
        all.length === 0
          ? `The root declares no outputs. Declare them in a top-level struct: outputs: {${name}: base.result}.`
          : `The root's outputs are ${all.join(", ")}${hint ? `; ${hint}` : "."}` +
            " Give one of those names, or run `pravo output` to list them.",
      ),
    ], "error");
  }
  const pick = (k: string) => name === undefined || k === name;
  const doc: OutputDoc = {
    format_version: STATE_FORMAT_VERSION,
    outputs: Object.fromEntries(Object.entries(shown).filter(([k]) => pick(k))),
    unknown: unknown.filter(pick).sort(),
    sensitive: sensitive.filter(pick),
    ...(needsTags.size
      ? { needs_tags: { outputs: [...needsTags].filter(pick).sort(), tags: missing } }
      : {}),
  };

  if (name !== undefined && !ctx.json) {
    if (needsTags.has(name)) {
      throw new DiagnosticsError([
        error(
          `Output "${name}" needs a tag`,
          `The value of "${name}" depends on a tag that was not given (${missing.join(", ")}). ` +
            `Pass ${tagFlags(missing)}.`,
        ),
      ], "invalid");
    }
    if (unknown.includes(name)) {
      throw new DiagnosticsError([
        error(
          `Output "${name}" is not known yet`,
          `The value of "${name}" depends on values that are known only after apply. ` +
            "Run `pravo plan --out x.plan` and `pravo apply x.plan`, then ask again.",
        ),
      ], "error");
    }
    const v = doc.outputs[name];
    if (v === REDACTED && !reveal) {
      throw new DiagnosticsError([
        error(
          `Output "${name}" is sensitive`,
          `The value of "${name}" holds a sensitive value, which pravo does not print. ` +
            "Run `pravo output " + name + " --show-sensitive` in a terminal to see it.",
        ),
      ], "error");
    }
    // A script reads the value as it is; a terminal shows what it holds.
    const text = (typeof v === "string" ? v : stableJson(v)) + "\n";
    if (ctx.streams.isTerminal || !ctx.streams.raw) ctx.streams.stdout(visibleOnTerminal(text));
    else ctx.streams.raw(text);
    return Exit.OK;
  }

  emit(ctx, doc, () => renderOutputs(doc, ctx.style));
  return Exit.OK;
};
