import assert from "node:assert/strict";
import { join } from "node:path";
import { loadPolicy } from "../../policy/mod.ts";
import { DiagnosticsError } from "../diag/diag.ts";
import { rootConfig } from "./config.ts";
import { stateLocation } from "../state/open.ts";
import { MAIN, makeRoot, run, SEED } from "../../tests/_pravo.ts";
import { lockFileText } from "./pinned_files.ts";
import { mergeTags, parsePinned, type Pinned, PINNED_FLAG } from "./pinned.ts";
import { openWorkspace } from "./workspace.ts";
import { toBase64 } from "../bytes.ts";

function doc(root: string, extra: Partial<Pinned> = {}): Pinned {
  return {
    pinned: 1,
    root,
    state: { backend: "sqlite", path: join(root, ".pravo", "pinned.db"), isDefault: false },
    config: {},
    policies: [],
    tags: {},
    actor: "op",
    reason: "",
    ...extra,
  };
}

Deno.test("pinned: stateLocation(), rootConfig(), lockFileText() and loadPolicy() answer from the pinned document, not the files", async () => {
  const root = await makeRoot({
    "pravo.jsonc": '{"state": {"url": "sqlite:.pravo/from-file.db"}}',
    "pravo.lock.json": "now",
    "keep.cue": "// nothing\n",
  });
  const policy = "summary: destroy: 0\n";
  const pinned = doc(root, {
    config: { state: { url: "sqlite:.pravo/pinned.db" } },
    configPath: join(root, "pravo.jsonc"),
    lockFile: "then",
    policies: [{ path: join(root, "keep.cue"), bytes: toBase64(new TextEncoder().encode(policy)) }],
  });
  const signal = new AbortController().signal;
  const workspace = await openWorkspace(root, { pinned, signal });
  {
    assert.equal(
      (await stateLocation({ root, state: "sqlite:/elsewhere.db", workspace }) as { path: string })
        .path,
      join(root, ".pravo", "pinned.db"),
    );
    assert.deepEqual(rootConfig(root, pinned).config, {
      state: { url: "sqlite:.pravo/pinned.db" },
    });
    assert.deepEqual(workspace.config.config, { state: { url: "sqlite:.pravo/pinned.db" } });
    assert.equal(lockFileText(root, pinned), "then");
    await Deno.remove(join(root, "keep.cue"));
    const p = await loadPolicy(join(root, "keep.cue"), { pinned });
    assert.deepEqual(p.rules.map((r) => r.rule), ["summary.destroy"]);
    // A policy the server did not pin is refused, even if the file is there.
    await Deno.writeTextFile(join(root, "other.cue"), policy);
    await assert.rejects(loadPolicy(join(root, "other.cue"), { pinned }), (e) => {
      assert.ok(e instanceof DiagnosticsError);
      assert.equal(e.kind, "policy");
      assert.match(e.diagnostics[0].summary, /the server did not pin it/);
      return true;
    });
    // Another root is not pinned.
    const other = await makeRoot({});
    assert.equal(lockFileText(other, pinned), undefined);
  }
  // Without the pinned document, the files.
  assert.equal(lockFileText(root, undefined), "now");
  assert.match(
    (await stateLocation({ root, state: undefined }) as { path: string }).path,
    /from-file/,
  );
});

Deno.test("mergeTags(): the operator's tags win; a different agent value is a conflict", () => {
  assert.deepEqual(mergeTags({ env: "prod" }, { region: "eu", env: "prod" }), {
    tags: { region: "eu", env: "prod" },
  });
  assert.deepEqual(mergeTags({ env: "prod" }, { env: "dev" }), { conflict: "env" });
  assert.deepEqual(mergeTags({}, JSON.parse('{"__proto__": "x"}')), {
    tags: JSON.parse('{"__proto__": "x"}'),
  });
});

Deno.test("parsePinned() refuses what is not a pinned document", () => {
  for (const bad of ["", "[]", '{"pinned": 2}', JSON.stringify({ ...doc("/r"), root: "r" })]) {
    assert.throws(() => parsePinned(bad), /the pinned document on standard input/);
  }
  assert.equal(parsePinned(JSON.stringify(doc("/r"))).root, "/r");
});

function pinnedRun(root: string, pinned: Pinned, args: string[], env = {}) {
  return run(
    Deno.execPath(),
    ["run", "-A", "--quiet", MAIN, PINNED_FLAG, "--json", "--no-color", ...args],
    {
      cwd: root,
      env: { PRAVO_STATE: "sqlite:/nowhere/state.db", ...env },
      stdin: JSON.stringify(pinned),
    },
  );
}

Deno.test("main.ts --pinned-stdin: the root, state, actor and tags come from stdin; -C, --state, --actor on the line and a changed operator tag are refused", async () => {
  const root = await makeRoot({
    "main.cue": SEED.replace('seed: "base"', "seed: env") + "env: string @tag(env)\n",
  });
  const pinned = doc(root, { tags: { env: "prod" }, actor: "operator-agent" });
  const init = await pinnedRun(root, pinned, ["init"]);
  assert.equal(init.code, 0, init.stderr);
  const plan = await pinnedRun(root, pinned, ["plan"]);
  assert.equal(plan.code, 2, plan.stderr);
  const p = JSON.parse(plan.stdout);
  assert.deepEqual([p.tags, p.actor], [{ env: "prod" }, "operator-agent"]);
  assert.equal((await pinnedRun(root, pinned, ["-t", "env=prod", "validate"])).code, 0);
  const conflict = await pinnedRun(root, pinned, ["-t", "env=dev", "validate"]);
  assert.equal(conflict.code, 64);
  assert.match(conflict.stderr, /tag "env" is set by the server to "prod"/);
  for (const flag of [["-C", "/"], ["--state", "sqlite:x.db"], ["--actor", "me"]]) {
    const r = await pinnedRun(root, pinned, [...flag, "validate"]);
    assert.equal(r.code, 64, flag.join(" "));
    assert.match(r.stderr, /is given by pravo mcp's pinned document/);
  }
});
