/**
 * Where `import --generate-config` writes and what it declares: the file (a
 * new `.cue` file of the root's folder), the address (not declared yet, not
 * inside a node nor over nodes, not under `outputs` or `moved`), the type
 * (`--type`, or the label before the name) and the provider configuration
 * (`--provider`, or the one that offers the type). Each refusal says what
 * to give instead; nothing is written before these pass.
 *
 * @module
 */

import { basename, dirname, isAbsolute, resolve } from "node:path";
import { lstatSync } from "node:fs";
import { DiagnosticsError, didYouMean, error } from "../diag/diag.ts";
import { UsageError } from "../diag/usage.ts";
import { formatAddress } from "../addr/address.ts";
import type { Node, Spec } from "../cue/loader.ts";
import type { Registry } from "../providers/registry.ts";
import type { TypeSchema } from "../providers/schema.ts";

/** The file to write: a new `.cue` file in the root's folder. */
export function targetFile(root: string, file: string): { abs: string; name: string } {
  const refuse = (why: string) => new UsageError(`--generate-config "${file}" ${why}`, "import");
  if (file === "") throw refuse("is empty: give a file name such as imported.cue");
  const abs = isAbsolute(file) ? resolve(file) : resolve(root, file);
  if (!abs.endsWith(".cue")) {
    throw refuse("is not a .cue file: give a name that ends in .cue, such as imported.cue");
  }
  if (dirname(abs) !== resolve(root)) {
    throw refuse(
      `is not in the root's folder "${root}": a root is the .cue files of its folder, and pravo ` +
        "writes none elsewhere; give a file name such as imported.cue",
    );
  }
  let exists = true;
  try {
    lstatSync(abs);
  } catch {
    exists = false;
  }
  if (exists) {
    throw refuse(
      "exists already: pravo does not write over a file, as Terraform's -generate-config-out " +
        "does not; give a new name, or move the file away",
    );
  }
  return { abs, name: basename(abs) };
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((l, i) => path[i] === l);
}

/** Refuses an address the root declares, or one that would sit inside a node or over nodes. */
export function checkUndeclared(address: string, labels: string[], nodes: readonly Node[]): void {
  const refuse = (summary: string, detail: string, n: Node) =>
    new DiagnosticsError([error(summary, detail, { address, range: n.range })], "error");
  if (labels[0] === "outputs" || labels[0] === "moved") {
    throw new DiagnosticsError([
      error(
        `${address} is under the root's ${labels[0]}`,
        `The top-level field "${labels[0]}" holds the root's ${
          labels[0] === "outputs" ? "outputs" : "renamed nodes"
        }, not nodes. Nothing was written. Give an address outside it.`,
        { address },
      ),
    ], "error");
  }
  const same = nodes.find((n) => n.address === address);
  if (same) {
    throw refuse(
      `${address} is declared in the root`,
      `The root declares ${address} already (a ${same.type}), and --generate-config writes the ` +
        "CUE of a node the root does not declare yet. Nothing was written. Import into it " +
        `without the flag: \`pravo import ${address} ID\`.`,
      same,
    );
  }
  const outer = nodes.find((n) => startsWith(labels, n.path));
  if (outer) {
    throw refuse(
      `${address} is inside the node ${outer.address}`,
      `${outer.address} is a node (a ${outer.type}), and a node holds attributes, not other ` +
        "nodes. Nothing was written. Give an address of its own, such as " +
        `\`${formatAddress([...outer.path.slice(0, -1), labels[labels.length - 1]])}\`.`,
      outer,
    );
  }
  const inner = nodes.find((n) => startsWith(n.path, labels));
  if (inner) {
    throw refuse(
      `${address} holds nodes of the root`,
      `The root declares ${inner.address} under ${address}, so ${address} is a struct of nodes. ` +
        "Nothing was written. Give an address of its own, such as " +
        `\`${formatAddress([...labels, "imported"])}\`.`,
      inner,
    );
  }
}

/** The provider configurations of the root that offer a managed type of this name. */
function offering(spec: Spec, type: string, registry: Registry) {
  return spec.providers.filter((p) => registry.findType(p.source, "managed", type) !== undefined);
}

/** The node's type and the provider configuration it is declared on. */
export function resolveTarget(
  spec: Spec,
  address: string,
  labels: string[],
  opts: { type?: string; provider?: string; workspace: { registry: Registry } },
): { type: TypeSchema; instance: Spec["providers"][number] } {
  let name = opts.type;
  if (name === undefined) {
    for (const i of [labels.length - 2, labels.length - 3]) {
      if (i >= 0 && offering(spec, labels[i], opts.workspace.registry).length) {
        name = labels[i];
        break;
      }
    }
  }
  if (name === undefined) {
    throw new DiagnosticsError([
      error(
        `The type of ${address} is not in its address`,
        "pravo reads the type from an address that ends in TYPE.NAME (or TYPE.NAME.KEY), as " +
          "Terraform's do (`aws_s3_bucket.logs`), and none of the root's providers has a " +
          `resource type named by ${address}'s labels. Nothing was written. Name it with ` +
          "--type TYPE.",
        { address },
      ),
    ], "usage");
  }
  const found = offering(spec, name, opts.workspace.registry);
  if (found.length === 0) {
    const hint = didYouMean(name, opts.workspace.registry.typeNamesOfMode("managed"));
    const providers = spec.providers.map((p) => `${p.address} (${p.source})`).join(", ");
    throw new DiagnosticsError([
      error(
        `No provider configuration of the root offers ${name}`,
        `${name} is not a resource type of the root's providers${hint ? ` (${hint})` : ""}` +
          `; the root configures ${providers || "none"}. Nothing was written. Check the type, ` +
          "or declare the provider's configuration in a .cue file (such as `$random: " +
          "rnd.#Provider`, with its import), then run the command again.",
        { address },
      ),
    ], "error");
  }
  let instance = found[0];
  if (opts.provider !== undefined) {
    const want = opts.provider.startsWith("$") ? opts.provider : `$${opts.provider}`;
    const named = spec.providers.find((p) => p.address === want);
    if (!named || !found.includes(named)) {
      throw new DiagnosticsError([
        error(
          named
            ? `${want} does not offer ${name}`
            : `The root has no provider configuration ${want}`,
          `--provider names the configuration the node is declared on; of the root's, ${
            found.map((p) => p.address).join(", ")
          } ${found.length === 1 ? "offers" : "offer"} ${name}. Nothing was written. Name one ` +
            "of them.",
          { address },
        ),
      ], "usage");
    }
    instance = named;
  } else if (found.length > 1) {
    throw new DiagnosticsError([
      error(
        `Several provider configurations offer ${name}`,
        `${
          found.map((p) => p.address).join(", ")
        } all offer ${name}. Nothing was written. Name the one the node is declared on with ` +
          `--provider (such as --provider ${found[1].address.slice(1)}).`,
        { address },
      ),
    ], "usage");
  }
  if (!/^\$[A-Za-z_][A-Za-z0-9_]*$/.test(instance.address)) {
    throw new DiagnosticsError([
      error(
        `pravo cannot refer to ${instance.address} from a new file`,
        "The node would be declared on that provider configuration, whose path is not a name " +
          "at the top of the package. Nothing was written. Declare a configuration at the top " +
          "(such as `$aws: aws.#Provider & {...}`) and name it with --provider.",
        { address },
      ),
    ], "error");
  }
  return { type: opts.workspace.registry.findType(instance.source, "managed", name)!, instance };
}
