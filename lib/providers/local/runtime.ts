/**
 * The runtime of `hashicorp/local`: files on the machine that runs pravo.
 *
 * A managed file is written atomically (a temporary file in the same
 * directory, synced, given its permissions, then renamed over the target), so
 * that a reader or a crash never sees half a file. Missing parent directories
 * are created with `directory_permission`. Permissions are applied as
 * Terraform's are, "before the umask": the mode set is the permission with
 * the process's umask bits cleared. Every input forces replacement, so there
 * is no update. Read sees the file as it is now: null when it is gone, the
 * digests (and content) of what is there when it was edited by hand.
 *
 * Relative file names (`filename`, `source`) are taken from the root, and
 * every file is confined to it by its real path (../confine.ts): a symbolic
 * link that leads out of the root, and pravo's own files under `.pravo/`,
 * are refused, for reading and for writing alike.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { type Diagnostic, error } from "../../diag/diag.ts";
import { contentDigests, cryptoBytes, fail, isSet, messageOf, ok, stateOf, str } from "../_util.ts";
import { fromBase64, toBase64, toHex } from "../../bytes.ts";
import {
  checkPath,
  confinementDiagnostic,
  ConfinementError,
  deletionPath,
  directoryFor,
  type FileAttr,
  readConfined,
  recheckDirectory,
} from "../confine.ts";
import type {
  Attrs,
  PlannedState,
  ProviderRuntime,
  RequestBase,
  Response,
  TypeHandler,
  ValidateRequest,
} from "../runtime.ts";

/** The attributes that give a managed file its content; exactly one is set. */
const CONTENT_SOURCES = ["content", "content_base64", "sensitive_content", "source"];

const DIGESTS = [
  "content_md5",
  "content_sha1",
  "content_sha256",
  "content_base64sha256",
  "content_sha512",
  "content_base64sha512",
  "id",
];

const decoder = () => new TextDecoder("utf-8", { ignoreBOM: true });

function pathOf(req: RequestBase, name: string): string {
  return resolve(req.root, name);
}

/** The file attribute `attr` of a request, for confinement and its messages. */
function fileAttr(req: RequestBase, attr: string, name: string): FileAttr {
  return { address: req.address, attr, name, range: req.ranges?.[attr] };
}

/** Parses an octal permission such as "0644"; undefined when invalid. */
export function parseMode(s: string): number | undefined {
  return /^[0-7]{3,4}$/.test(s) ? parseInt(s, 8) : undefined;
}

function umask(): number {
  try {
    return Deno.umask();
  } catch {
    return 0; // not on this platform
  }
}

const windows = Deno.build.os === "windows";

// ---------------------------------------------------------------------------
// Writing

/**
 * Writes a file atomically, confined to the root: its directory is resolved
 * beneath the root (missing parents made there with `dirMode`, less the
 * umask), a temporary file beside it is written in full, synced and given
 * its mode, the directory is resolved again, then the temporary file is
 * renamed over the target (a symbolic link there is replaced, never written
 * through); the directory is synced afterwards where the platform allows.
 */
