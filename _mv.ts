// usage: deno run -A _mv.ts FROM TO  (paths relative to repo root)
import { dirname, relative, resolve } from "node:path";
const [from, to] = Deno.args.map((p) => resolve(p));
const root = Deno.cwd();
const files: string[] = [];
async function walk(d: string) { for await (const e of Deno.readDir(d)) { const p = `${d}/${e.name}`; if (e.isDirectory) { if (!["node_modules", ".git", "fixtures"].includes(e.name)) await walk(p); } else if (/\.(ts|md|json|jsonc)$/.test(p)) files.push(p); } }
for (const d of ["lib", "mcp", "policy", "tests", "scripts", "docs"]) await walk(resolve(d));
files.push(resolve("main.ts"), resolve("deno.json"), resolve("README.md"));
Deno.mkdirSync(dirname(to), { recursive: true });
const r = new Deno.Command("git", { args: ["mv", from, to] }).outputSync(); if (!r.success) throw new Error(new TextDecoder().decode(r.stderr));
const spec = (fromFile: string, target: string) => { let s = relative(dirname(fromFile), target); if (!s.startsWith(".")) s = "./" + s; return s; };
const re = /((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+)(["'])/g;
for (const f0 of files) {
  const f = f0 === from ? to : f0;
  if (!f.endsWith(".ts")) { // text references
    try { const t = Deno.readTextFileSync(f); const n = t.replaceAll(relative(root, from), relative(root, to)); if (n !== t) Deno.writeTextFileSync(f, n); } catch { /* */ }
    continue;
  }
  let src: string; try { src = Deno.readTextFileSync(f); } catch { continue; }
  const out = src.replace(re, (m, a, s, b) => {
    const target = resolve(dirname(f0), s);
    if (target === from) return a + spec(f, to) + b;
    if (f0 === from) return a + spec(f, target) + b;
    return m;
  }).replaceAll(relative(root, from), relative(root, to));
  if (out !== src) Deno.writeTextFileSync(f, out);
}
