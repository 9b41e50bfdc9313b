/**
 * The runtime of `hashicorp/time`: timestamps kept in the state, rotations
 * and delays.
 *
 * Timestamps are written as Go's `time.RFC3339` writes them (whole seconds,
 * `Z` for UTC); a timestamp given in the configuration is kept exactly as
 * written, and its parts (year, month, ..., second) are those of the offset
 * it was written with, as Terraform's provider gives them.
 *
 * @module
 */

import { type Diagnostic, error, warning } from "../../diag/diag.ts";
import {
  addCalendar,
  type CalendarOffset,
  fail,
  forgetOnly,
  formatRfc3339,
  int,
  isSet,
  now,
  ok,
  parseDuration,
  parseRfc3339,
  sleep,
  stateOf,
  str,
  timeParts,
  type Timestamp,
} from "../_util.ts";
import type {
  Attrs,
  PlannedState,
  PlanRequest,
  ProviderRuntime,
  Response,
  TypeHandler,
  ValidateRequest,
} from "../runtime.ts";
import type { TypeSchema } from "../schema.ts";
import {
  importOffset,
  importRotating,
  importSleep,
  importStatic,
  OFFSET_FORMAT,
  ROTATING_FORMAT,
  SLEEP_FORMAT,
  STATIC_FORMAT,
} from "./import.ts";

const PARTS = ["year", "month", "day", "hour", "minute", "second", "unix"];
const OFFSETS = ["years", "months", "days", "hours", "minutes", "seconds"];
const ROTATIONS = ["years", "months", "days", "hours", "minutes"];

// ---------------------------------------------------------------------------
// Shared checks

function knownStr(req: ValidateRequest, name: string): string | undefined {
  return req.unknown.includes(name) ? undefined : str(req.type, req.config, name);
}

function checkRfc3339(req: ValidateRequest, name: string): Diagnostic[] {
  const v = knownStr(req, name);
  if (v === undefined || parseRfc3339(v)) return [];
  return [error(
    `Invalid ${name} "${v}"`,
    `${name} is a timestamp in RFC 3339 form. Write it as YYYY-MM-DDTHH:MM:SSZ, for example ` +
      `"2024-05-01T12:00:00Z".`,
    { address: req.address },
  )];
}

function atLeastOne(req: ValidateRequest, names: string[]): Diagnostic[] {
  if (names.some((n) => isSet(req.config, n) || req.unknown.includes(n))) return [];
  return [error(
    `No ${names[0].split("_")[0]} for ${req.type.name}`,
    `At least one of ${names.join(", ")} must be set. Set ${names[2]} to a number of days, ` +
      "for example.",
    { address: req.address },
  )];
}

/** The timestamp of an attribute, or undefined when it is unset or invalid. */
function timestampOf(attrs: Attrs, name: string): Timestamp | undefined {
  return isSet(attrs, name) ? parseRfc3339(String(attrs[name])) : undefined;
}

function calendar(type: TypeSchema, config: Attrs, prefix: string, units: string[]) {
  const o: CalendarOffset = {};
  for (const u of units) {
    const v = int(type, config, `${prefix}_${u}`);
    if (v !== undefined) o[u as keyof CalendarOffset] = v;
  }
  return o;
}

/** Plans every computed attribute as unknown but those the config sets. */
function allUnknown(req: PlanRequest, computed: string[]): Response<PlannedState> {
  return ok({
    attributes: stateOf(req.type, req.config, {}),
    unknown: computed.filter((n) => !isSet(req.config, n)),
  });
}

// ---------------------------------------------------------------------------
// time_static

function staticAttrs(rfc3339: string): Attrs {
  return { rfc3339, ...timeParts(parseRfc3339(rfc3339)!), id: rfc3339 };
}

const timeStatic: TypeHandler = {
  validate: (req) => checkRfc3339(req, "rfc3339"),
  plan(req) {
    const given = timestampOf(req.config, "rfc3339");
    if (given) {
      return ok({
        attributes: stateOf(req.type, req.config, staticAttrs(String(req.config.rfc3339))),
        unknown: [],
      });
    }
    if (req.prior) {
      return ok({
        attributes: { ...req.prior, ...stateOf(req.type, req.config, {}) },
        unknown: [],
      });
    }
    return allUnknown(req, ["rfc3339", ...PARTS, "id"]);
  },
  create(req) {
    const given = str(req.type, req.config, "rfc3339");
    if (given !== undefined && !parseRfc3339(given)) {
      return Promise.resolve(
        fail(
          req.address,
          `Invalid rfc3339 "${given}"`,
          "rfc3339 is a timestamp in RFC 3339 form. Write it as YYYY-MM-DDTHH:MM:SSZ.",
        ),
      );
    }
    const rfc3339 = given ?? formatRfc3339(now());
    return Promise.resolve(ok(stateOf(req.type, req.config, staticAttrs(rfc3339))));
  },
  delete: forgetOnly,
  import: importStatic(staticAttrs),
  importFormat: STATIC_FORMAT,
};

