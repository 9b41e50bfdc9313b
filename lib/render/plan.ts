/**
 * The human view of a plan: a diff in the manner of Terraform's, rendered
 * from the same document that `--json` prints.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import type { Style } from "../diag/style.ts";
import type { planDocument } from "../plan/document.ts";

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

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A string that holds a JSON object, parsed; undefined for any other value. */
function jsonObject(v: unknown): Record<string, unknown> | undefined {
  if (typeof v !== "string" || !/^\s*\{/.test(v)) return undefined;
  try {
    const o = JSON.parse(v);
    return isMap(o) ? o : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The lines of a map, an object or a JSON document that changes, key by key
 * as Terraform shows them: the keys that change, and how many did not.
 * `quote` writes the keys as strings (a map's), not as names (an object's).
 */
function keyRows(
  b: Record<string, unknown>,
  a: Record<string, unknown>,
  indent: string,
  style: Style,
  quote: boolean,
): string[] {
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
  const label = (k: string) => (quote ? JSON.stringify(k) : k);
  const changed = keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  const width = Math.max(0, ...changed.map((k) => label(k).length));
  const out: string[] = [];
  for (const k of changed) {
    const name = label(k).padEnd(width);
    if (!(k in b)) out.push(`${indent}${style.green("+")} ${name} = ${value(a[k])}`);
    else if (!(k in a)) out.push(`${indent}${style.red("-")} ${name} = ${value(b[k])} -> null`);
    else if (isMap(b[k]) && isMap(a[k])) {
      // Nested: the keys that change, a level deeper, as Terraform shows them.
      out.push(`${indent}${style.yellow("~")} ${name} = {`);
      out.push(...keyRows(b[k], a[k], indent + "    ", style, quote), `${indent}  }`);
    } else if (Array.isArray(b[k]) && Array.isArray(a[k])) {
      out.push(`${indent}${style.yellow("~")} ${name} = [`);
      out.push(...listRows(b[k], a[k], indent + "    ", style, quote), `${indent}  ]`);
    } else out.push(`${indent}${style.yellow("~")} ${name} = ${value(b[k])} -> ${value(a[k])}`);
  }
  const hidden = keys.length - changed.length;
  if (hidden) {
    const what = quote ? "element" : "attribute";
    out.push(
      style.dim(`${indent}  # (${hidden} unchanged ${what}${hidden === 1 ? "" : "s"} hidden)`),
    );
  }
  return out;
}

/**
 * The elements of a list that change: of the same length, each element
 * that changes (an object's keys, a level deeper); else what is taken out
 * and what is put in between the elements kept at both ends.
 */
function listRows(
  b: unknown[],
  a: unknown[],
  indent: string,
  style: Style,
  quote: boolean,
): string[] {
  const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
  const out: string[] = [];
  let hidden = 0;
  if (b.length === a.length) {
    b.forEach((x, i) => {
      const y = a[i];
      if (same(x, y)) hidden++;
      else if (isMap(x) && isMap(y)) {
        out.push(`${indent}${style.yellow("~")} {`);
        out.push(...keyRows(x, y, indent + "    ", style, quote), `${indent}  },`);
      } else if (Array.isArray(x) && Array.isArray(y)) {
        out.push(`${indent}${style.yellow("~")} [`);
        out.push(...listRows(x, y, indent + "    ", style, quote), `${indent}  ],`);
      } else {
        out.push(
          `${indent}${style.red("-")} ${value(x)},`,
          `${indent}${style.green("+")} ${value(y)},`,
        );
      }
    });
  } else {
    let head = 0;
    while (head < b.length && head < a.length && same(b[head], a[head])) head++;
    let tail = 0;
    while (
      tail < b.length - head && tail < a.length - head &&
      same(b[b.length - 1 - tail], a[a.length - 1 - tail])
    ) tail++;
    hidden = head + tail;
    for (const x of b.slice(head, b.length - tail)) {
      out.push(`${indent}${style.red("-")} ${value(x)},`);
    }
    for (const y of a.slice(head, a.length - tail)) {
      out.push(`${indent}${style.green("+")} ${value(y)},`);
    }
  }
  if (hidden) {
    out.push(
      style.dim(`${indent}  # (${hidden} unchanged element${hidden === 1 ? "" : "s"} hidden)`),
    );
  }
  return out;
}

/** A value to show on lines of its own: an object, or a list that holds one. */
function isStructured(v: unknown): boolean {
  if (isMap(v)) return Object.keys(v).length > 0;
  return Array.isArray(v) && v.some((e) => isMap(e) || Array.isArray(e));
}

/**
 * The lines of a structured value that a create or a read shows, one leaf a
 * line as Terraform shows a new object's blocks: `unknown` holds the paths
 * known only after apply (`grant[0].grantee[0].display_name`), said at
 * their place; unset (null) values are left out, as for the top-level
 * attributes.
 */
function treeLines(
  v: unknown,
  path: string,
  unknown: ReadonlySet<string>,
  indent: string,
  mark: string,
): string[] {
  const show = (x: unknown, p: string): string => unknown.has(p) ? "(known after apply)" : value(x);
  const out: string[] = [];
  if (Array.isArray(v)) {
    v.forEach((e, i) => {
      const p = `${path}[${i}]`;
      if (!unknown.has(p) && (isStructured(e) || hasUnknownUnder(p, unknown))) {
        const [open, close] = Array.isArray(e) ? ["[", "]"] : ["{", "}"];
        out.push(`${indent}${mark}${open}`, ...treeLines(e, p, unknown, indent + "    ", mark));
        out.push(`${indent}  ${close},`);
      } else out.push(`${indent}${mark}${show(e, p)},`);
    });
    return out;
  }
  const obj = isMap(v) ? v : {};
  const names = new Set(Object.keys(obj).filter((k) => obj[k] !== null));
  for (const u of unknown) {
    if (!u.startsWith(path + ".")) continue;
    names.add(/^[^.[]+/.exec(u.slice(path.length + 1))![0]);
  }
  const keys = [...names].sort();
  const width = Math.max(0, ...keys.map((k) => k.length));
  for (const k of keys) {
    const p = `${path}.${k}`;
    const x = obj[k];
    if (!unknown.has(p) && (isStructured(x) || hasUnknownUnder(p, unknown))) {
      const [open, close] = Array.isArray(x) ? ["[", "]"] : ["{", "}"];
      out.push(`${indent}${mark}${k.padEnd(width)} = ${open}`);
      out.push(...treeLines(x, p, unknown, indent + "    ", mark));
      out.push(`${indent}  ${close}`);
    } else out.push(`${indent}${mark}${k.padEnd(width)} = ${show(x, p)}`);
  }
  return out;
}

/** Whether a path known only after apply lies under `path`. */
function hasUnknownUnder(path: string, unknown: ReadonlySet<string>): boolean {
  for (const u of unknown) if (u.startsWith(path + ".") || u.startsWith(path + "[")) return true;
  return false;
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

/** A row of the diff of one attribute's change, or none when it does not change. */
type Row = { indent: string; mark: string; name: string; text: string; more?: string[] };

function changeRow(
  n: NodeDoc,
  k: string,
  b: unknown,
  a: unknown,
  unknown: boolean,
  forces: string,
  style: Style,
): Row | undefined {
  // Strings that hold JSON objects (a policy), parsed once.
  const jb = jsonObject(b), ja = unknown ? undefined : jsonObject(a);
  if (!unknown && JSON.stringify(a) === JSON.stringify(b)) {
    // A sensitive value that changes looks the same redacted: say that it changes.
    if (n.changed.includes(k) && a === "(sensitive)") {
      return {
        indent: "      ",
        mark: style.yellow("~") + " ",
        name: k,
        text: `(sensitive value)${forces}`,
      };
    }
    return undefined;
  }
  if (b === undefined) {
    return {
      indent: "      ",
      mark: style.green("+") + " ",
      name: k,
      text: `${unknown ? "(known after apply)" : value(a)}${forces}`,
    };
  } else if (!unknown && a === undefined) {
    return {
      indent: "      ",
      mark: style.red("-") + " ",
      name: k,
      text: `${value(b)}${forces}`,
    };
  } else if (!unknown && isMap(b) && isMap(a)) {
    // A map or an object: the keys that change.
    return {
      indent: "      ",
      mark: style.yellow("~") + " ",
      name: k,
      text: `{${forces}`,
      more: [...keyRows(b, a, "          ", style, true), "        }"],
    };
  } else if (jb && ja && isDeepStrictEqual(jb, ja)) {
    // The same JSON with other whitespace or key order: no change to show.
    return undefined;
  } else if (jb && ja) {
    // A JSON document (a policy): the keys that change, as JSON.
    return {
      indent: "      ",
      mark: style.yellow("~") + " ",
      name: k,
      text: `jsonencode(${forces}`,
      more: [
        ...keyRows(jb, ja, "          ", style, false),
        "        )",
      ],
    };
  } else {
    return {
      indent: "      ",
      mark: style.yellow("~") + " ",
      name: k,
      text: `${value(b)} -> ${unknown ? "(known after apply)" : value(a)}${forces}`,
    };
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
  // Paths known only after apply inside a value (`grant[0].id`) are said
  // at their place in it, for a create and a read; elsewhere they are rows.
  const nested = n.action === "create" || n.action === "read";
  const unknownSet = new Set(n.after_unknown);
  const topUnknown = nested
    ? n.after_unknown.filter((u) => !/[.[]/.test(u) || !(/^[^.[]+/.exec(u)![0] in after))
    : n.after_unknown;
  const keys = new Set([...Object.keys(before), ...Object.keys(after), ...topUnknown]);
  // A create shows what is set and what apply will know, as Terraform's does.
  const names = [...keys].sort().filter((k) =>
    n.action !== "create" || after[k] !== null || n.after_unknown.includes(k)
  );
  // The rows first, then aligned on the names shown.
  const rows: Row[] = [];
  for (const k of names) {
    const unknown = n.after_unknown.includes(k);
    const forces = n.replace_because?.includes(k) ? style.red(" # forces replacement") : "";
    const tree = nested && !unknown && (isStructured(after[k]) || hasUnknownUnder(k, unknownSet));
    if (n.action === "create") {
      const mark = style.green("+") + " ";
      const open = Array.isArray(after[k]) ? "[" : "{";
      rows.push({
        indent: "      ",
        mark,
        name: k,
        text: unknown ? "(known after apply)" : tree ? open : value(after[k]),
        more: tree
          ? [
            ...treeLines(after[k], k, unknownSet, "          ", mark),
            `        ${open === "[" ? "]" : "}"}`,
          ]
          : undefined,
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
      const open = Array.isArray(after[k]) ? "[" : "{";
      rows.push({
        indent: "        ",
        mark: "",
        name: k,
        text: unknown ? "(known after apply)" : tree ? open : value(after[k]),
        more: tree
          ? [
            ...treeLines(after[k], k, unknownSet, "            ", ""),
            `          ${open === "[" ? "]" : "}"}`,
          ]
          : undefined,
      });
    } else {
      const row = changeRow(
        n,
        k,
        before[k],
        unknown ? undefined : after[k],
        unknown,
        forces,
        style,
      );
      if (row) rows.push(row);
    }
  }
  const width = Math.max(0, ...rows.map((r) => r.name.length));
  for (const r of rows) {
    lines.push(`${r.indent}${r.mark}${r.name.padEnd(width)} = ${r.text}`);
    lines.push(...(r.more ?? []));
  }
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
  const outputsOnly = Object.keys(doc.output_changes ?? {}).length > 0;
  if (changes.length === 0 && reads.length === 0 && outputsOnly && !doc.destroy) {
    out.push(
      style.bold(style.green("No changes to objects.")) +
        " Only outputs change: applying this plan records their new values in the state, " +
        "and changes no object.",
    );
  } else if (changes.length === 0 && reads.length === 0) {
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
  if (doc.output_changes === undefined) {
    // A plan made before pravo recorded outputs: all of them, as then.
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
  // Only the outputs that change, as Terraform's "Changes to Outputs".
  const changed = Object.entries(doc.output_changes);
  if (changed.length) {
    const width = Math.max(...changed.map(([k]) => k.length));
    out.push("", "Changes to Outputs:");
    for (const [k, c] of changed) {
      const after = c.after_unknown ? "(known after apply)" : value(c.after);
      const line = c.action === "create"
        ? `${style.green("+")} ${k.padEnd(width)} = ${after}`
        : c.action === "delete"
        ? `${style.red("-")} ${k.padEnd(width)} = ${value(c.before)} -> null`
        : `${style.yellow("~")} ${k.padEnd(width)} = ${value(c.before)} -> ${after}`;
      out.push(`  ${line}`);
    }
  }
  return out.join("\n") + "\n";
}
