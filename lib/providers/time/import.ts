/**
 * `pravo import` for `hashicorp/time`: the ID formats of Terraform's time
 * provider for time_static, time_offset, time_rotating and time_sleep.
 *
 * The ID gives the timestamps and the offsets, rotations or durations, as in
 * Terraform. `triggers` cannot be part of an ID (Terraform leaves them
 * empty, which replaces the object at its next plan when the configuration
 * sets some); here they come from the node's configuration.
 *
 * @module
 */

import { badId, formatRfc3339, now, ok, parseDuration, parseRfc3339, stateOf } from "../_util.ts";
import type { Attrs, ImportRequest, Response } from "../runtime.ts";
import type { TypeSchema } from "../schema.ts";

type Importer = (req: ImportRequest) => Promise<Response<Attrs | null>>;

/** Only the triggers of the configuration: every other input comes from the ID. */
function triggersOf(config: Attrs): Attrs {
  return config.triggers === undefined ? {} : { triggers: config.triggers };
}

/** Whole numbers by name from the ID's parts; empty parts and zeros are unset. */
function counts(
  names: string[],
  parts: string[],
): { values: Attrs; bad?: string } {
  const values: Attrs = {};
  for (let i = 0; i < names.length; i++) {
    const p = parts[i];
    if (p === "") continue;
    if (!/^[+-]?\d+$/.test(p)) return { values, bad: p };
    if (Number(p) !== 0) values[names[i]] = Number(p);
  }
  return { values };
}

export const STATIC_FORMAT = "RFC3339";

/**
 * time_static: the timestamp, as `terraform import time_static.x
 * 2020-02-12T06:36:13Z`. `compute` gives the attributes of a timestamp.
 */
export function importStatic(compute: (rfc3339: string) => Attrs): Importer {
  return (req) => {
    if (!parseRfc3339(req.id)) {
      return badId(
        req,
        STATIC_FORMAT,
        `"${req.id}" is not an RFC 3339 timestamp`,
        "2020-02-12T06:36:13Z",
      );
    }
    return Promise.resolve(ok(stateOf(req.type, triggersOf(req.config), compute(req.id))));
  };
}

/** The attributes of a timestamp type from its inputs and base; undefined where they do not parse. */
type FromBase = (type: TypeSchema, config: Attrs, base: string) => Attrs | undefined;

export const OFFSET_FORMAT = "BASE_RFC3339,YEARS,MONTHS,DAYS,HOURS,MINUTES,SECONDS";

/**
 * time_offset: the base timestamp and the offsets, as `terraform import
 * time_offset.x 2020-02-12T06:36:13Z,0,0,7,0,0,0`. `compute` gives the
 * attributes from the inputs and the base.
 */
export function importOffset(compute: FromBase): Importer {
  return (req) => {
    const parts = req.id.split(",");
    const example = "2020-02-12T06:36:13Z,0,0,7,0,0,0";
    if (parts.length !== 7 || !parseRfc3339(parts[0])) {
      return badId(
        req,
        OFFSET_FORMAT,
        `"${req.id}" is not a base timestamp and six offsets separated by commas`,
        example,
      );
    }
    const names = ["years", "months", "days", "hours", "minutes", "seconds"].map((u) =>
      `offset_${u}`
    );
    const { values, bad } = counts(names, parts.slice(1));
    if (bad !== undefined) {
      return badId(req, OFFSET_FORMAT, `"${bad}" is not a whole number of units`, example);
    }
    if (Object.keys(values).length === 0) {
      return badId(req, OFFSET_FORMAT, "Every offset in the ID is zero or empty", example);
    }
    const config = { ...triggersOf(req.config), ...values, base_rfc3339: parts[0] };
    return Promise.resolve(ok(stateOf(req.type, config, compute(req.type, config, parts[0])!)));
  };
}

export const ROTATING_FORMAT =
  "BASE_RFC3339,YEARS,MONTHS,DAYS,HOURS,MINUTES or BASE_RFC3339,ROTATION_RFC3339";

/**
 * time_rotating: the base timestamp and the rotation in years, months,
 * days, hours and minutes (`2020-02-12T06:36:13Z,0,0,30,0,0`), or the base
 * and the rotation time (`2020-02-12T06:36:13Z,2020-03-13T06:36:13Z`), as
 * Terraform.
 */
export function importRotating(compute: FromBase): Importer {
  return (req) => {
    const parts = req.id.split(",");
    const example = "2020-02-12T06:36:13Z,0,0,30,0,0";
    if ((parts.length !== 2 && parts.length !== 6) || !parseRfc3339(parts[0])) {
      return badId(
        req,
        ROTATING_FORMAT,
        `"${req.id}" is neither a base timestamp and five rotation units nor two timestamps, ` +
          "separated by commas",
        example,
      );
    }
    let values: Attrs;
    if (parts.length === 2) {
      if (!parseRfc3339(parts[1])) {
        return badId(
          req,
          ROTATING_FORMAT,
          `"${parts[1]}" is not an RFC 3339 timestamp`,
          "2020-02-12T06:36:13Z,2020-03-13T06:36:13Z",
        );
      }
      values = { rotation_rfc3339: parts[1] };
    } else {
      const names = ["years", "months", "days", "hours", "minutes"].map((u) => `rotation_${u}`);
      const got = counts(names, parts.slice(1));
      if (got.bad !== undefined) {
        return badId(req, ROTATING_FORMAT, `"${got.bad}" is not a whole number of units`, example);
      }
      const negative = Object.entries(got.values).find(([, v]) => (v as number) < 0);
      if (negative) {
        return badId(req, ROTATING_FORMAT, `${negative[0]} ${negative[1]} is below 1`, example);
      }
      if (Object.keys(got.values).length === 0) {
        return badId(
          req,
          ROTATING_FORMAT,
          "Every rotation unit in the ID is zero or empty",
          example,
        );
      }
      values = got.values;
    }
    const config = { ...triggersOf(req.config), ...values, rfc3339: parts[0] };
    return Promise.resolve(ok(stateOf(req.type, config, compute(req.type, config, parts[0])!)));
  };
}

export const SLEEP_FORMAT = "CREATE_DURATION,DESTROY_DURATION";

/** time_sleep: the two durations, either empty, as `terraform import time_sleep.x 30s,`. */
export const importSleep: Importer = (req) => {
  const parts = req.id.split(",");
  if (parts.length !== 2) {
    return badId(
      req,
      SLEEP_FORMAT,
      `"${req.id}" is not two durations separated by a comma`,
      "30s,",
    );
  }
  const config: Attrs = triggersOf(req.config);
  const names = ["create_duration", "destroy_duration"];
  for (let i = 0; i < 2; i++) {
    if (parts[i] === "") continue;
    const ms = parseDuration(parts[i]);
    if (ms === undefined || ms < 0) {
      return badId(req, SLEEP_FORMAT, `"${parts[i]}" is not a duration such as 30s or 5m`, "30s,");
    }
    config[names[i]] = parts[i];
  }
  return Promise.resolve(ok(stateOf(req.type, config, { id: formatRfc3339(now()) })));
};
