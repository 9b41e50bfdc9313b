/**
 * The thirteen tools of `pravo mcp`: which command each runs, which of its
 * flags an agent may pass and how each is described to a model, and the
 * annotations. The input schemas and the fixed argument lists are drawn
 * from the commands' flag specifications (from_flags.ts). The server runs
 * nothing else: every argument list holds the command's own words and the
 * agent's values only where the command reads a value.
 *
 * @module
 */

import {
  type FlagArg,
  fromFlags,
  type JsonSchema,
  TAG_PATTERN,
  type ToolArgs,
} from "./from_flags.ts";

export type { JsonSchema };

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A refusal of the arguments, made before any process runs. */
export class ArgumentRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArgumentRefusal";
  }
}

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: ToolAnnotations;
  /** The server adds its --policy flags to this tool's runs. */
  policies: boolean;
  /** The tool can change something (writes a plan file, reserves, applies). */
  writes: boolean;
  /** The argument that reaches the command line as a word of its own, if any. */
  positional?: string;
  /** The command's argument list for these (already schema-checked) arguments. */
  argv(args: Record<string, unknown>): string[];
}

/** The most characters of an agent's value that a refusal repeats. */
export const SHOWN_CHARS = 200;

/**
 * An agent's value as a refusal repeats it: JSON, cut after
 * {@link SHOWN_CHARS} characters with the size of the whole, so that a huge
 * argument is not echoed back whole.
 */
export function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    return "(a value nested too deep to show)";
  }
  if (text.length <= SHOWN_CHARS) return text;
  return `${text.slice(0, SHOWN_CHARS)}... (${new TextEncoder().encode(text).length} bytes)`;
}

/** Refuses a positional value that is empty or begins with "-", as the seed page says. */
export function checkPositional(name: string, value: unknown): void {
  const values = Array.isArray(value) ? value : [value];
  for (const v of values) {
    if (typeof v !== "string" || v === "" || v.startsWith("-")) {
      throw new ArgumentRefusal(
        `${name} ${shown(v)} is not a usable value: it is empty or begins with "-"`,
      );
    }
  }
}

/**
 * The most bytes of one value that reaches a command line. Linux refuses a
 * word over 128 KiB (`Argument list too long`); pravo's own values are far
 * shorter.
 */
export const MAX_VALUE_BYTES = 64 * 1024;
/** The most bytes of all of a call's values together. */
export const MAX_ARGUMENT_BYTES = 256 * 1024;

/** Refuses a value, or a call's values together, too long for a command line. */
export function checkSizes(args: Record<string, unknown>): void {
  let total = 0;
  for (const [key, value] of Object.entries(args)) {
    const values = Array.isArray(value) ? value : [value];
    values.forEach((v, i) => {
      if (typeof v !== "string") return;
      const size = new TextEncoder().encode(v).length;
      total += size;
      if (size > MAX_VALUE_BYTES) {
        const name = Array.isArray(value) ? `${key}[${i}]` : key;
        throw new ArgumentRefusal(
          `${name} is ${size} bytes: this server passes at most ${MAX_VALUE_BYTES} bytes in one value. Shorten it`,
        );
      }
    });
  }
  if (total > MAX_ARGUMENT_BYTES) {
    throw new ArgumentRefusal(
      `the arguments are ${total} bytes together: this server passes at most ${MAX_ARGUMENT_BYTES} bytes in one call. Split the request`,
    );
  }
}

/**
 * Refuses an agent tag that gives one of the operator's tags (the server's
 * `-t`) another value: the operator's tags win, and an agent's request is
 * never changed silently. The same value is harmless.
 */
export function checkTags(args: Record<string, unknown>, operator: Record<string, string>): void {
  for (const t of (args.tags as string[] | undefined) ?? []) {
    const eq = t.indexOf("=");
    const key = t.slice(0, eq);
    if (Object.hasOwn(operator, key) && operator[key] !== t.slice(eq + 1)) {
      throw new ArgumentRefusal(
        `tag ${shown(key)} is set by the operator for this server (${key}=${
          operator[key]
        }), and the operator's tags win: leave ${shown(key)} out of tags`,
      );
    }
  }
}

function tagArgs(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const t of (args.tags as string[] | undefined) ?? []) {
    if (typeof t !== "string" || !new RegExp(TAG_PATTERN).test(t)) {
      throw new ArgumentRefusal(
        `tag ${
          shown(t)
        } is not key=value with a key of letters, digits, "_", "." or "-": write it as name=value`,
      );
    }
    out.push("-t", t);
  }
  return out;
}