// ---------------------------------------------------------------------------
// time_offset

const OFFSET_INPUTS = OFFSETS.map((u) => `offset_${u}`);

function offsetAttrs(type: TypeSchema, config: Attrs, base: string): Attrs | undefined {
  const t = parseRfc3339(base);
  if (!t) return undefined;
  const at = addCalendar(t, calendar(type, config, "offset", OFFSETS));
  return { base_rfc3339: base, rfc3339: formatRfc3339(at), ...timeParts(at), id: base };
}

/** The base timestamp in `name`: the configuration's, else the prior state's. */
function baseOf(name: string, config: Attrs, prior: Attrs | null): string | undefined {
  if (isSet(config, name)) return String(config[name]);
  if (prior && isSet(prior, name)) return String(prior[name]);
  return undefined;
}

/** The object made of `attrs`; an error that says `invalid` where they are missing. */
function made(
  req: { type: TypeSchema; config: Attrs; address: string },
  attrs: Attrs | undefined,
  invalid: { summary: string; detail: string },
): Promise<Response<Attrs>> {
  if (!attrs) return Promise.resolve(fail(req.address, invalid.summary, invalid.detail));
  return Promise.resolve(ok(stateOf(req.type, req.config, attrs)));
}

function offsetBase(config: Attrs, prior: Attrs | null): string | undefined {
  return baseOf("base_rfc3339", config, prior);
}

function applyOffset(
  req: { type: TypeSchema; config: Attrs; address: string },
  base: string,
): Promise<Response<Attrs>> {
  return made(req, offsetAttrs(req.type, req.config, base), {
    summary: `Invalid base_rfc3339 "${base}"`,
    detail: "base_rfc3339 is a timestamp in RFC 3339 form. Write it as YYYY-MM-DDTHH:MM:SSZ.",
  });
}

const timeOffset: TypeHandler = {
  validate: (req) => [...checkRfc3339(req, "base_rfc3339"), ...atLeastOne(req, OFFSET_INPUTS)],
  plan(req) {
    const base = offsetBase(req.config, req.prior);
    const known = !req.unknown.some((n) => n === "base_rfc3339" || OFFSET_INPUTS.includes(n));
    const attrs = base !== undefined && known ? offsetAttrs(req.type, req.config, base) : undefined;
    if (attrs) return ok({ attributes: stateOf(req.type, req.config, attrs), unknown: [] });
    return allUnknown(req, ["base_rfc3339", "rfc3339", ...PARTS, "id"]);
  },
  create: (req) => applyOffset(req, offsetBase(req.config, null) ?? formatRfc3339(now())),
  update: (req) => applyOffset(req, offsetBase(req.config, req.prior) ?? formatRfc3339(now())),
  delete: forgetOnly,
  import: importOffset(offsetAttrs),
  importFormat: OFFSET_FORMAT,
};

// ---------------------------------------------------------------------------
// time_rotating

const ROTATION_INPUTS = [...ROTATIONS.map((u) => `rotation_${u}`), "rotation_rfc3339"];

function rotatingAttrs(type: TypeSchema, config: Attrs, base: string): Attrs | undefined {
  const t = parseRfc3339(base);
  if (!t) return undefined;
  let rotation: string;
  let at: Timestamp | undefined;
  if (isSet(config, "rotation_rfc3339")) {
    rotation = String(config.rotation_rfc3339);
    at = parseRfc3339(rotation);
    if (!at) return undefined;
  } else {
    at = addCalendar(t, calendar(type, config, "rotation", ROTATIONS));
    rotation = formatRfc3339(at);
  }
  // As Terraform: the parts and unix are those of the rotation time.
  return { rfc3339: base, rotation_rfc3339: rotation, ...timeParts(at), id: base };
}

function applyRotating(
  req: { type: TypeSchema; config: Attrs; address: string },
  base: string,
): Promise<Response<Attrs>> {
  return made(req, rotatingAttrs(req.type, req.config, base), {
    summary: "Invalid timestamp",
    detail: "rfc3339 and rotation_rfc3339 are timestamps in RFC 3339 form. Write them as " +
      "YYYY-MM-DDTHH:MM:SSZ.",
  });
}

function rotatingBase(config: Attrs, prior: Attrs | null): string | undefined {
  return baseOf("rfc3339", config, prior);
}

