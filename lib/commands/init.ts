/**
 * `pravo init`: prepares a root. Creates `.pravo/` and the state store (or
 * keeps the one there, with its lineage), and records the versions of the
 * providers pravo ships in `pravo.lock.json`. Running it again is harmless.
 * No CUE is loaded.
 *
 * @module
 */

import { join, relative } from "node:path";
import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { stableJson, type Style } from "../cli/output.ts";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { PROVIDERS } from "../providers/registry.ts";
import type { ProviderSchema } from "../providers/schema.ts";
import { openStore, PRAVO_DIR, stateLocation } from "../state/open.ts";

/** The provider lock file, in the root. */
export const LOCK_FILE = "pravo.lock.json";

/** The content of `pravo.lock.json`. */
export interface ProviderLock {
  format_version: "1.0";
  /** By source (`hashicorp/random`). */
  providers: Record<string, { version: string }>;
}

/** The document that `pravo init --json` prints. */
export interface InitDoc {
  format_version: "1.0";
  /** The root, absolute. */
  root: string;
  state: {
    backend: "sqlite" | "postgres";
    /** The database file, absolute; or the server's URL without its password. */
    path: string;
    lineage: string;
    serial: number;
    /** True when this run created the state; false when it was there. */
    created: boolean;
  };
  /** The providers locked, by source, as in the lock file. */
  providers: Record<string, { version: string }>;
  lock_file: {
    /** The lock file, absolute. */
    path: string;
    /** What this run did to it. */
    status: "created" | "updated" | "unchanged";
  };
}

export const run: CommandRun = async (ctx) => {
  await requireDirectory(ctx.root);
  const where = stateLocation(ctx);
  if (where.isDefault) await makePravoDir(ctx.root);
  const store = await openStore(ctx, { create: true });
  let identity;
  try {
    identity = await store.identity();
  } finally {
    await store.close();
  }
  const lock = providerLock(PROVIDERS);
  const lockPath = join(ctx.root, LOCK_FILE);
  const status = await writeLockFile(lockPath, lock);
  const doc: InitDoc = {
    format_version: "1.0",
    root: ctx.root,
    state: {
      backend: store.location.backend,
      path: store.location.path,
      lineage: identity.lineage,
      serial: identity.serial,
      created: store.created,
    },
    providers: lock.providers,
    lock_file: { path: lockPath, status },
  };
  emit(ctx, doc, () => renderInit(doc, ctx.style));
  return Exit.OK;
};

/** The lock of these providers: their versions by source. */
export function providerLock(providers: readonly ProviderSchema[]): ProviderLock {
  const out: ProviderLock = { format_version: "1.0", providers: {} };
  for (const p of [...providers].sort((a, b) => a.source.localeCompare(b.source))) {
    out.providers[p.source] = { version: p.version };
  }
  return out;
}

/** The human view of the document. */
export function renderInit(doc: InitDoc, style: Style): string {
  const shown = (p: string) => {
    const rel = relative(doc.root, p);
    return rel.startsWith("..") || rel === "" ? p : rel;
  };
  const kind = doc.state.backend === "postgres" ? "PostgreSQL" : "SQLite";
  const state = `${
    doc.state.backend === "postgres" ? doc.state.path : shown(doc.state.path)
  } (${kind}, lineage ${doc.state.lineage}, serial ${doc.state.serial})`;
  const lines = [
    doc.state.created
      ? `Created the state store ${state}.`
      : `The root was already initialised: kept the state store ${state}.`,
  ];
  const n = Object.keys(doc.providers).length;
  const count = `${n} provider${n === 1 ? "" : "s"}`;
  const lockName = shown(doc.lock_file.path);
  lines.push(
    doc.lock_file.status === "created"
      ? `Wrote ${lockName} with ${count}:`
      : doc.lock_file.status === "updated"
      ? `Updated ${lockName} to ${count}:`
      : `${lockName} is up to date with ${count}:`,
  );
  const width = Math.max(...Object.keys(doc.providers).map((s) => s.length));
  for (const [source, { version }] of Object.entries(doc.providers)) {
    lines.push(`  ${source.padEnd(width)}  ${version}`);
  }
  lines.push(style.bold(doc.state.created ? "The root is ready." : "Nothing else to do."));
  return lines.join("\n") + "\n";
}

async function requireDirectory(root: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(root);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    throw new DiagnosticsError([
      error(
        "The root directory does not exist",
        `There is no directory "${root}". Create it, or name the root with -C DIR.`,
      ),
    ], Exit.ERROR);
  }
  if (!info.isDirectory) {
    throw new DiagnosticsError([
      error(
        "The root is not a directory",
        `"${root}" is a file. Name the directory that holds the .cue files with -C DIR.`,
      ),
    ], Exit.ERROR);
  }
}

/**
 * Makes `.pravo/` (0700) with a `.gitignore` that keeps it out of version
 * control: the state holds the values of sensitive attributes.
 */
async function makePravoDir(root: string): Promise<void> {
  const dir = join(root, PRAVO_DIR);
  try {
    await Deno.mkdir(dir, { mode: 0o700 });
    await Deno.chmod(dir, 0o700);
  } catch (e) {
    if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
  }
  const ignore = join(dir, ".gitignore");
  try {
    await Deno.writeTextFile(
      ignore,
      "# The state holds secret values: keep it out of version control.\n*\n",
      { createNew: true },
    );
  } catch (e) {
    if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
  }
}

/** Writes the lock file atomically when its content differs; says what it did. */
async function writeLockFile(
  path: string,
  lock: ProviderLock,
): Promise<"created" | "updated" | "unchanged"> {
  const text = stableJson(lock) + "\n";
  let old: string | undefined;
  try {
    old = await Deno.readTextFile(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  if (old === text) return "unchanged";
  const tmp = `${path}.${Deno.pid}.tmp`;
  try {
    await Deno.writeTextFile(tmp, text);
    await Deno.rename(tmp, path);
  } catch (e) {
    // A full disk leaves no half-written file behind: the old one stays.
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
  return old === undefined ? "created" : "updated";
}
