/**
 * A small provider plugin that speaks protocol 6, for the tests: a gRPC
 * server run by Deno (`deno run -A tests/plugin/fake_provider.ts [MODE]`)
 * that does the go-plugin handshake (magic cookie, protocol negotiation,
 * socket in $PLUGIN_UNIX_SOCKET_DIR, AutoMTLS when $PLUGIN_CLIENT_CERT is
 * set) and serves the Provider service, go-plugin's controller and stdio.
 *
 * Its types:
 * - resource `fake_thing`: every kind of attribute and block (nested
 *   attribute type, single, list, set, map and group blocks, dynamic,
 *   sensitive, write-only); kept in memory; `name` forces a replacement; a
 *   thing named "crash" makes the process panic during apply; `size < 0`
 *   and a port over 65535 are errors with attribute paths.
 * - data source `fake_env`: the values of the named variables of its own
 *   environment (null where unset).
 * - data source `fake_slow`: waits `ms` milliseconds, or until Stop.
 * - data source `fake_stats`: how many calls were in flight at most.
 * - ephemeral resource `fake_token`: a token, renewed and closed.
 *
 * With `$FAKE_PROVIDER_STATE` naming a file, its things are kept there
 * between runs (as a real API keeps its objects), so that pravo can read
 * them back in a later process. A thing lives at the endpoint of the
 * configuration that made it, as an object in an AWS region: a provider
 * configured with another endpoint neither reads nor deletes it.
 *
 * Modes: `normal`; `bad-line` (prints something else than a handshake);
 * `die` (fails before the handshake);
 * `noisy` (prints 10 kB with no newline, then waits);
 * `ignore-stop` (ignores Stop and Shutdown, as a hung provider would).
 *
 * @module
 */

import * as grpc from "@grpc/grpc-js";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import { makeClientCertificate } from "../../lib/plugin/cert.ts";
import { diagnosticTo } from "../../lib/plugin/diagnostics.ts";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../lib/plugin/env.ts";
import { decodeJSON } from "../../lib/plugin/json.ts";
import { decodeMsgpack, encodeMsgpack } from "../../lib/plugin/msgpack.ts";
import {
  encodeMessage,
  type Message,
  type MethodDef,
  providerMethod,
  shutdownMethod,
  stdioMethod,
} from "../../lib/plugin/proto/load.ts";
import { type Method, METHODS } from "../../lib/plugin/proto/tfplugin.ts";
import { attrMessage, blockMessage } from "../../lib/plugin/_testing.ts";
import { blockType, type Schema, schemaFrom } from "../../lib/plugin/schema.ts";
import { UNKNOWN, type Value } from "../../lib/plugin/value.ts";
import { error } from "../../lib/diag/diag.ts";

const mode = Deno.args[0] ?? "normal";
const enc = new TextEncoder();

if (Deno.env.get(MAGIC_COOKIE_KEY) !== MAGIC_COOKIE_VALUE) {
  console.error("This binary is a plugin. These are not meant to be executed directly.");
  Deno.exit(1);
}
if (!(Deno.env.get("PLUGIN_PROTOCOL_VERSIONS") ?? "").split(",").includes("6")) {
  console.error("fake provider: only protocol 6 is served");
  Deno.exit(1);
}
console.error("fake provider starting");
// go-plugin ignores interrupts: a Ctrl-C in the terminal reaches the whole
// process group, and the host decides what the provider does.
Deno.addSignalListener("SIGINT", () => {});
if (mode === "die") {
  console.error("fatal: the fake provider cannot start (as asked)");
  Deno.exit(3);
}
if (mode === "bad-line") {
  console.log("hello, I am not a plugin");
  await new Promise((r) => setTimeout(r, 60_000));
}
if (mode === "noisy") {
  // Kilobytes on stdout and no newline: a handshake line never comes.
  await Deno.stdout.write(new TextEncoder().encode("x".repeat(10_000)));
  await new Promise((r) => setTimeout(r, 60_000));
}

// --- Schema ----------------------------------------------------------------------

const attr = (name: string, type: unknown, flags: Record<string, unknown> = {}) =>
  attrMessage(name, type, { description: `the ${name}`, ...flags });
/** A schema of version 0 whose block holds these attributes. */
const plainSchema = (...attributes: Record<string, unknown>[]) => ({
  version: 0,
  block: { attributes },
});

