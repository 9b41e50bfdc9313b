/**
 * The human view of a plan: a diff in the manner of Terraform's, rendered
 * from the same document that `--json` prints.
 *
 * @module
 */

import type { Style } from "../cli/output.ts";
import type { planDocument } from "./document.ts";

type Doc = ReturnType<typeof planDocument>;
type NodeDoc = Doc["nodes"][number];

const SYMBOL: Record<string, string> = {
  create: "+",
  update: "~",
  replace: "-/+",
  delete: "-",
  read: "<=",
};

function value(v: unknown): string {
  if (v === "(sensitive)") return "(sensitive value)";
  return JSON.stringify(v);
}

function colorFor(style: Style, action: string): (s: string) => string {
  if (action === "create") return (s) => style.green(s);
  if (action === "delete") return (s) => style.red(s);
  if (action === "update") return (s) => style.yellow(s);
  if (action === "replace") return (s) => style.red(s);
  return (s) => style.cyan(s);
}

function heading(n: NodeDoc): string {
  switch (n.action) {
    case "create":
      return `# ${n.address} will be created`;
    case "update":
      return `# ${n.address} will be updated in place`;
    case "replace":
      return n.replace_because?.includes("requested")
        ? `# ${n.address} will be replaced, as requested`
        : `# ${n.address} must be replaced`;
    case "delete":
      return `# ${n.address} will be destroyed` +
        (n.delete_because === "not in the configuration"
          ? " (it is no longer in the configuration)"
          : "");
    case "read":
      return `# ${n.address} will be read during apply`;
    default:
      return `# ${n.address}`;
  }
}

function nodeBlock(n: NodeDoc, style: Style): string[] {
  const sym = SYMBOL[n.action] ?? " ";
  const c = colorFor(style, n.action);
  const before = (n.before ?? {}) as Record<string, unknown>;
  const after = (n.after ?? {}) as Record<string, unknown>;
  if (n.moved_from && n.action === "no-op") {
    // A move alone, as Terraform shows it: the object, its values unchanged.
    const hidden = Object.keys(before).filter((k) => k !== "id").length;
    return [
      `  ${style.bold(`# ${n.moved_from} has moved to ${n.address}`)}`,
      `    ${n.address}: ${n.type} {`,
      ...("id" in before ? [`        id = ${value(before.id)}`] : []),
      ...(hidden ? [style.dim(`        # (${hidden} unchanged attributes hidden)`)] : []),
      "    }",
    ];
  }
  const lines = [
    `  ${style.bold(heading(n))}`,
    ...(n.moved_from ? [`  ${style.bold(`# (moved from ${n.moved_from})`)}`] : []),
    `  ${c(sym)} ${n.address}: ${n.type} {`,
  ];
  const keys = new Set([...Object.keys(before), ...Object.keys(after), ...n.after_unknown]);
  // A create shows what is set and what apply will know, as Terraform's does.
  const names = [...keys].sort().filter((k) =>
    n.action !== "create" || after[k] !== null || n.after_unknown.includes(k)
  );
  // The rows first, then aligned on the names shown.
  const rows: { indent: string; mark: string; name: string; text: string }[] = [];
  for (const k of names) {
    const unknown = n.after_unknown.includes(k);
    const forces = n.replace_because?.includes(k) ? style.red(" # forces replacement") : "";
    if (n.action === "create") {
      rows.push({
        indent: "      ",
        mark: style.green("+") + " ",
        name: k,
        text: unknown ? "(known after apply)" : value(after[k]),
      });
    } else if (n.action === "delete") {
      if (before[k] !== undefined) {
        rows.push({
          indent: "      ",
          mark: style.red("-") + " ",
          name: k,
          text: value(before[k]),
        });
      }
    } else if (n.action === "read") {
      rows.push({
        indent: "        ",
        mark: "",
        name: k,
        text: unknown ? "(known after apply)" : value(after[k]),
      });
    } else {
      const b = before[k];
      const a = unknown ? undefined : after[k];
      if (!unknown && JSON.stringify(a) === JSON.stringify(b)) {
        // A sensitive value that changes looks the same redacted: say that it changes.
        if (n.changed.includes(k) && a === "(sensitive)") {
          rows.push({
            indent: "      ",
            mark: style.yellow("~") + " ",
            name: k,
            text: `(sensitive value)${forces}`,
          });
        }
        continue;
      }
      if (b === undefined) {
        rows.push({
          indent: "      ",
          mark: style.green("+") + " ",
          name: k,
          text: `${unknown ? "(known after apply)" : value(a)}${forces}`,
        });
      } else if (!unknown && a === undefined) {
        rows.push({
          indent: "      ",
          mark: style.red("-") + " ",
          name: k,
          text: `${value(b)}${forces}`,
        });
      } else {
        rows.push({
          indent: "      ",
          mark: style.yellow("~") + " ",
          name: k,
          text: `${value(b)} -> ${unknown ? "(known after apply)" : value(a)}${forces}`,
        });
      }
    }
  }
  const width = Math.max(0, ...rows.map((r) => r.name.length));
  for (const r of rows) lines.push(`${r.indent}${r.mark}${r.name.padEnd(width)} = ${r.text}`);
  lines.push("    }");
  return lines;
}

/** The human view of a plan document. */
export function renderPlan(doc: Doc, style: Style): string {
  const changes = doc.nodes.filter((n) =>
    ["create", "update", "replace", "delete"].includes(n.action) || n.moved_from
  );
  const reads = doc.nodes.filter((n) => n.action === "read" && n.after_unknown.length > 0);
  const out: string[] = [];
  if (changes.length === 0 && reads.length === 0) {
    out.push(
      style.bold(style.green("No changes.")) +
        (doc.destroy
          ? " No objects need to be destroyed: the state holds none."
          : " The state matches the configuration."),
    );
  } else {
    out.push("pravo will perform the following actions:", "");
    for (const n of [...reads, ...changes]) out.push(...nodeBlock(n, style), "");
    const s = doc.summary;
    const moves = doc.nodes.filter((n) => n.moved_from).length;
    out.push(
      style.bold("Plan:") +
        ` ${s.add} to add, ${s.change} to change, ${s.replace} to replace, ${s.destroy} to destroy` +
        (moves ? `, ${moves} to move.` : "."),
    );
  }
  const outs = Object.keys(doc.outputs).concat(doc.outputs_unknown).sort();
  if (outs.length) {
    out.push("", "Outputs:");
    for (const k of outs) {
      out.push(
        `  ${k} = ${
          doc.outputs_unknown.includes(k) ? "(known after apply)" : value(doc.outputs[k])
        }`,
      );
    }
  }
  return out.join("\n") + "\n";
}
