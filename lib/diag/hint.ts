/**
 * Commands that a message tells the user to run: with the global flags that
 * chose the root and the state (`-C`, `--state`) as the user gave them, each
 * word quoted for a POSIX shell where it needs it, so that the line can be
 * pasted as it is.
 *
 * @module
 */

/** A word as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The global flags of this run that a later command needs to reach the same root and state. */
export function placeFlags(options: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (typeof options.C === "string") out.push("-C", options.C);
  if (typeof options.state === "string") out.push("--state", options.state);
  return out;
}

/**
 * How the user runs pravo, for the commands messages name: `$PRAVO_PROGRAM`
 * when it is a relative path such as `./scripts/pravo` (scripts/pravo sets
 * it to the path it was run by), else `pravo`.
 */
export function programName(): string {
  let v: string | undefined;
  try {
    v = Deno.env.get("PRAVO_PROGRAM");
  } catch {
    v = undefined; // not granted: the name on the PATH
  }
  return v && v.includes("/") && !v.startsWith("/") && /^[A-Za-z0-9_.\/-]+$/.test(v) ? v : "pravo";
}

/** `pravo [PLACE FLAGS] WORDS...`, quoted for the shell, named as the user runs pravo. */
export function pravoCommand(place: readonly string[], ...words: string[]): string {
  return [programName(), ...place, ...words].map(shellWord).join(" ");
}

/**
 * A message's text with each command it quotes (`` `pravo init` ``,
 * `"pravo apply FILE"`) named as the user runs pravo.
 */
export function asInvoked(text: string): string {
  const name = programName();
  if (name === "pravo") return text;
  return text.replace(/([`"])pravo(?= )/g, `$1${name}`);
}
