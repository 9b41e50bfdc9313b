/**
 * Who runs pravo, when no flag or variable says: the actor recorded with
 * every change and lock.
 *
 * @module
 */

/**
 * The actor: `--actor`, else `$PRAVO_ACTOR`, else the login name (`$USER`,
 * `$LOGNAME`), else the user's name in the host's user database (a
 * container or a CI job often sets neither variable), else `unknown`.
 */
export async function defaultActor(
  given: string | undefined,
  env: (name: string) => string | undefined,
  hostUser: () => Promise<string | undefined> | string | undefined = hostUserName,
): Promise<string> {
  for (const v of [given, env("PRAVO_ACTOR"), env("USER"), env("LOGNAME")]) {
    if (v !== undefined && v !== "") return v;
  }
  return (await hostUser()) || "unknown";
}

/**
 * The name of the process's user in the host's user database, if it can be
 * read. `node:os` is loaded only here: most runs name their actor in a
 * variable, and every `node:` module costs a start milliseconds.
 */
export async function hostUserName(): Promise<string | undefined> {
  const { userInfo } = await import("node:os");
  try {
    return userInfo().username || undefined;
  } catch {
    return undefined; // no such user, or no permission to ask (--allow-sys=uid,gid,userInfo)
  }
}
