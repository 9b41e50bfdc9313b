/**
 * `deno task bundle`: writes `dist/pravo.js`, one JavaScript file with every
 * dependency inside (the MCP SDK, jsonc-parser, cue-wasm and its 6 MB inline
 * WebAssembly), that runs with `deno run` from any directory and needs no
 * node_modules beside it. `scripts/pravo-bundle` runs it with pravo's narrow
 * permissions.
 *
 * `deno bundle` runs esbuild, which Deno fetches from npm on first use. So
 * that bundling works offline, this script first copies the esbuild binary
 * from `node_modules/@esbuild/<platform>` (pinned in package.json) to where
 * Deno looks for it: `$DENO_DIR/dl/esbuild-<version>-1/esbuild-<platform>`.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { toBase64 } from "../lib/bytes.ts";
import { fileURLToPath } from "node:url";

/** The checkout this script belongs to. */
export const PROJECT_DIR: string = dirname(dirname(fileURLToPath(import.meta.url)));

/** Where the bundle goes. */
export const BUNDLE_PATH: string = join(PROJECT_DIR, "dist", "pravo.js");

/** Sources whose change makes the bundle stale. */
const INPUTS = ["main.ts", "lib", "mcp", "policy", "deno.json", "package.json"];

/** What {@link bundle} did. */
export interface BundleResult {
  ok: boolean;
  /** Everything `deno bundle` and this script had to say. */
  log: string;
  /**
   * `deno bundle` itself could not run (esbuild could not be had), as
   * opposed to failing on pravo's code.
   */
  toolMissing: boolean;
}

/** The npm package and file name of esbuild for this machine: `linux-x64`. */
function esbuildPlatform(): string {
  const os = Deno.build.os === "windows" ? "win32" : Deno.build.os;
  const arch = Deno.build.arch === "x86_64" ? "x64" : "arm64";
  return `${os}-${arch}`;
}

