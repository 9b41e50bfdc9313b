/**
 * Helpers for the tests of the taint pass's parts (taint_index.ts,
 * taint_trace.ts, taint_existence.ts): sources parsed from text, nodes of
 * one small type whose `secret` the schema marks sensitive, and declarations
 * and references found by what they say.
 *
 * @module
 */

import { newTopScope, type ParsedFile, parseFile, type Ref, type Site } from "./syntax/mod.ts";
import type { Mode, TypeSchema } from "../providers/schema.ts";
import { TaintIndex, type TaintNode } from "./taint_index.ts";
import { TaintTracer, type TracerOptions } from "./taint_trace.ts";

/** A type with an input, a sensitive computed attribute and a plain computed one. */
export const THING: TypeSchema = {
  name: "t_thing",
  mode: "managed",
  description: "A thing for the tests.",
  attributes: {
    input: { type: "string", description: "What the configuration gives.", optional: true },
    secret: { type: "string", description: "A secret.", computed: true, sensitive: true },
    id: { type: "string", description: "Known after apply.", computed: true },
  },
};

/** One file `main.cue` of package t, its body `body` (its first line is line 3). */
export function parsed(body: string): ParsedFile[] {
  return [parseFile("main.cue", `package t\n\n${body}`, newTopScope())];
}

/** A node of type {@link THING} at the dotted path `address`. */
export function thing(address: string, mode: Mode = "managed"): TaintNode {
  return { address, path: address.split("."), mode, schema: { ...THING, mode } };
}

/** A tracer of `body`'s nodes, its data sources settled. */
export function tracerOf(
  body: string,
  nodes: TaintNode[],
  options: Partial<TracerOptions> = {},
): TaintTracer {
  const tracer = new TaintTracer(new TaintIndex(parsed(body), nodes), {
    secretAttrs: new Map(),
    ...options,
  });
  tracer.settleDataSources();
  return tracer;
}

/** Declarations as their dotted paths, `<label>` for those without one. */
export function names(sites: readonly Site[]): string[] {
  return sites.map((s) => s.path ? s.path.join(".") : `<${s.label}>`);
}

/** The one declaration at the dotted path `path`. */
export function siteAt(index: TaintIndex, path: string): Site {
  const found = index.sites.filter((s) => s.path?.join(".") === path);
  if (found.length !== 1) throw new Error(`${found.length} declarations at ${path}`);
  return found[0];
}

/** The first reference written `text` (`a.secret`) in a declaration's value or a file's top. */
export function refTo(index: TaintIndex, text: string): Ref {
  const refs = [...index.sites.flatMap((s) => s.refs), ...index.files.flatMap((f) => f.topRefs)];
  const found = refs.find((r) => [r.name, ...r.selectors].join(".") === text);
  if (!found) throw new Error(`no reference ${text}`);
  return found;
}
