import assert from "node:assert/strict";
import { DiagnosticsError } from "../../diag/diag.ts";
import { lockFileText, parseLockFile } from "./lock.ts";

const H1 = "h1:edXOJWE4ORX8Fm+dpVpICzMZJat4AX0VRCAy/xkcOc0=";
const ZH = "zh:" + "0123456789abcdef".repeat(4);
const LOCK = {
  builtins: { "hashicorp/random": { version: "0.1.0" } },
  plugins: {
    "registry.terraform.io/hashicorp/aws": {
      version: "5.100.0",
      constraints: "~> 5.100",
      hashes: [H1, ZH],
    },
  },
};

Deno.test("parseLockFile() reads built-in and plugin entries, and lockFileText() writes them back", () => {
  const text = lockFileText(structuredClone(LOCK)); // a copy: LOCK stays what is expected
  assert.equal(
    text,
    `{
  "format_version": "1.0",
  "providers": {
    "hashicorp/random": {
      "version": "0.1.0"
    },
    "registry.terraform.io/hashicorp/aws": {
      "constraints": "~> 5.100",
      "hashes": [
        "${H1}",
        "${ZH}"
      ],
      "version": "5.100.0"
    }
  }
}
`,
  );
  assert.deepEqual(parseLockFile(text, "/r/pravo.lock.json"), LOCK);
});

/** Refused, pointing at where `token` starts in the text. */
function refused(text: string, pattern: RegExp, token: string) {
  const offset = text.indexOf(token);
  assert.ok(offset >= 0, token);
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  assert.throws(() => parseLockFile(text, "/r/pravo.lock.json"), (e: unknown) => {
    assert.ok(e instanceof DiagnosticsError);
    const d = e.diagnostics[0];
    assert.match(`${d.summary}\n${d.detail}`, pattern);
    assert.deepEqual(d.range, { file: "/r/pravo.lock.json", line, column });
    return true;
  });
}

Deno.test("parseLockFile() refuses what an edit could have broken, with the line and column", () => {
  const entry = (body: string) =>
    `{"format_version": "1.0", "providers": {\n  "registry.terraform.io/hashicorp/aws": ${body}}}`;
  refused('{"format_version": "2.0", "providers": {}}', /format_version "2\.0"/, '"2.0"');
  refused("{\n  nope", /Invalid pravo\.lock\.json/, "nope");
  refused(
    entry(`{"version": "5.100.0", "hashes": ["h9:x"]}`),
    /"h9:x" is not a hash pravo knows/,
    '"h9:x"',
  );
  refused(entry(`{"version": "five", "hashes": []}`), /"five" is not a version/, '"five"');
  refused(entry(`{"version": "5.100.0"}`), /has no hashes/, '{"version"');
  refused(
    entry(`{"version": "5.100.0", "hashes": [], "path": "/x"}`),
    /unknown key "path"/,
    '"path"',
  );
  refused(
    '{"format_version": "1.0", "providers": {\n  "Registry.Terraform.io/hashicorp/aws": {"version": "1.0.0", "hashes": []}}}',
    /is not written as pravo writes it[\s\S]*Write "registry\.terraform\.io\/hashicorp\/aws"/,
    '"Registry',
  );
  refused(
    entry(`{"version": "5.100.0", "constraints": "=> 5", "hashes": []}`),
    /constraints of .* do not parse/,
    '"=> 5"',
  );
});

Deno.test("parseLockFile() reads and refuses the modules that init pinned from a registry", () => {
  const D = "sha256:" + "ab".repeat(32);
  const M = "sha256:" + "cd".repeat(32);
  const pinned = { "example.com/pets@v0": { version: "v0.1.0", digest: D, manifest: M } };
  const text = lockFileText({ builtins: {}, plugins: {}, modules: pinned });
  assert.deepEqual(parseLockFile(text, "pravo.lock.json").modules, pinned);
  // Without modules the file is what it was before modules existed.
  assert.doesNotMatch(lockFileText({ builtins: {}, plugins: {}, modules: {} }), /modules/);
  const modules = (body: string) =>
    `{"format_version": "1.0", "providers": {},\n  "modules": ${body}}`;
  refused(modules(`{"example.com/pets": {}}`), /not a CUE module path with its major/, '"example');
  refused(
    modules(
      `{"example.com/pets@v0": {"version": "v0.1.0", "digest": "md5:1", "manifest": "${M}"}}`,
    ),
    /has no valid digest/,
    '"md5:1"',
  );
  refused(
    modules(
      `{"example.com/pets@v0": {"version": "latest", "digest": "${D}", "manifest": "${M}"}}`,
    ),
    /has no valid version/,
    '"latest"',
  );
  refused(
    modules(
      `{"example.com/pets@v0": {"version": "v0.1.0", "digest": "${D}", "manifest": "${M}", "url": "x"}}`,
    ),
    /unknown key "url"/,
    '"url"',
  );
  refused(modules(`[]`), /"modules" is not an object/, "[]");
});