async function denoOutput(args: string[], env?: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: PROJECT_DIR,
    env: { ...env, NO_COLOR: "1" }, // plain messages to pass on
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** The DENO_DIR that `deno` will use here, as `deno info --json` reports it. */
async function denoDir(): Promise<string> {
  const { code, stdout, stderr } = await denoOutput(["info", "--json"]);
  if (code !== 0) throw new Error(`deno info --json failed: ${stderr.trim()}`);
  return JSON.parse(stdout).denoDir;
}

/**
 * Copies esbuild from node_modules into `dir/dl` unless the same file is
 * there. Returns the folder name it seeded (`esbuild-0.25.5-1`), or a note
 * saying why it could not.
 */
async function seedEsbuild(dir: string): Promise<{ seeded?: string; note?: string }> {
  const platform = esbuildPlatform();
  const pkg = `@esbuild/${platform}`;
  const pkgDir = join(PROJECT_DIR, "node_modules", pkg);
  let version: string;
  try {
    version = JSON.parse(await Deno.readTextFile(join(pkgDir, "package.json"))).version;
  } catch {
    return {
      note: `${pkg} is not in node_modules (run \`npm ci\`; on another platform add ${pkg} ` +
        "to devDependencies), so Deno will try to fetch esbuild from npm",
    };
  }
  const src = join(pkgDir, Deno.build.os === "windows" ? "esbuild.exe" : "bin/esbuild");
  const name = `esbuild-${version}-1`;
  const dest = join(
    dir,
    "dl",
    name,
    `esbuild-${platform}${Deno.build.os === "windows" ? ".exe" : ""}`,
  );
  const have = await Deno.stat(dest).catch(() => null);
  const want = await Deno.stat(src);
  if (!have || have.size !== want.size) {
    await Deno.mkdir(dirname(dest), { recursive: true });
    const tmp = `${dest}.${Deno.pid}.tmp`;
    await Deno.copyFile(src, tmp);
    await Deno.chmod(tmp, 0o755).catch(() => {}); // no chmod on Windows
    await Deno.rename(tmp, dest);
  }
  return { seeded: name };
}

async function esbuildDirs(dir: string): Promise<Set<string>> {
  const names = new Set<string>();
  try {
    for await (const e of Deno.readDir(join(dir, "dl"))) {
      if (e.name.startsWith("esbuild-")) names.add(e.name);
    }
  } catch {
    // no dl folder yet
  }
  return names;
}

/** Import specifiers left in the bundle that would need files beside it. */
export function externalImports(code: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g, // import("x")
    /^\s*(?:import|export)\s[^;'"]*?\bfrom\s*["']([^"']+)["']/gm, // import a from "x"
    /^\s*import\s*["']([^"']+)["']/gm, // import "x"
  ];
  for (const re of patterns) {
    for (const m of code.matchAll(re)) {
      if (!m[1].startsWith("node:")) found.add(m[1]);
    }
  }
  return [...found].sort();
}

/** Builds `dist/pravo.js` (or `output`) from main.ts (or `entry`, for tests). */
export async function bundle(
  output: string = BUNDLE_PATH,
  entry: string = join(PROJECT_DIR, "main.ts"),
): Promise<BundleResult> {
  const log: string[] = [];
  let dir = await denoDir();
  let env: Record<string, string> | undefined;
  let seed: { seeded?: string; note?: string };
  try {
    seed = await seedEsbuild(dir);
  } catch (e) {
    // The user's Deno cache is not writable: use one inside node_modules.
    const local = join(PROJECT_DIR, "node_modules", ".cache", "deno");
    log.push(`Cannot write to ${dir} (${(e as Error).message}); using ${local} as DENO_DIR`);
    dir = local;
    env = { DENO_DIR: local };
    seed = await seedEsbuild(dir);
  }
  if (seed.note) log.push(seed.note);
  const before = await esbuildDirs(dir);
  await Deno.mkdir(dirname(output), { recursive: true });
  // The name must end in .js: from it deno bundle knows to write an ES
  // module with a createRequire shim, without which the CommonJS packages
  // inside (@grpc/grpc-js) fail with "Dynamic require of node:... is not
  // supported".
  const tmp = `${output.replace(/\.js$/, "")}.${Deno.pid}.tmp.js`;
  const run = await denoOutput(
    ["bundle", "--config", join(PROJECT_DIR, "deno.json"), "-o", tmp, entry],
    env,
  );
  const text = (run.stdout + run.stderr).trim();
  if (text) log.push(text);
  const fetched = [...await esbuildDirs(dir)].filter((d) => !before.has(d) && d !== seed.seeded);
  if (fetched.length) {
    log.push(
      `Deno fetched ${fetched.join(", ")} although ${seed.seeded ?? "no esbuild"} was seeded: ` +
        `pin @esbuild/${esbuildPlatform()} in package.json to the version this Deno uses`,
    );
  }
  if (run.code !== 0) {
    await Deno.remove(tmp).catch(() => {});
    const toolMissing = /esbuild/i.test(text) &&
      /(download|fetch|registry|network|dns|connect|tarball)/i.test(text) &&
      !/Module not found|error: .*\.ts:\d+/.test(text);
    return { ok: false, log: log.join("\n"), toolMissing };
  }
  const code = await Deno.readTextFile(tmp);
  const external = externalImports(code);
  if (external.length) {
    await Deno.remove(tmp).catch(() => {});
    log.push(
      `The bundle still imports ${external.map((s) => `"${s}"`).join(", ")} at run time, ` +
        "so it would not run without node_modules: make those imports static or literal",
    );
    return { ok: false, log: log.join("\n"), toolMissing: false };
  }
  // The HCL parser's module goes in as a global, ahead of the code (an import
  // of its bytes, which deno bundle inlines, decoded in 12.6 s here).
  await Deno.writeTextFile(tmp, (await hclWasmLine()) + code);
  await Deno.rename(tmp, output);
  return { ok: true, log: log.join("\n"), toolMissing: false };
}

/** Where lib/terraform/hcl.ts finds the HCL parser's module in a bundle. */
const HCL_WASM_GLOBAL = "__pravoHclWasmGzBase64";

/**
 * The first line of the bundle: the HCL parser's WebAssembly
 * (`@cdktf/hcl2json`'s `main.wasm.gz`, in base64) set as a global, which
 * `pravo convert` reads in a bundle, having no node_modules to read the
 * file from; empty when the package is not installed.
 */
async function hclWasmLine(): Promise<string> {
  const gz = join(PROJECT_DIR, "node_modules", "@cdktf", "hcl2json", "main.wasm.gz");
  try {
    return `globalThis.${HCL_WASM_GLOBAL} = "${toBase64(await Deno.readFile(gz))}";\n`;
  } catch {
    return "";
  }
}

/** The newest modification time among the bundle's inputs. */
async function newestInput(path: string): Promise<number> {
  const st = await Deno.stat(path).catch(() => null);
  if (!st) return 0;
  if (!st.isDirectory) return st.mtime?.getTime() ?? 0;
  let newest = st.mtime?.getTime() ?? 0;
  for await (const e of Deno.readDir(path)) {
    newest = Math.max(newest, await newestInput(join(path, e.name)));
  }
  return newest;
}

/** `dist/pravo.js` exists and is newer than every source it is built from. */
export async function bundleIsFresh(output: string = BUNDLE_PATH): Promise<boolean> {
  const st = await Deno.stat(output).catch(() => null);
  if (!st?.mtime) return false;
  let newest = 0;
  for (const i of INPUTS) newest = Math.max(newest, await newestInput(join(PROJECT_DIR, i)));
  newest = Math.max(
    newest,
    await newestInput(join(PROJECT_DIR, "node_modules", ".package-lock.json")),
  );
  return st.mtime.getTime() > newest;
}

if (import.meta.main) {
  const started = performance.now();
  const result = await bundle();
  if (result.log) console.error(result.log);
  if (!result.ok) {
    console.error(
      result.toolMissing
        ? "Error: deno bundle could not get esbuild: run `npm ci` (it installs @esbuild/*), or allow access to the npm registry"
        : "Error: bundling failed: see the messages above",
    );
    Deno.exit(1);
  }
  const size = (await Deno.stat(BUNDLE_PATH)).size;
  console.error(
    `Wrote ${BUNDLE_PATH} (${(size / 1e6).toFixed(1)} MB) in ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );
}
