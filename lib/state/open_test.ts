import assert from "node:assert/strict";
import { join } from "node:path";
import { DiagnosticsError } from "../diag/diag.ts";
import { openStore, postgresLocation, stateLocation, withoutPassword } from "./open.ts";

Deno.test("openStore() refuses a root that was never initialised, naming it", async () => {
  const root = await Deno.makeTempDir({ prefix: "pravo-open-" });
  await assert.rejects(openStore({ root }), (e: unknown) => {
    assert.ok(e instanceof DiagnosticsError);
    assert.equal(e.kind, "error");
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

Deno.test("stateLocation() reads sqlite:PATH and postgres:// URLs, refuses unknown forms", async () => {
  assert.deepEqual(await stateLocation({ root: "/r" }), {
    backend: "sqlite",
    path: join("/r", ".pravo", "state.db"),
    isDefault: true,
  });
  assert.equal((await stateLocation({ root: "/r", state: "sqlite:x/s.db" })).path, "/r/x/s.db");
  assert.equal((await stateLocation({ root: "/r", state: "sqlite:/abs/s.db" })).path, "/abs/s.db");
  const pg = await stateLocation({ root: "/r", state: "postgresql://u:p%40ss@h/db?root=net/prod" });
  assert.equal(pg.backend, "postgres");
  assert.equal(pg.path, "postgres://u@h:5432/db?root=net%2Fprod");
  assert.ok(pg.backend === "postgres" && pg.password === "p@ss" && pg.rootKey === "net/prod");
  await assert.rejects(
    () => stateLocation({ root: "/r", state: "postgres://u:secret@h/db" }),
    (e: unknown) => {
      assert.ok(e instanceof DiagnosticsError);
      assert.equal(e.diagnostics[0].summary, "The PostgreSQL state location names no root key");
      assert.ok(!e.diagnostics[0].detail.includes("secret"), e.diagnostics[0].detail);
      return true;
    },
  );
  await assert.rejects(() => stateLocation({ root: "/r", state: "sqlite:" }), /names no file/);
  await assert.rejects(
    () => stateLocation({ root: "/r", state: "mysql://u:pw@h" }),
    (e: unknown) => {
      assert.ok(e instanceof DiagnosticsError);
      assert.equal(e.kind, "usage");
      assert.equal(e.diagnostics[0].summary, 'Unknown state location "mysql://u:***@h"');
      return true;
    },
  );
  assert.equal(withoutPassword("postgres://me:secret@h:5432/db"), "postgres://me:***@h:5432/db");
  assert.equal(withoutPassword("postgres://me:se@cr/et@h/db"), "postgres://me:***@h/db");
  assert.equal(withoutPassword("postgres://h/db"), "postgres://h/db");
});

Deno.test("postgresLocation() reads hosts, ports, parameters, and refuses what it cannot use", () => {
  const l = postgresLocation("postgres://ci@a:1,[::1]:2,b/infra?schema=ops&sslmode=require", {
    root: "web",
  });
  assert.deepEqual(l.hosts, [{ host: "a", port: 1 }, { host: "[::1]", port: 2 }, {
    host: "b",
    port: 5432,
  }]);
  assert.equal(l.schema, "ops");
  assert.equal(l.sslmode, "require");
  assert.equal(l.rootKey, "web", "the key from pravo.jsonc when the URL has none");
  assert.equal(postgresLocation("postgres://h/d?root=url", { root: "cfg" }).rootKey, "url");
  assert.throws(() => postgresLocation("postgres://h/d?root=a&user=x"), /Unknown parameter "user"/);
  assert.throws(() => postgresLocation("postgres://h?root=a"), /names no database/);
  assert.throws(
    () => postgresLocation("postgres://h/d?root=/abs"),
    /root key "\/abs" is not valid/,
  );
  assert.throws(() => postgresLocation("postgres://h/d?root=a&schema=A-b"), /schema name/);
  assert.throws(() => postgresLocation("postgres://h/d?root=a&sslmode=prefer"), /sslmode/);
});

Deno.test("stateLocation() takes pravo.jsonc's state.url and root unless --state is given", async () => {
  const root = await Deno.makeTempDir({ prefix: "pravo-open-" });
  try {
    await Deno.writeTextFile(
      join(root, "pravo.jsonc"),
      `{
        // the team's database
        "state": {"url": "postgres://pravo@db:6432/infra", "root": "net/prod",},
      }`,
    );
    const l = await stateLocation({ root });
    assert.equal(l.path, "postgres://pravo@db:6432/infra?root=net%2Fprod");
    assert.equal(l.isDefault, false);
    assert.equal((await stateLocation({ root, state: "sqlite:s.db" })).path, join(root, "s.db"));
    const other = await stateLocation({ root, state: "postgres://x@other/db" });
    assert.ok(other.backend === "postgres" && other.rootKey === "net/prod");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
