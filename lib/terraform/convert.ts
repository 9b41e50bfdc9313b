/**
 * `pravo convert --from terraform DIR`: a Terraform configuration to a pravo
 * root, in memory; `lib/commands/convert.ts` writes the files.
 *
 * The directory's module becomes the root's package, each `.tf` file a
 * `.cue` file of the same name. Each local module (`source = "./..."`,
 * inside DIR) becomes a package of the root's CUE module at the same
 * relative path, holding one definition whose inputs are `#var` and the
 * provider configurations it uses, and whose fields are its nodes and
 * outputs; modules in modules likewise. Addresses stay Terraform's
 * (`address.ts`). The providers go to `pravo.jsonc`, the versions and
 * hashes of `.terraform.lock.hcl` to `pravo.lock.json`.
 *
 * @module
 */

import { basename, join, normalize, relative } from "node:path";
import { type Diagnostic, error, hasErrors, warning } from "../diag/diag.ts";
import { PROVIDERS } from "../providers/registry.ts";
import type { LockedPlugin } from "../providers/install/lock.ts";
import { AddressError, addressString, parseProviderSource } from "../providers/install/address.ts";
import { parseHclJson } from "./hcl.ts";
import { at, attr, type ModuleDecl, moduleScope, readModule } from "./convert_module.ts";
import {
  type ChildModule,
  ctxFor,
  type Entry,
  type ModuleCtx,
  type Requirement,
  requirementOf,
} from "./convert_body.ts";
import { moduleEntry, nodeEntry, providerEntry, providerImport } from "./convert_nodes.ts";
import {
  type ImportItem,
  importItem,
  localEntries,
  movedItem,
  outputEntry,
  terraformBlock,
  variableEntry,
} from "./convert_decls.ts";
import {
  type CueFileSpec,
  cueFileText,
  definitionName,
  type OutFile,
  packageName,
  tfPackageText,
} from "./convert_files.ts";
import { pkg } from "./expr_base.ts";

export type { ImportItem, OutFile };

/** What a conversion gives. */
export interface Conversion {
  /** The CUE files, relative to the root; empty when there are errors. */
  files: OutFile[];
  diagnostics: Diagnostic[];
  /** `import` blocks, as `pravo import` commands. */
  imports: ImportItem[];
  /** Plugin providers for `pravo.jsonc`: source → version constraint. */
  providers: Record<string, string>;
  /** From `.terraform.lock.hcl`, by full address. */
  lock: Record<string, LockedPlugin>;
  /** The files of DIR whose contents were written into the CUE. */
  reads: string[];
}

/** Options: the directory converted and the CUE module path of the root, both decided by the caller. */
export interface ConvertOptions {
  dir: string;
  /** The root's CUE module path (when it needs one): `terraform.local/NAME`. */
  modulePath: string;
  /** The root's package name. */
  packageName: string;
}

const BUILTIN = new Set(PROVIDERS.map((p) => p.source));

interface State {
  top: string;
  opts: ConvertOptions;
  diags: Diagnostic[];
  done: Map<string, { ctx: ModuleCtx; child: ChildModule }>;
  rootRequirements: Map<string, Requirement>;
  specs: CueFileSpec[];
  helpers: boolean;
  reads: Set<string>;
}

