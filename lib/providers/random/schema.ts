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

const KEEPERS: Attribute = {
  type: { map: "string" },
  description: "Arbitrary values that, when any of them changes, replace the resource and so " +
    "produce a new random value.",
  optional: true,
  forceNew: true,
};

/**
 * The inputs shared by `random_string` and `random_password` (managed and
 * ephemeral). In the managed types every one forces replacement: a new
 * setting means a new random value. An ephemeral value is never stored, so
 * nothing is replaced and `forceNew` is off.
 */
function stringInputs(managed: boolean): Record<string, Attribute> {
  const fn = managed ? { forceNew: true } : {};
  const inputs: Record<string, Attribute> = {
    length: {
      type: "int",
      description: "The number of characters to generate, at least 1 and at least the sum of " +
        "the min_* attributes.",
      required: true,
      ...fn,
    },
    upper: {
      type: "bool",
      description: "Whether uppercase letters may appear in the result.",
      optional: true,
      default: true,
      ...fn,
    },
    lower: {
      type: "bool",
      description: "Whether lowercase letters may appear in the result.",
      optional: true,
      default: true,
      ...fn,
    },
    numeric: {
      type: "bool",
      description: "Whether digits may appear in the result.",
      optional: true,
      default: true,
      ...fn,
    },
    special: {
      type: "bool",
      description: "Whether special characters (!@#$%&*()-_=+[]{}<>:? unless override_special " +
        "is set) may appear in the result.",
      optional: true,
      default: true,
      ...fn,
    },
    min_upper: {
      type: "int",
      description: "The least number of uppercase letters in the result.",
      optional: true,
      default: 0,
      ...fn,
    },
    min_lower: {
      type: "int",
      description: "The least number of lowercase letters in the result.",
      optional: true,
      default: 0,
      ...fn,
    },
    min_numeric: {
      type: "int",
      description: "The least number of digits in the result.",
      optional: true,
      default: 0,
      ...fn,
    },
    min_special: {
      type: "int",
      description: "The least number of special characters in the result.",
      optional: true,
      default: 0,
      ...fn,
    },
    override_special: {
      type: "string",
      description: "The special characters to draw from instead of the default list, used only " +
        "when special is true.",
      optional: true,
      ...fn,
    },
  };
  if (managed) {
    inputs.keepers = KEEPERS;
    inputs.number = {
      type: "bool",
      description: "Deprecated alias of numeric: whether digits may appear in the result.",
      optional: true,
      default: true,
      forceNew: true,
    };
  }
  return inputs;
}

const randomInteger: TypeSchema = {
  name: "random_integer",
  mode: "managed",
  description: "A random integer between min and max inclusive, kept in the state until an " +
    "input changes.",
  attributes: {
    min: {
      type: "int",
      description: "The least value the result may take.",
      required: true,
      forceNew: true,
    },
    max: {
      type: "int",
      description: "The greatest value the result may take.",
      required: true,
      forceNew: true,
    },
    seed: {
      type: "string",
      description: "A seed that makes the result the same every time for the same inputs.",
      optional: true,
      forceNew: true,
    },
    keepers: KEEPERS,
    result: { type: "int", description: "The random integer.", computed: true },
    id: {
      type: "string",
      description: "The random integer written as a string.",
      computed: true,
    },
  },
};

const randomString: TypeSchema = {
  name: "random_string",
  mode: "managed",
  description: "A random string of letters, digits and optionally special characters, shown in " +
    "plans (use random_password for secrets).",
  attributes: {
    ...stringInputs(true),
    result: { type: "string", description: "The generated string.", computed: true },
    id: { type: "string", description: "The generated string, as the id.", computed: true },
  },
};

const randomPassword: TypeSchema = {
  name: "random_password",
  mode: "managed",
  description: "A random string like random_string whose result is sensitive and never shown.",
  attributes: {
    ...stringInputs(true),
    result: {
      type: "string",
      description: "The generated password.",
      computed: true,
      sensitive: true,
    },
    bcrypt_hash: {
      type: "string",
      description: "A bcrypt hash of the generated password (of its first 72 bytes when longer).",
      computed: true,
      sensitive: true,
    },
    id: {
      type: "string",
      description: "A fixed placeholder that configurations should not use.",
      computed: true,
    },
  },
};

