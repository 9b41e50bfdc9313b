import assert from "node:assert/strict";
import { concat, fromBase64, toBase64, toBase64Url, toHex } from "./bytes.ts";

Deno.test("base64 goes there and back, and what is not base64 is undefined", () => {
  const bytes = new Uint8Array([0, 1, 2, 250, 251, 252, 253, 254, 255]);
  assert.equal(toBase64(bytes), "AAEC+vv8/f7/");
  assert.equal(toBase64Url(bytes), "AAEC-vv8_f7_");
  assert.deepEqual(fromBase64("AAEC +vv8\n/f7/"), bytes);
  assert.equal(fromBase64("not base64!"), undefined);
  assert.equal(fromBase64("A"), undefined);
});

Deno.test("a view into a larger buffer encodes only its own bytes", () => {
  const big = new Uint8Array([9, 9, 1, 2, 9]);
  assert.equal(toHex(big.subarray(2, 4)), "0102");
  assert.equal(toBase64(big.subarray(2, 4)), "AQI=");
});

Deno.test("concat() joins byte arrays in order", () => {
  assert.deepEqual(
    concat([new Uint8Array([1]), new Uint8Array([]), new Uint8Array([2, 3])]),
    new Uint8Array([1, 2, 3]),
  );
});
