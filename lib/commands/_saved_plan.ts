/**
 * What the commands that take a saved plan share.
 *
 * @module
 */

import { UsageError } from "../diag/usage.ts";

/** The refusal of -t with a saved plan, which holds its own tags. */
export function savedPlanTags(planPath: string, command: string): UsageError {
  return new UsageError(
    `-t cannot go with the saved plan "${planPath}": the plan holds the tags it was made with ` +
      `(\`pravo show ${planPath} --json\` lists them). Leave -t out, or make a new plan with ` +
      "`pravo plan -t KEY=VALUE --out FILE`",
    command,
  );
}
