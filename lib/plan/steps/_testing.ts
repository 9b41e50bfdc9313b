/**
 * Fixtures for the tests of the planner's steps: roots parsed from text,
 * records, planned nodes, and a provider whose answers a test gives.
 *
 * @module
 */

import { BUILTIN_ONLY } from "../../workspace/workspace_testing.ts";
import assert from "node:assert/strict";
import { evaluateRoot, parseSources, type Sources, type Spec } from "../../cue/loader.ts";
import type { StateRecord } from "../../state/store.ts";
import { record as storeRecord } from "../../state/store_testing.ts";
import type { ResourceProvider } from "../../providers/resource_provider.ts";
import type { PlannedNode } from "../types.ts";

/** The head of a root with the random and local providers. */
export const HEAD = `package t

import rnd "pravo.dev/providers/hashicorp/random"
import loc "pravo.dev/providers/hashicorp/local"

$random: rnd.#Provider
$local: loc.#Provider
`;

/** The sources of a root whose main.cue is HEAD and `body`. */
export function sourcesOf(body: string, root = "/nowhere"): Sources {
  const sources = parseSources(
    root,
    [{ name: "main.cue", src: `${HEAD}\n${body}\n` }],
    BUILTIN_ONLY,
  );
  assert.ok(sources.ok, JSON.stringify(sources.diagnostics));
  return sources.value;
}

/** The root's evaluation, without known values. */
export async function specOf(sources: Sources): Promise<Spec> {
  const res = await evaluateRoot(sources, { tags: {} });
  assert.ok(res.ok, JSON.stringify(res.diagnostics));
  return res.value;
}

/** A record of a random_integer at `address`, with `over` set. */
export function record(address: string, over: Partial<StateRecord> = {}): StateRecord {
  return {
    ...storeRecord(address, {
      attributes: { id: "5", min: 1, max: 9, result: 5 },
      configDigest: "",
    }),
    createdAt: "2030-01-01T00:00:00.000Z",
    updatedAt: "2030-01-01T00:00:00.000Z",
    refreshedAt: "2030-01-01T00:00:00.000Z",
    ...over,
  };
}

/** A planned random_integer at `address` with nothing to do, with `over` set. */
export function planned(address: string, over: Partial<PlannedNode> = {}): PlannedNode {
  return {
    address,
    mode: "managed",
    type: "random_integer",
    name: address.split(".").pop()!,
    provider: "hashicorp/random",
    action: "no-op",
    before: { id: "5", min: 1, max: 9, result: 5 },
    after: { id: "5", min: 1, max: 9, result: 5 },
    afterUnknown: [],
    changed: [],
    replaceBecause: [],
    dependencies: [],
    sensitive: [],
    config: { min: 1, max: 9 },
    templates: {},
    needsEvaluation: [],
    configDigest: "d",
    refreshAge: null,
    lifecycle: {},
    providerConfig: {},
    ...over,
  };
}

/** A provider that answers what `over` gives, and fails a test on any other call. */
export function fakeProvider(over: Partial<ResourceProvider>): ResourceProvider {
  const no = (what: string) => () => assert.fail(`unexpected call of ${what}`);
  return {
    source: "hashicorp/random",
    validateResource: no("validateResource"),
    planResource: no("planResource"),
    applyResource: no("applyResource"),
    readResource: no("readResource"),
    readData: no("readData"),
    openEphemeral: no("openEphemeral"),
    importResource: no("importResource"),
    canRead: () => true,
    expiresAt: () => undefined,
    ...over,
  };
}

/** A session whose every node has `provider`. */
export function sessionWith(provider: ResourceProvider) {
  return { providerFor: () => Promise.resolve(provider) };
}
