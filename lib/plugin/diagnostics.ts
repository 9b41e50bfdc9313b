/**
 * Provider diagnostics as pravo diagnostics, and diagnostics for what went
 * wrong on the way (a call that failed, a value that did not fit).
 *
 * A provider's diagnostic keeps its severity (INVALID counts as an error),
 * summary and detail as the provider wrote them, and its attribute path as
 * `attribute` steps (`{name}`, `{key}`, `{index}`), so that the engine can
 * point at the CUE declaration of that attribute.
 *
 * @module
 */

import { type AttributeStep, type Diagnostic, error, warning } from "../diag/diag.ts";
import { CallError, STATUS } from "./grpc.ts";
import type { PluginProcess } from "./process.ts";
import type { Message } from "./proto/load.ts";
import { toNumber } from "./schema.ts";
import { formatPath, ValueError } from "./value.ts";

function has(m: Message, field: string): boolean {
  return m != null && Object.prototype.hasOwnProperty.call(m, field);
}

/** An `AttributePath` message as steps. */
export function pathFrom(p: Message): AttributeStep[] {
  const steps: AttributeStep[] = [];
  for (const s of p?.steps ?? []) {
    if (has(s, "attribute_name")) steps.push({ name: s.attribute_name });
    else if (has(s, "element_key_string")) steps.push({ key: s.element_key_string });
    else if (has(s, "element_key_int")) steps.push({ index: toNumber(s.element_key_int) });
  }
  return steps;
}

/** Steps as an `AttributePath` message. */
export function pathTo(steps: readonly AttributeStep[]): Message {
  return {
    steps: steps.map((s) =>
      "name" in s
        ? { attribute_name: s.name }
        : "key" in s
        ? { element_key_string: s.key }
        : { element_key_int: s.index }
    ),
  };
}

/** A provider's diagnostics as pravo's. */
export function diagnosticsFrom(list: Message[] | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of list ?? []) {
    const attribute = d.attribute ? pathFrom(d.attribute) : [];
    const where = attribute.length ? { attribute } : {};
    const make = d.severity === 2 || d.severity === "WARNING" ? warning : error;
    out.push(make(String(d.summary ?? ""), String(d.detail ?? ""), where));
  }
  return out;
}

/** A pravo diagnostic as a protocol `Diagnostic` message (the fake provider in the tests). */
export function diagnosticTo(d: Diagnostic): Message {
  const m: Message = {
    severity: d.severity === "warning" ? 2 : 1,
    summary: d.summary,
    detail: d.detail,
  };
  if (d.attribute?.length) m.attribute = pathTo(d.attribute);
  return m;
}

/** What the methods say in messages: `PlanResourceChange`. */
export type CallName = string;

/**
 * A call that got no answer: the process died, the call was cancelled, the
 * provider does not implement it, or the transport failed.
 */
export function callFailed(proc: PluginProcess, call: CallName, e: unknown): Diagnostic {
  const who = `the provider "${proc.name}"`;
  if (e instanceof ValueError) return valueRejected(proc, call, e);
  if (!(e instanceof CallError)) {
    return error(
      `The call ${call} to ${who} failed`,
      `${(e as Error)?.message ?? String(e)}. This is a bug in pravo: please report it.`,
    );
  }
  const exit = proc.exitSentence();
  if (e.code === STATUS.CANCELLED && !exit) {
    return error(
      `The call ${call} to ${who} was cancelled`,
      "pravo stopped waiting for it. Run the command again.",
    );
  }
  if (e.code === STATUS.UNIMPLEMENTED) {
    return error(
      `The provider "${proc.name}" does not support ${call}`,
      `It answered: ${e.details}. Use a version of the provider that supports it.`,
    );
  }
  if (exit || e.code === STATUS.UNAVAILABLE) {
    const report = proc.outputReport();
    return error(
      `The provider "${proc.name}" stopped during ${call}`,
      `${exit || `The connection to it broke (${e.details}).`}${
        report ? ` Its last output:\n${indent(report)}\n` : " "
      }The change it was making may be half done: run the command again, and if the provider fails the same way, report it to its authors with this output.`,
    );
  }
  return error(
    `The call ${call} to ${who} failed`,
    `${
      STATUS[e.code] ?? e.code
    }: ${e.details}. Run the command again; if it fails the same way, report it to the provider's authors.`,
  );
}

/** pravo's value did not fit the provider's schema. */
export function valueRejected(proc: PluginProcess, call: CallName, e: ValueError): Diagnostic {
  return error(
    `pravo could not send ${call} to the provider "${proc.name}"`,
    `A value does not fit the provider's schema at ${formatPath(e.path) || "the top"}: ${
      e.message.replace(/^[^:]*: /, "")
    }. Check the configuration of that attribute against \`pravo schema\`.`,
    e.path.length ? { attribute: e.path } : {},
  );
}

/** The provider's answer did not fit its own schema. */
export function answerMalformed(proc: PluginProcess, call: CallName, e: unknown): Diagnostic {
  const msg = e instanceof ValueError ? e.message : String((e as Error)?.message ?? e);
  return error(
    `The provider "${proc.name}" answered ${call} with a malformed value`,
    `${msg}. Report this to the provider's authors.`,
  );
}

function indent(s: string): string {
  return s.split("\n").map((l) => `  ${l}`).join("\n");
}
