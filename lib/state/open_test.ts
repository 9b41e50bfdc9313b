import assert from "node:assert/strict";
import { join } from "node:path";
import { DiagnosticsError } from "../diag/diag.ts";
import { openStore, stateLocation, withoutPassword } from "./open.ts";

Deno.test("openStore() refuses a root that was never initialised, naming it", async () => {
  const root = await Deno.makeTempDir({ prefix: "pravo-open-" });
  await assert.rejects(openStore({ root }), (e: unknown) => {
    assert.ok(e instanceof DiagnosticsError);
    assert.equal(e.exitCode, 1);
    assert.equal(e.diagnostics[0].summary, "The root is not initialised");
    assert.ok(e.diagnostics[0].detail.endsWith(`Run \`pravo init\` in ${root} first.`));
    return true;
  });
  assert.deepEqual([...Deno.readDirSync(root)], [], "opening created nothing");
  const s = await openStore({ root }, { create: true });
  await s.close();
  const again = await openStore({ root });
  assert.equal(again.created, false);
  await again.close();
  await Deno.remove(root, { recursive: true });
});

Deno.test("stateLocation() reads sqlite:PATH, refuses postgres:// for now and unknown forms", () => {
  assert.deepEqual(stateLocation({ root: "/r" }), {
    backend: "sqlite",
    path: join("/r", ".pravo", "state.db"),
    isDefault: true,
  });
  assert.equal(stateLocation({ root: "/r", state: "sqlite:x/s.db" }).path, "/r/x/s.db");
  assert.equal(stateLocation({ root: "/r", state: "sqlite:/abs/s.db" }).path, "/abs/s.db");
  assert.throws(
    () => stateLocation({ root: "/r", state: "postgresql://u:p@h/db" }),
    /PostgreSQL state is not available yet/,
  );
  assert.throws(() => stateLocation({ root: "/r", state: "sqlite:" }), /names no file/);
  assert.throws(() => stateLocation({ root: "/r", state: "mysql://u:pw@h" }), (e: unknown) => {
    assert.ok(e instanceof DiagnosticsError);
    assert.equal(e.exitCode, 64);
    assert.equal(e.diagnostics[0].summary, 'Unknown state location "mysql://u:***@h"');
    return true;
  });
  assert.equal(withoutPassword("postgres://me:secret@h:5432/db"), "postgres://me:***@h:5432/db");
  assert.equal(withoutPassword("postgres://h/db"), "postgres://h/db");
});