/** Converts the Terraform configuration in `opts.dir`. */
export async function convertTerraform(opts: ConvertOptions): Promise<Conversion> {
  const top = normalize(opts.dir);
  const st: State = {
    top,
    opts,
    diags: [],
    done: new Map(),
    rootRequirements: new Map(),
    specs: [],
    helpers: false,
    reads: new Set(),
  };
  const decl = await readModule(top, top, st.diags);
  const empty = { files: [], imports: [], providers: {}, lock: {}, reads: [] };
  if (!decl) return { ...empty, diagnostics: st.diags };
  if (decl.files.length === 0 && !hasErrors(st.diags)) {
    st.diags.push(
      error(
        "No Terraform configuration",
        `"${top}" holds no .tf file. Give the directory of the configuration to convert.`,
      ),
    );
  }
  const root = await convertModule(st, decl, false, []);
  const imports = decl.imports.map((l) => importItem(root, l)).filter((x) => x !== undefined);
  const providers = providerRequirements(st, root);
  const lock = await terraformLock(st, top);
  if (hasErrors(st.diags)) return { ...empty, diagnostics: st.diags, imports };
  const files: OutFile[] = st.specs.map((s) => ({ path: s.path, text: cueFileText(s) }));
  if (st.done.size > 0 || st.helpers) {
    files.push({ path: "cue.mod/module.cue", text: `module: "${opts.modulePath}"\n` });
  }
  if (st.helpers) files.push({ path: "tf/tf.cue", text: tfPackageText() });
  return {
    files,
    diagnostics: st.diags,
    imports,
    providers,
    lock,
    reads: [...st.reads].sort(),
  };
}

/** Converts one module (the root when `!inModule`), its local modules first. */
async function convertModule(
  st: State,
  decl: ModuleDecl,
  inModule: boolean,
  stack: string[],
): Promise<ModuleCtx> {
  const m: ModuleCtx = {
    decl,
    scope: moduleScope(decl, st.top, inModule),
    inModule,
    top: st.top,
    diags: st.diags,
    ctxs: new Map(),
    entries: [],
    usedProviders: new Set(),
    varTypes: new Map(),
    children: new Map(),
    requirements: new Map(inModule ? st.rootRequirements : []),
  };
  for (const t of decl.terraform) await terraformBlock(m, t);
  if (!inModule) { for (const [k, v] of m.requirements) st.rootRequirements.set(k, v); }
  for (const call of decl.modules) await childModule(st, m, call, stack);
  const add = (e: Entry | undefined) => e && m.entries.push(e);
  for (const v of decl.variables) add(await variableEntry(m, v));
  for (const l of decl.locals) for (const e of await localEntries(m, l)) add(e);
  for (const r of decl.resources) add(await nodeEntry(m, r, "Resource"));
  for (const d of decl.data) add(await nodeEntry(m, d, "Data"));
  for (const c of decl.modules) add(await moduleEntry(m, c));
  for (const o of decl.outputs) add(await outputEntry(m, o));
  for (const p of decl.providers) add(await providerEntry(m, p));
  const moved = decl.moved.map((x) => movedItem(m, x)).filter((x) => x !== undefined);
  for (const o of decl.other) {
    st.diags.push(
      warning(
        `${o.block.type} blocks are not converted`,
        o.block.type === "removed"
          ? "pravo has no removed block: run pravo state rm ADDR to forget an object without destroying it."
          : `pravo has no ${o.block.type} blocks: this one is left out. Write its conditions as a policy (pravo plan --policy) by hand.`,
        at(o.file, o.block.offset),
      ),
    );
  }
  if (!inModule) defaultProviders(m);
  specsOf(st, m, moved);
  return m;
}

