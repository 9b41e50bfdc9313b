/**
 * The schema of `hashicorp/local`: Terraform's local provider 2.5, files on
 * the machine that runs pravo.
 *
 * Refresh age: a managed file lives in the real world, where someone may
 * change or delete it, so a plan reads it again when its last read is older
 * than an hour ("1h"): often enough to notice drift, rarely enough that an
 * unchanged root plans without touching the disk. The data sources are read on
 * every plan ("0s"), as Terraform reads data sources on every plan.
 *
 * @module
 */

import type { Attribute, ProviderSchema, TypeSchema } from "../schema.ts";
import { computed, optional, required } from "../attributes.ts";

/** Checksums of the content, computed by managed files and data sources alike. */
const CHECKSUMS: Record<string, Attribute> = {
  content_md5: computed("string", "The MD5 checksum of the file content, in hexadecimal."),
  content_sha1: computed("string", "The SHA1 checksum of the file content, in hexadecimal."),
  content_sha256: computed("string", "The SHA256 checksum of the file content, in hexadecimal."),
  content_base64sha256: computed("string", "The SHA256 checksum of the file content, in base64."),
  content_sha512: computed("string", "The SHA512 checksum of the file content, in hexadecimal."),
  content_base64sha512: computed("string", "The SHA512 checksum of the file content, in base64."),
  id: computed("string", "The SHA1 checksum of the file content, in hexadecimal."),
};

/**
 * The inputs of `local_file` and `local_sensitive_file`. A file is never
 * updated in place: every input forces replacement, as in Terraform.
 */
function fileInputs(sensitive: boolean): Record<string, Attribute> {
  const perm = sensitive ? "0700" : "0777";
  const s = sensitive ? { sensitive: true } : {};
  const one = "exactly one content attribute or source must be set";
  const inputs: Record<string, Attribute> = {
    filename: required(
      "string",
      "The path of the file to write, inside the root (by its real path, outside .pravo/); " +
        "missing parent directories are created and an existing file is overwritten.",
      { forceNew: true },
    ),
    content: optional("string", `The content to write, as UTF-8 text; ${one}.`, {
      forceNew: true,
      ...s,
    }),
    content_base64: optional(
      "string",
      `The content to write, as binary data encoded in base64; ${one}.`,
      { forceNew: true, ...s },
    ),
    source: optional(
      "string",
      `The path of a file inside the root whose content is copied; ${one}.`,
      { forceNew: true },
    ),
    file_permission: optional(
      "string",
      "The permissions of the file in octal notation, before the umask.",
      { default: perm, forceNew: true },
    ),
    directory_permission: optional(
      "string",
      "The permissions of the directories created in octal notation, before the umask.",
      { default: perm, forceNew: true },
    ),
  };
  if (!sensitive) {
    inputs.sensitive_content = optional(
      "string",
      "Deprecated: content to write that is never shown (use local_sensitive_file " +
        `instead); ${one}.`,
      { sensitive: true, forceNew: true },
    );
  }
  return inputs;
}

/** The attributes of the `local_file` and `local_sensitive_file` data sources. */
function readAttributes(sensitive: boolean): Record<string, Attribute> {
  const s = sensitive ? { sensitive: true } : {};
  return {
    filename: required(
      "string",
      "The path of the file to read, inside the root (by its real path, outside .pravo/); " +
        "reading fails when it does not exist.",
    ),
    content: computed(
      "string",
      "The content of the file as UTF-8 text, with invalid sequences replaced by U+FFFD.",
      s,
    ),
    content_base64: computed("string", "The content of the file in base64, for binary data.", s),
    ...CHECKSUMS,
  };
}

const localFile: TypeSchema = {
  name: "local_file",
  mode: "managed",
  description: "A file on the local machine with the given content.",
  // Reading a local file costs next to nothing: every plan reads it, as
  // Terraform does, so that a file changed behind pravo's back is seen at once.
  refreshAge: "0s",
  attributes: { ...fileInputs(false), ...CHECKSUMS },
};

const localSensitiveFile: TypeSchema = {
  name: "local_sensitive_file",
  mode: "managed",
  description: "A file on the local machine whose content is sensitive and never shown.",
  refreshAge: "0s",
  attributes: { ...fileInputs(true), ...CHECKSUMS },
};

const localFileData: TypeSchema = {
  name: "local_file",
  mode: "data",
  description: "Reads a file on the local machine.",
  refreshAge: "0s",
  attributes: readAttributes(false),
};

const localSensitiveFileData: TypeSchema = {
  name: "local_sensitive_file",
  mode: "data",
  description: "Reads a file on the local machine whose content is sensitive and never shown.",
  refreshAge: "0s",
  attributes: readAttributes(true),
};

export const LOCAL: ProviderSchema = {
  source: "hashicorp/local",
  version: "0.1.0",
  description: "Files on the machine that runs pravo.",
  config: {},
  types: [localFile, localFileData, localSensitiveFile, localSensitiveFileData],
};
