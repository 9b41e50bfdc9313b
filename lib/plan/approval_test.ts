import assert from "node:assert/strict";
import { join } from "node:path";
import type { DiagnosticsError } from "../diag/diag.ts";
import {
  loadApproverPrivateKey,
  loadApproverPublicKey,
  makeApproverKey,
} from "../keys/approver.ts";
import {
  APPROVAL_DOMAIN,
  approvalsFile,
  type ApprovalStatement,
  findApproval,
  recordApproval,
  signApproval,
  verifyApproval,
} from "./approval.ts";

async function setup() {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pravo-approval-" }));
  const root = join(base, "root");
  await Deno.mkdir(join(root, ".pravo"), { recursive: true });
  const alice = await makeApproverKey(join(base, "alice"), { root });
  const mallory = await makeApproverKey(join(base, "mallory"), { root });
  return {
    base,
    root,
    aliceKey: await loadApproverPrivateKey(alice.privatePath, { root }),
    alicePub: await loadApproverPublicKey(alice.publicPath, { root }),
    malloryKey: await loadApproverPrivateKey(mallory.privatePath, { root }),
  };
}

function statement(extra: Partial<ApprovalStatement> = {}): ApprovalStatement {
  return {
    domain: APPROVAL_DOMAIN,
    plan_sha256: "a".repeat(64),
    plan_id: "p-1",
    state_lineage: "l-1",
    actor: "alice",
    reason: "reviewed",
    approved_at: "2030-01-01T00:00:00.000Z",
    ...extra,
  };
}

Deno.test("verifyApproval() accepts a statement signed by a trusted key, and nothing changed in it", async () => {
  const t = await setup();
  const r = await signApproval(statement(), t.aliceKey);
  assert.equal(r.key, t.alicePub.fingerprint);
  assert.equal((await verifyApproval(r, [t.alicePub]))?.fingerprint, t.alicePub.fingerprint);
  // Any field changed: the signature no longer holds.
  for (
    const change of [
      { plan_sha256: "b".repeat(64) },
      { plan_id: "p-2" },
      { state_lineage: "l-2" },
      { actor: "mallory" },
      { reason: "" },
      { approved_at: "2031-01-01T00:00:00.000Z" },
    ]
  ) {
    const forged = { ...r, statement: { ...r.statement, ...change } };
    assert.equal(await verifyApproval(forged, [t.alicePub]), undefined, JSON.stringify(change));
  }
  // Another domain, even well signed, approves no plan.
  const other = await signApproval(statement({ domain: "something else" }), t.aliceKey);
  assert.equal(await verifyApproval(other, [t.alicePub]), undefined);
  // A key the server does not trust, even naming a trusted fingerprint.
  const byMallory = await signApproval(statement(), t.malloryKey);
  assert.equal(await verifyApproval(byMallory, [t.alicePub]), undefined);
  assert.equal(
    await verifyApproval({ ...byMallory, key: t.alicePub.fingerprint }, [t.alicePub]),
    undefined,
  );
  // Nothing trusted: nothing approved.
  assert.equal(await verifyApproval(r, []), undefined);
  for (const junk of [null, 1, "x", {}, { statement: {} }, { ...r, signature: "AA==" }]) {
    assert.equal(await verifyApproval(junk, [t.alicePub]), undefined);
  }
  await Deno.remove(t.base, { recursive: true });
});

Deno.test("findApproval() finds a trusted, verified approval of the digest, and skips every other line", async () => {
  const t = await setup();
  const digest = "c".repeat(64);
  const lines = [
    "not json " + digest,
    JSON.stringify({ plan_id: "p-1", digest, actor: "agent" }), // the old, unsigned form
    JSON.stringify({ statement: statement({ plan_sha256: digest }), key: "x", signature: "AA==" }),
    JSON.stringify(await signApproval(statement({ plan_sha256: digest }), t.malloryKey)),
  ];
  await Deno.writeTextFile(approvalsFile(t.root), lines.join("\n") + "\n");
  assert.equal(await findApproval(t.root, digest, [t.alicePub]), undefined);
  recordApproval(t.root, await signApproval(statement({ plan_sha256: digest }), t.aliceKey));
  const found = await findApproval(t.root, digest, [t.alicePub]);
  assert.equal(found?.by.fingerprint, t.alicePub.fingerprint);
  assert.equal(found?.record.statement.actor, "alice");
  assert.equal(await findApproval(t.root, "d".repeat(64), [t.alicePub]), undefined);
  await Deno.remove(t.base, { recursive: true });
});

