/**
 * Objects as Terraform's providers write them in a state file, for the tests
 * of taking a Terraform state over (tfstate*_test.ts, tests/tfstate_import_test.ts).
 * Not used by pravo itself.
 *
 * @module
 */

/**
 * The attributes of a `random_password` of length 16 as Terraform's random
 * provider 3.6 writes them (schema version 3): `result` the password,
 * `bcrypt_hash` its hash.
 */
export function randomPassword(result: string, bcryptHash: string): Record<string, unknown> {
  return {
    bcrypt_hash: bcryptHash,
    id: "none",
    keepers: null,
    length: 16,
    lower: true,
    min_lower: 0,
    min_numeric: 0,
    min_special: 0,
    min_upper: 0,
    number: true,
    numeric: true,
    override_special: null,
    result,
    special: false,
    upper: true,
  };
}
