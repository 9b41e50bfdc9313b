/**
 * The human view of `pravo version`, drawn from the document that `--json` prints.
 *
 * @module
 */

/** The document that `pravo version --json` prints. */
export interface VersionDoc {
  format_version: "1.0";
  version: string;
  /** As Terraform writes it: `linux_amd64`. */
  platform: string;
  /** The Deno that runs pravo. */
  deno: string;
  providers: { source: string; version: string; kind: "builtin" | "plugin" }[];
}

/** The human view, in the manner of `terraform version`. */
export function renderVersion(doc: VersionDoc): string {
  return [
    `pravo ${doc.version}`,
    `on ${doc.platform} (Deno ${doc.deno})`,
    ...doc.providers.map((p) =>
      `+ provider ${p.source} ${p.version}${p.kind === "builtin" ? " (built in)" : ""}`
    ),
  ].join("\n");
}