/** Reads a module call's source and converts the module it names. */
async function childModule(
  st: State,
  m: ModuleCtx,
  { file, block }: { file: ModuleDecl["files"][0]; block: ModuleDecl["modules"][0]["block"] },
  stack: string[],
): Promise<void> {
  const name = block.labels[0];
  const source = attr(block, "source");
  let src: string | undefined;
  try {
    src = source ? JSON.parse(source.expr.trim()) : undefined;
  } catch {
    src = undefined;
  }
  if (src === undefined || !(src.startsWith("./") || src.startsWith("../"))) {
    st.diags.push(
      error(
        `The module "${name}" is not a local module`,
        `pravo convert converts modules whose source is a directory ("./modules/${name}"); ${
          src === undefined ? "this source is not a constant string" : `"${src}" is not`
        }. Vendor it as a local module: copy its files into a directory of ${
          basename(st.top)
        } and set source = "./modules/${name}", then convert again.`,
        at(file, (source ?? block).offset),
      ),
    );
    return;
  }
  const dir = normalize(join(m.decl.dir, src));
  const rel = relative(st.top, dir);
  if (rel.startsWith("..") || rel === "") {
    st.diags.push(
      error(
        `The module "${name}" is outside the directory converted`,
        `"${src}" is not inside ${st.top}. Copy the module into it, set source to its path, then convert again.`,
        at(file, source!.offset),
      ),
    );
    return;
  }
  if (stack.includes(dir)) {
    st.diags.push(
      error(
        `The module "${name}" calls itself`,
        "A module that calls itself, directly or through others, never ends. Break the cycle, then convert again.",
        at(file, block.offset),
      ),
    );
    return;
  }
  let done = st.done.get(dir);
  if (!done) {
    const decl = await readModule(dir, st.top, st.diags);
    if (!decl) return;
    const ctx = await convertModule(st, decl, true, [...stack, dir]);
    const p = packageName(basename(dir));
    const child: ChildModule = {
      importPath: `${st.opts.modulePath}/${rel}`,
      alias: `${p}pkg`,
      def: definitionName(p),
      providers: [...ctx.usedProviders].sort(),
    };
    done = { ctx, child };
    st.done.set(dir, done);
  }
  m.children.set(name, done.child);
}

/** `$aws: aws.#Provider` for each configuration the root's nodes use and no block declares. */
function defaultProviders(m: ModuleCtx): void {
  const declared = new Set(
    m.entries.filter((e) => e.path[0].startsWith("$")).map((e) => e.path[0]),
  );
  for (const config of [...m.usedProviders].sort()) {
    const name = "$" + config.replace(".", "_");
    if (declared.has(name)) continue;
    const local = config.split(".")[0];
    if (config.includes(".")) {
      m.diags.push(
        error(
          `No provider "${config}"`,
          `A node uses the provider configuration ${config}, which no provider block declares. Declare it (provider "${local}" { alias = "${
            config.split(".")[1]
          }" }), then convert again.`,
        ),
      );
      continue;
    }
    const req = requirementOf(m, local);
    const file = m.decl.files[0];
    const ref = pkg(providerImport(req.source), ctxFor(m, file));
    m.entries.push({ file: file.name, path: [name], value: `${ref}.#Provider` });
  }
}

/** One CUE file per `.tf` file that declares something; a module's inside its definition. */
function specsOf(st: State, m: ModuleCtx, moved: string[]): void {
  const byFile = new Map<string, Entry[]>();
  for (const e of m.entries) {
    if (!byFile.has(e.file)) byFile.set(e.file, []);
    byFile.get(e.file)!.push(e);
  }
  const movedFile = moved.length ? m.decl.moved[0].file.name : undefined;
  if (movedFile && !byFile.has(movedFile)) byFile.set(movedFile, []);
  const pkgName = m.inModule ? packageName(basename(m.decl.dir)) : st.opts.packageName;
  let first = true;
  for (const file of m.decl.files) {
    const entries = byFile.get(file.name);
    if (!entries) continue;
    const ctx = ctxFor(m, file);
    for (const r of ctx.reads) st.reads.add(r);
    const head: string[] = [];
    if (m.inModule && first) {
      const calls = m.decl.modules.length > 0;
      for (const config of [...m.usedProviders].sort()) {
        const req = requirementOf(m, config.split(".")[0]);
        const name = config.replace(".", "_");
        head.push(`#${name}: ${pkg(providerImport(req.source), ctx)}.#Provider`);
        // What its module calls pass on, under a name their inputs do not hide.
        if (calls) head.push(`_${name}: #${name}`);
      }
      if (m.decl.variables.length === 0) head.push("#var: {}");
      if (calls) head.push("_var: #var");
    }
    first = false;
    const imports = new Set<string>();
    const aliases = new Map<string, string>();
    for (const p of ctx.imports) {
      if (p === "tf") {
        st.helpers = true;
        imports.add(`${st.opts.modulePath}/tf`);
        aliases.set("tf", "tf");
        continue;
      }
      imports.add(p);
      const child = [...st.done.values()].find((d) => d.child.importPath === p);
      if (child) aliases.set(p, child.child.alias);
    }
    const text = entries.map((e) => e.value).join("\n") + head.join("\n");
    for (const p of imports) {
      const a = aliases.get(p) ?? p.slice(p.lastIndexOf("/") + 1);
      if (!aliases.has(p) && new RegExp(`(^|[\\s{,])${a}:`).test(text)) aliases.set(p, `${a}_pkg`);
    }
    st.specs.push({
      path: file.name.replace(/\.tf$/, ".cue"),
      pkg: pkgName,
      imports,
      aliases,
      entries,
      def: m.inModule ? { name: definitionName(pkgName), head } : undefined,
      moved: file.name === movedFile ? moved : undefined,
      header: [`Converted from ${basename(file.name)} by pravo convert --from terraform.`],
    });
  }
}