const randomPasswordEphemeral: TypeSchema = {
  name: "random_password",
  mode: "ephemeral",
  description: "A random password made for one run and never stored in the state or the plan.",
  attributes: {
    ...stringInputs(false),
    result: {
      type: "string",
      description: "The generated password.",
      computed: true,
      sensitive: true,
    },
  },
};

const randomId: TypeSchema = {
  name: "random_id",
  mode: "managed",
  description: "Random bytes meant as a unique identifier, given in several encodings.",
  attributes: {
    byte_length: {
      type: "int",
      description: "The number of random bytes to produce, at least 1.",
      required: true,
      forceNew: true,
    },
    prefix: {
      type: "string",
      description: "A string put as it is before the hex, dec and b64 forms of the result.",
      optional: true,
      forceNew: true,
    },
    keepers: KEEPERS,
    b64_std: {
      type: "string",
      description: "The prefix and the bytes in standard base64 without padding.",
      computed: true,
    },
    b64_url: {
      type: "string",
      description: "The prefix and the bytes in URL-safe base64 without padding.",
      computed: true,
    },
    dec: {
      type: "string",
      description: "The prefix and the bytes as a decimal number.",
      computed: true,
    },
    hex: {
      type: "string",
      description: "The prefix and the bytes in hexadecimal, two digits per byte.",
      computed: true,
    },
    id: {
      type: "string",
      description: "The bytes in URL-safe base64 without padding or prefix.",
      computed: true,
    },
  },
};

const randomUuid: TypeSchema = {
  name: "random_uuid",
  mode: "managed",
  description: "A random version 4 UUID.",
  attributes: {
    keepers: KEEPERS,
    result: { type: "string", description: "The generated UUID.", computed: true },
    id: { type: "string", description: "The generated UUID, as the id.", computed: true },
  },
};

const randomPet: TypeSchema = {
  name: "random_pet",
  mode: "managed",
  description: 'A random readable name made of words, such as "wise-lemur".',
  attributes: {
    length: {
      type: "int",
      description: "The number of words in the name.",
      optional: true,
      default: 2,
      forceNew: true,
    },
    prefix: {
      type: "string",
      description: "A word put before the name, joined with the separator.",
      optional: true,
      forceNew: true,
    },
    separator: {
      type: "string",
      description: "The string that joins the words.",
      optional: true,
      default: "-",
      forceNew: true,
    },
    keepers: KEEPERS,
    id: { type: "string", description: "The generated name.", computed: true },
  },
};

const randomShuffle: TypeSchema = {
  name: "random_shuffle",
  mode: "managed",
  description: "A random permutation of a list of strings.",
  attributes: {
    input: {
      type: { list: "string" },
      description: "The strings to shuffle.",
      required: true,
      forceNew: true,
    },
    result_count: {
      type: "int",
      description: "How many strings to return; by default as many as input has.",
      optional: true,
      forceNew: true,
    },
    seed: {
      type: "string",
      description: "A seed that makes the permutation stable for the same inputs.",
      optional: true,
      forceNew: true,
    },
    keepers: KEEPERS,
    result: {
      type: { list: "string" },
      description: "The shuffled strings.",
      computed: true,
    },
    id: {
      type: "string",
      description: "A fixed placeholder that configurations should not use.",
      computed: true,
    },
  },
};

const randomBytes: TypeSchema = {
  name: "random_bytes",
  mode: "managed",
  description: "Random bytes meant for secrets and keys, whose values are sensitive.",
  attributes: {
    length: {
      type: "int",
      description: "The number of random bytes to produce, at least 1.",
      required: true,
      forceNew: true,
    },
    keepers: KEEPERS,
    base64: {
      type: "string",
      description: "The bytes in standard base64.",
      computed: true,
      sensitive: true,
    },
    hex: {
      type: "string",
      description: "The bytes in hexadecimal.",
      computed: true,
      sensitive: true,
    },
    id: {
      type: "string",
      description: "A fixed placeholder that configurations should not use.",
      computed: true,
    },
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