Deno.test("recordApproval() refuses to write through a link an agent put in place of the approvals file", async () => {
  const t = await setup();
  const target = join(t.base, "outside.txt");
  await Deno.writeTextFile(target, "mine\n");
  await Deno.symlink(target, approvalsFile(t.root));
  const r = await signApproval(statement(), t.aliceKey);
  assert.throws(() => recordApproval(t.root, r), (e: unknown) => {
    assert.match((e as DiagnosticsError).diagnostics[0].detail, /not a plain file/);
    return true;
  });
  // Nor through a .pravo that is a link out of the root.
  await Deno.remove(join(t.root, ".pravo"), { recursive: true });
  await Deno.symlink(t.base, join(t.root, ".pravo"));
  assert.throws(() => recordApproval(t.root, r), (e: unknown) => {
    assert.match((e as DiagnosticsError).diagnostics[0].detail, /\.pravo is a symbolic link/);
    return true;
  });
  await assert.rejects(Deno.stat(join(t.base, "approvals.jsonl")), Deno.errors.NotFound);
  assert.equal(await Deno.readTextFile(target), "mine\n");
  await Deno.remove(t.base, { recursive: true });
});

Deno.test("makeApproverKey() writes a 0600 private key and its public key, never over a file, never in the root", async () => {
  const t = await setup();
  const made = await makeApproverKey(join(t.base, "bob"), { root: t.root });
  assert.equal((await Deno.stat(made.privatePath)).mode! & 0o777, 0o600);
  assert.match(await Deno.readTextFile(made.privatePath), /^-----BEGIN PRIVATE KEY-----\n/);
  assert.match(await Deno.readTextFile(made.publicPath), /^-----BEGIN PUBLIC KEY-----\n/);
  const priv = await loadApproverPrivateKey(made.privatePath, { root: t.root });
  const pub = await loadApproverPublicKey(made.publicPath, { root: t.root });
  assert.equal(priv.fingerprint, made.fingerprint);
  assert.equal(pub.fingerprint, made.fingerprint);
  // The PEM itself, as $PRAVO_APPROVER_KEY may hold it.
  const inline = await loadApproverPrivateKey(await Deno.readTextFile(made.privatePath), {
    root: t.root,
  });
  assert.equal(inline.fingerprint, made.fingerprint);
  const before = await Deno.readTextFile(made.privatePath);
  await assert.rejects(makeApproverKey(join(t.base, "bob"), { root: t.root }), /exists/);
  assert.equal(await Deno.readTextFile(made.privatePath), before);
  await assert.rejects(makeApproverKey(join(t.root, "k"), { root: t.root }), /inside the root/);
  await Deno.symlink(t.root, join(t.base, "link"));
  await assert.rejects(
    makeApproverKey(join(t.base, "link", "k"), { root: t.root }),
    /inside the root/,
  );
  // The public key is not a private key, and the other way round; a relative or inside path is refused.
  await assert.rejects(
    loadApproverPrivateKey(made.publicPath, { root: t.root }),
    /is not an approver's private key/,
  );
  await assert.rejects(
    loadApproverPublicKey(made.privatePath, { root: t.root }),
    /is not an approver's public key/,
  );
  await assert.rejects(loadApproverPublicKey("bob.pub", { root: t.root }), /absolute path/);
  await Deno.copyFile(made.publicPath, join(t.root, "bob.pub"));
  await assert.rejects(
    loadApproverPublicKey(join(t.root, "bob.pub"), { root: t.root }),
    /inside the root/,
  );
  await Deno.copyFile(made.privatePath, join(t.root, "bob"));
  await assert.rejects(
    loadApproverPrivateKey(join(t.root, "bob"), { root: t.root }),
    /inside the root/,
  );
  await Deno.remove(t.base, { recursive: true });
});
