/**
 * Colour for a terminal: ANSI styles, or plain text when colour is off
 * (`--no-color`, a pipe). Every human view takes one.
 *
 * @module
 */

/** ANSI styles, or plain text when colour is off. */
export class Style {
  readonly enabled: boolean;
  constructor(enabled: boolean) {
    this.enabled = enabled;
  }
  #wrap(code: string, s: string): string {
    return this.enabled ? `\x1b[${code}m${s}\x1b[0m` : s;
  }
  bold(s: string): string {
    return this.#wrap("1", s);
  }
  dim(s: string): string {
    return this.#wrap("2", s);
  }
  red(s: string): string {
    return this.#wrap("31", s);
  }
  green(s: string): string {
    return this.#wrap("32", s);
  }
  yellow(s: string): string {
    return this.#wrap("33", s);
  }
  cyan(s: string): string {
    return this.#wrap("36", s);
  }
}
