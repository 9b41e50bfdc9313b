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

/** `pravo [PLACE FLAGS] WORDS...`, quoted for the shell. */
export function pravoCommand(place: readonly string[], ...words: string[]): string {
  return ["pravo", ...place, ...words].map(shellWord).join(" ");
}
