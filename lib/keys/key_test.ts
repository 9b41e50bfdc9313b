import assert from "node:assert/strict";
import { keyFilePath, loadKey } from "./key.ts";
import { seal, sealText, unseal, unsealText } from "./seal.ts";
import { DiagnosticsError } from "../diag/diag.ts";

function envOf(vars: Record<string, string>) {
  return (name: string) => vars[name];
}

Deno.test("loadKey() creates the key file once, 0600, and loads the same key again", () => {
  const dir = Deno.makeTempDirSync();
  const env = envOf({ PRAVO_KEY_FILE: `${dir}/k/key` });
  const a = loadKey({ env });
  assert.equal(a.created, true);
  assert.equal(Deno.statSync(`${dir}/k/key`).mode! & 0o777, 0o600);
  const b = loadKey({ env });
  assert.equal(b.created, false);
  assert.equal(a.fingerprint, b.fingerprint);
  assert.deepEqual(a.derive("plan"), b.derive("plan"));
  assert.notDeepEqual(a.derive("plan"), a.derive("state"));
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("loadKey() reads $PRAVO_KEY and refuses one that is not a key", () => {
  const dir = Deno.makeTempDirSync();
  const file = loadKey({ env: envOf({ PRAVO_KEY_FILE: `${dir}/key` }) });
  const text = Deno.readTextFileSync(`${dir}/key`).trim();
  const inline = loadKey({ env: envOf({ PRAVO_KEY: text }) });
  assert.equal(inline.fingerprint, file.fingerprint);
  assert.equal(inline.source, "$PRAVO_KEY");
  assert.throws(
    () => loadKey({ env: envOf({ PRAVO_KEY: "c2hvcnQ=" }) }),
    (e) => e instanceof DiagnosticsError && /base64/.test(e.diagnostics[0].detail),
  );
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("loadKey() refuses a key file inside the root, also through a symbolic link", () => {
  const dir = Deno.makeTempDirSync();
  Deno.mkdirSync(`${dir}/root`);
  assert.throws(
    () => loadKey({ root: `${dir}/root`, env: envOf({ PRAVO_KEY_FILE: `${dir}/root/k` }) }),
    (e) => e instanceof DiagnosticsError && /inside the root/.test(e.diagnostics[0].summary),
  );
  Deno.symlinkSync(`${dir}/root`, `${dir}/link`);
  assert.throws(
    () => loadKey({ root: `${dir}/root`, env: envOf({ PRAVO_KEY_FILE: `${dir}/link/sub/k` }) }),
    (e) => e instanceof DiagnosticsError && /inside the root/.test(e.diagnostics[0].summary),
  );
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("loadKey() without create names what to do when there is no key", () => {
  const dir = Deno.makeTempDirSync();
  assert.throws(
    () => loadKey({ create: false, env: envOf({ PRAVO_KEY_FILE: `${dir}/none` }) }),
    (e) => e instanceof DiagnosticsError && /pravo init/.test(e.diagnostics[0].detail),
  );
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("keyFilePath() follows PRAVO_KEY_FILE, XDG_CONFIG_HOME, then HOME", () => {
  assert.equal(keyFilePath(envOf({ PRAVO_KEY_FILE: "/a/k", HOME: "/h" })), "/a/k");
  assert.equal(keyFilePath(envOf({ XDG_CONFIG_HOME: "/x", HOME: "/h" })), "/x/pravo/key");
  assert.equal(keyFilePath(envOf({ HOME: "/h" })), "/h/.config/pravo/key");
  assert.equal(keyFilePath(envOf({})), undefined);
});

Deno.test("seal() output opens only with the same key and associated data", () => {
  const k1 = new Uint8Array(32).fill(1), k2 = new Uint8Array(32).fill(2);
  const aad = new TextEncoder().encode("here");
  const s = seal(k1, new TextEncoder().encode("secret"), aad);
  assert.equal(new TextDecoder().decode(unseal(k1, s, aad)!), "secret");
  assert.equal(unseal(k2, s, aad), undefined);
  assert.equal(unseal(k1, s, new TextEncoder().encode("there")), undefined);
  const flipped = s.slice();
  flipped[14] ^= 1;
  assert.equal(unseal(k1, flipped, aad), undefined);
  const t = sealText(k1, "hello", "a");
  assert.equal(unsealText(k1, t, "a"), "hello");
  assert.equal(unsealText(k1, t, "b"), undefined);
  assert.equal(unsealText(k1, "not base64 at all!", "a"), undefined);
});
