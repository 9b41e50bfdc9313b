import assert from "node:assert/strict";
import { addressLabels, addressPath, formatAddress } from "./address.ts";

Deno.test("an address is labels joined with dots, quoted where a label is not an identifier", () => {
  assert.deepEqual(addressLabels('net.web."a b".#x'), ["net", "web", "a b", "#x"]);
  assert.deepEqual(addressLabels('sites."a.b"'), ["sites", "a.b"]);
  assert.equal(formatAddress(["sites", "a.b", "c"]), 'sites."a.b".c');
  for (const a of ["web", 'net."my site".cert', "$x.#y"]) {
    assert.equal(formatAddress(addressLabels(a)!), a, "written back as it was read");
  }
});

Deno.test("what is not an address is said to be none, and addressPath() keeps it whole", () => {
  for (const bad of ["", "a.", ".a", "a..b", "a-b", '"unclosed', "a b"]) {
    assert.equal(addressLabels(bad), undefined, bad);
  }
  assert.deepEqual(addressPath("a-b"), ["a-b"]);
  assert.deepEqual(addressPath("net.web"), ["net", "web"]);
});
