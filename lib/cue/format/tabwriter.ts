/**
 * Column alignment as Go's `text/tabwriter` does it with the settings of
 * CUE's formatter (minwidth 0, tabwidth 4, padding 1, padchar ' ',
 * StripEscape | TabIndent | DiscardEmptyColumns).
 *
 * Cells end at `\t` (hard) or `\v` (soft); lines end at `\n`, and `\f` ends a
 * line and every column block. Text between two ESCAPE characters is taken
 * as it is. Consecutive lines that have a cell in a column form a block, and
 * every cell of a block is padded to the widest one plus one blank.
 *
 * @module
 */

/** Brackets literal text (strings, comments) so that its tabs are not cells. */
export const ESCAPE = "\uffff";

interface Cell {
  text: string;
  width: number;
  htab: boolean;
}

const TAB_WIDTH = 4;
const PADDING = 1;

/** Aligns `input` (with `\t`, `\v`, `\f` and escapes) into the final text. */
export function tabwrite(input: string): string {
  const out: string[] = [];
  let lines: Cell[][] = [[]];
  let cell = "";
  let width = 0;
  let escaped = false;
  for (const ch of input) {
    if (escaped) {
      if (ch === ESCAPE) escaped = false;
      else {
        cell += ch;
        width++;
      }
      continue;
    }
    if (ch === ESCAPE) {
      escaped = true;
      continue;
    }
    if (ch === "\t" || ch === "\v" || ch === "\n" || ch === "\f") {
      const line = lines[lines.length - 1];
      line.push({ text: cell, width, htab: ch === "\t" });
      cell = "";
      width = 0;
      if (ch === "\n" || ch === "\f") {
        const ncells = line.length;
        lines.push([]);
        if (ch === "\f" || ncells === 1) {
          // Nothing above can change how what follows is aligned.
          format(lines, out);
          lines = [[]];
        }
      }
      continue;
    }
    cell += ch;
    width++;
  }
  lines[lines.length - 1].push({ text: cell, width, htab: false });
  format(lines, out);
  return out.join("");
}

/**
 * Writes `lines` with their columns aligned; every line but the last ends
 * with a line break. A line's last cell is never aligned.
 */
function format(lines: Cell[][], out: string[]): void {
  const widths: number[] = [];
  const rec = (line0: number, line1: number) => {
    const column = widths.length;
    let i = line0;
    while (i < line1) {
      if (column >= lines[i].length - 1) {
        i++;
        continue;
      }
      writeLines(lines, line0, i, widths, out);
      line0 = i;
      let width = 0;
      let discardable = true;
      for (; i < line1; i++) {
        const line = lines[i];
        if (column >= line.length - 1) break;
        const c = line[column];
        if (c.width + PADDING > width) width = c.width + PADDING;
        if (c.width > 0 || c.htab) discardable = false;
      }
      if (discardable) width = 0;
      widths.push(width);
      rec(line0, i);
      widths.pop();
      line0 = i;
    }
    writeLines(lines, line0, line1, widths, out);
  };
  rec(0, lines.length);
}

function writeLines(
  lines: Cell[][],
  line0: number,
  line1: number,
  widths: number[],
  out: string[],
): void {
  for (let i = line0; i < line1; i++) {
    let useTabs = true;
    const line = lines[i];
    line.forEach((c, j) => {
      if (c.text.length === 0) {
        if (j < widths.length) out.push(padding(c.width, widths[j], useTabs));
      } else {
        useTabs = false;
        out.push(c.text);
        if (j < widths.length) out.push(padding(c.width, widths[j], false));
      }
    });
    if (i + 1 < lines.length) out.push("\n");
  }
}

function padding(textw: number, cellw: number, useTabs: boolean): string {
  if (useTabs) {
    cellw = Math.ceil(cellw / TAB_WIDTH) * TAB_WIDTH;
    return "\t".repeat(Math.ceil((cellw - textw) / TAB_WIDTH));
  }
  return " ".repeat(Math.max(0, cellw - textw));
}
