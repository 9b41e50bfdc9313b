/**
 * The MCP server: the seed page's thirteen tools over stdio, each call run
 * as pravo itself with `--json --no-color` in the root.
 *
 * @module
 */

import { realpathSync } from "node:fs";
import { dirname, isAbsolute, resolve, sep } from "node:path";
import { VERSION } from "../lib/version.ts";
import { findApproval } from "../lib/plan/approval.ts";
import { readPlanFileBytes } from "../lib/plan/planfile.ts";
import type { ApproverPublicKey } from "../lib/keys/approver.ts";
import { LineTransport } from "./transport.ts";
import { runPravo, type Self, selfCommand } from "./child.ts";
import { ArgumentRefusal, checkArguments, OUTPUT_SCHEMA, tools, type ToolSpec } from "./tools.ts";

export const INSTRUCTIONS =
  "pravo plans and applies infrastructure specified in CUE. Work in this order: pravo_schema to learn a type, edit the .cue files, pravo_validate until it passes, pravo_plan with out=<file> to produce a reviewable plan, then pravo_apply_plan on that file. Never try to bypass a refusal: a policy or a reservation is a decision by the operators.";

export interface ServerOptions {
  /** The root, absolute. */
  root: string;
  /** Policy files, absolute, already checked. */
  policies: string[];
  actor?: string;
  reason?: string;
  /** Register no tool that can change anything. */
  readOnly: boolean;
  /** Apply only plans an operator approved with `pravo approve`. */
  requireApproval: boolean;
  /** The approvers' public keys the server trusts (`--approver`), loaded at start. */
  approvers?: ApproverPublicKey[];
  /** A result longer than this many bytes is cut. */
  maxResultBytes: number;
  /** A call that runs longer is stopped. */
  timeoutMs: number;
  /** How to run pravo; default: this executable (tests may point elsewhere). */
  self?: Self;
  /** The state's PostgreSQL servers (HOST:PORT) the children may reach. */
  stateServers?: string[];
  /**
   * pravo's key (`$PRAVO_KEY`'s form), loaded when the server started: the
   * children get it in their environment and no access to the key file.
   */
  key?: string;
}

export interface CallResult {
  content: { type: "text"; text: string }[];
  isError: boolean;
  structuredContent?: { exit_code: number };
}

function refusal(text: string): CallResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** Resolves a path an agent passed inside the root, or refuses it. */
export function insideRoot(root: string, name: string, value: string): string {
  const rootReal = realpathSync(root);
  const abs = isAbsolute(value) ? resolve(value) : resolve(rootReal, value);
  const outside = () =>
    new ArgumentRefusal(
      `${name} ${
        JSON.stringify(value)
      } is outside the root: paths are resolved inside ${rootReal}. Give a path inside it, such as plans/x.plan`,
    );
  if (abs !== rootReal && !abs.startsWith(rootReal + sep)) throw outside();
  // The nearest part of the path that exists must be inside too, symbolic links followed.
  let probe = abs;
  for (;;) {
    try {
      const real = realpathSync(probe);
      if (real !== rootReal && !real.startsWith(rootReal + sep)) throw outside();
      break;
    } catch (e) {
      if (e instanceof ArgumentRefusal) throw e;
      const up = dirname(probe);
      if (up === probe) break;
      probe = up;
    }
  }
  return abs;
}

/** Cuts a text to a byte limit at a line boundary, with a note saying how to get the rest. */
export function bound(text: string, limit: number, tool: string): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= limit) return text;
  let cut = new TextDecoder().decode(bytes.subarray(0, limit));
  const nl = cut.lastIndexOf("\n");
  if (nl > limit / 2) cut = cut.slice(0, nl);
  const how = tool === "pravo_state_query"
    ? "narrow the expression"
    : tool === "pravo_state_log"
    ? "read the log from the command line with --limit and --address"
    : tool === "pravo_plan"
    ? "save the plan with out and read parts of it with pravo_state_query or pravo_why"
    : "narrow the request";
  return `${cut}\n[cut: the result is ${bytes.length} bytes and this server returns at most ${limit}; ${how}, or ask the operator to raise --max-result-bytes]`;
}