/** The plugin providers the configuration requires, for pravo.jsonc. */
function providerRequirements(st: State, root: ModuleCtx): Record<string, string> {
  const out: Record<string, string[]> = {};
  const all = [root, ...[...st.done.values()].map((d) => d.ctx)];
  for (const m of all) {
    for (const [local, req] of m.requirements) {
      const used = [...m.usedProviders].some((c) => c.split(".")[0] === local) ||
        (m === root && st.rootRequirements.has(local));
      if (!used) continue;
      let short: string;
      try {
        const a = parseProviderSource(req.source);
        short = a.hostname === "registry.terraform.io"
          ? `${a.namespace}/${a.type}`
          : addressString(a);
      } catch (e) {
        if (!(e instanceof AddressError)) throw e;
        st.diags.push(error(`Invalid provider source "${req.source}"`, `${e.detail}`));
        continue;
      }
      if (BUILTIN.has(short)) continue;
      out[short] ??= [];
      if (req.version && !out[short].includes(req.version)) out[short].push(req.version);
    }
  }
  return Object.fromEntries(Object.entries(out).sort().map(([k, v]) => [k, v.join(", ")]));
}

/** `.terraform.lock.hcl`: each plugin provider's version, constraints and hashes. */
async function terraformLock(st: State, top: string): Promise<Record<string, LockedPlugin>> {
  const name = ".terraform.lock.hcl";
  let text: string;
  try {
    text = await Deno.readTextFile(join(top, name));
  } catch {
    return {};
  }
  let doc: {
    provider?: Record<string, { version?: string; constraints?: string; hashes?: string[] }[]>;
  };
  try {
    doc = await parseHclJson(name, text) as typeof doc;
  } catch (e) {
    st.diags.push(
      error(
        `Cannot read ${name}`,
        `${(e as Error).message}. Run terraform init again to rewrite it, or remove it.`,
      ),
    );
    return {};
  }
  const out: Record<string, LockedPlugin> = {};
  for (const [address, [entry]] of Object.entries(doc.provider ?? {})) {
    let a;
    try {
      a = parseProviderSource(address);
    } catch {
      continue;
    }
    if (BUILTIN.has(`${a.namespace}/${a.type}`)) {
      st.diags.push(
        warning(
          `${address} is built into pravo`,
          `pravo ships its own ${a.namespace}/${a.type}, with the same types and attributes: the version ${entry.version} of ${name} is not used. pravo init pins pravo's.`,
          { range: { file: name, line: 1, column: 1 } },
        ),
      );
      continue;
    }
    out[addressString(a)] = {
      version: entry.version ?? "",
      constraints: entry.constraints ?? "",
      hashes: [...new Set(entry.hashes ?? [])].sort(),
    };
  }
  return out;
}
