/**
 * The program of one evaluation of a root, and its runs with cue-wasm:
 * the sources, the provider packages, the tags, the known values and the
 * defaults pinned so far, evaluated with the extra declarations each pass
 * gives (known values with stand-ins, sentinels).
 *
 * @module
 */

import { type EvalResult, evaluate, type rootCache } from "../engine.ts";
import type { SourceIndex } from "../errors.ts";
import { buildProgram } from "../program.ts";
import { neutral } from "../secrets.ts";
import type { Sources } from "../sources/sources.ts";
import type { Deps } from "./deps.ts";
import type { KnownValues } from "./known.ts";
import type { NodePattern } from "./node_patterns.ts";
import { modulePackages, type Packages } from "./packages.ts";
import { type SetnessMemo, setnessOf } from "./setness.ts";

/** What an {@link Evaluator} is made of. */
export interface EvaluatorInput {
  /** The sources' index, as the evaluation reads it. */
  index: SourceIndex;
  packages: Packages;
  known: KnownValues;
  /** The `-t` values as declarations. */
  tags: string[];
  /** Defaults pinned from the start (pins.ts `defaultPins`). */
  defaultPins: string[];
  /** Where nodes may be whose setness is not told yet (setness.ts `learnDeclaredSetness`). */
  pending: NodePattern[];
  /** Evaluate with the secrets' real values (EvaluateOptions `reveal`). */
  reveal: boolean;
  /** Trace values known only after apply (EvaluateOptions `trace`). */
  trace: boolean;
  /** The root's cache of evaluations (engine.ts `rootCache`). */
  cache: ReturnType<typeof rootCache>;
  memo: SetnessMemo;
  /** The dependency reading of the sources without nodes, made when first needed. */
  deps: () => Deps;
}

/** The program of an evaluation, run with the declarations each pass adds. */
export class Evaluator {
  readonly sources: Sources;
  readonly index: SourceIndex;
  readonly packages: Packages;
  readonly known: KnownValues;
  readonly tags: string[];
  readonly reveal: boolean;
  readonly trace: boolean;
  /** Defaults put in where a reference reads an unset attribute (settle.ts). */
  readonly pins: string[] = [];
  /**
   * Where nodes may be (node_patterns.ts) whose setness the first setness
   * evaluation could not tell: asked again with the values pinned by then
   * (settle.ts).
   */
  readonly pending: NodePattern[];
  /**
   * The "unknown" default of each optional and computed attribute that the
   * configuration leaves unset and the state does not give (pins.ts).
   */
  readonly defaultPins: string[];
  /** How a secret of `known` is given: as itself at apply; at plan time, as a neutral stand-in. */
  readonly given: ((v: unknown) => unknown) | undefined;
  /** The known values, each secret given as {@link Evaluator.given} says. */
  readonly knownDecls: string[];
  readonly #files: { parsed: Sources["files"][number]["parsed"]; src: string }[];
  readonly #cache: ReturnType<typeof rootCache>;
  readonly #memo: SetnessMemo;
  #neutralDecls: string[] | undefined;
  #neutralRun: Promise<EvalResult> | undefined;
  readonly #deps: () => Deps;

  constructor(sources: Sources, input: EvaluatorInput) {
    this.sources = sources;
    this.index = input.index;
    this.packages = input.packages;
    this.known = input.known;
    this.tags = input.tags;
    this.reveal = input.reveal;
    this.trace = input.trace;
    this.defaultPins = input.defaultPins;
    this.pending = input.pending;
    this.#memo = input.memo;
    this.#files = sources.files.map((f) => ({ parsed: f.parsed, src: f.src }));
    this.#cache = input.cache;
    this.#deps = input.deps;
    this.given = this.reveal ? undefined : neutral;
    this.knownDecls = this.known.declarations(this.given);
  }

  /**
   * An evaluation with `extra` declarations and these provider `bodies`;
   * `withPins`: with the "unknown" defaults of plugin nodes (the traced
   * evaluation puts sentinels there instead).
   */
  evaluateWith(extra: string[], program: { bodies: Map<string, string>; withPins: boolean }) {
    const { bodies, withPins } = program;
    return evaluate(
      buildProgram({
        files: this.#files,
        ...modulePackages(this.sources),
        providers: bodies,
        imports: this.packages.imports,
        extra: [...this.tags, ...this.pins, ...(withPins ? this.defaultPins : []), ...extra],
      }).source,
      { cacheDir: this.#cache?.dir, cacheKey: this.#cache?.key },
    );
  }

  /**
   * An evaluation; `defaults`: with the "unknown" defaults of plugin nodes
   * and the packages' defaults of computed values; without, the traced
   * evaluation's, which gives every one of them.
   */
  async run(extra: string[], defaults = true): Promise<EvalResult> {
    const main = this.packages.main;
    if (defaults) return await this.evaluateWith(extra, { bodies: main, withPins: true });
    // A node the other evaluation did not have (its existence depends on a
    // sentinel or a stand-in) has no value to give: the packages' defaults then.
    const r = await this.evaluateWith(extra, { bodies: this.packages.traced, withPins: false });
    return r.ok ? r : await this.evaluateWith(extra, { bodies: main, withPins: false });
  }

  /**
   * The evaluation with neutral values in place of the secrets (see
   * secrets.ts), made when first needed: messages come from it.
   */
  neutralEvaluation(): Promise<EvalResult> {
    return this.#neutralRun ??= this.run(this.known.declarations(neutral));
  }

  /** The evaluation without `null` on optional attributes: for precise messages. */
  strict(): Promise<EvalResult> {
    return this.evaluateWith(this.knownDecls, { bodies: this.packages.strict, withPins: true });
  }

  /**
   * CUE's message for a value that an optional attribute's `T | null`
   * refuses is "N errors in empty disjunction": the same evaluation without
   * `null` says what is wrong (`keepers.a: conflicting values 1 and
   * string`), when it fails at that place.
   */
  async sharpened(message: string): Promise<string> {
    const m = /^(?:cue: marshal error: )?(\S+): \d+ errors in empty disjunction/.exec(message);
    if (!m) return message;
    const strict = await this.strict();
    if (strict.ok) return message;
    const at = /^(?:cue: marshal error: )?(\S+):/.exec(strict.message)?.[1];
    return at && (at === m[1] || at.startsWith(m[1] + ".")) ? strict.message : message;
  }

  /**
   * Asks which fields these nodes, and those at these patterns, set, with
   * the values known and pinned so far: what could not be told yet.
   */
  async learnSetness(addresses: string[], patterns: NodePattern[] = []): Promise<NodePattern[]> {
    // The known values with each secret replaced by a neutral value (which
    // fields a node writes is not to depend on what a secret holds), and the
    // values pinned so far.
    const decls = [
      ...this.tags,
      ...(this.#neutralDecls ??= this.known.declarations(neutral)),
      ...this.pins,
      ...this.defaultPins,
    ];
    const { packages } = this;
    const q = { decls, packages, addresses, patterns, memo: this.#memo };
    const { setness, left } = await setnessOf(this.sources, q);
    for (const [a, set] of setness) this.known.setness.set(a, set);
    return left;
  }

  /** The dependency reading of the sources without nodes: what references read. */
  aliasing(): Deps {
    return this.#deps();
  }
}
