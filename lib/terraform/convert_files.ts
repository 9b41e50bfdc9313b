/**
 * The files a conversion writes: each `.tf` file's `.cue` file (the root's
 * package, or a module's package holding its definition), formatted as
 * `pravo fmt` formats; `cue.mod/module.cue` when the root has packages; the
 * `tf` package of helper definitions when an expression needs one
 * (`cidrsubnet`); `pravo.jsonc` with the providers' version constraints
 * (other settings kept); `pravo.lock.json` with the versions and hashes of
 * `.terraform.lock.hcl`.
 *
 * @module
 */

import { applyEdits, modify } from "jsonc-parser";
import { formatSource, FormatSyntaxError } from "../cue/format/mod.ts";
import { cueLabel, defaultAlias, placeImports } from "./expr_base.ts";
import type { Entry } from "./convert_body.ts";
import { type LockedPlugin, lockFileText, parseLockFile } from "../providers/install/lock.ts";

/** A file to write, relative to the root. */
export interface OutFile {
  path: string;
  text: string;
}

/** A label of a path as CUE writes it: `$aws` and `#var` as they are. */
function label(l: string): string {
  return /^[$#][A-Za-z_][A-Za-z0-9_]*$/.test(l) ? l : cueLabel(l);
}

/** What a CUE file of the conversion holds. */
export interface CueFileSpec {
  path: string;
  pkg: string;
  /** Import paths used (`⟪path⟫` in the entries). */
  imports: Set<string>;
  /** Import path → the name it is imported by, where it is not the default. */
  aliases: Map<string, string>;
  entries: Entry[];
  /** In a module: the definition the entries are fields of, and its first lines. */
  def?: { name: string; head: string[] };
  /** `moved: [...]` items, in the file that holds them. */
  moved?: string[];
  /** Comment lines at the top. */
  header: string[];
}

/** The text of one CUE file, formatted. */
export function cueFileText(spec: CueFileSpec): string {
  const alias = (p: string) => spec.aliases.get(p) ?? defaultAlias(p);
  const imports = [...spec.imports].sort().map((p) => {
    const a = alias(p);
    return a === defaultAlias(p) && !p.startsWith("pravo.dev/") ? `\t"${p}"` : `\t${a} "${p}"`;
  });
  const lines: string[] = [...spec.header.map((h) => `// ${h}`), `package ${spec.pkg}`, ""];
  // ("import" and its parenthesis apart: scripts/bundle.ts looks for imports left in the bundle.)
  if (imports.length) lines.push(["import", "("].join(" "), ...imports, ")", "");
  const body: string[] = [];
  const entries = [...spec.entries].sort((a, b) => (a.offset ?? -1) - (b.offset ?? -1));
  let last = "";
  for (const e of entries) {
    // A blank line between blocks; the fields of one block (locals) together.
    const block = e.path[0] === "local" || e.path[0] === "#local" ? e.path[0] : e.path.join(".");
    if (body.length && (block !== last || e.comment)) body.push("");
    last = block;
    for (const c of e.comment ?? []) for (const l of c.split("\n")) body.push(`// ${l}`);
    body.push(`${e.path.map(label).join(": ")}: ${e.value}`);
  }
  if (spec.moved?.length) body.push("", `moved: [\n${spec.moved.join(",\n")},\n]`);
  if (spec.def) lines.push(`${spec.def.name}: {`, ...spec.def.head, ...body, "}");
  else lines.push(...body);
  const text = placeImports(lines.join("\n") + "\n", alias);
  try {
    return formatSource(text);
  } catch (e) {
    if (!(e instanceof FormatSyntaxError)) throw e;
    throw new Error(
      `bug: pravo convert wrote CUE that does not parse (${spec.path}:${e.line}:${e.column}: ${e.message}):\n${text}`,
    );
  }
}

/** A CUE package or module name from a directory's name. */
export function packageName(name: string): string {
  let n = name.toLowerCase().replace(/[^a-z0-9_]/g, "_").replace(/^_+/, "");
  if (!/^[a-z]/.test(n)) n = `m${n}`;
  return n;
}

/** A definition's name from a package's: `s3_bucket` → `#S3Bucket`. */
export function definitionName(pkg: string): string {
  return "#" + pkg.split("_").filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

/** The `tf` package: Terraform's address functions as definitions (IPv4). */
export function tfPackageText(): string {
  const pow2 = Array.from({ length: 33 }, (_, i) => 2 ** i).join(", ");
  return formatSource(
    `// Terraform's functions that CUE has no builtin for, written by pravo convert.
package tf

import (
	"strconv"
	"strings"
)

// Powers of two, 2^0 to 2^32.
#pow2: [${pow2}]

// An IPv4 prefix "a.b.c.d/n" as numbers.
#ipv4: {
	prefix: string
	_parts: strings.Split(prefix, "/")
	_octets: [for o in strings.Split(_parts[0], ".") {strconv.Atoi(o)}]
	bits: strconv.Atoi(_parts[1])
	_raw: ((_octets[0]*256+_octets[1])*256+_octets[2])*256 + _octets[3]
	network: div(_raw, #pow2[32-bits]) * #pow2[32-bits]
}

// An address as "a.b.c.d".
#dotted: {
	n: int
	out: "\\(div(n, 16777216)).\\(mod(div(n, 65536), 256)).\\(mod(div(n, 256), 256)).\\(mod(n, 256))"
}

// cidrsubnet(prefix, newbits, netnum).
#cidrsubnet: {
	prefix: string
	newbits: int
	netnum: int
	_p: #ipv4 & {"prefix": prefix}
	_size: _p.bits + newbits
	out: (#dotted & {n: _p.network + netnum*#pow2[32-_size]}).out + "/\\(_size)"
}

// cidrhost(prefix, hostnum).
#cidrhost: {
	prefix: string
	hostnum: int
	_p: #ipv4 & {"prefix": prefix}
	out: (#dotted & {n: _p.network + hostnum}).out
}
`,
  );
}

/** `pravo.jsonc` with `providers` set, the rest of `existing` (comments too) kept. */
export function configText(
  existing: string | undefined,
  providers: Record<string, string>,
): string {
  if (existing === undefined) {
    const body = JSON.stringify({ providers }, null, 2);
    return `// The providers of the Terraform configuration converted, with its version constraints.\n// pravo init installs them and pins them in pravo.lock.json.\n${body}\n`;
  }
  const edits = modify(existing, ["providers"], providers, {
    formattingOptions: { insertSpaces: true, tabSize: 2 },
  });
  return applyEdits(existing, edits);
}

/** `pravo.lock.json` with `plugins` set, the rest of `existing` kept. */
export function lockText(
  existing: string | undefined,
  plugins: Record<string, LockedPlugin>,
  path: string,
): string {
  const content = existing !== undefined
    ? parseLockFile(existing, path)
    : { builtins: {}, plugins: {} };
  return lockFileText({ ...content, plugins: { ...content.plugins, ...plugins } });
}
