/**
 * The schema of `hashicorp/null`: Terraform's null provider 3.2, whose one
 * resource does nothing but exist, so that other nodes can depend on it and
 * be replaced together with it.
 *
 * Refresh age: none. A null_resource lives only in the state and has nothing
 * in the real world to read again.
 *
 * @module
 */

import type { ProviderSchema } from "../schema.ts";
import { computed, optional } from "../attributes.ts";

export const NULL: ProviderSchema = {
  source: "hashicorp/null",
  version: "0.1.0",
  description: "A resource that does nothing, to group dependencies and force replacements.",
  config: {},
  types: [
    {
      name: "null_resource",
      mode: "managed",
      description: "A resource with the usual lifecycle that takes no action of its own.",
      attributes: {
        triggers: optional(
          { map: "string" },
          "Arbitrary values that, when any of them changes, replace the resource.",
          { forceNew: true },
        ),
        id: computed("string", "A random value chosen when the resource is created."),
      },
    },
  ],
};
