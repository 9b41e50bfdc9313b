/**
 * Node addresses as text (`net.web."a b"`): the one grammar of pravo's
 * addresses, parsed into their labels and written back, for the evaluation,
 * the planner, `moved` entries and the state commands alike. A label is an
 * identifier (`web`, `#cfg`, `$x`) or a quoted string (`"a b"`); labels are
 * joined with dots.
 *
 * @module
 */

/** The labels of an address, or undefined when it is not one: `net.web."a b"`. */
export function addressLabels(address: string): string[] | undefined {
  const out: string[] = [];
  const re = /(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_$#][A-Za-z0-9_$#]*))(\.|$)/y;
  let at = 0;
  while (at < address.length) {
    re.lastIndex = at;
    const m = re.exec(address);
    if (!m) return undefined;
    if (m[1] !== undefined) {
      try {
        out.push(JSON.parse(`"${m[1]}"`));
      } catch {
        return undefined;
      }
    } else out.push(m[2]);
    at = re.lastIndex;
    if (m[3] === "." && at === address.length) return undefined;
  }
  return out.length ? out : undefined;
}

/** An address written as pravo writes it: labels joined with dots, quoted where needed. */
export function formatAddress(labels: readonly string[]): string {
  return labels.map((l) => (/^[A-Za-z_$#][A-Za-z0-9_$#]*$/.test(l) ? l : JSON.stringify(l)))
    .join(".");
}

/**
 * The labels of an address that pravo made (`net.web.cert` → ["net", "web",
 * "cert"]); an address that is not one is a single label.
 */
export function addressPath(address: string): string[] {
  return addressLabels(address) ?? [address];
}