const READ = (title: string): ToolAnnotations => ({
  title,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

/** What a tool is, apart from its arguments (which come from its command's flags). */
type ToolDecl = Omit<ToolSpec, "inputSchema" | "argv" | "positional"> & { args: ToolArgs };

/** Every tool, in the order of the seed page. */
export function tools(opts: { readOnly: boolean }): ToolSpec[] {
  const planFlags: Record<string, FlagArg> = {
    out: {
      flag: "out",
      description:
        "Save the plan to this file, inside the root, for pravo_apply_plan: a new file or an existing plan file, never under .pravo/, never a .cue file, pravo.jsonc or pravo.lock.json; a plan that a policy refuses is not saved",
    },
    refresh: {
      flag: "refresh",
      description:
        "What to read from the real world first: age (records past their refresh age; the default), expired, false (nothing), all",
    },
    full: {
      flag: "full",
      description: "Run every node, also those whose configuration and inputs did not change",
    },
    include_skipped: {
      flag: "include-skipped",
      description:
        "Also list the nodes the plan left alone, each with its address, mode, type and name",
    },
    reserve: {
      flag: "reserve",
      description:
        "With out: reserve the nodes this plan changes so that no one else changes them until the saved plan is applied (or for 1 h); refused without out. A reservation is the operators' decision",
    },
    destroy: { flag: "destroy", description: "Plan to destroy every node in the state" },
    replace: {
      flag: "replace",
      description: "Addresses of nodes to replace even though nothing changed",
    },
  };
  if (opts.readOnly) {
    delete planFlags.out;
    delete planFlags.reserve;
  }
  const addr = { name: "addr", description: "The node's address" };
  const all: ToolDecl[] = [
    {
      name: "pravo_validate",
      title: "Validate the specification",
      description:
        "Check the root's CUE specification and count what it declares (calls, data sources, ephemeral, outputs, providers, resources). Run it after every edit, until valid is true.",
      args: { command: "validate", tags: true },
      annotations: READ("Validate the specification"),
      policies: false,
      writes: false,
    },
    {
      name: "pravo_plan",
      title: "Plan the changes",
      description: opts.readOnly
        ? "Show what apply would change: the plan document (exit code 2 means there are changes). This server is read-only: plans cannot be saved."
        : "Show what apply would change, as the plan document (exit code 2 means there are changes, and is not a failure). Pass out=<file> to save a plan that pravo_apply_plan can apply after review. The server's policies judge every plan.",
      args: { command: "plan", tags: true, flags: planFlags },
      annotations: {
        title: "Plan the changes",
        readOnlyHint: opts.readOnly,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
      policies: true,
      writes: !opts.readOnly,
    },
    {
      name: "pravo_show_plan",
      title: "Show a saved plan",
      description: "Show a plan file saved by pravo_plan with out, as its plan document.",
      args: {
        command: "show",
        positional: { name: "planfile", description: "The plan file, inside the root" },
      },
      annotations: READ("Show a saved plan"),
      policies: false,
      writes: false,
    },
    {
      name: "pravo_apply_plan",
      title: "Apply a saved plan",
      description:
        "Apply a plan file saved by pravo_plan, exactly as it was reviewed. It is refused when the state moved since the plan (make a new plan), when a policy refuses it (exit code 5), or when nodes are reserved by someone else (exit code 4). Never try to bypass a refusal.",
      args: {
        command: "apply",
        // `pravo apply` alone plans and applies at once: an agent applies only a saved plan.
        positional: {
          name: "planfile",
          description: "The plan file, inside the root",
          required: true,
        },
        flags: {
          only: { flag: "only", joined: true, description: "Apply only these nodes of the plan" },
        },
      },
      annotations: {
        title: "Apply a saved plan",
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      },
      policies: true,
      writes: true,
    },
    {
      name: "pravo_schema",
      title: "Describe types",
      description:
        "The attributes of one or more types (random_integer, local_file, data.local_file, ...): name, type, required/optional/computed, sensitive, forces replacement, description. Use it before writing a node.",
      args: {
        command: "schema",
        positional: { name: "types", description: "Type names" },
        flags: {
          required: {
            flag: "required",
            description: "Only the attributes the configuration must set",
          },
        },
      },
      annotations: READ("Describe types"),
      policies: false,
      writes: false,
    },
    {
      name: "pravo_why",
      title: "Explain a node's action",
      description:
        "Why nodes are or are not in the plan: changed attributes, a dependency that changes, a refresh due, drift, a requested replace, a reservation and its holder, or why it was skipped.",
      args: {
        command: "why",
        positional: { name: "addrs", description: "Node addresses" },
        tags: true,
      },
      annotations: READ("Explain a node's action"),
      policies: false,
      writes: false,
    },
    {
      name: "pravo_state_query",
      title: "Query the state",
      description:
        'Evaluate a CUE expression over the state document, which has nodes (by address: mode, type, provider, attributes, dependencies), lineage and serial. Example: [for a, n in nodes if n.type == "local_file" {a}]. Sensitive values are redacted; long lists are cut at 100 entries.',
      args: {
        command: "state query",
        positional: { name: "expression", description: "One CUE expression" },
        tags: true,
      },
      annotations: READ("Query the state"),
      policies: false,
      writes: false,
    },
    {
      name: "pravo_state_show",
      title: "Show a node's record",
      description:
        "One node's record in the state: its attributes (sensitive ones redacted), dependencies and times.",
      args: { command: "state show", positional: addr, tags: true },
      annotations: READ("Show a node's record"),
      policies: false,
      writes: false,
    },
    {
      name: "pravo_dependents",
      title: "List dependents",
      description:
        "The nodes that depend on a node, directly and transitively: what a change to it reaches.",
      args: { command: "state dependents", positional: addr, tags: true },
      annotations: READ("List dependents"),
      policies: false,
      writes: false,
    },
    {
      name: "pravo_state_log",
      title: "Read the transaction log",
      description:
        "The state's transaction log, newest first (the last 20): who changed what, when and why.",
      args: { command: "state log", tags: true },
      annotations: READ("Read the transaction log"),
      policies: false,
      writes: false,
    },
    {
      name: "pravo_locks",
      title: "List locks and reservations",
      description:
        "The state lock, if an apply holds it, and the reservations: who holds them, why, since and until when.",
      args: { command: "state locks", tags: true },
      annotations: READ("List locks and reservations"),
      policies: false,
      writes: false,
    },
    {
      name: "pravo_drift",
      title: "Detect drift",
      description:
        "Read the real world and compare it with the state (exit code 2 means drift). With due, list the records past their refresh age instead, oldest first, at most limit of them, reading nothing.",
      args: {
        command: "drift",
        tags: true,
        flags: {
          due: {
            flag: "due",
            description: "List the records past their refresh age; read nothing",
          },
          limit: { flag: "limit", minimum: 1, description: "With due: at most this many records" },
        },
      },
      annotations: { ...READ("Detect drift"), idempotentHint: false, openWorldHint: true },
      policies: false,
      writes: false,
    },
    {
      name: "pravo_providers",
      title: "List providers",
      description: "The providers pravo ships, their versions, import paths and types.",
      args: { command: "providers" },
      annotations: READ("List providers"),
      policies: false,
      writes: false,
    },
  ];
  const specs = all.map(({ args, ...t }): ToolSpec => {
    const { inputSchema, positional, argv } = fromFlags(args, tagArgs);
    return { ...t, inputSchema, ...(positional ? { positional } : {}), argv };
  });
  return opts.readOnly ? specs.filter((t) => t.name !== "pravo_apply_plan") : specs;
}

/** The structured result every tool returns. */
export const OUTPUT_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    exit_code: {
      type: "integer",
      description:
        "The exit code of the command: 0 done, 2 changes or drift (a result, not a failure), 5 refused by a policy; see the exit codes page",
    },
  },
  required: ["exit_code"],
};

/**
 * Checks arguments against a tool's input schema; the message says what is
 * wrong. Only the arguments' own properties count, and only the schema's
 * own: `constructor`, `toString` or `__proto__` are names like any other, and
 * no tool has them.
 */
export function checkArguments(tool: ToolSpec, args: Record<string, unknown>): void {
  const props = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  for (const key of Object.keys(args)) {
    if (!Object.hasOwn(props, key)) {
      const known = Object.keys(props);
      throw new ArgumentRefusal(
        `${tool.name} has no argument ${shown(key)}; its arguments are: ${
          known.length ? known.join(", ") : "none"
        }`,
      );
    }
  }
  for (const req of (tool.inputSchema.required as string[] | undefined) ?? []) {
    if (!Object.hasOwn(args, req) || args[req] === undefined) {
      throw new ArgumentRefusal(`${tool.name} needs the argument "${req}"`);
    }
  }
  for (const [key, value] of Object.entries(args)) {
    const p = props[key];
    const bad = (what: string) => new ArgumentRefusal(`${key} must be ${what}`);
    if (p.type === "string" && typeof value !== "string") throw bad("a string");
    if (p.type === "boolean" && typeof value !== "boolean") throw bad("true or false");
    if (
      p.type === "integer" &&
      (!Number.isSafeInteger(value) || (value as number) < (p.minimum as number ?? -Infinity))
    ) {
      throw bad(`a whole number${p.minimum !== undefined ? ` of at least ${p.minimum}` : ""}`);
    }
    if (p.type === "array") {
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
        throw bad("a list of strings");
      }
      if (p.minItems && value.length < (p.minItems as number)) {
        throw bad("a list of at least one string");
      }
    }
    if (p.enum && !(p.enum as unknown[]).includes(value)) {
      throw bad(`one of ${(p.enum as string[]).join(", ")}`);
    }
  }
  const name = tool.positional;
  if (name !== undefined && Object.hasOwn(args, name) && args[name] !== undefined) {
    checkPositional(name, args[name]);
  }
  checkSizes(args);
}