const providerBlock = {
  attributes: [
    attr("endpoint", "string", { optional: true }),
    attr("token", "string", { optional: true, sensitive: true }),
  ],
};

const thingBlock = {
  version: 1,
  attributes: [
    attr("id", "string", { computed: true }),
    attr("name", "string", { required: true }),
    attr("size", "number", { optional: true }),
    attr("tags", ["map", "string"], { optional: true }),
    attr("secret", "string", { optional: true, sensitive: true }),
    attr("password_wo", "string", { optional: true, write_only: true }),
    attr("payload", "dynamic", { optional: true }),
    attr("created", "string", { computed: true }),
    // Optional and computed, as aws_sqs_queue's sqs_managed_sse_enabled:
    // true unless the configuration says otherwise.
    attr("encrypted", "bool", { optional: true, computed: true }),
    {
      name: "rules",
      optional: true,
      description: "rules, a nested attribute type",
      nested_type: {
        nesting: 2, // list
        attributes: [
          attr("port", "number", { required: true }),
          attr("note", "string", { optional: true }),
        ],
      },
    },
  ],
  block_types: [
    blockMessage("settings", {
      nesting: "single",
      attributes: [attr("mode", "string", { optional: true })],
    }),
    blockMessage("listener", {
      nesting: "list",
      maxItems: 2,
      attributes: [attr("port", "number", { required: true })],
    }),
    blockMessage("extra", {
      nesting: "set",
      attributes: [attr("k", "string", { optional: true })],
    }),
    blockMessage("labels", {
      nesting: "map",
      attributes: [attr("v", "string", { optional: true })],
    }),
    blockMessage("limits", {
      nesting: "group",
      attributes: [attr("max", "number", { optional: true })],
    }),
  ],
};

const schemas: Record<string, Message> = {
  provider: { version: 0, block: providerBlock },
  fake_thing: { version: 1, block: thingBlock },
  fake_env: plainSchema(
    attr("names", ["list", "string"], { required: true }),
    attr("values", ["map", "string"], { computed: true }),
  ),
  fake_slow: plainSchema(
    attr("ms", "number", { required: true }),
    attr("done", "bool", { computed: true }),
  ),
  fake_stats: plainSchema(
    attr("max_in_flight", "number", { computed: true }),
    attr("stops", "number", { computed: true }),
  ),
  fake_token: plainSchema(
    attr("prefix", "string", { optional: true }),
    attr("value", "string", { computed: true, sensitive: true }),
  ),
};
const typed: Record<string, Schema> = Object.fromEntries(
  Object.entries(schemas).map(([k, s]) => [k, schemaFrom(s)]),
);
const typeOf = (name: string) => blockType(typed[name].block);

function read(dv: Message, name: string): Value {
  if (dv?.msgpack?.length) return decodeMsgpack(dv.msgpack, typeOf(name));
  return null;
}
function write(v: Value, name: string): Message {
  return { msgpack: encodeMsgpack(v, typeOf(name)) };
}
type Obj = Record<string, Value>;

// --- State -------------------------------------------------------------------------

const things = new Map<string, Obj>();
/** The endpoint each thing lives at: that of the configuration that made it. */
const homes = new Map<string, string>();
/** The endpoint of this process's configuration, once configured. */
let endpoint = "";
let nextId = 1;
const stateFile = Deno.env.get("FAKE_PROVIDER_STATE");
/**
 * The things as the state file holds them now: every process of the
 * provider (one per configuration) shares it, as a real API is shared.
 */
function load(): void {
  if (!stateFile) return;
  let saved: { next: number; things: Obj[]; homes?: Record<string, string> };
  try {
    saved = JSON.parse(Deno.readTextFileSync(stateFile));
  } catch {
    return; // no file yet
  }
  nextId = saved.next;
  things.clear();
  homes.clear();
  for (const t of saved.things) {
    things.set(String(t.id), decodeJSON(JSON.stringify(t), typeOf("fake_thing")) as Obj);
  }
  for (const [id, e] of Object.entries(saved.homes ?? {})) homes.set(id, e);
}
load();
/** Changes the things, the state file held locked from reading it to writing it. */
function change<T>(body: () => T): T {
  if (!stateFile) return body();
  using lock = Deno.openSync(`${stateFile}.lock`, { create: true, write: true });
  lock.lockSync(true);
  load();
  const out = body();
  const tmp = `${stateFile}.${Deno.pid}`;
  Deno.writeTextFileSync(
    tmp,
    JSON.stringify({
      next: nextId,
      things: [...things.values()],
      homes: Object.fromEntries(homes),
    }),
  );
  Deno.renameSync(tmp, stateFile);
  return out;
}
/** The thing `id` as this configuration's endpoint sees it: none when it lives at another. */
function thingHere(id: string): Obj | undefined {
  const home = homes.get(id);
  return home === undefined || home === endpoint ? things.get(id) : undefined;
}
/**
 * The events a test waits for, one line each, appended to
 * $FAKE_PROVIDER_EVENTS when set: `slow read waiting`, `stop`, `slow read
 * stopped`.
 */
