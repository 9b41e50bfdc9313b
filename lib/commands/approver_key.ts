/**
 * `pravo approver-key FILE`: makes an operator's approval key pair, FILE
 * (the private key, PKCS#8 PEM, 0600) and FILE.pub (the public key, SPKI
 * PEM), outside the root. The private key signs approvals (`pravo approve
 * PLANFILE --key FILE`); the server trusts the public one (`pravo mcp
 * --approver FILE.pub`).
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { makeApproverKey } from "../keys/approver.ts";

export const run: CommandRun = async (ctx, _opts, args) => {
  const made = await makeApproverKey(args[0], { root: ctx.root });
  const doc = {
    format_version: "1.0",
    fingerprint: made.fingerprint,
    private_key: made.privatePath,
    public_key: made.publicPath,
  };
  emit(ctx, doc, () =>
    [
      `Made the approver key ${made.fingerprint}:`,
      `  ${made.privatePath}  the private key: keep it outside every root, and approve with`,
      `    pravo approve PLANFILE --key ${made.privatePath}`,
      `  ${made.publicPath}  the public key: the server trusts it with`,
      `    pravo mcp --approver ${made.publicPath}`,
    ].join("\n"));
  return Exit.OK;
};
