/**
 * Terraform's state files, as Terraform and OpenTofu write them (format
 * version 4, Terraform 0.12 and later): read, checked field by field, and
 * given as plain values with where each resource and instance is in the
 * file, for `pravo import --from terraform FILE.tfstate`.
 *
 * What is read: `version` (4 only; older and newer formats are refused with
 * what to do), `terraform_version`, `serial`, `lineage`, the names of
 * `outputs` (each one's `value` and `sensitive`), and each of `resources` (`module`, `mode`, `type`, `name`,
 * `provider`) with its `instances` (`index_key`, `schema_version`,
 * `attributes` or the flat `attributes_flat` of states last written by
 * Terraform 0.11, `sensitive_attributes`, `private`, `dependencies`,
 * `create_before_destroy`, `status`, `deposed`). Fields this reader does not
 * know (`check_results`, `identity` of Terraform 1.12) are left alone.
 * Every problem is a diagnostic with the file, line and column; nothing
 * here decides whether an instance can be taken over (tfstate_check.ts does).
 *
 * @module
 */

import { type Diagnostic, error, type SourcePos } from "../diag/diag.ts";
import {
  type JsonDoc,
  type JsonNode,
  nodeValue,
  parseStrictJson,
  properties,
} from "../diag/json_nodes.ts";
import type { AttrPath } from "../secrets/paths.ts";
import { parseProviderRef, type TfProviderRef } from "./tfstate_provider.ts";

export type { TfProviderRef };

/** The state file format this reader takes. */
export const TFSTATE_VERSION = 4;

/** A state file, read. */
export interface TfState {
  /** The file as given, for messages and the log. */
  file: string;
  /** Which Terraform (or OpenTofu) wrote it: `1.11.4`. */
  terraformVersion: string;
  serial: number;
  lineage: string;
  /** Its outputs as the last apply left them, by name. */
  outputs: Record<string, TfOutput>;
  resources: TfResource[];
}

/** An output's value, and whether Terraform marks it sensitive. */
export interface TfOutput {
  value: unknown;
  sensitive: boolean;
}

/** One resource (or data source) block's objects. */
export interface TfResource {
  /** The module instance it is in (`module.vpc`, `module.vpc["a"]`); absent at the root. */
  module?: string;
  mode: "managed" | "data";
  type: string;
  name: string;
  provider: TfProviderRef;
  instances: TfInstance[];
  at: SourcePos;
}

/** One object of a resource. */
export interface TfInstance {
  /** Its Terraform address: `module.m.aws_s3_bucket.c[0]`, `data.x.y["a"]`. */
  address: string;
  /** `count`'s index or `for_each`'s key; absent for a single instance. */
  indexKey?: string | number;
  /** The version of its type's schema the attributes were written with. */
  schemaVersion: number;
  /** The attributes, as JSON. */
  attributes?: Record<string, unknown>;
  /** The attributes flattened to strings, as Terraform 0.11 wrote them. */
  attributesFlat?: Record<string, string>;
  /** The paths of the values Terraform marked sensitive. */
  sensitivePaths: AttrPath[];
  /** The provider's private data, base64. */
  private?: string;
  /** The Terraform addresses it depended on when last applied. */
  dependencies: string[];
  createBeforeDestroy: boolean;
  /** Marked tainted: Terraform's next plan replaces it. */
  tainted: boolean;
  /** The key of a deposed object (replaced, its destroy not done), when it is one. */
  deposed?: string;
  at: SourcePos;
}

/** The state file read, or the diagnostics that say why it cannot be. */
export type TfStateResult = { state: TfState } | { diagnostics: Diagnostic[] };

const TO_FORMAT_4 = "Write it again in format 4 with Terraform 0.12 or later (or OpenTofu), " +
  "for example with `terraform apply -refresh-only`, then import the file it writes.";

/** A reader of one file's tree that gathers what is wrong with it. */
class Reader {
  readonly diagnostics: Diagnostic[] = [];
  constructor(readonly doc: JsonDoc, readonly file: string) {}

  fail(node: JsonNode, summary: string, detail: string): undefined {
    this.diagnostics.push(error(summary, detail, { range: this.doc.at(node) }));
    return undefined;
  }

  /** The fields of an object node by name, or undefined (reported) when it is not one. */
  object(node: JsonNode, what: string): Map<string, JsonNode> | undefined {
    if (node.type !== "object") {
      return this.fail(node, `${what} is not an object`, this.#fix(`${what} is an object`));
    }
    return new Map(properties(node).map((p) => [p.key, p.valueNode]));
  }

