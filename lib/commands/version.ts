/**
 * `pravo version`: pravo's version, as `--version` prints it, then as
 * `terraform version` does the platform and the providers' versions: those
 * pravo ships, and the plugin providers that the root's `pravo.lock.json`
 * pins. It loads no CUE.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { PROVIDERS } from "../providers/registry.ts";
import { VERSION } from "../version.ts";
import { providersDoc } from "./providers.ts";
import { renderVersion, type VersionDoc } from "../render/version.ts";

const ARCH: Record<string, string> = { x86_64: "amd64", aarch64: "arm64" };

/** The platform in Terraform's spelling (`linux_amd64`, `darwin_arm64`, `windows_amd64`). */
export function platform(os = Deno.build.os, arch = Deno.build.arch): string {
  return `${os}_${ARCH[arch] ?? arch}`;
}

export const run: CommandRun = (ctx) => {
  const { lock } = ctx.workspace;
  const doc: VersionDoc = {
    format_version: "1.0",
    version: VERSION,
    platform: platform(),
    deno: Deno.version.deno,
    providers: providersDoc(PROVIDERS, lock?.plugins).providers.map((p) => ({
      source: p.source,
      version: p.version,
      kind: p.kind,
    })),
  };
  emit(ctx, doc, () => renderVersion(doc));
  return Promise.resolve(Exit.OK);
};
