/**
 * What a provider writes: drained always (a provider logs megabytes, and a
 * full pipe would block it), the last part kept for error reports.
 *
 * {@link OutputTail.report} is what a diagnostic may show: the last lines
 * that are not structured logs (a Go panic and its stack, a message printed
 * before the handshake) and, of the logs, only warnings and errors: JSON
 * logs (hclog) as `level: message`, and the legacy SDK's `[WARN]` and
 * `[ERROR]` lines. Trace, debug and info logs, which may carry request and
 * response bodies, are never shown. After a Go panic, the report starts at
 * the `panic:` line, where the top of the stack is.
 *
 * @module
 */

/** The last bytes a provider wrote, as text. */
export class OutputTail {
  readonly #limit: number;
  readonly #decoder = new TextDecoder();
  #chunks: string[] = [];
  #size = 0;
  /** Every byte seen, kept or not. */
  total = 0;

  constructor(limit = 64 * 1024) {
    this.#limit = limit;
  }

  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    const s = this.#decoder.decode(chunk, { stream: true });
    if (!s) return;
    this.#chunks.push(s);
    this.#size += s.length;
    while (this.#size > this.#limit && this.#chunks.length > 1) {
      this.#size -= this.#chunks.shift()!.length;
    }
    if (this.#size > this.#limit) {
      const only = this.#chunks[0];
      this.#chunks = [only.slice(only.length - this.#limit)];
      this.#size = this.#chunks[0].length;
    }
  }

  /** The kept text, raw. */
  text(): string {
    return this.#chunks.join("");
  }

  /** The last `lines` lines worth showing in a diagnostic (see the module doc). */
  report(lines = 20): string {
    const out: string[] = [];
    for (const line of this.text().split("\n")) {
      const l = line.replace(/\r$/, "");
      if (!l.trim()) continue;
      if (l.startsWith("{")) {
        let entry: Record<string, unknown> | undefined;
        try {
          entry = JSON.parse(l);
        } catch {
          entry = undefined;
        }
        if (entry && typeof entry["@level"] === "string") {
          const level = entry["@level"] as string;
          if (level === "error" || level === "warn") {
            const err = typeof entry.error === "string" ? `: ${entry.error}` : "";
            out.push(`${level}: ${String(entry["@message"] ?? "")}${err}`);
          }
          continue;
        }
      }
      if (/^\[(TRACE|DEBUG|INFO)\]/.test(l)) continue;
      out.push(l);
    }
    // A Go panic: its first line and the top of its stack say the most.
    const panic = out.findLastIndex((l) => /^panic: /.test(l));
    if (panic >= 0 && out.length - panic > lines) return out.slice(panic, panic + lines).join("\n");
    return out.slice(-lines).join("\n");
  }
}