export async function writeFileAtomic(
  root: string,
  name: string,
  bytes: Uint8Array,
  options: { fileMode: number; dirMode: number },
): Promise<void> {
  const { dir, base } = directoryFor(root, name, options.dirMode, (p, mode) => {
    if (!windows) Deno.chmodSync(p, mode & ~umask());
  });
  const tmp = join(dir, `.${base}.${toHex(cryptoBytes(6))}.pravo-tmp`);
  try {
    const f = await Deno.open(tmp, { write: true, createNew: true, mode: 0o600 });
    try {
      for (let at = 0; at < bytes.length;) at += await f.write(bytes.subarray(at));
      await f.sync();
    } finally {
      f.close();
    }
    if (!windows) await Deno.chmod(tmp, options.fileMode & ~umask());
    recheckDirectory(root, dir);
    await Deno.rename(tmp, join(dir, base));
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
  try {
    const d = await Deno.open(dir, { read: true });
    try {
      await d.sync();
    } finally {
      d.close();
    }
  } catch {
    // Some platforms cannot sync a directory; the rename is still atomic.
  }
}

// ---------------------------------------------------------------------------
// Managed files

/** The configured content, or undefined when it comes from `source`. */
function inlineContent(config: Attrs): Uint8Array | undefined | "invalid" {
  if (isSet(config, "content")) return new TextEncoder().encode(String(config.content));
  if (isSet(config, "sensitive_content")) {
    return new TextEncoder().encode(String(config.sensitive_content));
  }
  if (isSet(config, "content_base64")) {
    return fromBase64(String(config.content_base64)) ?? "invalid";
  }
  return undefined;
}

async function contentOf(
  req: RequestBase & { config: Attrs },
): Promise<Response<Uint8Array>> {
  const inline = inlineContent(req.config);
  if (inline === "invalid") {
    return fail(
      req.address,
      "Invalid content_base64",
      "content_base64 is not valid base64. Encode the content with base64encode() or " +
        "filebase64().",
    );
  }
  if (inline !== undefined) return ok(inline);
  const source = String(req.config.source);
  try {
    return ok(await readConfined(req.root, source));
  } catch (e) {
    if (e instanceof ConfinementError) {
      return { diagnostics: [confinementDiagnostic(e, "read", fileAttr(req, "source", source))] };
    }
    return fail(
      req.address,
      `Cannot read source file "${source}"`,
      `${messageOf(e)}. Create the file, or set source to a file that exists.`,
    );
  }
}

function validateFile(req: ValidateRequest): Diagnostic[] {
  const where = { address: req.address };
  const given = CONTENT_SOURCES.filter((n) =>
    n in req.type.attributes && (isSet(req.config, n) || req.unknown.includes(n))
  );
  const choices = CONTENT_SOURCES.filter((n) => n in req.type.attributes).join(", ");
  const diags: Diagnostic[] = [];
  if (given.length === 0) {
    diags.push(error(
      `No content for ${req.type.name}`,
      `Exactly one of ${choices} must be set. Set content to the text the file should hold.`,
      where,
    ));
  } else if (given.length > 1) {
    diags.push(error(
      `Conflicting content for ${req.type.name}: ${given.join(", ")}`,
      `Exactly one of ${choices} may be set. Keep one of them and remove the others.`,
      where,
    ));
  }
  if (!req.unknown.includes("content_base64") && inlineContent(req.config) === "invalid") {
    diags.push(error(
      "Invalid content_base64",
      "content_base64 is not valid base64. Encode the content with base64encode() or " +
        "filebase64().",
      where,
    ));
  }
  for (const attr of ["filename", "source"]) {
    if (req.unknown.includes(attr) || !isSet(req.config, attr)) continue;
    diags.push(
      ...checkPath(
        req.root,
        fileAttr(req, attr, String(req.config[attr])),
        attr === "source" ? "read" : "write",
      ),
    );
  }
  for (const name of ["file_permission", "directory_permission"]) {
    const v = req.unknown.includes(name) ? undefined : str(req.type, req.config, name);
    if (v !== undefined && parseMode(v) === undefined) {
      diags.push(error(
        `Invalid ${name} "${v}"`,
        `${name} is a mode in octal notation of 3 or 4 digits. Write it as a string such ` +
          `as "0644".`,
        where,
      ));
    }
  }
  return diags;
}

/**
 * The attributes after a read of the file: the prior ones when the content
 * is as recorded, else the new digests and the new content in whichever
 * attribute held it.
 */
function drifted(prior: Attrs, bytes: Uint8Array): Attrs {
  const digests = contentDigests(bytes);
  if (digests.id === prior.id) return prior;
  const out: Attrs = { ...prior, ...digests };
  if (isSet(prior, "content")) out.content = decoder().decode(bytes);
  if (isSet(prior, "sensitive_content")) out.sensitive_content = decoder().decode(bytes);
  if (isSet(prior, "content_base64")) out.content_base64 = toBase64(bytes);
  return out;
}

const managedFile: TypeHandler = {
  validate: validateFile,
  plan(req): Response<PlannedState> {
    const contentKnown = !CONTENT_SOURCES.some((n) => req.unknown.includes(n)) &&
      !isSet(req.config, "source");
    const inline = contentKnown ? inlineContent(req.config) : undefined;
    if (inline instanceof Uint8Array) {
      return ok({
        attributes: stateOf(req.type, req.config, contentDigests(inline)),
        unknown: [],
      });
    }
    return ok({ attributes: stateOf(req.type, req.config, {}), unknown: [...DIGESTS] });
  },
  async create(req) {
    const content = await contentOf(req);
    if (!content.value) return { diagnostics: content.diagnostics };
    const filename = String(req.config.filename);
    const fileMode = parseMode(str(req.type, req.config, "file_permission") ?? "");
    const dirMode = parseMode(str(req.type, req.config, "directory_permission") ?? "");
    if (fileMode === undefined || dirMode === undefined) {
      return fail(
        req.address,
        "Invalid permission",
        "file_permission and directory_permission are modes in octal notation. Write them as " +
          'strings such as "0644".',
      );
    }
    try {
      await writeFileAtomic(req.root, filename, content.value, { fileMode, dirMode });
    } catch (e) {
      if (e instanceof ConfinementError) {
        return {
          diagnostics: [confinementDiagnostic(e, "write", fileAttr(req, "filename", filename))],
        };
      }
      return fail(
        req.address,
        `Cannot write file "${filename}"`,
        `${messageOf(e)}. Check that the directory is writable by the user that runs pravo, ` +
          "or choose another filename.",
      );
    }
    return ok(stateOf(req.type, req.config, contentDigests(content.value)));
  },
  async read(req) {
    const filename = String(req.prior.filename);
    try {
      return ok(drifted(req.prior, await readConfined(req.root, filename)));
    } catch (e) {
      if (e instanceof ConfinementError) {
        return {
          diagnostics: [confinementDiagnostic(e, "read", fileAttr(req, "filename", filename))],
        };
      }
      if (e instanceof Deno.errors.NotFound) return ok(null);
      return fail(
        req.address,
        `Cannot read file "${filename}"`,
        `${messageOf(e)}. Make the file readable by the user that runs pravo.`,
      );
    }
  },
  async delete(req) {
    const filename = String(req.prior.filename);
    try {
      await Deno.remove(deletionPath(req.root, filename));
    } catch (e) {
      if (e instanceof ConfinementError) {
        return {
          diagnostics: [confinementDiagnostic(e, "delete", fileAttr(req, "filename", filename))],
        };
      }
      if (!(e instanceof Deno.errors.NotFound)) {
        return fail(
          req.address,
          `Cannot delete file "${filename}"`,
          `${messageOf(e)}. Check the permissions of its directory, or delete it by hand.`,
        );
      }
    }
    return ok(undefined);
  },
};

// ---------------------------------------------------------------------------
// Data sources

const dataFile: TypeHandler = {
  async readData(req) {
    const filename = String(req.config.filename);
    const path = pathOf(req, filename);
    let bytes: Uint8Array;
    try {
      bytes = await readConfined(req.root, filename);
    } catch (e) {
      if (e instanceof ConfinementError) {
        return {
          diagnostics: [confinementDiagnostic(e, "read", fileAttr(req, "filename", filename))],
        };
      }
      if (e instanceof Deno.errors.NotFound) {
        return fail(
          req.address,
          `Cannot read file "${filename}": it does not exist`,
          `${req.type.name} reads "${path}", which is not there. Create the file, or correct ` +
            "filename (a relative name is taken from the root).",
        );
      }
      return fail(
        req.address,
        `Cannot read file "${filename}"`,
        `${messageOf(e)}. Make it a readable file, or correct filename.`,
      );
    }
    return ok(stateOf(req.type, req.config, {
      content: decoder().decode(bytes),
      content_base64: toBase64(bytes),
      ...contentDigests(bytes),
    }));
  },
};

export const LOCAL_RUNTIME: ProviderRuntime = {
  source: "hashicorp/local",
  handlers: {
    managed: { local_file: managedFile, local_sensitive_file: managedFile },
    data: { local_file: dataFile, local_sensitive_file: dataFile },
  },
};
