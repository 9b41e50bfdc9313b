/**
 * The loaded protocol against its golden file: what protobufjs makes of our
 * protocol text (every package, message, field, number, enum and service of
 * versions 5 and 6 and of go-plugin) is what the gRPC layer receives, so a
 * change to how the text is written must leave it as it was. A change to the
 * protocol itself fails here until the file is written again, on purpose:
 * `PRAVO_UPDATE_GOLDEN=1 deno test -A lib/plugin/proto/load_test.ts`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { messageType, protoRoot, providerMethod, shutdownMethod, stdioMethod } from "./load.ts";
import { type Method, METHODS } from "./tfplugin.ts";

const GOLDEN = new URL("./testdata/descriptors.json", import.meta.url);

/**
 * A descriptor with the messages nested in each namespace sorted by name:
 * protobuf finds them by name, so the order they are declared in means
 * nothing. Fields, enum values and methods keep theirs.
 */
function _sortedNested(d: unknown): unknown {
  if (Array.isArray(d) || d === null || typeof d !== "object") return d;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d)) {
    out[k] = k === "nested"
      ? Object.fromEntries(
        Object.keys(v as object).sort().map((n) => [n, _sortedNested((v as never)[n])]),
      )
      : _sortedNested(v);
  }
  return out;
}

Deno.test("protoRoot() loads the descriptors of testdata/descriptors.json", async () => {
  const loaded = _sortedNested(protoRoot().toJSON({ keepComments: true }));
  if (Deno.env.get("PRAVO_UPDATE_GOLDEN") === "1") {
    await Deno.writeTextFile(GOLDEN, JSON.stringify(loaded, null, 2) + "\n");
    return;
  }
  // Compared as written out, so that the order of fields counts too.
  const golden = JSON.parse(await Deno.readTextFile(GOLDEN));
  assert.equal(JSON.stringify(loaded), JSON.stringify(golden));
});

Deno.test("providerMethod() finds every call's request and response in both versions", () => {
  for (const v of [5, 6] as const) {
    for (const m of Object.keys(METHODS) as Method[]) {
      const def = providerMethod(v, m);
      assert.equal(def.path, `/tfplugin${v}.Provider/${METHODS[m][v]}`);
      assert.equal(def.request.name, "Request");
      assert.equal(def.response.name, "Response");
    }
  }
});

Deno.test("messageType() tells the versions apart where they differ", () => {
  const v5 = messageType("tfplugin5.ValidateProviderConfig.Response");
  const v6 = messageType("tfplugin6.ValidateProviderConfig.Response");
  assert.deepEqual(Object.keys(v5.fields), ["prepared_config", "diagnostics"]);
  assert.deepEqual(Object.keys(v6.fields), ["diagnostics"]);
  assert.equal(messageType("tfplugin6.Schema.Attribute").fields.nested_type.id, 10);
  assert.equal(messageType("tfplugin5.Schema.Attribute").fields.write_only.id, 10);
});

Deno.test("shutdownMethod() and stdioMethod() are go-plugin's calls, taking plugin.Empty", () => {
  const calls = [shutdownMethod(), stdioMethod()].map((m) => ({
    path: m.path,
    types: [m.request.fullName, m.response.fullName],
    stream: m.responseStream,
  }));
  assert.deepEqual(calls, [
    {
      path: "/plugin.GRPCController/Shutdown",
      types: [".plugin.Empty", ".plugin.Empty"],
      stream: false,
    },
    {
      path: "/plugin.GRPCStdio/StreamStdio",
      types: [".plugin.Empty", ".plugin.StdioData"],
      stream: true,
    },
  ]);
});