const eventsFile = Deno.env.get("FAKE_PROVIDER_EVENTS");
function event(line: string): void {
  if (eventsFile) Deno.writeTextFileSync(eventsFile, line + "\n", { append: true });
}
let inFlight = 0;
let maxInFlight = 0;
let stops = 0;
const waiting = new Set<() => void>();
let stdioSend: ((m: Message) => void) | undefined;
const stdioLog = (text: string) => stdioSend?.({ channel: 2, data: enc.encode(text + "\n") });

function diag(summary: string, detail: string, attribute?: Message[]): Message {
  return diagnosticTo(error(summary, detail, attribute ? { attribute } : {}));
}

// --- Calls -------------------------------------------------------------------------

const handlers: Partial<Record<Method, (req: Message) => Promise<Message> | Message>> = {
  getMetadata: () => ({
    server_capabilities: { plan_destroy: true, get_provider_schema_optional: true },
    resources: [{ type_name: "fake_thing" }],
    data_sources: [{ type_name: "fake_env" }, { type_name: "fake_slow" }, {
      type_name: "fake_stats",
    }],
    ephemeral_resources: [{ type_name: "fake_token" }],
  }),
  getProviderSchema: () => ({
    provider: schemas.provider,
    resource_schemas: { fake_thing: schemas.fake_thing },
    data_source_schemas: {
      fake_env: schemas.fake_env,
      fake_slow: schemas.fake_slow,
      fake_stats: schemas.fake_stats,
    },
    ephemeral_resource_schemas: { fake_token: schemas.fake_token },
    server_capabilities: { plan_destroy: true, get_provider_schema_optional: true },
  }),
  validateProviderConfig: (req) => {
    const c = read(req.config, "provider") as Obj;
    return {
      diagnostics: c?.endpoint === "bad"
        ? [diag("Bad endpoint", "Use a good one.", [{ name: "endpoint" }])]
        : [],
    };
  },
  configureProvider: (req) => {
    const c = read(req.config, "provider") as Obj;
    endpoint = String(c?.endpoint ?? "");
    stdioLog(`configured with endpoint ${c?.endpoint} for core ${req.terraform_version}`);
    return { diagnostics: [] };
  },
  validateResourceConfig: (req) => {
    const c = read(req.config, "fake_thing") as Obj;
    const diagnostics: Message[] = [];
    if (typeof c.size === "number" && c.size < 0) {
      diagnostics.push(diag("Invalid size", "The size cannot be negative.", [{ name: "size" }]));
    }
    (Array.isArray(c.rules) ? c.rules : []).forEach((r, i) => {
      const port = (r as Obj).port;
      if (typeof port === "number" && port > 65535) {
        diagnostics.push(
          diag("Invalid port", `Port ${port} is out of range.`, [{ name: "rules" }, { index: i }, {
            name: "port",
          }]),
        );
      }
    });
    if (c.tags && typeof c.tags === "object" && "bad" in c.tags) {
      diagnostics.push({
        severity: 2,
        summary: "Odd tag",
        detail: "A tag named bad.",
        attribute: { steps: [{ attribute_name: "tags" }, { element_key_string: "bad" }] },
      });
    }
    return { diagnostics };
  },
  planResourceChange: (req) => {
    const prior = read(req.prior_state, "fake_thing") as Obj | null;
    const proposed = read(req.proposed_new_state, "fake_thing") as Obj | null;
    if (!proposed) return { planned_state: write(null, "fake_thing") };
    const planned: Obj = { ...proposed, password_wo: null };
    const requires: Message[] = [];
    if (planned.encrypted === null) planned.encrypted = prior ? prior.encrypted : UNKNOWN;
    if (!prior) {
      planned.id = UNKNOWN;
      planned.created = UNKNOWN;
    } else if (prior.name !== proposed.name) {
      planned.id = UNKNOWN;
      planned.created = UNKNOWN;
      requires.push({ steps: [{ attribute_name: "name" }] });
    } else if (
      proposed.tags && typeof proposed.tags === "object" && "touch" in proposed.tags &&
      JSON.stringify(prior.tags) !== JSON.stringify(proposed.tags)
    ) {
      // An update that a tag named touch asks for makes created unknown (as
      // an updated_at would be) and leaves id as it is.
      planned.created = UNKNOWN;
    }
    return {
      planned_state: write(planned, "fake_thing"),
      requires_replace: requires,
      planned_private: enc.encode(JSON.stringify({ planned: true })),
    };
  },
  applyResourceChange: async (req) => {
    const prior = read(req.prior_state, "fake_thing") as Obj | null;
    const planned = read(req.planned_state, "fake_thing") as Obj | null;
    if (!planned) {
      change(() => {
        if (prior && thingHere(String(prior.id))) {
          things.delete(String(prior.id));
          homes.delete(String(prior.id));
        }
      });
      return { new_state: write(null, "fake_thing") };
    }
    if (planned.name === "crash") {
      stdioLog("about to crash");
      // Let the stdio stream carry the line before the process dies.
      await new Promise((r) => setTimeout(r, 200));
      console.error("panic: boom\n\ngoroutine 1 [running]:\nmain.apply()");
      Deno.exit(2);
    }
    const state = change(() => {
      const id = typeof planned.id === "string" ? planned.id : `thing-${nextId++}`;
      const created = typeof planned.created === "string" ? planned.created : `created-${id}`;
      const encrypted = typeof planned.encrypted === "boolean" ? planned.encrypted : true;
      const made: Obj = { ...planned, id, created, encrypted, password_wo: null };
      things.set(id, made);
      homes.set(id, endpoint);
      return made;
    });
    return { new_state: write(state, "fake_thing"), private: req.planned_private };
  },
  readResource: (req) => {
    const cur = read(req.current_state, "fake_thing") as Obj;
    load();
    const found = thingHere(String(cur.id));
    return { new_state: write(found ?? null, "fake_thing"), private: req.private };
  },
  importResourceState: (req) => {
    const found = things.get(req.id);
    const state: Obj = found ? { id: req.id } : { id: req.id };
    return { imported_resources: [{ type_name: "fake_thing", state: write(state, "fake_thing") }] };
  },
  upgradeResourceState: (req) => {
    const raw = JSON.parse(new TextDecoder().decode(req.raw_state.json));
    if (Number(req.version) === 0 && "title" in raw) {
      raw.name = raw.title;
      delete raw.title;
    }
    return { upgraded_state: write(raw, "fake_thing") };
  },
  moveResourceState: (req) => {
    if (req.source_type_name !== "fake_old") {
      return { diagnostics: [diag("Cannot move", `Nothing moves from ${req.source_type_name}.`)] };
    }
    const v = decodeJSON(req.source_state.json, ["object", {
      id: "string",
      label: "string",
    }]) as Obj;
    return { target_state: write({ id: v.id, name: v.label }, "fake_thing") };
  },
  readDataSource: async (req) => {
    const name = req.type_name;
    const c = read(req.config, name) as Obj;
    if (name === "fake_env") {
      const values: Record<string, string> = {};
      for (const n of c.names as string[]) {
        const v = Deno.env.get(n);
        if (v !== undefined) values[n] = v;
      }
      return { state: write({ ...c, values }, name) };
    }
    if (name === "fake_slow") {
      const stoppedEarly = await new Promise<boolean>((resolve) => {
        const done = () => {
          waiting.delete(stop);
          resolve(true);
        };
        const stop = done;
        if (mode !== "ignore-stop") waiting.add(stop);
        setTimeout(() => {
          waiting.delete(stop);
          resolve(false);
        }, Number(c.ms));
        event("slow read waiting");
      });
      if (stoppedEarly) {
        event("slow read stopped");
        return { diagnostics: [diag("Stopped", "The read was stopped before it finished.")] };
      }
      return { state: write({ ...c, done: true }, name) };
    }
    if (name === "fake_stats") {
      return { state: write({ max_in_flight: maxInFlight, stops }, name) };
    }
    return { diagnostics: [diag("No such data source", name)] };
  },
  validateEphemeralResourceConfig: (req) => {
    const c = read(req.config, "fake_token") as Obj;
    return {
      diagnostics: c.prefix === "bad"
        ? [diag("Bad prefix", "Choose another prefix.", [{ name: "prefix" }])]
        : [],
    };
  },
  openEphemeralResource: (req) => {
    const c = read(req.config, "fake_token") as Obj;
    return {
      result: write({ ...c, value: `${c.prefix ?? ""}secret-1` }, "fake_token"),
      private: enc.encode("token-1"),
      renew_at: { seconds: Math.floor(Date.now() / 1000) + 3600, nanos: 0 },
    };
  },
  renewEphemeralResource: (req) => ({
    private: enc.encode(new TextDecoder().decode(req.private) + "-renewed"),
    renew_at: { seconds: Math.floor(Date.now() / 1000) + 7200, nanos: 0 },
  }),
  closeEphemeralResource: (req) => ({
    diagnostics: new TextDecoder().decode(req.private).startsWith("token-1")
      ? []
      : [diag("Unknown token", "")],
  }),
  stopProvider: () => {
    stops++;
    event("stop");
    if (mode !== "ignore-stop") { for (const w of [...waiting]) w(); }
    return { Error: "" };
  },
};

