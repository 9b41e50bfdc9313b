/**
 * `pravo import ADDR ID`: takes an object made outside pravo into the state,
 * as the node at ADDR of the configuration (its type and provider come from
 * there). The provider finds it by ID (what that is depends on the type: a
 * bucket's name, a role's name, a queue's URL) and reads it whole; the
 * record is written under the state lock, with who and why. The next plan
 * shows how the configuration differs from what was imported.
 *
 * @module
 */

import { type CommandRun, emit, emitWarnings } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { interrupts } from "../cli/interrupt.ts";
import { importNode } from "../apply/import.ts";
import { REDACTED } from "../plan/document.ts";
import { openStore } from "../state/open.ts";

export const run: CommandRun = async (ctx, _opts, args) => {
  const [address, id] = args;
  const store = await openStore(ctx);
  let result;
  try {
    result = await importNode(store, address, id, {
      root: ctx.root,
      tags: ctx.tags,
      actor: ctx.actor,
      reason: ctx.reason,
      signal: interrupts.signal,
    });
  } finally {
    await store.close();
  }
  const attributes = Object.fromEntries(
    Object.entries(result.object.attributes).map(([k, v]) => [
      k,
      result.sensitive.includes(k) && v !== null ? REDACTED : v,
    ]),
  );
  const doc = {
    format_version: "1.0",
    address: result.address,
    type: result.type,
    provider: result.provider,
    id: result.id,
    serial: result.serial,
    attributes,
  };
  emitWarnings(ctx, result.diagnostics);
  emit(
    ctx,
    doc,
    () =>
      `${
        ctx.style.bold(ctx.style.green("Import complete!"))
      } ${result.address} (${result.type}) is the object "${result.id}" (state serial ${result.serial}).\n` +
      "Run `pravo plan` to see how the configuration differs from what was imported.\n",
  );
  return Exit.OK;
};
