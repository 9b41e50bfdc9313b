import assert from "node:assert/strict";
import { placeFlags, pravoCommand, shellWord } from "./hint.ts";

Deno.test("shellWord() quotes what a shell would split or expand", () => {
  assert.equal(shellWord("x.plan"), "x.plan");
  assert.equal(shellWord("sqlite:st.db"), "sqlite:st.db");
  assert.equal(shellWord("my root"), "'my root'");
  assert.equal(shellWord("it's"), `'it'\\''s'`);
  assert.equal(shellWord("$HOME"), "'$HOME'");
  assert.equal(shellWord(""), "''");
});

Deno.test("pravoCommand() keeps -C and --state as given", () => {
  const place = placeFlags({ C: "my root", state: "sqlite:st.db", json: true });
  assert.equal(
    pravoCommand(place, "apply", "x.plan"),
    "pravo -C 'my root' --state sqlite:st.db apply x.plan",
  );
  assert.equal(pravoCommand(placeFlags({}), "apply", "x.plan"), "pravo apply x.plan");
});
