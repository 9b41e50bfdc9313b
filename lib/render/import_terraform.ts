/**
 * The human view of `pravo import --from terraform FILE.tfstate`, drawn
 * from the document that `--json` prints: each object taken over (and the
 * Terraform address it came from where pravo's differs), each skipped and
 * why, what the root declares that the state did not hold, and who did it.
 *
 * @module
 */

import type { Style } from "../diag/style.ts";
import type { TfImported } from "../terraform/tfstate_import.ts";
import type { Skipped } from "../terraform/tfstate_check.ts";

/** The document that `pravo import --from terraform --json` prints. */
export interface TfImportDoc {
  format_version: string;
  from: "terraform";
  /** The state file: as given, which Terraform wrote it, its lineage and serial, its outputs' names. */
  terraform: {
    file: string;
    terraform_version: string;
    lineage: string;
    serial: number;
    outputs: string[];
  };
  /** Terraform's outputs recorded as the last apply's: those the root declares too. */
  outputs: string[];
  imported: TfImported[];
  skipped: Skipped[];
  not_in_state: string[];
  actor: string;
  reason: string;
  /** pravo's serial after the import. */
  serial: number;
  diagnostics: unknown[];
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The human view. */
export function renderTfImport(doc: TfImportDoc, style: Style): string {
  const tf = doc.terraform;
  const lines = [
    `${tf.file}: a state of Terraform ${tf.terraform_version}, lineage ${tf.lineage}, serial ` +
    `${tf.serial}.`,
    "",
  ];
  const width = Math.max(0, ...doc.imported.map((i) => i.address.length));
  for (const i of doc.imported) {
    const notes = [
      ...(i.terraform_address !== i.address ? [`from ${i.terraform_address}`] : []),
      ...(i.schema_version.to !== null && i.schema_version.to !== i.schema_version.from
        ? [`schema version ${i.schema_version.from} upgraded to ${i.schema_version.to}`]
        : []),
      ...(i.sensitive.length ? [`sealed: ${i.sensitive.join(", ")}`] : []),
    ];
    lines.push(
      `  ${style.green("<=")} ${i.address.padEnd(width)}  ${i.type}` +
        (notes.length ? style.dim(`  (${notes.join("; ")})`) : ""),
    );
  }
  for (const s of doc.skipped) {
    lines.push(`  ${style.dim("--")} ${s.terraform_address}: skipped, ${s.why}`);
  }
  if (doc.imported.length + doc.skipped.length === 0) lines.push("  (the state holds no objects)");
  lines.push("");
  const left = tf.outputs.filter((o) => !doc.outputs.includes(o));
  if (doc.outputs.length) {
    lines.push(
      `Recorded as the last apply's outputs: ${doc.outputs.join(", ")} (the next plan shows ` +
        "those the root computes otherwise).",
    );
  }
  if (left.length) {
    lines.push(
      `Not recorded: Terraform's ${plural(left.length, "output")} ${left.join(", ")}, which ` +
        "the root does not declare.",
    );
  }
  if (doc.not_in_state.length) {
    lines.push(
      `The root declares ${plural(doc.not_in_state.length, "resource")} that the state did ` +
        `not hold (the next plan creates ${doc.not_in_state.length === 1 ? "it" : "them"}): ` +
        `${doc.not_in_state.join(", ")}.`,
    );
  }
  if (tf.outputs.length || doc.not_in_state.length) lines.push("");
  const who = `as done by ${JSON.stringify(doc.actor)}` + (doc.reason ? `: ${doc.reason}.` : ".");
  if (doc.imported.length === 0) {
    lines.push(`Nothing to import: no object of ${tf.file} is a resource's. Nothing was written.`);
    return lines.join("\n");
  }
  lines.push(
    style.bold(style.green("Import successful!")) +
      ` ${plural(doc.imported.length, "object")} of Terraform's state ` +
      `${doc.imported.length === 1 ? "is" : "are"} in pravo's state and managed by pravo from ` +
      `now on; recorded in the log as one entry (serial ${doc.serial}) ${who}`,
    "Run `pravo plan --refresh all` to compare them with the configuration and the real world.",
  );
  return lines.join("\n");
}