// --- Server -------------------------------------------------------------------------

const server = new grpc.Server();
/** The gRPC definition of a method: its path, and its messages encoded as pravo's proto does. */
function grpcMethod(
  def: MethodDef,
  responseStream = false,
): grpc.MethodDefinition<Message, Message> {
  return {
    path: def.path,
    requestStream: false,
    responseStream,
    requestSerialize: (x: Uint8Array) => Buffer.from(x),
    requestDeserialize: (b: Buffer) => def.request.decode(b),
    responseSerialize: (x: Message) => Buffer.from(encodeMessage(def.response, x)),
    responseDeserialize: (b: Buffer) => def.response.decode(b),
  };
}

const service: Record<string, grpc.MethodDefinition<Message, Message>> = {};
const impl: grpc.UntypedServiceImplementation = {};
for (const m of Object.keys(METHODS) as Method[]) {
  const def = providerMethod(6, m);
  const h = handlers[m];
  if (!h) continue;
  service[m] = grpcMethod(def);
  impl[m] = async (
    call: grpc.ServerUnaryCall<Message, Message>,
    cb: grpc.sendUnaryData<Message>,
  ) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      cb(null, await h(call.request));
    } catch (e) {
      cb({ code: grpc.status.INTERNAL, details: String(e) });
    } finally {
      inFlight--;
    }
  };
}
server.addService(service, impl);

