/**
 * The human view of `pravo import ADDR ID --generate-config FILE.cue`,
 * drawn from the document that `--json` prints: the file written and what
 * was left out of it, then the import, or why it was not done and what to
 * do.
 *
 * @module
 */

import type { Style } from "../diag/style.ts";
import { renderDiagnostics } from "./diagnostics.ts";
import { pravoCommand } from "../diag/hint.ts";
import type { Diagnostic } from "../diag/diag.ts";

/** Why top-level attributes were left out, as the document lists them. */
export interface LeftOutDoc {
  computed: string[];
  default: string[];
  deprecated: string[];
  /** Optional and computed, and computed by the provider from the rest the same. */
  derived: string[];
  id: string[];
  unset: string[];
}

/** The document of `pravo import --generate-config --json`. */
export interface GeneratedDoc {
  format_version: string;
  generated: {
    /** The file written, relative to the root. */
    file: string;
    address: string;
    type: string;
    provider: string;
    provider_instance: string;
    /** The top-level attributes written. */
    attributes: string[];
    left_out: LeftOutDoc;
    /** The placeholders for secrets, to fill in (paths). */
    secrets: string[];
    /** What the provider would still change as written (none: the next plan is a no-op). */
    changes: string[];
  };
  /** The import, or null when it was not done. */
  imported: { address: string; mode: string; type: string; provider: string; id: string } | null;
  actor: string;
  reason: string;
  /** The serial the state reached, or null when nothing was imported. */
  serial: number | null;
  diagnostics: Diagnostic[];
}

/** What the view needs besides the document. */
export interface GeneratedView {
  /** `-C`/`--state` as given, for the commands the view names. */
  place: readonly string[];
  /** The ID as the next command takes it, or "ID" when it is a secret. */
  idWord: string;
  /** The ID as printed: quoted, or `(sensitive value)`. */
  idShown: string;
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function listed(names: readonly string[]): string {
  return names.length ? ` (${names.join(", ")})` : "";
}

/** The lines about the file: what it declares and what was left out. */
function fileLines(doc: GeneratedDoc, style: Style): string[] {
  const g = doc.generated;
  const a = /^[aeiou]/i.test(g.type) ? "an" : "a";
  const lead =
    `Wrote ${g.file}: ${g.address}, ${a} ${g.type} on ${g.provider_instance} (${g.provider}), ` +
    `with ${count(g.attributes.length, "attribute")} as the provider read ${
      g.attributes.length === 1 ? "it" : "them"
    }${g.attributes.length ? `: ${g.attributes.join(", ")}` : ""}.`;
  const l = g.left_out;
  const parts = [
    l.computed.length ? `${l.computed.length} computed by the provider` : "",
    l.id.length ? "the id" : "",
    l.unset.length ? `${l.unset.length} unset or empty` : "",
    l.derived.length
      ? `${l.derived.length} the provider computes the same${listed(l.derived)}`
      : "",
    l.default.length ? `${l.default.length} at the provider's default${listed(l.default)}` : "",
    l.deprecated.length ? `${l.deprecated.length} deprecated${listed(l.deprecated)}` : "",
  ].filter(Boolean);
  const lines = [style.bold(lead)];
  if (parts.length) lines.push(`Left out: ${parts.join("; ")}.`);
  return lines;
}

/** The view of the document. */
export function renderGenerated(doc: GeneratedDoc, style: Style, view: GeneratedView): string {
  const g = doc.generated;
  const out = fileLines(doc, style);
  const next = pravoCommand(view.place, "import", g.address, view.idWord);
  const errors = doc.diagnostics.filter((d) => d.severity === "error");
  if (doc.imported === null) {
    out.push("");
    if (errors.length) {
      out.push(renderDiagnostics(errors, style).trimEnd(), "");
      out.push(
        style.yellow("Not imported:") +
          ` the ${g.provider} provider refuses ${g.file} as written (above). Correct it, ` +
          `then run \`${next}\`.`,
      );
    } else {
      out.push(
        style.yellow("Not imported:") +
          ` ${g.file} has ${count(g.secrets.length, "secret")} to fill in${listed(g.secrets)}: ` +
          "pravo writes none into a file. Give each its value (a @tag field, or a reference " +
          `to where it is kept), then run \`${next}\`.`,
      );
    }
    return out.join("\n");
  }
  out.push(
    "",
    `${doc.imported.address}: imported ${doc.imported.type} from ID ${view.idShown}.`,
    "",
    style.bold(style.green("Import successful!")) +
      ` ${doc.imported.address} is in the state and managed by pravo from now on; recorded in ` +
      `the log (serial ${doc.serial}) as done by ${JSON.stringify(doc.actor)}` +
      (doc.reason ? `: ${doc.reason}.` : "."),
  );
  const plan = pravoCommand(view.place, "plan");
  out.push(
    g.changes.length
      ? `Run \`${plan}\`: it will change ${g.changes.join(", ")} (see the warning).`
      : `Run \`${plan}\`: it has nothing to do for ${doc.imported.address}.`,
  );
  return out.join("\n");
}
