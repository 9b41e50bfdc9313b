/**
 * Platforms (`linux_amd64`): the operating system and architecture a
 * provider package is built for, named as Go names them.
 *
 * @module
 */

/** An operating system and an architecture. */
export interface Platform {
  os: string;
  arch: string;
}

const OS: Record<string, string> = { linux: "linux", darwin: "darwin", windows: "windows" };
const ARCH: Record<string, string> = { x86_64: "amd64", aarch64: "arm64" };

/** The platform pravo runs on. */
export function currentPlatform(): Platform {
  const os = OS[Deno.build.os] ?? Deno.build.os;
  const arch = ARCH[Deno.build.arch] ?? Deno.build.arch;
  return { os, arch };
}

/** `linux_amd64`. */
export function platformString(p: Platform): string {
  return `${p.os}_${p.arch}`;
}

/** Parses `linux_amd64`; undefined when it is not two words joined by one `_`. */
export function parsePlatform(text: string): Platform | undefined {
  const m = /^([a-z0-9]+)_([a-z0-9]+)$/.exec(text);
  return m ? { os: m[1], arch: m[2] } : undefined;
}
