/**
 * The PostgreSQL store's failures as diagnostics: a server that cannot be
 * reached or a connection lost (saying whether a write was committed), a
 * refused login, a missing database, missing rights, a busy root; the
 * password never in them. Also the driver's errors thrown outside any call
 * (a socket closed under a timer), reported as the lost connection.
 *
 * @module
 */

import { DiagnosticsError, error } from "../../diag/diag.ts";
import { endProcess } from "../../diag/fatal.ts";
import type { PostgresLocation } from "../../config/location.ts";
import { withoutPassword } from "../open.ts";

/** The error codes of a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
]);

/** True for an error of a connection that could not be made or was lost. */
export function isConnectionError(e: unknown): boolean {
  const code = (e as { code?: string })?.code;
  return (code !== undefined && CONNECTION_CODES.has(code)) ||
    e instanceof Deno.errors.ConnectionRefused || e instanceof Deno.errors.ConnectionReset ||
    e instanceof Deno.errors.BrokenPipe;
}

let crashHandler = false;

/**
 * The driver can throw outside any call of ours when the server vanishes
 * (writing to a socket it already closed, from a timer). Such an error is
 * the lost connection, reported as one, instead of a stack trace.
 */
export function catchDriverCrash(where: PostgresLocation): void {
  if (crashHandler) return;
  crashHandler = true;
  globalThis.addEventListener("error", (ev) => {
    const stack = String((ev.error as Error | undefined)?.stack ?? "");
    if (!stack.includes("/postgres/src/")) return;
    const e = Object.assign(new Error("the connection's socket is closed"), { code: "ECONNRESET" });
    // main.ts prints the diagnostics and ends with their kind's exit code.
    if (endProcess({ error: mapError(e, { where, doing: "write" }) as DiagnosticsError })) {
      ev.preventDefault();
    }
  });
}

/** Where a failure happened: the store, and what pravo was doing (default: opening it). */
export interface FailureSite {
  where: PostgresLocation;
  doing?: "read" | "write" | "lock" | "open";
}

/** Runs `fn`, turning what the server or the network says into diagnostics. */
export async function guard<T>(fn: () => Promise<T>, at: FailureSite): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw mapError(e, at);
  }
}

/** What the server or the network said, as a diagnostic (the password taken out); others as they are. */
export function mapError(e: unknown, at: FailureSite): unknown {
  if (e instanceof DiagnosticsError) return e;
  const { where, doing = "open" } = at;
  const scrub = (s: string) => {
    let out = withoutPassword(s);
    if (where.password) out = out.split(where.password).join("***");
    return out;
  };
  const err = e as { code?: string; message?: string; name?: string };
  const msg = scrub(String(err?.message ?? e));
  const servers = where.hosts.map((h) => `${h.host}:${h.port}`).join(", ");
  if (e instanceof Deno.errors.NotCapable || err?.name === "NotCapable") {
    return new DiagnosticsError([
      error(
        `pravo may not connect to the PostgreSQL state store at ${servers}`,
        `Deno refused the connection: ${msg}. Run pravo through scripts/pravo, which grants ` +
          `--allow-net to the state's server (and reads $PGPASSWORD), or add ` +
          `--allow-net=${servers.replaceAll(" ", "")} --allow-env=PGPASSWORD,PGAPPNAME.`,
      ),
    ], "error");
  }
  if (isConnectionError(e)) {
    const what = doing === "open"
      ? `Cannot reach the PostgreSQL state store ${where.path}`
      : `Lost the connection to the PostgreSQL state store ${where.path}`;
    const after = doing === "write"
      ? " A change being written then was committed whole or not at all: the state is " +
        "consistent. When the server is back, run `pravo plan` to see what is left, then apply it."
      : doing === "open"
      ? ` Check that the server is running and that ${servers} is right, then try again.`
      : " When the server is back, run the command again.";
    const code = err.code ?? err.name ?? "";
    const said = code === "ECONNREFUSED" || e instanceof Deno.errors.ConnectionRefused
      ? `The server at ${servers} refused the connection`
      : code === "CONNECT_TIMEOUT" || code === "ETIMEDOUT"
      ? `The server at ${servers} did not answer within ${where.connectTimeout}s`
      : code === "ENOTFOUND" || code === "EAI_AGAIN"
      ? `The host name of ${servers} could not be resolved`
      : code.startsWith("57P")
      ? `The server is shutting down or starting (${msg})`
      : `The server at ${servers} closed the connection`;
    return new DiagnosticsError([error(what, `${said} (${code}).${after}`)], "error");
  }
  const code = err?.code;
  if (code === "28P01" || code === "28000") {
    return new DiagnosticsError([
      error(
        `The PostgreSQL server refused the login to ${where.path}`,
        `${msg}. Give the right user in the URL and the password in $PGPASSWORD (or the URL ` +
          "given by --state or $PRAVO_STATE, never in pravo.jsonc).",
      ),
    ], "error");
  }
  if (code === "3D000") {
    return new DiagnosticsError([
      error(
        `The database of ${where.path} does not exist`,
        `${msg}. Create it (createdb -O USER DATABASE) or correct the URL.`,
      ),
    ], "error");
  }
  if (code === "42501") {
    return new DiagnosticsError([
      error(
        `The PostgreSQL user may not use ${where.path}`,
        `${msg}. Grant the user the rights on the database and the schema "${where.schema}" ` +
          "(docs/how-to/shared-state.md shows them), then try again.",
      ),
    ], "error");
  }
  if (code === "55P03" || code === "57014") {
    return new DiagnosticsError([
      error(
        "The state database is busy",
        `${msg}. Another session kept the root's row locked too long. Wait for it to finish, ` +
          "then try again.",
      ),
    ], "locked");
  }
  if (e instanceof Error && where.password && e.message.includes(where.password)) {
    e.message = scrub(e.message);
  }
  return e;
}
