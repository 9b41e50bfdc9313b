/**
 * The first evaluation of a root, settled: where it fails at a reference
 * to an attribute the configuration leaves unset, a value is pinned there
 * (pins.ts) and the program evaluated again, until it evaluates or no pin
 * helps.
 *
 * @module
 */

import type { EvalResult } from "../engine.ts";
import { formatPath } from "../errors.ts";
import type { Evaluator } from "./evaluator.ts";
import { defaultPins, optionalReads, pinDefault, unsetDefault } from "./pins.ts";
import { cueView, nested } from "./values.ts";

/** The most times the evaluation is run again with one more pin. */
const MAX_PINS = 50;

/**
 * Evaluates the program with the known values, pinning what references read
 * and evaluating again (at most {@link MAX_PINS} times): the last result.
 *
 * A reference to an attribute left unset whose default is the provider's
 * (`two: {length: pet.length}`): the default is put in where it is read,
 * as the node's own value, and the evaluation runs again. Likewise an
 * optional and computed attribute of a plugin node whose setness was not
 * told before (declared through a let): it gets the "unknown" default, or
 * the state's value. And the nodes whose lists the setness evaluation could
 * not tell before the first evaluation (Evaluator `pending`) are asked
 * again, with what is pinned by then.
 */
export async function settle(ev: Evaluator): Promise<EvalResult> {
  let res = await ev.run(ev.knownDecls);
  for (let i = 0; !res.ok && i < MAX_PINS; i++) {
    const pin = unsetDefault(res.message, ev.index)?.pin;
    if (pin && !ev.pins.includes(pin)) {
      ev.pins.push(pin);
    } else if (!await _pinRead(ev, res.message) && !await _pinPending(ev)) {
      break;
    }
    res = await ev.run(ev.knownDecls);
  }
  return res;
}

/**
 * Asks again which fields the nodes set whose setness the first setness
 * evaluation could not tell (their lists read what was not pinned then),
 * with the values pinned since, and pins what they leave unset. False when
 * that pins nothing more.
 */
async function _pinPending(ev: Evaluator): Promise<boolean> {
  if (!ev.pending.length) return false;
  ev.pending.push(...await ev.learnSetness([], ev.pending.splice(0)));
  const more = defaultPins(ev.known, { index: ev.index, deps: () => ev.aliasing() })
    .filter((d) => !ev.defaultPins.includes(d) && !ev.pins.includes(d));
  ev.defaultPins.push(...more);
  return more.length > 0;
}

/**
 * Pins the optional and computed attribute that a failed evaluation read
 * and the configuration leaves unset: its known value, or its "unknown"
 * default. False when there is none, or it is pinned already.
 */
async function _pinRead(ev: Evaluator, message: string): Promise<boolean> {
  const { known } = ev;
  const reads = optionalReads(message, ev.aliasing());
  // Which of them the configuration sets: only an unset one gets a value.
  const unknownSetness = reads.map((r) => formatPath(r.node)).filter((a) => !known.setness.has(a));
  if (unknownSetness.length) await ev.learnSetness(unknownSetness);
  const read = reads.find((r) => known.setness.get(formatPath(r.node))?.has(r.name) === false);
  if (!read) return false;
  const address = formatPath(read.node);
  // A secret is not put in as it is (the evaluations with stand-ins
  // would not see it): it stays unknown here.
  const secret = read.type.attributes[read.name]?.sensitive ||
    (known.secrets.get(address) ?? []).some((p) => p.length === 1 && String(p[0]) === read.name);
  const v = secret ? undefined : known.valueOf(address, read.name);
  const decl = v !== undefined && v !== null
    ? nested(
      [...read.node, read.name],
      JSON.stringify(cueView(v, read.type.attributes[read.name])),
    )
    : pinDefault([...read.node, read.name], read.type);
  if (ev.defaultPins.includes(decl) || ev.pins.includes(decl)) return false;
  (v !== undefined && v !== null ? ev.pins : ev.defaultPins).push(decl);
  return true;
}
