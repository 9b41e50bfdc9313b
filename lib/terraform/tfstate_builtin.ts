/**
 * Objects of Terraform's random, null, time and local providers, taken over
 * by pravo's built-in providers of the same names (`hashicorp/random`, ...),
 * whose types have the attributes of Terraform's (random 3.6, null 3, time
 * 0.12, local 2).
 *
 * A plugin provider upgrades an object of an older schema version itself
 * (UpgradeResourceState); a built-in type has one version, that of the
 * Terraform provider release it follows, so an object is taken over as it
 * is when it was written with that version and its attributes are the
 * type's, and refused otherwise with what to do (upgrade it with Terraform
 * first). Terraform's versions: `random_password` 3 and `random_string` 2
 * (since random 3.4), every other type 0.
 *
 * @module
 */

import { type Diagnostic, error } from "../diag/diag.ts";
import { type Attribute, type TypeSchema, typeString } from "../providers/schema.ts";

/** The schema versions of Terraform's types that pravo's built-in ones follow, when not 0. */
export const BUILTIN_SCHEMA_VERSIONS: Readonly<Record<string, number>> = {
  random_password: 3,
  random_string: 2,
};

/** The Terraform schema version a built-in type reads. */
export function builtinSchemaVersion(type: string): number {
  return BUILTIN_SCHEMA_VERSIONS[type] ?? 0;
}

/** Whether a JSON value can be one of this attribute's type (null always can). */
function fits(v: unknown, a: Attribute): boolean {
  if (v === null) return true;
  const t = a.type;
  if (t === "string") return typeof v === "string";
  if (t === "int") return typeof v === "number" && Number.isInteger(v);
  if (t === "number") return typeof v === "number";
  if (t === "bool") return typeof v === "boolean";
  if (typeof t === "object" && ("list" in t || "set" in t)) return Array.isArray(v);
  if (typeof t === "object" && "map" in t) {
    return typeof v === "object" && !Array.isArray(v);
  }
  return true;
}

/**
 * The attributes of an object of Terraform's state for a built-in type, or
 * the error that says why they cannot be taken over: its schema version is
 * not the one the type follows, or an attribute is not the type's or not of
 * its type.
 */
export function builtinObject(
  type: TypeSchema,
  object: { attributes: Record<string, unknown>; schemaVersion: number },
  where: { address: string; terraformAddress: string; provider: string },
): { attributes: Record<string, unknown> } | { diagnostic: Diagnostic } {
  const want = builtinSchemaVersion(type.name);
  const { address, terraformAddress, provider } = where;
  if (object.schemaVersion !== want) {
    const older = object.schemaVersion < want;
    return {
      diagnostic: error(
        `Cannot take over ${terraformAddress}: written with schema version ` +
          `${object.schemaVersion} of ${type.name}`,
        `pravo's built-in ${type.name} (${provider}) reads Terraform's schema version ${want}, ` +
          `and ${terraformAddress} was written by ${older ? "an older" : "a newer"} release of ` +
          `Terraform's provider. ${
            older
              ? "Let Terraform upgrade it first: run `terraform apply -refresh-only` with the " +
                `provider's current release, then import the state again.`
              : "pravo cannot read it: remove it from Terraform's state (`terraform state rm " +
                `${terraformAddress}\`) and let pravo create ${address} anew, or import it with ` +
                "`pravo import` and its ID."
          }`,
        { address },
      ),
    };
  }
  for (const [k, v] of Object.entries(object.attributes)) {
    const a = type.attributes[k];
    if (a && fits(v, a)) continue;
    return {
      diagnostic: error(
        `Cannot take over ${terraformAddress}: its attribute ${k} is not pravo's`,
        (a
          ? `pravo's ${type.name} holds ${k} as ${typeString(a.type)}, and the state holds ` +
            `${
              Array.isArray(v) ? "a list" : typeof v === "object" ? "an object" : `a ${typeof v}`
            }. `
          : `pravo's built-in ${type.name} (${provider}) has no attribute ${k}. `) +
          "Remove it from Terraform's state (`terraform state rm " +
          `${terraformAddress}\`) and let pravo create ${address} anew, or import it with ` +
          "`pravo import` and its ID.",
        { address },
      ),
    };
  }
  return { attributes: object.attributes };
}
