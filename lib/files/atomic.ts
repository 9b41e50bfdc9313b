/**
 * Writing a file whole: through a temporary file beside it, renamed over
 * it, so that a reader sees the old file or the new one and never half of
 * one.
 *
 * @module
 */

/**
 * Writes `data` (text as UTF-8) to `path` through `path.PID.tmp`, renamed
 * over it. A write that fails (a full disk) removes the temporary file and
 * leaves the old one as it was.
 */
export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const tmp = `${path}.${Deno.pid}.tmp`;
  try {
    if (typeof data === "string") await Deno.writeTextFile(tmp, data);
    else await Deno.writeFile(tmp, data);
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}
