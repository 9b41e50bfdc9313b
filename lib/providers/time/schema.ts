/**
 * The schema of `hashicorp/time`: Terraform's time provider 0.12, timestamps
 * kept in the state and delays.
 *
 * Refresh age: none for any type. time_static, time_offset and time_sleep
 * live only in the state and have nothing in the real world to read again.
 * time_rotating expires by its own rotation time: the planner compares
 * rotation_rfc3339 with the clock and replaces it once passed, which a
 * refresh age would not express.
 *
 * @module
 */

import type { Attribute, ProviderSchema, TypeSchema } from "../schema.ts";
import { computed, optional } from "../attributes.ts";

/** The parts of a timestamp, computed by every timestamp type. */
function parts(of: string): Record<string, Attribute> {
  const part = (unit: string) => computed("int", `The ${unit} of the ${of}, in UTC.`);
  return {
    year: part("year"),
    month: part("month (1 to 12)"),
    day: part("day of the month"),
    hour: part("hour (0 to 23)"),
    minute: part("minute"),
    second: part("second"),
    unix: computed("int", `The ${of} as seconds since the Unix epoch.`),
  };
}

function triggers(what: string): Attribute {
  const description =
    `Arbitrary values that, when any of them changes, replace the resource and ${what}.`;
  return optional({ map: "string" }, description, { forceNew: true });
}

const timeStatic: TypeSchema = {
  name: "time_static",
  mode: "managed",
  description: "A timestamp taken once at creation and kept in the state, so that plans do not " +
    "change with the clock.",
  attributes: {
    rfc3339: optional(
      "string",
      "The timestamp in RFC 3339 form (YYYY-MM-DDTHH:MM:SSZ); by default the time of creation.",
      { computed: true, forceNew: true },
    ),
    triggers: triggers("so save a new timestamp"),
    ...parts("timestamp"),
    id: computed("string", "The timestamp in RFC 3339 form."),
  },
};

function offsetInput(unit: string): Attribute {
  return optional(
    "int",
    `The number of ${unit} to add to the base timestamp; at least one offset_* ` +
      "attribute must be set.",
  );
}

const timeOffset: TypeSchema = {
  name: "time_offset",
  mode: "managed",
  description: "A timestamp kept in the state that is offset from a base timestamp taken at " +
    "creation.",
  attributes: {
    base_rfc3339: optional(
      "string",
      "The base timestamp in RFC 3339 form (YYYY-MM-DDTHH:MM:SSZ); by default the time of " +
        "creation.",
      { computed: true },
    ),
    offset_years: offsetInput("years"),
    offset_months: offsetInput("months"),
    offset_days: offsetInput("days"),
    offset_hours: offsetInput("hours"),
    offset_minutes: offsetInput("minutes"),
    offset_seconds: offsetInput("seconds"),
    triggers: triggers("so save a new base timestamp"),
    rfc3339: computed("string", "The offset timestamp in RFC 3339 form."),
    ...parts("offset timestamp"),
    id: computed("string", "The base timestamp in RFC 3339 form."),
  },
};

function rotationInput(unit: string): Attribute {
  return optional(
    "int",
    `The number of ${unit} after the base timestamp at which the resource rotates; ` +
      "at least one rotation_* attribute must be set.",
  );
}

const timeRotating: TypeSchema = {
  name: "time_rotating",
  mode: "managed",
  description: "A timestamp kept in the state that is replaced by a new one at the first plan " +
    "after its rotation time.",
  attributes: {
    rfc3339: optional(
      "string",
      "The base timestamp in RFC 3339 form (YYYY-MM-DDTHH:MM:SSZ); by default the time of " +
        "creation.",
      { computed: true, forceNew: true },
    ),
    rotation_years: rotationInput("years"),
    rotation_months: rotationInput("months"),
    rotation_days: rotationInput("days"),
    rotation_hours: rotationInput("hours"),
    rotation_minutes: rotationInput("minutes"),
    rotation_rfc3339: optional(
      "string",
      "The rotation time in RFC 3339 form, set directly or computed from the rotation_* " +
        "attributes; once it has passed, the resource is replaced.",
      { computed: true },
    ),
    triggers: triggers("so save a new base timestamp"),
    // As Terraform's provider computes them: the parts of the rotation time.
    ...parts("rotation time"),
    id: computed("string", "The base timestamp in RFC 3339 form."),
  },
};

const timeSleep: TypeSchema = {
  name: "time_sleep",
  mode: "managed",
  description: "A resource that waits when it is created or destroyed, to delay the nodes " +
    "that depend on it.",
  attributes: {
    create_duration: optional(
      "string",
      "How long to wait on creation (30s, 5m, 1h); changing it alone does not wait again.",
    ),
    destroy_duration: optional(
      "string",
      "How long to wait on destruction (30s, 5m, 1h); it must be applied before the destroy to " +
        "take effect.",
    ),
    triggers: triggers("so wait again"),
    id: computed("string", "The time of creation in RFC 3339 form."),
  },
};

export const TIME: ProviderSchema = {
  source: "hashicorp/time",
  version: "0.1.0",
  description: "Timestamps kept in the state, rotations and delays.",
  config: {},
  types: [timeOffset, timeRotating, timeSleep, timeStatic],
};
