/**
 * Who holds a lock: this process (pid, start time, host), and whether a
 * recorded holder is still alive.
 *
 * A lock records its holder's pid, the process's start time (where the
 * system tells it: Linux's `/proc/PID/stat`, so that a pid reused by another
 * process is not mistaken for the holder) and the host name. On the same host
 * a lock whose process is gone is treated as released; across hosts only the
 * lock's expiry can tell. Where `/proc` cannot be read (Deno's narrow
 * permissions), the SQLite store tells by the lock's beacon (../sqlite/beacon.ts).
 *
 * @module
 */

/** The holder of a lock: a process on a host. */
export interface Holder {
  pid: number;
  hostname: string;
  /** The process's start time in clock ticks since boot, where known. */
  startTime: string | null;
}

let self: Holder | undefined;

/** This process as a lock holder. */
export function currentHolder(): Holder {
  if (self === undefined) {
    self = { pid: Deno.pid, hostname: hostName(), startTime: processStartTime(Deno.pid) };
  }
  return self;
}

function hostName(): string {
  try {
    return Deno.hostname();
  } catch {
    return ""; // no permission to ask: liveness falls back on the expiry
  }
}

/** What `/proc/PID/stat` says of a process. */
type ProcStat = { start: string } | "gone" | "unknown";

/**
 * Reads `/proc/PID/stat`: the start time of a live process, "gone" when
 * there is no such process (or it is a zombie), "unknown" when `/proc` cannot
 * be read (another system, or Deno's permissions: it asks for all of them).
 */
function procStat(pid: number): ProcStat {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // The command name (field 2) is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z" || fields[0] === "X") return "gone"; // dead, not yet reaped
    return { start: fields[19] ?? "" }; // field 22: starttime
  } catch (e) {
    return e instanceof Deno.errors.NotFound && procUsable() ? "gone" : "unknown";
  }
}

let procOk: boolean | undefined;

/** True when this process can read its own `/proc` entry. */
function procUsable(): boolean {
  if (procOk === undefined) {
    try {
      Deno.readTextFileSync(`/proc/${Deno.pid}/stat`);
      procOk = true;
    } catch {
      procOk = false;
    }
  }
  return procOk;
}

/** The start time of a live process, or null when unknown. */
export function processStartTime(pid: number): string | null {
  const st = procStat(pid);
  return typeof st === "object" ? st.start : null;
}

/**
 * True when `holder` is known to be gone: it was on this host and its
 * process no longer exists (or the pid now belongs to a process started at
 * another time). False when it is alive or when this cannot be known: then
 * only the lock's expiry frees it. Knowing needs `/proc` (Deno asks for
 * `--allow-all` to read it) or signal 0 (`--allow-run`).
 */
export function holderIsGone(holder: Holder): boolean {
  const me = currentHolder();
  if (me.hostname === "" || holder.hostname !== me.hostname) return false;
  if (holder.pid === me.pid) {
    return holder.startTime !== null && me.startTime !== null &&
      holder.startTime !== me.startTime;
  }
  const st = procStat(holder.pid);
  if (st === "gone") return true;
  if (st !== "unknown") return holder.startTime !== null && st.start !== holder.startTime;
  try {
    // Deno.kill has no signal 0; the global `process` (Deno's Node layer) is
    // loaded only here, so that a start does not pay for it.
    globalThis.process.kill(holder.pid, 0);
    return false;
  } catch (e) {
    return (e as { code?: string }).code === "ESRCH";
  }
}
