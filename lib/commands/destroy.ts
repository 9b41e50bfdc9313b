/**
 * `pravo destroy`: destroys every node in the state, as `terraform destroy`
 * does. It is `pravo apply --destroy`: it plans the destruction, shows it
 * and asks on a terminal; `-auto-approve` skips the question; without a
 * terminal and without `-auto-approve` it refuses. Nodes with
 * `lifecycle.prevent_destroy` refuse it, and policies judge the plan first.
 *
 * For a destruction that others review first, save it instead:
 * `pravo plan --destroy --out FILE`, then `pravo apply FILE`.
 *
 * @module
 */

import type { CommandRun } from "../cli/command.ts";
import { run as apply } from "./apply.ts";

export const run: CommandRun = (ctx, opts, args) => apply(ctx, { ...opts, destroy: true }, args);