server.addService({ Shutdown: grpcMethod(shutdownMethod()) }, {
  Shutdown: (_call: unknown, cb: grpc.sendUnaryData<Message>) => {
    if (mode === "ignore-stop") return; // never answers, never exits
    cb(null, {});
    setTimeout(() => Deno.exit(0), 10);
  },
});

server.addService({ StreamStdio: grpcMethod(stdioMethod(), true) }, {
  StreamStdio: (call: grpc.ServerWritableStream<Message, Message>) => {
    stdioSend = (m) => call.write(m);
    call.on("cancelled", () => (stdioSend = undefined));
  },
});

const dir = Deno.env.get("PLUGIN_UNIX_SOCKET_DIR") || Deno.env.get("TMPDIR") || "/tmp";
const socket = join(dir, `plugin${crypto.getRandomValues(new Uint32Array(1))[0]}`);
const clientCert = Deno.env.get("PLUGIN_CLIENT_CERT");
let certField = "";
let creds = grpc.ServerCredentials.createInsecure();
if (clientCert) {
  const own = await makeClientCertificate();
  creds = grpc.ServerCredentials.createSsl(
    Buffer.from(clientCert),
    [{ private_key: Buffer.from(own.keyPem), cert_chain: Buffer.from(own.certPem) }],
    true,
  );
  certField = btoa(String.fromCharCode(...own.der)).replace(/=+$/, "");
}
await new Promise<void>((resolve, reject) =>
  server.bindAsync(`unix://${socket}`, creds, (e) => (e ? reject(e) : resolve()))
);
console.log(`1|6|unix|${socket}|grpc|${certField}`);
console.error("fake provider serving");
