/**
 * A mistake on the command line (an unknown flag, a value that cannot be
 * used): the command ends with the usage exit code and points to its help.
 *
 * @module
 */

/** A mistake on the command line: exit 64 with this message. */
export class UsageError extends Error {
  /** The command the mistake concerns, for a pointer to its help. */
  readonly command?: string;
  constructor(message: string, command?: string) {
    super(message);
    this.name = "UsageError";
    this.command = command;
  }
}
