import assert from "node:assert/strict";
import { beaconDir, beaconState, removeBeacon, takeBeacon } from "./beacon.ts";

Deno.test("takeBeacon() holds the lock's beacon until release(); another file handle sees it held", async () => {
  const dir = await Deno.makeTempDir();
  const db = `${dir}/state.db`;
  const id = crypto.randomUUID();
  assert.equal(beaconState(db, id), "missing");
  const b = takeBeacon(db, id)!;
  assert.ok(b);
  assert.equal(beaconState(db, id), "held");
  assert.equal((await Deno.stat(beaconDir(db))).mode! & 0o777, 0o700);
  b.release();
  b.release(); // twice is harmless
  assert.equal(beaconState(db, id), "missing");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("beaconState() says free once the process that held the beacon is gone, however it ended", async () => {
  const dir = await Deno.makeTempDir();
  const db = `${dir}/state.db`;
  const id = crypto.randomUUID();
  const mod = new URL("./beacon.ts", import.meta.url).href;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { takeBeacon } from "${mod}"; takeBeacon(${JSON.stringify(db)}, "${id}"); ` +
      `console.log("held"); await new Promise(() => setInterval(() => {}, 1000));`,
    ],
    stdout: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assert.match((await reader.read()).value ?? "", /held/);
  assert.equal(beaconState(db, id), "held");
  child.kill("SIGKILL");
  await child.status;
  reader.releaseLock();
  await child.stdout.cancel().catch(() => {});
  assert.equal(beaconState(db, id), "free", "the kernel let the dead holder's lock go");
  removeBeacon(db, id);
  assert.equal(beaconState(db, id), "missing");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("beaconState() and removeBeacon() take no path from an id that is not a lock id", () => {
  assert.equal(beaconState("/tmp/x/state.db", "../../etc/passwd"), "missing");
  removeBeacon("/tmp/x/state.db", "../../etc/passwd"); // does nothing
});
