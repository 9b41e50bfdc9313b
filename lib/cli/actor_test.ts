import assert from "node:assert/strict";
import { defaultActor, hostUserName } from "./actor.ts";

const env = (vars: Record<string, string>) => (k: string) => vars[k];

Deno.test("defaultActor() takes --actor, then $PRAVO_ACTOR, $USER, $LOGNAME", async () => {
  const host = () => "host";
  assert.equal(await defaultActor("flag", env({ PRAVO_ACTOR: "a", USER: "u" }), host), "flag");
  assert.equal(await defaultActor(undefined, env({ PRAVO_ACTOR: "a", USER: "u" }), host), "a");
  assert.equal(await defaultActor(undefined, env({ USER: "u", LOGNAME: "l" }), host), "u");
  assert.equal(await defaultActor(undefined, env({ USER: "", LOGNAME: "l" }), host), "l");
});

Deno.test("defaultActor() asks the host's user database when no variable names the user", async () => {
  assert.equal(await defaultActor(undefined, env({}), () => "ci-runner"), "ci-runner");
  assert.equal(await defaultActor(undefined, env({}), () => undefined), "unknown");
});

Deno.test("hostUserName() is the name the user database gives this process's uid", async () => {
  const name = await hostUserName();
  assert.ok(name && name.length > 0);
  const passwd = Deno.readTextFileSync("/etc/passwd").split("\n").map((l) => l.split(":"));
  assert.equal(name, passwd.find((f) => Number(f[2]) === Deno.uid())?.[0]);
});
