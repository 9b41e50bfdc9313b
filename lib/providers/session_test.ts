import assert from "node:assert/strict";
import type { PluginInputs } from "./plugin/inputs.ts";
import type { TypeSchema } from "./schema.ts";
import { type InstanceConfig, type NodeProviderRef, ProviderSession } from "./session.ts";

/** A root whose lock pins one plugin provider, `pravo/fake`; nothing is installed. */
const INPUTS: PluginInputs = {
  lock: () => ({
    builtins: {},
    plugins: { "example.com/pravo/fake": { version: "1.0.0", constraints: "", hashes: [] } },
  }),
  mirrors: () => Promise.resolve([]),
};

/**
 * Two configurations of `pravo/fake`, `$east` first. Each holds a value
 * known only after apply, so that a provider asked to work answers, before
 * any process starts, with an error that names the configuration it chose.
 */
const TWO: InstanceConfig[] = ["$east", "$west"].map((address) => ({
  address,
  source: "pravo/fake",
  config: { endpoint: Symbol.for("pravo.unknown") },
}));

/** The configuration the provider of `n` works with, as its first call says. */
async function chosen(session: ProviderSession, n: NodeProviderRef): Promise<string> {
  const p = await session.providerFor(n);
  const res = await p.readResource({
    address: n.address,
    type: { name: "fake_thing" } as TypeSchema,
    root: session.root,
    providerConfig: {},
    prior: { attributes: {} },
  });
  const found = res.diagnostics.map((d) => d.summary).join("; ");
  const m = /^The configuration of (\$\w+) is known only after apply$/.exec(found);
  assert.ok(m, found);
  return m[1];
}

/** A session on `TWO` whose evaluation binds `bound` (address to configuration) when it loads. */
function sessionOf(bound: Record<string, string>, configs = TWO) {
  let loads = 0;
  const session: ProviderSession = new ProviderSession("/nowhere", () => {
    loads++;
    session.bind(
      Object.entries(bound).map(([address, providerInstance]) => ({
        address,
        provider: "pravo/fake",
        providerInstance,
      })),
    );
    return Promise.resolve(configs);
  }, INPUTS);
  return { session, loads: () => loads };
}

Deno.test("providerFor() works with the configuration the evaluation that loads the configurations binds a record's node to", async () => {
  const { session, loads } = sessionOf({ w: "$west" });
  const p = await session.providerFor({ address: "w", provider: "pravo/fake" });
  assert.equal(p.canRead({ name: "fake_thing" } as TypeSchema), true);
  assert.equal(loads(), 0, "asking for a provider evaluates nothing");
  assert.equal(await chosen(session, { address: "w", provider: "pravo/fake" }), "$west");
  assert.equal(loads(), 1);
  // Bound now: asked again, the answer is the same without waiting.
  assert.equal(await chosen(session, { address: "w", provider: "pravo/fake" }), "$west");
  // A node the evaluation does not bind, with nothing recorded: the source's first.
  assert.equal(await chosen(session, { address: "other", provider: "pravo/fake" }), "$east");
});

Deno.test("providerFor() prefers the configuration a node is bound to over the one its record names", async () => {
  const { session } = sessionOf({ w: "$west" });
  const rec = { address: "w", provider: "pravo/fake", providerInstance: "$east" };
  assert.equal(await chosen(session, rec), "$west");
});

Deno.test("providerFor() works with the configuration the record of a node no longer declared names", async () => {
  const { session } = sessionOf({});
  const rec = { address: "gone", provider: "pravo/fake", providerInstance: "$west" };
  assert.equal(await chosen(session, rec), "$west");
});

Deno.test("providerFor() refuses a recorded configuration no longer declared, with one configuration left or several", async () => {
  const rec = { address: "gone", provider: "pravo/fake", providerInstance: "$old" };
  for (const configs of [TWO, TWO.slice(1)]) {
    {
      const { session } = sessionOf({}, configs);
      const p = await session.providerFor(rec);
      const res = await p.readResource({
        address: "gone",
        type: { name: "fake_thing" } as TypeSchema,
        root: "/nowhere",
        providerConfig: {},
        prior: { attributes: {} },
      });
      assert.deepEqual(res.diagnostics.map((d) => d.summary), [
        "The provider configuration $old is not declared",
      ]);
      const names = configs.map((c) => c.address).join(", ");
      assert.ok(res.diagnostics[0].detail.includes(`(${names})`), res.diagnostics[0].detail);
      assert.match(res.diagnostics[0].detail, /Declare \$old again.*pravo state rm gone/s);
      assert.equal(res.diagnostics[0].address, "gone");
    }
  }
});
