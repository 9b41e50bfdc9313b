/**
 * The diagnostics of a failed evaluation: CUE's message mapped to the
 * declaration it names, said as what to change (a missing attribute, a tag
 * without a value, a computed attribute set), and never quoting a secret or
 * a stand-in of one.
 *
 * @module
 */

import { type Diagnostic, error } from "../../diag/diag.ts";
import { typeString } from "../../providers/schema.ts";
import {
  cueErrorDiagnostic,
  formatPath,
  locate,
  pathKey,
  type SourceIndex,
  splitPath,
} from "../errors.ts";
import { resolve } from "../syntax/mod.ts";
import { WRAP } from "../program.ts";
import type { Sources } from "../sources/sources.ts";

/**
 * The diagnostic for a configuration that sets a computed-only attribute:
 * CUE reports it as a conflict with the value its holder gives
 * (provider_cue.ts), which may be the state's, a secret's: it is not quoted.
 */
export function computedSet(message: string, index: SourceIndex): Diagnostic | undefined {
  const m = /^(?:cue: marshal error: )?(\S+): conflicting values /.exec(message);
  if (!m) return undefined;
  let path = splitPath(m[1]);
  if (path[0] === WRAP) path = path.slice(1);
  if (path.length < 2) return undefined;
  const owner = index.attributesOf?.(path.slice(0, -1));
  const name = path[path.length - 1];
  const a = owner?.attributes?.[name];
  if (!owner || !a || a.required || a.optional) return undefined;
  const address = formatPath(path.slice(0, -1));
  return error(
    `Computed attribute "${name}" is set`,
    `${owner.type}.${name} is computed by the provider and cannot be set in the configuration. Remove it from ${address}.`,
    { address, range: locate(index, path)?.pos },
  );
}

/** The field path a CUE message starts with, when it names a declaration of the sources. */
export function declaredPath(message: string, index: SourceIndex): string[] | undefined {
  const m =
    /^(?:cue: marshal error: )?((?:[A-Za-z_$#][\w$#]*|"(?:[^"\\]|\\.)*")(?:\.(?:[A-Za-z_$#][\w$#]*|"(?:[^"\\]|\\.)*"|\d+))*): /
      .exec(message);
  if (!m) return undefined;
  let path = splitPath(m[1]);
  if (path[0] !== WRAP) return undefined;
  path = path.slice(1);
  // Only a path the sources declare: a label computed from a secret is not shown.
  return path.length && locate(index, path)?.exact ? path : undefined;
}

/**
 * The diagnostic for an evaluation that fails with the secrets, or with the
 * stand-ins made from them, and not with neutral values in their place.
 * CUE's message would quote the secret or a stand-in (which tells of it), so
 * it is not shown; only where it is, when the sources declare that place.
 * The two cases give the same diagnostic: which one happens depends on the
 * secret.
 */
export function failsForSecret(message: string, index: SourceIndex): Diagnostic {
  return _placedOnly(
    message,
    index,
    "The configuration does not evaluate for some values of a secret",
    `fails to evaluate with the real value of a secret (a password, a sensitive file's content, or a value computed from one), or with the stand-in pravo puts in its place to find what depends on it, while it evaluates with a neutral value. The configuration constrains a secret (its length, its characters, a format it decodes), and what follows from that would reveal part of it; CUE's message would quote it, so pravo does not show it. Remove or correct what the configuration requires of the sensitive value here.`,
  );
}

/**
 * The diagnostic for an evaluation at plan time that fails with the second
 * stand-in pravo gives the secrets and not with the first: both are made
 * from the secrets' types and formats alone, so this tells nothing of them;
 * the message (which may quote a stand-in) is not shown, only where.
 */
export function failsForStandIn(message: string, index: SourceIndex): Diagnostic {
  return _placedOnly(
    message,
    index,
    "The configuration requires something of a secret",
    `evaluates with one of the two values pravo gives a secret at plan time (a password, a sensitive file's content, or a value computed from one) and fails with the other. At plan time a secret is unknown: pravo evaluates the configuration with stand-ins of its type and format, never with its value, so that no plan tells of it, and a check of its characters, its length or its content cannot be made before apply. Remove what the configuration requires of the sensitive value here (let the provider check it), or make the check hold for any value of its type.`,
  );
}

/**
 * A diagnostic placed at the declaration CUE's message names, when the
 * sources declare it, with the message itself left out: `detail` follows
 * the place's name ("A value" where there is none).
 */
function _placedOnly(
  message: string,
  index: SourceIndex,
  summary: string,
  detail: string,
): Diagnostic {
  const path = declaredPath(message, index);
  return error(summary, `${path ? formatPath(path) : "A value"} ${detail}`, {
    address: path ? formatPath(path) : undefined,
    range: path ? locate(index, path)?.pos : undefined,
  });
}

/**
 * The diagnostic for a failed evaluation. An incomplete value (an attribute
 * never given a concrete value) gets the message of a missing attribute,
 * with the tags that would fill it; anything else is mapped as CUE said it.
 */
export function incompleteOrError(message: string, sources: Sources): Diagnostic {
  const index = sources.index;
  const m = /^cue: marshal error: (\S+): cannot convert incomplete value "([^"]*)" to JSON$/.exec(
    message,
  );
  if (!m) return cueErrorDiagnostic(message, index);
  let path = splitPath(m[1]);
  if (path[0] === WRAP) path = path.slice(1);
  const address = formatPath(path);
  const loc = locate(index, path);
  const tag = sources.tags.find((t) => pathKey(t.path) === pathKey(path));
  if (tag) {
    return error(
      `Tag "${tag.name}" has no value`,
      `${address} is filled by @tag(${tag.name}), and no -t ${tag.name}=VALUE was given. Pass -t ${tag.name}=VALUE, or give the field a default (such as *"dev" | string).`,
      { address, range: tag.pos },
    );
  }
  const tags = tagsFeeding(sources, path);
  const fromTag = tags.length
    ? ` It comes from a field filled by a tag: pass ${
      tags.map((t) => `-t ${t}=VALUE`).join(" and ")
    }.`
    : "";
  const owner = index.attributesOf?.(path.slice(0, -1));
  const attr = path[path.length - 1];
  const schema = owner
    ? (owner.attributes ??
      index.registry.findTypes(owner.type).find((x) =>
        owner.mode === undefined || x.type.mode === owner.mode
      )
        ?.type.attributes)?.[attr]
    : undefined;
  if (owner && schema?.required) {
    return error(
      `Missing required attribute "${attr}"`,
      `${owner.type} needs "${attr}" (${
        typeString(schema.type)
      }): ${schema.description}${fromTag} Set it in the value of ${
        formatPath(path.slice(0, -1))
      }; run \`pravo schema ${owner.type}\` for every attribute.`,
      { address: formatPath(path.slice(0, -1)), range: loc?.pos },
    );
  }
  return error(
    `${address} has no concrete value`,
    `${address} is ${
      m[2]
    } but never given a value, and it does not depend on a value known only after apply.${fromTag} Give it a value${
      owner && schema ? ", or remove it to leave it unset" : ""
    }.`,
    { address, range: loc?.pos },
  );
}

/** The tags whose fields the declarations at `path` refer to. */
function tagsFeeding(sources: Sources, path: string[]): string[] {
  const names = new Set<string>();
  for (const site of sources.index.sites.get(pathKey(path)) ?? []) {
    for (const r of site.refs) {
      for (const d of resolve(r) ?? []) {
        if (!d.path) continue;
        for (const t of sources.tags) if (pathKey(t.path) === pathKey(d.path)) names.add(t.name);
      }
    }
  }
  return [...names].sort();
}
