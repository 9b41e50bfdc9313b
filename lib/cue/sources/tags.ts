/**
 * The tags a root declares: `@tag(name)` and `@tag(name,type=int|number|bool)`
 * on regular fields, which `-t name=value` fills.
 *
 * @module
 */

import { type Diagnostic, error } from "../../diag/diag.ts";
import { pos, type Sources, type TagDecl } from "./sources.ts";

/** The tags the root's files declare; a malformed or unreachable one is a diagnostic. */
export function declaredTags(
  files: Sources["files"],
): { tags: TagDecl[]; diagnostics: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const tags: TagDecl[] = [];
  for (const f of files) {
    for (const s of f.parsed.sites) {
      for (const a of s.attrs) {
        const m = /^@tag\((.*)\)$/s.exec(a.text);
        if (!m) continue;
        const args = m[1].split(",").map((x) => x.trim());
        const name = args[0];
        const where = { range: pos(f.name, a.line, a.column) };
        let type: TagDecl["type"] = "string";
        let bad = !/^[A-Za-z_][\w.-]*$/.test(name ?? "");
        for (const arg of args.slice(1)) {
          const t = /^type=(string|int|number|bool)$/.exec(arg);
          if (t) type = t[1] as TagDecl["type"];
          else if (!/^short=/.test(arg)) bad = true;
        }
        if (bad) {
          diags.push(
            error(
              "Malformed tag attribute",
              `${a.text} is not @tag(NAME) or @tag(NAME,type=int|number|bool). Write it in one of those forms.`,
              where,
            ),
          );
          continue;
        }
        if (s.nonRegular || !s.path) {
          diags.push(
            error(
              "Tag in an unsupported place",
              `@tag(${name}) is on a field inside a definition, hidden field, let or comprehension, which -t cannot reach. Put the tag on a regular field and refer to that field.`,
              where,
            ),
          );
          continue;
        }
        tags.push({ name, type, path: s.path, pos: where.range });
      }
    }
  }
  return { tags, diagnostics: diags };
}
