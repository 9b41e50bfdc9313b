import assert from "node:assert/strict";
import { COMMANDS } from "../cli/commands.ts";
import { IMPLEMENTATIONS } from "./registry.ts";

Deno.test("every command has one implementation, and every implementation a command", async () => {
  assert.deepEqual(Object.keys(IMPLEMENTATIONS).sort(), COMMANDS.map((c) => c.name).sort());
  for (const [name, load] of Object.entries(IMPLEMENTATIONS)) {
    assert.equal(typeof (await load()).run, "function", name);
  }
});
