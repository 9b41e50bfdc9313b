/**
 * Keeping a tool result within the server's byte limit. What pravo prints
 * with `--json` is one JSON document, and an agent parses it: a result that
 * is too long is cut so that it is still one JSON document,
 * `{"cut": NOTE, "partial": DOCUMENT}`, where DOCUMENT has the shape of the
 * whole with its long lists, objects and strings shortened (each shortening
 * marked `[cut: ...]`) and NOTE says how long the whole was and how to get
 * the rest. A text that is not JSON is cut at a line, with the note after it.
 *
 * @module
 */

const encoder = new TextEncoder();

function byteLength(s: string): number {
  return encoder.encode(s).length;
}

/** How to get the rest of a tool's result. */
export function howToGetTheRest(tool: string): string {
  return tool === "pravo_state_query"
    ? "narrow the expression"
    : tool === "pravo_state_log"
    ? "read the log from the command line with --limit and --address"
    : tool === "pravo_plan"
    ? "save the plan with out and read parts of it with pravo_state_query or pravo_why"
    : "narrow the request";
}

/** The note on a cut result. */
export function cutNote(bytes: number, limit: number, tool: string): string {
  return `the result is ${bytes} bytes and this server returns at most ${limit}; ${
    howToGetTheRest(tool)
  }, or ask the operator to raise --max-result-bytes`;
}

/** Cuts a text to a byte limit at a line boundary, with a note saying how to get the rest. */
export function bound(text: string, limit: number, tool: string): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= limit) return text;
  let cut = new TextDecoder().decode(bytes.subarray(0, limit));
  // A character split by the byte cut decodes as U+FFFD: drop it.
  cut = cut.replace(/\uFFFD$/, "");
  const nl = cut.lastIndexOf("\n");
  if (nl > limit / 2) cut = cut.slice(0, nl);
  return `${cut}\n[cut: ${cutNote(bytes.length, limit, tool)}]`;
}

/**
 * A copy of a JSON value with every list and object cut to about `k`
 * entries and every string to about `16 * k` characters, each cut marked.
 */
export function prune(value: unknown, k: number): unknown {
  if (typeof value === "string") {
    const max = 16 * k + 16;
    return value.length > max
      ? `${value.slice(0, max)}[cut: ${value.length - max} more characters]`
      : value;
  }
  if (Array.isArray(value)) {
    const out = value.slice(0, k).map((v) => prune(v, k));
    if (value.length > k) out.push(`[cut: ${value.length - k} more entries]`);
    return out;
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    const keep = 4 * k + 8; // keep an object's fields longer than lists: they are its shape
    const out: Record<string, unknown> = {};
    for (const key of keys.slice(0, keep)) {
      Object.defineProperty(out, key, {
        value: prune((value as Record<string, unknown>)[key], k),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    if (keys.length > keep) {
      out["[cut]"] = `${keys.length - keep} more fields: ${keys.slice(keep, keep + 5).join(", ")}${
        keys.length - keep > 5 ? ", ..." : ""
      }`;
    }
    return out;
  }
  return value;
}

function largest(value: unknown): number {
  let max = 0;
  const walk = (v: unknown) => {
    if (typeof v === "string") max = Math.max(max, Math.ceil(v.length / 16));
    else if (Array.isArray(v)) {
      max = Math.max(max, v.length);
      v.forEach(walk);
    } else if (v !== null && typeof v === "object") {
      const vals = Object.values(v);
      max = Math.max(max, Math.ceil(vals.length / 4));
      vals.forEach(walk);
    }
  };
  walk(value);
  return max + 1;
}

/**
 * `{"cut": note, "partial": value shortened}` as pretty JSON of at most
 * `limit` bytes: the largest shortening that fits (a binary search on `k`).
 * Without `value` (it could not be read whole), the note alone.
 */
export function cutDocument(value: unknown, note: string, limit: number, hasValue = true): string {
  const render = (k: number) =>
    JSON.stringify(hasValue ? { cut: note, partial: prune(value, k) } : { cut: note }, null, 2);
  let best = render(0);
  if (!hasValue) return best;
  if (byteLength(best) > limit) return JSON.stringify({ cut: note }, null, 2);
  let lo = 1;
  let hi = largest(value);
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const text = render(mid);
    if (byteLength(text) <= limit) {
      best = text;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

/** What a child printed, and what the server adds after it. */
export interface ResultParts {
  /** What the command printed on stdout. */
  stdout: string;
  /** It printed more than the server keeps; `stdout` is its beginning, `stdoutBytes` the whole. */
  stdoutCut?: boolean;
  stdoutBytes?: number;
  /** What follows stdout: the stderr of a failure, the server's notes. */
  after: string;
}

/**
 * The text of a result, at most `limit` bytes. When it is longer and stdout
 * is a JSON document, stdout is replaced by {@link cutDocument}, so that it is
 * still one JSON document; `after` is kept whole, or cut at a line when it is
 * itself too long.
 */
export function boundResult(parts: ResultParts, limit: number, tool: string): string {
  const join = (a: string, b: string) => (a && b ? `${a}\n${b}` : a || b);
  const whole = join(parts.stdout, parts.after);
  if (!parts.stdoutCut && byteLength(whole) <= limit) return whole;
  let value: unknown;
  let isJson = false;
  if (!parts.stdoutCut) {
    try {
      value = JSON.parse(parts.stdout);
      isJson = true;
    } catch {
      // not JSON
    }
  }
  const looksJson = /^\s*[{[]/.test(parts.stdout);
  if (!isJson && !(parts.stdoutCut && looksJson)) return bound(whole, limit, tool);
  const after = byteLength(parts.after) > limit / 4
    ? bound(parts.after, Math.floor(limit / 4), tool)
    : parts.after;
  const budget = limit - (after ? byteLength(after) + 1 : 0);
  const total = parts.stdoutCut ? parts.stdoutBytes ?? byteLength(parts.stdout) : byteLength(whole);
  const note = cutNote(total, limit, tool) +
    (isJson ? "; lists, objects and strings marked [cut] were shortened" : "");
  return join(cutDocument(value, note, budget, isJson), after);
}
