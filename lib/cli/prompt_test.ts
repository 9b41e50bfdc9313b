import assert from "node:assert/strict";
import { type AnswerInput, answerIsYes } from "./prompt.ts";

/** An input that answers `text` (null: the end of input), or never when `text` is undefined. */
function answering(text: string | null | undefined): AnswerInput {
  return {
    read(p) {
      if (text === undefined) return new Promise(() => {});
      if (text === null) return Promise.resolve(null);
      const bytes = new TextEncoder().encode(text);
      p.set(bytes);
      return Promise.resolve(bytes.length);
    },
  };
}

Deno.test("answerIsYes() says yes to `yes` alone, trimmed", async () => {
  assert.equal(await answerIsYes({ input: answering("yes\n") }), true);
  assert.equal(await answerIsYes({ input: answering("  yes  \n") }), true);
  assert.equal(await answerIsYes({ input: answering("y\n") }), false);
  assert.equal(await answerIsYes({ input: answering("YES\n") }), false);
  assert.equal(await answerIsYes({ input: answering(null) }), false);
  const signal = new AbortController().signal;
  assert.equal(await answerIsYes({ input: answering("yes\n"), signal }), true);
  assert.equal(await answerIsYes({ input: answering(null), signal }), false);
});

Deno.test("answerIsYes() is a no once the signal aborts, before or while it waits", async () => {
  const before = new AbortController();
  before.abort();
  assert.equal(await answerIsYes({ input: answering("yes\n"), signal: before.signal }), false);
  const during = new AbortController();
  const answer = answerIsYes({ input: answering(undefined), signal: during.signal });
  during.abort();
  assert.equal(await answer, false);
});
