/**
 * The schema of `hashicorp/random`: the types and attributes of Terraform's
 * random provider 3.6, so that configurations carry over.
 *
 * Refresh age: every type here is left without one. A random value lives only
 * in the state; there is nothing in the real world to read again, so a plan
 * never needs to refresh it. It changes only when an input that forces
 * replacement changes (or when a replacement is asked for).
 *
 * @module
 */

import type { Attribute, ProviderSchema, TypeSchema } from "../schema.ts";
import { computed, optional, required } from "../attributes.ts";

const KEEPERS: Attribute = optional(
  { map: "string" },
  "Arbitrary values that, when any of them changes, replace the resource and so " +
    "produce a new random value.",
  { forceNew: true },
);

/**
 * The inputs shared by `random_string` and `random_password` (managed and
 * ephemeral). In the managed types every one forces replacement: a new
 * setting means a new random value. An ephemeral value is never stored, so
 * nothing is replaced and `forceNew` is off.
 */
function stringInputs(managed: boolean): Record<string, Attribute> {
  const fn = managed ? { forceNew: true } : {};
  const may = (what: string) =>
    optional("bool", `Whether ${what} may appear in the result.`, { default: true, ...fn });
  const least = (what: string) =>
    optional("int", `The least number of ${what} in the result.`, { default: 0, ...fn });
  const inputs: Record<string, Attribute> = {
    length: required(
      "int",
      "The number of characters to generate, at least 1 and at least the sum of the min_* " +
        "attributes.",
      fn,
    ),
    upper: may("uppercase letters"),
    lower: may("lowercase letters"),
    numeric: may("digits"),
    special: may("special characters (!@#$%&*()-_=+[]{}<>:? unless override_special is set)"),
    min_upper: least("uppercase letters"),
    min_lower: least("lowercase letters"),
    min_numeric: least("digits"),
    min_special: least("special characters"),
    override_special: optional(
      "string",
      "The special characters to draw from instead of the default list, used only when special " +
        "is true.",
      fn,
    ),
  };
  if (managed) {
    inputs.keepers = KEEPERS;
    inputs.number = optional(
      "bool",
      "Deprecated alias of numeric: whether digits may appear in the result.",
      { default: true, forceNew: true },
    );
  }
  return inputs;
}

const randomInteger: TypeSchema = {
  name: "random_integer",
  mode: "managed",
  description: "A random integer between min and max inclusive, kept in the state until an " +
    "input changes.",
  attributes: {
    min: required("int", "The least value the result may take.", { forceNew: true }),
    max: required("int", "The greatest value the result may take.", { forceNew: true }),
    seed: optional(
      "string",
      "A seed that makes the result the same every time for the same inputs.",
      { forceNew: true },
    ),
    keepers: KEEPERS,
    result: computed("int", "The random integer."),
    id: computed("string", "The random integer written as a string."),
  },
};

const randomString: TypeSchema = {
  name: "random_string",
  mode: "managed",
  description: "A random string of letters, digits and optionally special characters, shown in " +
    "plans (use random_password for secrets).",
  attributes: {
    ...stringInputs(true),
    result: computed("string", "The generated string."),
    id: computed("string", "The generated string, as the id."),
  },
};

const randomPassword: TypeSchema = {
  name: "random_password",
  mode: "managed",
  description: "A random string like random_string whose result is sensitive and never shown.",
  attributes: {
    ...stringInputs(true),
    result: computed("string", "The generated password.", { sensitive: true }),
    bcrypt_hash: computed(
      "string",
      "A bcrypt hash of the generated password (of its first 72 bytes when longer).",
      { sensitive: true },
    ),
    id: computed("string", "A fixed placeholder that configurations should not use."),
  },
};

const randomPasswordEphemeral: TypeSchema = {
  name: "random_password",
  mode: "ephemeral",
  description: "A random password made for one run and never stored in the state or the plan.",
  attributes: {
    ...stringInputs(false),
    result: computed("string", "The generated password.", { sensitive: true }),
  },
};

const randomId: TypeSchema = {
  name: "random_id",
  mode: "managed",
  description: "Random bytes meant as a unique identifier, given in several encodings.",
  attributes: {
    byte_length: required("int", "The number of random bytes to produce, at least 1.", {
      forceNew: true,
    }),
    prefix: optional(
      "string",
      "A string put as it is before the hex, dec and b64 forms of the result.",
      { forceNew: true },
    ),
    keepers: KEEPERS,
    b64_std: computed("string", "The prefix and the bytes in standard base64 without padding."),
    b64_url: computed("string", "The prefix and the bytes in URL-safe base64 without padding."),
    dec: computed("string", "The prefix and the bytes as a decimal number."),
    hex: computed("string", "The prefix and the bytes in hexadecimal, two digits per byte."),
    id: computed("string", "The bytes in URL-safe base64 without padding or prefix."),
  },
};

const randomUuid: TypeSchema = {
  name: "random_uuid",
  mode: "managed",
  description: "A random version 4 UUID.",
  attributes: {
    keepers: KEEPERS,
    result: computed("string", "The generated UUID."),
    id: computed("string", "The generated UUID, as the id."),
  },
};

const randomPet: TypeSchema = {
  name: "random_pet",
  mode: "managed",
  description: 'A random readable name made of words, such as "wise-lemur".',
  attributes: {
    length: optional("int", "The number of words in the name.", { default: 2, forceNew: true }),
    prefix: optional("string", "A word put before the name, joined with the separator.", {
      forceNew: true,
    }),
    separator: optional("string", "The string that joins the words.", {
      default: "-",
      forceNew: true,
    }),
    keepers: KEEPERS,
    id: computed("string", "The generated name."),
  },
};

const randomShuffle: TypeSchema = {
  name: "random_shuffle",
  mode: "managed",
  description: "A random permutation of a list of strings.",
  attributes: {
    input: required({ list: "string" }, "The strings to shuffle.", { forceNew: true }),
    result_count: optional("int", "How many strings to return; by default as many as input has.", {
      forceNew: true,
    }),
    seed: optional("string", "A seed that makes the permutation stable for the same inputs.", {
      forceNew: true,
    }),
    keepers: KEEPERS,
    result: computed({ list: "string" }, "The shuffled strings."),
    id: computed("string", "A fixed placeholder that configurations should not use."),
  },
};

const randomBytes: TypeSchema = {
  name: "random_bytes",
  mode: "managed",
  description: "Random bytes meant for secrets and keys, whose values are sensitive.",
  attributes: {
    length: required("int", "The number of random bytes to produce, at least 1.", {
      forceNew: true,
    }),
    keepers: KEEPERS,
    base64: computed("string", "The bytes in standard base64.", { sensitive: true }),
    hex: computed("string", "The bytes in hexadecimal.", { sensitive: true }),
    id: computed("string", "A fixed placeholder that configurations should not use."),
  },
};

export const RANDOM: ProviderSchema = {
  source: "hashicorp/random",
  version: "0.1.0",
  description: "Random values that stay the same from plan to plan until an input changes.",
  config: {},
  types: [
    randomBytes,
    randomId,
    randomInteger,
    randomPassword,
    randomPasswordEphemeral,
    randomPet,
    randomShuffle,
    randomString,
    randomUuid,
  ],
};
