/**
 * A unified diff of two texts, line by line, with three lines of context: what
 * `pravo fmt --diff` prints.
 *
 * @module
 */

type Op = { kind: " " | "-" | "+"; line: string };

/** The lines of `a` and `b` as a shortest edit script (longest common subsequence). */
function edits(a: string[], b: string[]): Op[] {
  // Trim the common head and tail first: formatting changes are local.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  const n = am.length, m = bm.length;
  // lcs[i][j]: the length of the longest common subsequence of am[i..] and bm[j..].
  const lcs: Uint32Array[] = [];
  for (let i = 0; i <= n; i++) lcs.push(new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = am[i] === bm[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const ops: Op[] = a.slice(0, head).map((line) => ({ kind: " ", line }));
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && am[i] === bm[j]) {
      ops.push({ kind: " ", line: am[i] });
      i++;
      j++;
    } else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      ops.push({ kind: "-", line: am[i++] });
    } else {
      ops.push({ kind: "+", line: bm[j++] });
    }
  }
  for (const line of a.slice(a.length - tail)) ops.push({ kind: " ", line });
  return ops;
}

function splitLines(s: string): string[] {
  const lines = s.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * The unified diff from `before` to `after`, with `name` in the headers
 * (`--- a/NAME`, `+++ b/NAME`); empty when the texts are equal.
 */
export function unifiedDiff(name: string, before: string, after: string, context = 3): string {
  if (before === after) return "";
  const ops = edits(splitLines(before), splitLines(after));
  const out = [`--- a/${name}`, `+++ b/${name}`];
  let k = 0;
  while (k < ops.length) {
    if (ops[k].kind === " ") {
      k++;
      continue;
    }
    // A hunk: from `context` lines before this change to `context` lines after the last
    // change that is no more than 2 * context lines away.
    const start = Math.max(0, k - context);
    let end = k;
    let last = k;
    while (end < ops.length) {
      if (ops[end].kind !== " ") last = end;
      else if (end - last > 2 * context) break;
      end++;
    }
    end = Math.min(ops.length, last + context + 1);
    let aStart = 1, bStart = 1;
    for (let t = 0; t < start; t++) {
      if (ops[t].kind !== "+") aStart++;
      if (ops[t].kind !== "-") bStart++;
    }
    const hunk = ops.slice(start, end);
    const aLen = hunk.filter((o) => o.kind !== "+").length;
    const bLen = hunk.filter((o) => o.kind !== "-").length;
    out.push(
      `@@ -${aLen === 0 ? aStart - 1 : aStart},${aLen} +${
        bLen === 0 ? bStart - 1 : bStart
      },${bLen} @@`,
    );
    for (const o of hunk) out.push(o.kind + o.line);
    k = end;
  }
  return out.join("\n") + "\n";
}
