/**
 * The agent against plugin providers. It can write any file in the root,
 * `pravo.jsonc` and `pravo.lock.json` included, but run no program: so it
 * plants an executable of its own in the root and points the mirror setting
 * and the lock at it, hoping that a tool runs it. It never runs:
 *
 * - `pravo mcp` pinned at start the lock, the mirrors and the verified
 *   executables; its children run exactly those (and Deno's permissions
 *   allow them nothing else), whatever the files say later;
 * - a server started on the planted setting verifies nothing inside the
 *   root, so it pins no provider, and the tools say why;
 * - the command line (scripts/pravo, narrow permissions) refuses a package
 *   inside the root, and does not even grant running it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { hashPackageDir } from "../../lib/providers/install/hash.ts";
import { call, connect, text } from "../mcp/_client.ts";
import { SCRIPT } from "../mcp/_client.ts";
import { FAKE_SOURCE, FAKE_VERSION, fakeMirror, fakeStarts, pluginRoot } from "../plugin/_roots.ts";

const MAIN = (name: string) =>
  `package demo

import fake "pravo.dev/providers/pravo/fake"

$fake: fake.#Provider & {endpoint: "http://fake.example"}

thing: $fake.#Resource.fake_thing & {name: "${name}"}
`;

/** Plants a provider package in the root that leaves a mark when it runs; returns its h1. */
async function plantEvil(root: string): Promise<{ marker: string; h1: string }> {
  const pkg = join(root, "evil", "example.com/pravo/fake", FAKE_VERSION, "linux_amd64");
  await Deno.mkdir(pkg, { recursive: true });
  const marker = join(root, "evil-ran");
  const exe = join(pkg, `terraform-provider-fake_v${FAKE_VERSION}`);
  await Deno.writeTextFile(exe, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`);
  await Deno.chmod(exe, 0o755);
  return { marker, h1: hashPackageDir(pkg) };
}

/** Points pravo.jsonc's mirrors and the lock's hashes of the fake provider at the planted package. */
async function pointAtEvil(root: string, h1: string): Promise<void> {
  await Deno.writeTextFile(
    join(root, "pravo.jsonc"),
    JSON.stringify({ providers: { [FAKE_SOURCE]: FAKE_VERSION }, provider_mirrors: ["evil"] }),
  );
  const lockPath = join(root, "pravo.lock.json");
  const lock = JSON.parse(await Deno.readTextFile(lockPath));
  lock.providers[FAKE_SOURCE].hashes = [h1];
  await Deno.writeTextFile(lockPath, JSON.stringify(lock, null, 2) + "\n");
}

Deno.test("a provider planted in the root, with the mirror setting and the lock pointed at it mid-session, never starts", async () => {
  const mirror = await fakeMirror();
  const r = await pluginRoot({ "main.cue": MAIN("one") }, {
    source: FAKE_SOURCE,
    version: FAKE_VERSION,
    mirror: mirror.dir,
  });
  const s = await connect(r.root, { script: true, env: r.env });
  try {
    const first = await call(s, "pravo_plan", { out: "a.plan" });
    assert.equal(first.structuredContent?.exit_code, 2, text(first));
    const started = await fakeStarts(mirror);
    assert.ok(started >= 1, "the pinned provider ran for the plan");

    // The agent plants its own provider and points everything at it.
    const evil = await plantEvil(r.root);
    await pointAtEvil(r.root, evil.h1);
    await Deno.writeTextFile(join(r.root, "main.cue"), MAIN("two"));

    const second = await call(s, "pravo_plan", { out: "b.plan" });
    assert.equal(second.structuredContent?.exit_code, 2, text(second));
    assert.match(text(second), /"name": "two"/);
    assert.ok(await fakeStarts(mirror) > started, "the pinned provider ran again");
    const apply = await call(s, "pravo_apply_plan", { planfile: "b.plan" });
    assert.equal(apply.structuredContent?.exit_code, 0, text(apply));
    const providers = await call(s, "pravo_providers");
    assert.equal(providers.structuredContent?.exit_code, 0, text(providers));
    assert.ok(!existsSync(evil.marker), "the planted executable never ran");
  } finally {
    await s.close();
  }

  // A server started on the planted setting pins nothing inside the root.
  const again = await connect(r.root, { script: true, env: r.env });
  try {
    await Deno.writeTextFile(join(r.root, "main.cue"), MAIN("three"));
    const plan = await call(again, "pravo_plan", {});
    assert.equal(plan.structuredContent?.exit_code, 1, text(plan));
    assert.match(text(plan), /was not verified when pravo mcp started/);
    assert.match(again.stderr(), /inside the root/);
    const evil = join(r.root, "evil-ran");
    assert.ok(!existsSync(evil), "the planted executable never ran");
  } finally {
    await again.close();
  }

  // Nor does the command line run it, nor even grant running it.
  const planned = await new Deno.Command(SCRIPT, {
    args: ["plan"],
    cwd: r.root,
    env: { ...r.env, PRAVO_ACTOR: "test" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(planned.stderr);
  assert.equal(planned.code, 1, err);
  assert.match(err, /inside the root/);
  const dry = await new Deno.Command(SCRIPT, {
    args: ["plan"],
    cwd: r.root,
    env: { ...r.env, PRAVO_SCRIPT_DRY_RUN: "1" },
    stdout: "piped",
  }).output();
  const cmd = new TextDecoder().decode(dry.stdout);
  assert.ok(!cmd.includes(join(r.root, "evil")), cmd);
  assert.ok(!existsSync(join(r.root, "evil-ran")), "the planted executable never ran");
});
