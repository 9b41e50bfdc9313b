/**
 * The human view of `pravo init`, drawn from the document that `--json` prints.
 *
 * @module
 */

import { relative } from "node:path";
import type { Diagnostic } from "../diag/diag.ts";
import type { Style } from "../diag/style.ts";
import type { ModuleDoc } from "../cue/install_modules.ts";
import { displayAddress, parseProviderSource } from "../providers/install/address.ts";
import type { LockedPlugin } from "../providers/install/lock.ts";

/** The content of `pravo.lock.json`, as written. */
export interface ProviderLock {
  format_version: "1.0";
  /**
   * By source: a built-in provider (`hashicorp/random`) holds its version; a
   * plugin provider (`registry.terraform.io/hashicorp/aws`) its version,
   * constraints and hashes.
   */
  providers: Record<string, { version: string } | LockedPlugin>;
}

/** What `init` did for one plugin provider. */
export interface InstalledDoc {
  /** `registry.terraform.io/hashicorp/aws`. */
  address: string;
  version: string;
  /**
   * `installed`: written into the plugin cache now, from `origin`; `used`:
   * used where it is (a mirror's unpacked package, or the cache).
   */
  action: "installed" | "used";
  /** The package was checked against the hashes the lock held for this version. */
  matched_lock: boolean;
  /** `mirror`, `registry` or `cache`. */
  from: "mirror" | "cache" | "registry";
  /** The mirror's directory, or the registry's host, or the cache's directory. */
  origin: string;
  /** The package: in the plugin cache, or a mirror's unpacked package. */
  package_dir: string;
  /** The executable, absolute, symbolic links resolved. */
  executable: string;
  /** The ID of the key that signed the registry's checksums, when one did. */
  signed_by?: string;
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
  /** pravo's key, which seals plan files (and, outside the root, is never printed). */
  key: {
    /** The key's public name: 16 hex digits. */
    fingerprint: string;
    /** Where it is: its file, or `$PRAVO_KEY`. */
    source: string;
    /** True when this run created the key file. */
    created: boolean;
  };
  /** The providers locked, by source, as in the lock file. */
  providers: ProviderLock["providers"];
  /** What was done for each plugin provider of `pravo.jsonc`, in its order; empty without any. */
  installed: InstalledDoc[];
  /** Plugin providers dropped from the lock: `pravo.jsonc` no longer requires them. */
  removed: string[];
  /** The plugin cache, when `pravo.jsonc` requires plugin providers. */
  plugin_cache?: { path: string; from: "TF_PLUGIN_CACHE_DIR" | "XDG_CACHE_HOME" | "HOME" };
  /**
   * The CUE dependency modules of `cue.mod/module.cue`'s deps, in its
   * order; only in a root whose module.cue lists any.
   */
  modules?: ModuleDoc[];
  /** Warnings, as diagnostics (they also go to stderr without --json). */
  warnings: Diagnostic[];
  lock_file: {
    /** The lock file, absolute. */
    path: string;
    /** What this run did to it. */
    status: "created" | "updated" | "unchanged";
  };
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
  lines.push(
    doc.key.created
      ? `Created pravo's key ${doc.key.source} (fingerprint ${doc.key.fingerprint}): it seals plan files; keep it outside every root, and back it up.`
      : `pravo's key is ${doc.key.source} (fingerprint ${doc.key.fingerprint}).`,
  );
  for (const p of doc.installed) {
    const name = `${displayAddress(parseProviderSource(p.address))} ${p.version}`;
    lines.push(
      p.action === "used"
        ? `Using ${name} from ${p.origin}${p.matched_lock ? ": it matches the lock" : ""}.`
        : `Installed ${name} from ${p.origin}${
          p.signed_by ? `, signed by key ${p.signed_by}` : ""
        }.`,
    );
  }
  for (const m of doc.modules ?? []) {
    const name = `${m.module} ${m.version}`;
    const digest = m.digest ? ` (${m.digest.slice(0, 19)}…)` : "";
    lines.push(
      m.action === "vendored"
        ? `Using ${name} vendored in cue.mod/pkg.`
        : m.action === "cached"
        ? `Using ${name} from pravo's cache${digest}: it matches the lock.`
        : `Fetched ${name} from ${m.from}${digest}.`,
    );
  }
  for (const a of doc.removed) {
    lines.push(`Dropped ${a} from the lock: pravo.jsonc no longer requires it.`);
  }
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
  for (const [source, entry] of Object.entries(doc.providers)) {
    const c = "constraints" in entry && entry.constraints ? ` (${entry.constraints})` : "";
    lines.push(`  ${source.padEnd(width)}  ${entry.version}${c}`);
  }
  lines.push(style.bold(doc.state.created ? "The root is ready." : "Nothing else to do."));
  return lines.join("\n") + "\n";
}