const timeRotating: TypeHandler = {
  validate(req) {
    const diags = [
      ...checkRfc3339(req, "rfc3339"),
      ...checkRfc3339(req, "rotation_rfc3339"),
      ...atLeastOne(req, ROTATION_INPUTS),
    ];
    const units = ROTATION_INPUTS.slice(0, -1).filter((n) => isSet(req.config, n));
    // As Terraform's provider: a rotation unit is at least 1 (AtLeast(1)).
    for (const n of units) {
      if (req.unknown.includes(n)) continue;
      const v = Number(req.config[n]);
      if (v >= 1) continue;
      diags.push(error(
        `Invalid ${n} ${v}`,
        `${n} is how many ${n.slice("rotation_".length)} after the base timestamp the ` +
          `resource rotates, at least 1. Set ${n} to 1 or more, or leave it out.`,
        { address: req.address, attribute: [{ name: n }] },
      ));
    }
    if (isSet(req.config, "rotation_rfc3339") && units.length > 0) {
      diags.push(warning(
        `rotation_rfc3339 is set together with ${units.join(", ")}`,
        `The rotation time is rotation_rfc3339 and ${units.join(", ")} play no part. Remove ` +
          "one or the other.",
        { address: req.address },
      ));
    }
    return diags;
  },
  plan(req) {
    const base = rotatingBase(req.config, req.prior);
    const known = !req.unknown.some((n) => n === "rfc3339" || ROTATION_INPUTS.includes(n));
    const attrs = base !== undefined && known
      ? rotatingAttrs(req.type, req.config, base)
      : undefined;
    if (attrs) return ok({ attributes: stateOf(req.type, req.config, attrs), unknown: [] });
    return allUnknown(req, ["rfc3339", "rotation_rfc3339", ...PARTS, "id"]);
  },
  create: (req) => applyRotating(req, rotatingBase(req.config, null) ?? formatRfc3339(now())),
  update: (req) => applyRotating(req, rotatingBase(req.config, req.prior) ?? formatRfc3339(now())),
  /** Gone once the rotation time has passed, as Terraform's read removes it. */
  read(req) {
    const at = timestampOf(req.prior, "rotation_rfc3339");
    return Promise.resolve(ok(at && Date.now() > at.ms ? null : req.prior));
  },
  delete: forgetOnly,
  import: importRotating(rotatingAttrs),
  importFormat: ROTATING_FORMAT,
  expiresAt(prior) {
    const at = timestampOf(prior, "rotation_rfc3339");
    return at ? new Date(at.ms).toISOString() : undefined;
  },
};

// ---------------------------------------------------------------------------
// time_sleep

function checkDuration(req: ValidateRequest, name: string): Diagnostic[] {
  const v = knownStr(req, name);
  if (v === undefined) return [];
  const ms = parseDuration(v);
  if (ms !== undefined && ms >= 0) return [];
  return [error(
    `Invalid ${name} "${v}"`,
    `${name} is a duration that is not negative, a number and a unit (ms, s, m, h) such as ` +
      `"30s", "1m30s" or "250ms". Write it in that form.`,
    { address: req.address },
  )];
}

/** Waits for the duration in an attribute; an error diagnostic when interrupted. */
async function wait(
  attrs: Attrs,
  name: string,
  req: { address: string; signal?: AbortSignal },
  whenInterrupted: string,
): Promise<Diagnostic[]> {
  if (!isSet(attrs, name)) return [];
  const text = String(attrs[name]);
  const ms = parseDuration(text);
  if (ms === undefined || ms < 0) {
    return [error(
      `Invalid ${name} "${text}"`,
      `${name} is a duration such as "30s" or "1m30s". Write it in that form.`,
      { address: req.address },
    )];
  }
  const started = Date.now();
  if (await sleep(ms, req.signal)) return [];
  const waited = ((Date.now() - started) / 1000).toFixed(1);
  return [error(
    "Interrupted while waiting",
    `The run was interrupted after ${waited}s of the ${text} of ${name}. ${whenInterrupted}`,
    { address: req.address },
  )];
}

const timeSleep: TypeHandler = {
  validate: (req) => [
    ...checkDuration(req, "create_duration"),
    ...checkDuration(req, "destroy_duration"),
  ],
  async create(req) {
    const diags = await wait(
      req.config,
      "create_duration",
      req,
      "It was not created; run apply again to create it.",
    );
    if (diags.length > 0) return { diagnostics: diags };
    return ok(stateOf(req.type, req.config, { id: formatRfc3339(now()) }));
  },
  /** Durations change in place without waiting, as in Terraform. */
  update(req) {
    const id = req.prior.id ?? formatRfc3339(now());
    return Promise.resolve(ok(stateOf(req.type, req.config, { id })));
  },
  async delete(req) {
    const diags = await wait(
      req.prior,
      "destroy_duration",
      req,
      "It is still in the state; run apply again to destroy it.",
    );
    return diags.length > 0 ? { diagnostics: diags } : ok(undefined);
  },
  import: importSleep,
  importFormat: SLEEP_FORMAT,
};

export const TIME_RUNTIME: ProviderRuntime = {
  source: "hashicorp/time",
  handlers: {
    managed: {
      time_offset: timeOffset,
      time_rotating: timeRotating,
      time_sleep: timeSleep,
      time_static: timeStatic,
    },
  },
};
