/**
 * The engine on a plugin provider, through the real pravo: the fake
 * provider (protocol 6) packaged in a mirror, installed and pinned by
 * `pravo init`, started only when a plan or apply needs it.
 *
 * What is checked: plan, apply and a no-op plan that starts no provider;
 * values known after apply; a sensitive attribute and a write-only one
 * never shown and never stored in clear, the provider's private data
 * sealed at rest; a provider diagnostic at the file, line and column of the
 * attribute it names; a provider that dies during apply failing its node
 * and the nodes that depend on it, cleanly; a replacement forced by the
 * provider's `requires_replace`, and `why` saying so; a state written with
 * an older schema version upgraded by the provider; import; destroy.
 *
 * @module
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { PROJECT } from "./_fake.ts";
import { pravo } from "../_pravo.ts";
import { FAKE_SOURCE, FAKE_VERSION, fakeMirror, fakeStarts, pluginRoot } from "./_roots.ts";

const MAIN = (extra = "") =>
  `package demo

import fake "pravo.dev/providers/pravo/fake"

$fake: fake.#Provider & {endpoint: "http://fake.example", token: "tok-0123456789"}

alpha: $fake.#Resource.fake_thing & {
	name:        "alpha"
	size:        3
	secret:      "s3cr3t-value-42"
	password_wo: "wo-pass-98765"
	settings: {mode: "fast"}
	listener: [{port: 80}]
}

beta: $fake.#Resource.fake_thing & {
	name: "beta-of-\\(alpha.id)"
}
${extra}`;

function lineOf(text: string, needle: string): number {
  return text.split("\n").findIndex((l) => l.includes(needle)) + 1;
}

Deno.test("a plugin provider through pravo: plan, apply, secrets, diagnostics, failures, upgrade, import, destroy", async (t) => {
  const mirror = await fakeMirror();
  const r = await pluginRoot({ "main.cue": MAIN() }, {
    source: FAKE_SOURCE,
    version: FAKE_VERSION,
    mirror: mirror.dir,
  });
  const lock = JSON.parse(await Deno.readTextFile(`${r.root}/pravo.lock.json`));
  assert.ok(lock.providers[`${FAKE_SOURCE}`], JSON.stringify(lock));

  await t.step("plan: created with values known after apply; secrets not shown", async () => {
    const res = await r.run(["plan", "--json"]);
    assert.equal(res.code, 2, res.stderr);
    const doc = JSON.parse(res.stdout);
    const alpha = doc.nodes.find((n: { address: string }) => n.address === "alpha");
    const beta = doc.nodes.find((n: { address: string }) => n.address === "beta");
    assert.equal(alpha.action, "create");
    assert.ok(alpha.after_unknown.includes("id"));
    assert.equal(alpha.after.secret, "(sensitive)");
    assert.ok(alpha.sensitive.includes("password_wo"));
    assert.ok(beta.after_unknown.includes("name"), JSON.stringify(beta));
    assert.deepEqual(beta.dependencies, ["alpha"]);
    assert.ok(!res.stdout.includes("s3cr3t-value-42") && !res.stdout.includes("wo-pass-98765"));
    const human = await r.run(["plan"]);
    assert.ok(!human.stdout.includes("s3cr3t-value-42") && !human.stdout.includes("wo-pass"));
    assert.match(human.stdout, /\+ id +\= \(known after apply\)/);
  });

  await t.step("apply, then a plan with nothing changed starts no provider", async () => {
    const res = await r.run(["apply", "-auto-approve"]);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const db = await Deno.readFile(`${r.root}/.pravo/state.db`);
    const text = new TextDecoder("latin1").decode(db);
    assert.ok(!text.includes("s3cr3t-value-42"), "the sensitive value is sealed at rest");
    assert.ok(!text.includes("wo-pass-98765"), "the write-only value is never stored");
    assert.ok(!text.includes(btoa(JSON.stringify({ planned: true }))), "private data sealed");
    const show = await r.run(["state", "show", "beta", "--json"]);
    assert.equal(show.code, 0, show.stderr);
    assert.match(JSON.parse(show.stdout).record.attributes.name, /^beta-of-thing-\d+$/);
    const before = await fakeStarts(mirror);
    const again = await r.run(["plan"]);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /No changes/);
    assert.equal(await fakeStarts(mirror), before, "no provider started for a no-op plan");
  });

  await t.step("a provider's diagnostic points at the attribute it names", async () => {
    const src = MAIN().replace("size:        3", "size:        -1");
    await Deno.writeTextFile(`${r.root}/main.cue`, src);
    const res = await r.run(["plan"]);
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.match(res.stderr, /Invalid size/);
    assert.ok(
      res.stderr.includes(`main.cue line ${lineOf(src, "size:")}`),
      res.stderr,
    );
    await Deno.writeTextFile(`${r.root}/main.cue`, MAIN());
  });

  await t.step("a provider configuration's diagnostic points at it", async () => {
    const src = MAIN().replace('endpoint: "http://fake.example"', 'endpoint: "bad"');
    await Deno.writeTextFile(`${r.root}/main.cue`, src);
    // A change, so that the provider must plan (and so start, and be configured).
    await Deno.writeTextFile(`${r.root}/main.cue`, src.replace("size:        3", "size:        4"));
    const res = await r.run(["plan"]);
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.match(res.stderr, /Bad endpoint/);
    assert.ok(res.stderr.includes(`main.cue line ${lineOf(src, "$fake:")}`), res.stderr);
    await Deno.writeTextFile(`${r.root}/main.cue`, MAIN());
  });

  await t.step("a provider that dies fails its node and the nodes that depend on it", async () => {
    const extra = `gamma: $fake.#Resource.fake_thing & {name: "crash"}
delta: $fake.#Resource.fake_thing & {name: "after-\\(gamma.id)"}
`;
    await Deno.writeTextFile(`${r.root}/main.cue`, MAIN(extra));
    const res = await r.run(["apply", "-auto-approve", "--json"]);
    assert.equal(res.code, 1, res.stdout + res.stderr);
    const doc = JSON.parse(res.stdout);
    const status = Object.fromEntries(
      doc.nodes.map((n: { address: string; status: string }) => [n.address, n.status]),
    );
    assert.equal(status.gamma, "failed");
    assert.equal(status.delta, "skipped");
    assert.ok(
      doc.diagnostics.some((d: { summary: string }) => /stopped during/.test(d.summary)),
      JSON.stringify(doc.diagnostics),
    );
    await Deno.writeTextFile(`${r.root}/main.cue`, MAIN());
  });

  await t.step("requires_replace makes a replacement, and why says so", async () => {
    await Deno.writeTextFile(
      `${r.root}/main.cue`,
      MAIN().replace('name:        "alpha"', 'name:        "alpha2"'),
    );
    const res = await r.run(["plan", "--json"]);
    assert.equal(res.code, 2, res.stderr);
    const alpha = JSON.parse(res.stdout).nodes.find((n: { address: string }) =>
      n.address === "alpha"
    );
    assert.equal(alpha.action, "replace");
    assert.deepEqual(alpha.replace_because, ["name"]);
    const why = await r.run(["why", "alpha"]);
    assert.match(why.stdout, /name changed: "alpha" -> "alpha2" \(forces replacement\)/);
    await Deno.writeTextFile(`${r.root}/main.cue`, MAIN());
  });

  await t.step("a state of an older schema version is upgraded by the provider", async () => {
    const db = new DatabaseSync(`${r.root}/.pravo/state.db`);
    const row = db.prepare("SELECT attributes, provider_data FROM records WHERE address = 'alpha'")
      .get()!;
    const attrs = JSON.parse(String(row.attributes));
    attrs.title = attrs.name;
    delete attrs.name;
    const data = JSON.parse(String(row.provider_data));
    assert.equal(data.schema_version, 1);
    data.schema_version = 0;
    db.prepare("UPDATE records SET attributes = ?, provider_data = ? WHERE address = 'alpha'")
      .run(JSON.stringify(attrs), JSON.stringify(data));
    db.close();
    // Planned without reading the real world: the prior object is the one
    // of the state, as the provider upgraded it (`title` became `name`).
    const res = await r.run(["plan", "--full", "--refresh", "false", "--json"]);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const alpha = JSON.parse(res.stdout).nodes.find((n: { address: string }) =>
      n.address === "alpha"
    );
    assert.equal(alpha.action, "no-op");
    assert.equal(alpha.before.name, "alpha");
    assert.equal(alpha.before.title, undefined);
  });

  await t.step("import takes an object made outside into a node", async () => {
    // The fake provider's objects live in its state file: make one there.
    const saved = JSON.parse(await Deno.readTextFile(mirror.state));
    const one = { ...saved.things[0], id: "thing-900", name: "outside", created: "created-900" };
    saved.things.push(one);
    await Deno.writeTextFile(mirror.state, JSON.stringify(saved));
    await Deno.writeTextFile(
      `${r.root}/main.cue`,
      MAIN(`outside: $fake.#Resource.fake_thing & {name: "outside"}\n`),
    );
    const res = await r.run(["import", "outside", "thing-900"]);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const show = await r.run(["state", "show", "outside", "--json"]);
    assert.equal(JSON.parse(show.stdout).record.attributes.id, "thing-900");
    const missing = await r.run(["import", "outside", "thing-901"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /already in the state/);
  });

  await t.step(
    "a data source is read at plan, with the environment the provider gets",
    async () => {
      await Deno.writeTextFile(
        `${r.root}/main.cue`,
        MAIN(`env: $fake.#Data.fake_env & {names: ["FAKE_VISIBLE", "PRAVO_REASON", "DENO_DIR"]}
outputs: seen: env.values
`),
      );
      const res = await pravoIn(r, ["plan", "--json"], {
        FAKE_VISIBLE: "yes",
        PRAVO_REASON: "a reason pravo keeps to itself",
        DENO_DIR: "/nowhere",
      });
      assert.ok(res.code === 0 || res.code === 2, res.stdout + res.stderr);
      const doc = JSON.parse(res.stdout);
      const env = doc.nodes.find((n: { address: string }) => n.address === "env");
      assert.equal(env.action, "read");
      // The provider gets the user's environment, never pravo's own variables.
      assert.deepEqual(env.after.values, { FAKE_VISIBLE: "yes" });
      assert.deepEqual(doc.outputs.seen, { FAKE_VISIBLE: "yes" });
      await Deno.writeTextFile(`${r.root}/main.cue`, MAIN());
    },
  );

  await t.step("destroy", async () => {
    const res = await r.run(["apply", "-auto-approve", "--destroy"]);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const after = await r.run(["plan", "--json", "--destroy"]);
    assert.equal(JSON.parse(after.stdout).nodes.length, 0);
  });
});

Deno.test("the first Ctrl-C sends Stop to the providers: a call in flight returns at once, the lock is released, exit 130", async () => {
  const mirror = await fakeMirror();
  const r = await pluginRoot({
    "main.cue": `package demo

import fake "pravo.dev/providers/pravo/fake"

$fake: fake.#Provider & {endpoint: "http://fake.example"}

slow: $fake.#Data.fake_slow & {ms: 120000}
`,
  }, { source: FAKE_SOURCE, version: FAKE_VERSION, mirror: mirror.dir });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${PROJECT}/main.ts`, "--no-color", "apply", "-auto-approve"],
    cwd: r.root,
    env: { ...r.env, PRAVO_ACTOR: "test" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // The provider says when the read is in flight (a guard of 120 s, not a measure).
  const events = () => Deno.readTextFile(mirror.events).catch(() => "");
  const until = Date.now() + 120_000;
  while (!(await events()).includes("slow read waiting\n")) {
    if (Date.now() > until) throw new Error(`the read never started:\n${await events()}`);
    await new Promise((res) => setTimeout(res, 50));
  }
  child.kill("SIGINT");
  const out = await child.output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 130, stderr);
  // Stop reached the provider, and the read returned at once: it did not wait its two minutes.
  const seen = await events();
  assert.ok(seen.includes("\nstop\n") && seen.includes("\nslow read stopped\n"), seen);
  assert.match(stderr, /Interrupted by SIGINT/);
  const locks = await r.run(["state", "locks", "--json"]);
  assert.equal(JSON.parse(locks.stdout).lock, null, locks.stdout);
});

/** pravo in a plugin root with more variables in its environment. */
function pravoIn(
  r: { root: string; env: Record<string, string> },
  args: string[],
  env: Record<string, string>,
) {
  return pravo(r.root, args, { env: { ...r.env, ...env } });
}