/** Handles one tools/call; never throws for a bad argument. */
export async function callTool(
  opts: ServerOptions,
  self: Self,
  tool: ToolSpec,
  args: Record<string, unknown>,
  extra: { signal?: AbortSignal; onProgress?: (seconds: number) => void } = {},
): Promise<CallResult> {
  let argv: string[];
  try {
    checkArguments(tool, args);
    if (typeof args.out === "string") insideRoot(opts.root, "out", args.out);
    let approvedDigest: string | undefined;
    if (typeof args.planfile === "string") {
      const path = insideRoot(opts.root, "planfile", args.planfile);
      if (opts.requireApproval && tool.name === "pravo_apply_plan") {
        // The file's bytes are read once and hashed; the approval must be of
        // that digest, signed by a key on the server's command line, and the
        // apply checks that the bytes it parses have the same digest.
        let digest: string | undefined;
        try {
          digest = readPlanFileBytes(path).digest;
        } catch {
          digest = undefined; // no such file: not approved
        }
        if (digest !== undefined && await findApproval(opts.root, digest, opts.approvers ?? [])) {
          approvedDigest = digest;
        }
        if (!approvedDigest) {
          throw new ArgumentRefusal(
            `planfile ${
              JSON.stringify(args.planfile)
            } is not approved: this server applies only plans an operator approved after review, with \`pravo approve ${args.planfile} --key FILE\`. Show it to the operator with pravo_show_plan and wait for the approval`,
          );
        }
      }
    }
    argv = tool.argv(args);
    // Bind the apply to the approved content: a file changed after the check
    // is refused by apply itself.
    if (approvedDigest) argv.push(`--expect-digest=${approvedDigest}`);
  } catch (e) {
    if (e instanceof ArgumentRefusal) return refusal(e.message);
    throw e;
  }
  const who = [
    ...(opts.actor !== undefined ? [`--actor=${opts.actor}`] : []),
    ...(opts.reason !== undefined ? [`--reason=${opts.reason}`] : []),
  ];
  const policies = tool.policies ? opts.policies.map((p) => `--policy=${p}`) : [];
  const r = await runPravo([...who, ...argv, ...policies], {
    root: opts.root,
    self,
    timeoutMs: opts.timeoutMs,
    signal: extra.signal,
    onProgress: extra.onProgress,
  });
  const strip = (s: string) => s.replace(/\n$/, "");
  let text = strip(r.stdout);
  if (r.code !== 0 && r.stderr.trim()) {
    text = text ? `${text}\n${strip(r.stderr)}` : strip(r.stderr);
  }
  if (r.timedOut) {
    text += `${text ? "\n" : ""}[stopped: the call ran longer than ${
      opts.timeoutMs / 1000
    } s, the server's limit; ask the operator to raise --timeout, or narrow the request]`;
  }
  return {
    content: [{ type: "text", text: bound(text, opts.maxResultBytes, tool.name) }],
    isError: r.code !== 0,
    structuredContent: { exit_code: r.code },
  };
}

interface CallRequest {
  params: {
    name: string;
    arguments?: Record<string, unknown>;
    _meta?: { progressToken?: string | number };
  };
}

interface CallExtra {
  signal: AbortSignal;
  sendNotification(n: { method: string; params: Record<string, unknown> }): Promise<void>;
}

/** Serves on stdin and stdout until the client closes stdin. */
export async function serve(opts: ServerOptions): Promise<void> {
  const [{ Server }, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  const specs = tools({ readOnly: opts.readOnly });
  const byName = new Map(specs.map((t) => [t.name, t]));
  const self = opts.self ?? selfCommand(opts.root, opts.policies, opts.stateServers ?? []);
  if (opts.key !== undefined) self.env = { ...self.env, PRAVO_KEY: opts.key };
  // No child approves: an approver's key in the server's environment stays there.
  self.env = { ...self.env, PRAVO_APPROVER_KEY: "" };
  const server = new Server(
    { name: "pravo", version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(types.ListToolsRequestSchema, () =>
    Promise.resolve({
      tools: specs.map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema,
        outputSchema: OUTPUT_SCHEMA,
        annotations: t.annotations,
      })),
    }));
  server.setRequestHandler(
    types.CallToolRequestSchema,
    async (request: CallRequest, extra: CallExtra) => {
      const name = request.params.name;
      const tool = byName.get(name);
      if (!tool) {
        const e = new Error(`unknown tool ${name}`) as Error & { code: number };
        e.code = -32602;
        throw e;
      }
      const token = request.params._meta?.progressToken;
      const progress =
        token !== undefined && (tool.name === "pravo_plan" || tool.name === "pravo_apply_plan")
          ? (seconds: number) => {
            extra.sendNotification({
              method: "notifications/progress",
              params: {
                progressToken: token,
                progress: seconds,
                message: `${tool.name} running for ${seconds} s`,
              },
            }).catch(() => {});
          }
          : undefined;
      return await callTool(opts, self, tool, request.params.arguments ?? {}, {
        signal: extra.signal,
        onProgress: progress,
      }) as unknown as Record<string, unknown>;
    },
  );
  const transport = new LineTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  // deno-lint-ignore no-explicit-any
  await server.connect(transport as any);
  await closed;
}