  string(node: JsonNode | undefined, what: string, at: JsonNode): string | undefined {
    if (node?.type === "string") return node.value as string;
    return this.fail(node ?? at, `${what} is not a string`, this.#fix(`${what} is a string`));
  }

  whole(node: JsonNode | undefined, what: string, at: JsonNode): number | undefined {
    const v = node?.value;
    if (node?.type === "number" && Number.isSafeInteger(v) && (v as number) >= 0) {
      return v as number;
    }
    return this.fail(
      node ?? at,
      `${what} is not a whole number`,
      this.#fix(`${what} is a whole number, 0 or more`),
    );
  }

  #fix(rule: string): string {
    return `In a Terraform state of format 4, ${rule}. The file was changed by hand or by ` +
      `another tool: give the state file as Terraform or OpenTofu wrote it ` +
      "(`terraform state pull > terraform.tfstate`).";
  }
}

/**
 * Reads the text of a state file named `file`: a state of format 4, or the
 * diagnostics that say why it is not one and what to do.
 *
 * @example
 * ```ts
 * import { parseTfState } from "./tfstate.ts";
 * const r = parseTfState(
 *   '{"version": 4, "terraform_version": "1.11.4", "serial": 3, "lineage": "x", "outputs": {}, "resources": []}',
 *   "terraform.tfstate",
 * );
 * if (!("state" in r) || r.state.serial !== 3) throw new Error("not read");
 * ```
 */
export function parseTfState(text: string, file: string): TfStateResult {
  const doc = parseStrictJson(text, file);
  if (!("root" in doc)) {
    return {
      diagnostics: [
        error(
          `${file} is not a Terraform state file`,
          `It is not JSON: ${doc.message}. Give the state file that Terraform or OpenTofu ` +
            "writes (`terraform.tfstate`, or what `terraform state pull` prints).",
          { range: doc.pos },
        ),
      ],
    };
  }
  const r = new Reader(doc, file);
  const top = r.object(doc.root, "The state");
  if (!top) return { diagnostics: r.diagnostics };
  const format = formatProblem(r, top, doc.root);
  if (format) return { diagnostics: [format] };
  const terraformVersion = r.string(top.get("terraform_version"), '"terraform_version"', doc.root);
  const serial = r.whole(top.get("serial"), '"serial"', doc.root);
  const lineage = r.string(top.get("lineage"), '"lineage"', doc.root);
  const outputsNode = top.get("outputs");
  const outputs = outputsNode ? readOutputs(r, outputsNode) : {};
  const resources: TfResource[] = [];
  const list = top.get("resources");
  if (list && list.type !== "array") {
    r.fail(list, '"resources" is not a list', "A state's resources are a list. " + TO_FORMAT_4);
  }
  for (const [i, node] of (list?.children ?? []).entries()) {
    const res = readResource(r, node, i);
    if (res) resources.push(res);
  }
  if (r.diagnostics.length) return { diagnostics: r.diagnostics };
  return {
    state: {
      file,
      terraformVersion: terraformVersion!,
      serial: serial!,
      lineage: lineage!,
      outputs,
      resources,
    },
  };
}

/** The outputs, each an object with a value (and, when true, `sensitive`). */
function readOutputs(r: Reader, node: JsonNode): Record<string, TfOutput> {
  const out: Record<string, TfOutput> = {};
  for (const [name, o] of r.object(node, '"outputs"') ?? []) {
    const f = r.object(o, `The output ${name}`);
    if (!f) continue;
    const value = f.get("value");
    const sensitive = f.get("sensitive");
    if (!value) {
      r.fail(o, `The output ${name} has no value`, AS_WRITTEN);
    } else if (sensitive && sensitive.type !== "boolean") {
      r.fail(sensitive, `The output ${name}'s sensitive is not true or false`, AS_WRITTEN);
    } else out[name] = { value: nodeValue(value), sensitive: sensitive?.value === true };
  }
  return out;
}

/** Why the document is not a state of format 4, when it is not. */
function formatProblem(
  r: Reader,
  top: Map<string, JsonNode>,
  root: JsonNode,
): Diagnostic | undefined {
  const v = top.get("version");
  const at = { range: r.doc.at(v ?? root) };
  if (!v && top.has("format_version")) {
    return error(
      `${r.file} is Terraform's JSON output, not its state`,
      "It has a format_version and no version: `terraform show -json` wrote it (a plan or " +
        "a state shown as JSON), and it lacks the private data and schema versions that a " +
        "takeover needs. Give the state file itself: `terraform state pull > terraform.tfstate`.",
      at,
    );
  }
  if (!v && top.has("encrypted_data")) {
    return error(
      `${r.file} is an encrypted OpenTofu state`,
      "OpenTofu's state encryption wrote it, and pravo reads plain states (pravo seals the " +
        "secrets of its own). With OpenTofu and its encryption configured, write it in the " +
        "clear (`tofu state pull > plain.tfstate`), import that file, then delete it.",
      at,
    );
  }
  if (!v) {
    return error(
      `${r.file} is not a Terraform state file`,
      'It is JSON without a "version". Give the state file that Terraform or OpenTofu writes ' +
        "(`terraform.tfstate`, or what `terraform state pull` prints).",
      at,
    );
  }
  if (v.type !== "number" || !Number.isSafeInteger(v.value)) {
    return error(
      `The state's "version" is not a whole number`,
      `It is ${JSON.stringify(nodeValue(v))}. Give the state file as Terraform or OpenTofu ` +
        "wrote it (`terraform state pull > terraform.tfstate`).",
      at,
    );
  }
  const n = v.value as number;
  if (n < TFSTATE_VERSION) {
    return error(
      `${r.file} is a state of format ${n}, and pravo reads format ${TFSTATE_VERSION}`,
      `Format ${n} is written by Terraform 0.11 and older. ${TO_FORMAT_4}`,
      at,
    );
  }
  if (n > TFSTATE_VERSION) {
    return error(
      `${r.file} is a state of format ${n}, newer than pravo reads (${TFSTATE_VERSION})`,
      `Terraform and OpenTofu write format ${TFSTATE_VERSION} today; this file comes from a ` +
        "newer tool. Write it in format 4 (`terraform state pull` with the Terraform release " +
        "that wrote it, if it can), or use a pravo that reads its format.",
      at,
    );
  }
  return undefined;
}

/** The Terraform address of an instance. */
export function instanceAddress(
  res: Pick<TfResource, "module" | "mode" | "type" | "name">,
  key: string | number | undefined,
): string {
  const k = key === undefined
    ? ""
    : typeof key === "number"
    ? `[${key}]`
    : `[${JSON.stringify(key)}]`;
  const own = `${res.mode === "data" ? "data." : ""}${res.type}.${res.name}${k}`;
  return res.module ? `${res.module}.${own}` : own;
}

function readResource(r: Reader, node: JsonNode, i: number): TfResource | undefined {
  const f = r.object(node, `resources[${i}]`);
  if (!f) return undefined;
  const at = r.doc.at(node);
  const mode = r.string(f.get("mode"), `resources[${i}].mode`, node);
  if (mode !== undefined && mode !== "managed" && mode !== "data") {
    r.fail(
      f.get("mode")!,
      `resources[${i}].mode is "${mode}"`,
      'A resource\'s mode is "managed" or "data". Give the state file as Terraform or OpenTofu ' +
        "wrote it (`terraform state pull > terraform.tfstate`).",
    );
  }
  const type = r.string(f.get("type"), `resources[${i}].type`, node);
  const name = r.string(f.get("name"), `resources[${i}].name`, node);
  const moduleNode = f.get("module");
  const module = moduleNode ? r.string(moduleNode, `resources[${i}].module`, node) : undefined;
  const providerText = r.string(f.get("provider"), `resources[${i}].provider`, node);
  let provider: TfProviderRef | undefined;
  if (providerText !== undefined) {
    const p = parseProviderRef(providerText);
    if ("problem" in p) r.fail(f.get("provider")!, p.problem.summary, p.problem.detail);
    else provider = p;
  }
  if (
    mode === undefined || (mode !== "managed" && mode !== "data") || type === undefined ||
    name === undefined || provider === undefined || (moduleNode && module === undefined)
  ) return undefined;
  const res: TfResource = { mode, type, name, provider, instances: [], at };
  if (module) res.module = module;
  const list = f.get("instances");
  if (!list || list.type !== "array") {
    r.fail(
      list ?? node,
      `${instanceAddress(res, undefined)} has no list of instances`,
      "Every resource of a state has its instances (a list, maybe empty). Give the state file " +
        "as Terraform or OpenTofu wrote it (`terraform state pull > terraform.tfstate`).",
    );
    return undefined;
  }
  for (const inst of list.children ?? []) {
    const read = readInstance(r, inst, res);
    if (read) res.instances.push(read);
  }
  return res;
}

function readInstance(r: Reader, node: JsonNode, res: TfResource): TfInstance | undefined {
  const base = instanceAddress(res, undefined);
  const f = r.object(node, `An instance of ${base}`);
  if (!f) return undefined;
  const keyNode = f.get("index_key");
  let indexKey: string | number | undefined;
  if (keyNode && keyNode.type === "string") indexKey = keyNode.value as string;
  else if (keyNode) indexKey = r.whole(keyNode, `The index_key of an instance of ${base}`, node);
  if (keyNode && indexKey === undefined) return undefined;
  const address = instanceAddress(res, indexKey);
  const schemaVersion = r.whole(f.get("schema_version"), `${address}'s schema_version`, node);
  const inst: TfInstance = {
    address,
    schemaVersion: schemaVersion ?? 0,
    sensitivePaths: [],
    dependencies: [],
    createBeforeDestroy: false,
    tainted: false,
    at: r.doc.at(node),
  };
  if (indexKey !== undefined) inst.indexKey = indexKey;
  const attrs = f.get("attributes");
  const flat = f.get("attributes_flat");
  if (attrs) {
    if (r.object(attrs, `${address}'s attributes`)) {
      inst.attributes = nodeValue(attrs) as Record<string, unknown>;
    }
  } else if (flat) {
    const m = r.object(flat, `${address}'s attributes_flat`);
    if (m && [...m.values()].every((v) => v.type === "string")) {
      inst.attributesFlat = nodeValue(flat) as Record<string, string>;
    } else if (m) {
      r.fail(flat, `${address}'s attributes_flat holds a value that is not a string`, TO_FORMAT_4);
    }
  } else {
    r.fail(
      node,
      `${address} has no attributes`,
      "An instance holds its attributes (or attributes_flat). Give the state file as Terraform " +
        "or OpenTofu wrote it (`terraform state pull > terraform.tfstate`).",
    );
  }
  readInstanceExtras(r, f, inst);
  return inst;
}

/** The instance's fields besides its key, version and attributes. */
function readInstanceExtras(r: Reader, f: Map<string, JsonNode>, inst: TfInstance): void {
  const a = inst.address;
  const sens = f.get("sensitive_attributes");
  if (sens) {
    const paths = sens.type === "array" ? sens.children ?? [] : [];
    if (sens.type !== "array") r.fail(sens, `${a}'s sensitive_attributes is not a list`, PATHS);
    for (const p of paths) {
      const path = sensitivePath(p);
      if (path) inst.sensitivePaths.push(path);
      else r.fail(p, `${a}'s sensitive_attributes holds a path pravo cannot read`, PATHS);
    }
  }
  const priv = f.get("private");
  if (priv) {
    const s = r.string(priv, `${a}'s private`, priv);
    if (s !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) {
      r.fail(priv, `${a}'s private is not base64`, AS_WRITTEN);
    } else if (s) inst.private = s;
  }
  const deps = f.get("dependencies");
  if (deps) {
    const strings = deps.type === "array" &&
      (deps.children ?? []).every((d) => d.type === "string");
    if (strings) inst.dependencies = nodeValue(deps) as string[];
    else r.fail(deps, `${a}'s dependencies are not a list of addresses`, AS_WRITTEN);
  }
  const cbd = f.get("create_before_destroy");
  if (cbd && cbd.type !== "boolean") {
    r.fail(cbd, `${a}'s create_before_destroy is not true or false`, AS_WRITTEN);
  } else if (cbd) inst.createBeforeDestroy = cbd.value as boolean;
  const status = f.get("status");
  if (status) {
    const s = r.string(status, `${a}'s status`, status);
    if (s === "tainted") inst.tainted = true;
    else if (s !== undefined) r.fail(status, `${a}'s status is "${s}"`, AS_WRITTEN);
  }
  const deposed = f.get("deposed");
  if (deposed) inst.deposed = r.string(deposed, `${a}'s deposed key`, deposed);
}

const PATHS = 'Terraform writes each sensitive path as a list of steps ({"type": "get_attr", ' +
  '"value": NAME}, {"type": "index", "value": {"value": KEY, "type": "string" or "number"}}), ' +
  "the first a get_attr. Give the state file as Terraform or OpenTofu wrote it " +
  "(`terraform state pull > terraform.tfstate`).";

const AS_WRITTEN = "Give the state file as Terraform or OpenTofu wrote it " +
  "(`terraform state pull > terraform.tfstate`).";

/** One of `sensitive_attributes`' paths as pravo's attribute path, or undefined. */
function sensitivePath(node: JsonNode): AttrPath | undefined {
  const steps = nodeValue(node);
  if (!Array.isArray(steps) || steps.length === 0) return undefined;
  const out: AttrPath = [];
  for (const [i, s] of steps.entries()) {
    if (!s || typeof s !== "object") return undefined;
    const { type, value } = s as { type?: unknown; value?: unknown };
    if (type === "get_attr" && typeof value === "string") out.push(value);
    else if (i > 0 && type === "index" && value && typeof value === "object") {
      const k = (value as { value?: unknown }).value;
      if (typeof k === "string" || (typeof k === "number" && Number.isSafeInteger(k))) out.push(k);
      else return undefined;
    } else return undefined;
  }
  return out;
}
