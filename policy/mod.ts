/**
 * Policies: CUE files that every plan must satisfy. `loadPolicy` reads and
 * checks one before anything runs; `judge` evaluates a plan document against
 * them and reports every rule that failed, with its file, line and nodes.
 * Described in `docs/reference/policies.md`.
 *
 * @module
 */

export {
  checkAbsolutePolicyPath,
  compilePolicy,
  emptyPlanDocument,
  loadPolicies,
  loadPolicy,
  type Policy,
  policyPaths,
  readPolicyBytes,
  type RuleSite,
} from "./load.ts";
export { judge, type Judgement, type Level, type PolicyReport, type RuleResult } from "./judge.ts";
