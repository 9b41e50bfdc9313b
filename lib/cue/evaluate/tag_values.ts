/**
 * The `-t NAME=VALUE` values of a command, as CUE declarations of the
 * fields that declare the tags: each checked against the tags the root
 * declares and their types.
 *
 * @module
 */

import { type Diagnostic, didYouMean, error } from "../../diag/diag.ts";
import type { Result } from "../result.ts";
import type { Sources } from "../sources/sources.ts";
import { nested } from "./values.ts";

/** Turns the `-t` values into CUE declarations; wrong names or types are diagnostics. */
export function tagDeclarations(sources: Sources, given: Record<string, string>): Result<string[]> {
  const diags: Diagnostic[] = [];
  const out: string[] = [];
  const declared = new Set(sources.tags.map((t) => t.name));
  for (const [name, raw] of Object.entries(given)) {
    if (!declared.has(name)) {
      const hint = didYouMean(name, declared);
      diags.push(
        error(
          `No field declares the tag "${name}"`,
          `-t ${name}=${raw} names a tag that no field declares with @tag(${name})${
            hint ? ` (${hint})` : ""
          }. ${
            declared.size
              ? `The tags declared are: ${[...declared].sort().join(", ")}.`
              : "The root declares no tags."
          } Correct the name, or add @tag(${name}) to the field it should fill.`,
        ),
      );
      continue;
    }
    for (const t of sources.tags.filter((t) => t.name === name)) {
      let lit: string | undefined;
      if (t.type === "string") lit = JSON.stringify(raw);
      else if (t.type === "int" && /^[+-]?\d+$/.test(raw)) lit = String(BigInt(raw));
      else if (t.type === "number" && raw.trim() !== "" && Number.isFinite(Number(raw))) {
        lit = String(Number(raw));
      } else if (t.type === "bool" && (raw === "true" || raw === "false")) lit = raw;
      if (lit === undefined) {
        diags.push(
          error(
            `Tag "${name}" needs a value of type ${t.type}`,
            `-t ${name}=${raw} gives "${raw}", which is not ${
              t.type === "int" ? "an int" : `a ${t.type}`
            }. Pass a value such as ${
              { int: "3", number: "1.5", bool: "true", string: "x" }[t.type]
            }.`,
            { range: t.pos },
          ),
        );
        continue;
      }
      out.push(nested(t.path, lit));
    }
  }
  return diags.length
    ? { ok: false, diagnostics: diags }
    : { ok: true, value: out, diagnostics: [] };
}
