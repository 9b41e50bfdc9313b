/**
 * Who runs pravo, when no flag or variable says: the actor recorded with
 * every change and lock.
 *
 * @module
 */

import { userInfo } from "node:os";

/**
 * The actor: `--actor`, else `$PRAVO_ACTOR`, else the login name (`$USER`,
 * `$LOGNAME`), else the user's name in the host's user database (a
 * container or a CI job often sets neither variable), else `unknown`.
 */
export function defaultActor(
  given: string | undefined,
  env: (name: string) => string | undefined,
  hostUser: () => string | undefined = hostUserName,
): string {
  for (const v of [given, env("PRAVO_ACTOR"), env("USER"), env("LOGNAME")]) {
    if (v !== undefined && v !== "") return v;
  }
  return hostUser() || "unknown";
}

/** The name of the process's user in the host's user database, if it can be read. */
export function hostUserName(): string | undefined {
  try {
    return userInfo().username || undefined;
  } catch {
    return undefined; // no such user, or no permission to ask (--allow-sys=uid,gid,userInfo)
  }
}
